/**
 * The PortForm values a losing carrier checks against its own records (docs/contract.md §3
 * "Values the losing carrier checks"), checked on a row's whole PortForm once its cells and
 * the --defaults are merged, since a province or postal code is only right for its country.
 * What is written differently from how carriers expect it is normalised, and said so; what
 * cannot be is a problem naming the member, the value and what is accepted.
 */
import type { MemberValue } from "../catalog/members.js";
import { emailProblem } from "./email.js";
import type { Holidays, PortCalendar } from "./port-date.js";
import { holidayProblem, portDayProblem } from "./port-date.js";
import { readPostalCode } from "./postal-code.js";
import type { Country } from "./province.js";
import { readProvince } from "./province.js";

export interface CarrierVerdict {
  /** The PortForm to send: the one given when nothing was normalised. */
  readonly portForm: Record<string, MemberValue>;
  /** One per value refused, each starting with the member's label. */
  readonly problems: readonly string[];
  /** One per value normalised: `portform.CustomerProvince "Ontario" sent as "ON"`. */
  readonly notes: readonly string[];
}

/** How messages name a member: `portform.CustomerProvince` for a sheet, `portForm.CustomerProvince` for --defaults. */
export type Labeller = (member: string) => string;

const text = (value: MemberValue | undefined): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * The verdict on `portForm`'s carrier-checked values. Synchronous unless the record gives a
 * port date and the service's holidays have not been read yet.
 */
export function checkCarrierValues(portForm: Record<string, MemberValue>, calendar: PortCalendar, label: Labeller): CarrierVerdict | Promise<CarrierVerdict> {
  const problems: string[] = [];
  const notes: string[] = [];
  let out = portForm;
  const set = (member: string, given: string, value: string): void => {
    if (value === given) return;
    if (out === portForm) out = { ...portForm };
    out[member] = value;
    notes.push(`${label(member)} ${JSON.stringify(given)} sent as ${JSON.stringify(value)}`);
  };
  const countryText = text(portForm["CustomerCountry"]);
  const country: Country | undefined = countryText === "CA" || countryText === "US" ? countryText : undefined;

  const province = text(portForm["CustomerProvince"]);
  if (province !== undefined) {
    const read = readProvince(province, country);
    if (read.ok) set("CustomerProvince", province, read.code);
    else problems.push(`${label("CustomerProvince")} ${read.reason}`);
  }
  const postal = text(portForm["CustomerPostalCode"]);
  if (postal !== undefined) {
    const read = readPostalCode(postal, country);
    if (read.ok) set("CustomerPostalCode", postal, read.value);
    else problems.push(`${label("CustomerPostalCode")} ${read.reason}`);
  }
  const email = text(portForm["EmailAddress"]);
  const emailWrong = email === undefined ? null : emailProblem(email);
  if (emailWrong !== null) problems.push(`${label("EmailAddress")} ${emailWrong}`);
  const more = portForm["AdditionalEmailAddresses"];
  if (Array.isArray(more)) {
    for (const address of more) {
      const wrong = typeof address === "string" ? emailProblem(address) : null;
      if (wrong !== null) problems.push(`${label("AdditionalEmailAddresses")} ${wrong}`);
    }
  }

  const date = text(portForm["RequestedPortDate"]);
  const verdict = (): CarrierVerdict => ({ portForm: out, problems, notes });
  if (date === undefined) return verdict();
  const dayWrong = portDayProblem(date, calendar.today);
  if (dayWrong !== null) {
    problems.push(`${label("RequestedPortDate")} ${dayWrong}`);
    return verdict();
  }
  const withHolidays = (holidays: Holidays): CarrierVerdict => {
    const holiday = holidayProblem(date, holidays);
    if (holiday !== null) problems.push(`${label("RequestedPortDate")} ${holiday}`);
    return verdict();
  };
  const holidays = calendar.holidays();
  return holidays instanceof Promise ? holidays.then(withHolidays) : withHolidays(holidays);
}
