/**
 * Row validation (docs/contract.md §3 "Values" and the `invalid` rules): a SheetRow becomes a ValidRow
 * ready for planning, or an InvalidRow with one line saying why. A bad row is data, never
 * an exception. What to do with each column is worked out once from the layout, so a
 * million rows cost a table walk each.
 */
import type { Column, SheetLayout, SheetRow } from "../input/types.js";
import type { NumberKind, Operation, Route } from "../catalog/operations.js";
import { describeOperation, isOfferingType, OPERATIONS } from "../catalog/operations.js";
import type { ExtraDetail, MemberInfo, Members, MemberValue } from "../catalog/members.js";
import { findMember } from "../catalog/members.js";
import type { Offering } from "../catalog/account.js";
import { closestNames } from "../closest.js";
import type { ConvertEnv, Converted, Converter } from "./convert.js";
import { converterFor } from "./convert.js";
import type { AttachmentFolder, ReadFile } from "./files.js";
import { attachmentBytes, createFileAttacher, hasAttachments, MAX_ROW_ATTACHMENT_BYTES, mebibytes } from "./files.js";
import { STDIN_SOURCE } from "../input/sheet.js";
import type { CheckedRow, Defaults, InvalidRow, Lookups, ValidRow } from "./types.js";
import { parseNanp } from "./nanp.js";
import { ADDRESS_MEMBERS, splitAddress } from "./address.js";
import { TakenNumbers, textHash } from "./taken.js";
import { rangeHint } from "./ranges.js";
import type { Records, Requirement, Section } from "./rules.js";
import { defaultsFor, labelOf, refusalOf, requirementsOf, routeTable, SECTION_OF } from "./rules.js";
import type { CarrierVerdict } from "./carrier-ready.js";
import { checkCarrierValues } from "./carrier-ready.js";
import type { PortCalendar } from "./port-date.js";
import { easternToday, NO_HOLIDAYS } from "./port-date.js";

const NO_MEMBERS: Record<string, MemberValue> = Object.freeze({});

export interface ValidatorContext {
  readonly layout: SheetLayout;
  readonly lookups: Lookups;
  readonly defaults: Defaults;
  /** Reads `portform.File…` attachments (default: node:fs); a seam for tests to count reads. */
  readonly readFile?: ReadFile;
  /**
   * Today and the service's holidays, for `RequestedPortDate` (docs/contract.md §3); default:
   * today in Eastern time and no holidays known (a run passes the service's, engine/prepare.ts).
   */
  readonly calendar?: PortCalendar;
}

export interface Validator {
  /** Rows may be checked concurrently; duplicates are still decided in the order of the calls. */
  check(row: SheetRow): Promise<CheckedRow>;
  /**
   * Rows `check` found valid that a later row with the same number but another target or
   * PortForm contradicts: index -> the reason they are invalid after all. Complete once every
   * row has been checked.
   */
  overruled(): ReadonlyMap<number, string>;
}

interface MemberColumn {
  readonly index: number;
  readonly member: MemberInfo;
  readonly section: Section;
  /** `portform.CustomerName`: the prefix and the member's own spelling. */
  readonly label: string;
  readonly convert: Converter;
  /** Why an operation cannot send this member; absent when it can. */
  readonly refusals: ReadonlyMap<Operation, string>;
}

/** A message lists the account's trunks when there are this few; beyond, it points at `portin trunks`. */
const TRUNKS_LISTED_AT_MOST = 5;

/**
 * Distinct member records kept for sharing (per kind: PortForm+request, item). A sheet states
 * the same customer on thousands of rows, so rows share one record object each instead of
 * holding a copy; a sheet whose every row differs stops filling the cache here.
 */
const SHARED_RECORDS_AT_MOST = 10_000;

/** A row's PortForm and request records, shared by the rows that state them, with the requirements they leave unmet. */
interface SharedRecords {
  readonly portForm: Record<string, MemberValue>;
  readonly request: Record<string, MemberValue>;
  /** Labels of the PortForm and request requirements these records miss; null when none. */
  readonly missing: readonly string[] | null;
  /** The PortForm's values a carrier would dispute (carrier-ready.ts); null when none. */
  readonly disputed: string | null;
  /** What was normalised for the carrier, for the row's results message; null when nothing. */
  readonly notes: string | null;
}

/** A row's item record, shared like SharedRecords. */
interface ItemRecord {
  readonly item: Record<string, MemberValue>;
  /** Labels of the item requirements it misses; null when none. */
  readonly missing: readonly string[] | null;
}

/**
 * What one operation needs, worked out once, and the records rows under it have stated.
 * The caches are per operation: the same cells convert differently (defaults, refusals) under
 * another one.
 */
interface PerOperation {
  readonly defaults: Records;
  /** Requirements on the PortForm and request: met or not by a SharedRecords as a whole. */
  readonly sharedRequirements: readonly Requirement[];
  readonly itemRequirements: readonly Requirement[];
  readonly shared: Map<string, SharedRecords>;
  readonly items: Map<string, ItemRecord>;
}

function cellOf(cells: readonly string[], index: number): string {
  const raw = cells[index];
  return raw === undefined || raw === "" ? "" : raw.trim();
}

const quote = (text: string): string => JSON.stringify(text);
const portFormLabel = (member: string): string => `portform.${member}`;

/**
 * Where a sheet's `File…` paths must lie: the sheet's folder. Standard input has no folder,
 * so its sheet may attach files inside the current directory only (README, Security).
 */
function attachmentFolder(layout: SheetLayout): AttachmentFolder {
  if (layout.source === STDIN_SOURCE) {
    return { dir: layout.baseDir, name: "the current directory", why: "as the sheet comes from standard input, which has no folder" };
  }
  return { dir: layout.baseDir, name: "the sheet's folder" };
}

export function createValidator(context: ValidatorContext): Validator {
  const { layout, lookups, defaults } = context;
  const calendar: PortCalendar = context.calendar ?? { today: easternToday(), holidays: () => NO_HOLIDAYS };
  const env: ConvertEnv = { providers: lookups.providers, files: createFileAttacher(attachmentFolder(layout), context.readFile) };

  // --- the dispatch table, built once from the header -----------------------------------
  const firstOf = (kind: Column["role"]["kind"]): number => layout.columns.find((c) => c.role.kind === kind)?.index ?? -1;
  const numberAt = firstOf("number");
  const pilotAt = firstOf("pilot");
  const offeringAt = firstOf("offering");
  const groupAt = firstOf("group");
  const memberColumns: MemberColumn[] = [];
  // A split address's parts are cells appended after the row's own, one a member (address.ts).
  const addressAt = firstOf("address");
  const addressColumn = layout.columns[addressAt];
  const width = layout.header.length;
  if (addressAt >= 0) {
    ADDRESS_MEMBERS.forEach((name, k) => {
      const member = findMember("portform", name);
      if (member !== undefined) memberColumns.push(memberColumn(width + k, member));
    });
  }
  /** The row's cells with its split address's parts after them, or why the address cannot be split. */
  function withAddress(cells: readonly string[]): { cells: readonly string[]; problem?: string } {
    if (addressAt < 0) return { cells };
    const text = cellOf(cells, addressAt);
    if (text === "") return { cells: [...cells, ...ADDRESS_MEMBERS.map(() => "")] };
    const split = splitAddress(text);
    if (!split.ok) return { cells: [...cells, ...ADDRESS_MEMBERS.map(() => "")], problem: `${addressColumn?.header.trim() ?? "address"} ${split.reason}` };
    return { cells: [...cells, ...ADDRESS_MEMBERS.map((name) => split.parts[name])] };
  }
  const extraColumns: { readonly index: number; readonly key: string }[] = [];
  for (const column of layout.columns) {
    const role = column.role;
    if (role.kind === "extraDetail") extraColumns.push({ index: column.index, key: role.key });
    if (role.kind !== "member") continue;
    memberColumns.push(memberColumn(column.index, role.member));
  }
  function memberColumn(index: number, member: MemberInfo): MemberColumn {
    const refusals = new Map<Operation, string>();
    for (const op of OPERATIONS) {
      const refusal = refusalOf(member, op);
      if (refusal !== undefined) refusals.set(op, refusal);
    }
    return { index, member, section: SECTION_OF[member.scope], label: labelOf(member), convert: converterFor(member.type, env), refusals };
  }
  // Which cells decide a row's PortForm and request records, and which its item record.
  const sharedAt = [
    ...memberColumns.filter((c) => c.section !== "item").map((c) => c.index),
    ...extraColumns.map((c) => c.index),
  ];
  const itemColumns = memberColumns.filter((c) => c.section === "item");
  const itemAt = itemColumns.map((c) => c.index);
  const perOperation = new Map<Operation, PerOperation>(
    OPERATIONS.map((op) => {
      const requirements = requirementsOf(op);
      return [
        op,
        {
          defaults: defaultsFor(defaults, op),
          sharedRequirements: requirements.filter((r) => r.section !== "item"),
          itemRequirements: requirements.filter((r) => r.section === "item"),
          shared: new Map(),
          items: new Map(),
        },
      ];
    }),
  );
  // Records kept for sharing, over all operations (SHARED_RECORDS_AT_MOST).
  let sharedKept = 0;
  let itemsKept = 0;
  const route = routeTable();
  // Only sheets that attach files pay for adding up attachments, once per shared PortForm record.
  const mayAttach = memberColumns.some((c) => c.member.type === "files") || hasAttachments(defaults.portForm);
  const attachmentTotals = new WeakMap<object, number>();

  // --- lookups, indexed once -------------------------------------------------------------
  const trunkNumbers = new Set(lookups.trunks.map((t) => t.pilotNumber));
  const trunkList =
    lookups.trunks.length === 0
      ? "the account has no SIP trunks"
      : lookups.trunks.length <= TRUNKS_LISTED_AT_MOST
        ? `the account's trunks: ${lookups.trunks.map((t) => t.pilotNumber).join(", ")}`
        : `the account has ${lookups.trunks.length}`;
  const pilots = new Map<string, { ok: true; digits: string } | { ok: false; reason: string }>();
  function resolvePilot(text: string): { ok: true; digits: string } | { ok: false; reason: string } {
    let found = pilots.get(text);
    if (found === undefined) {
      const parsed = parseNanp(text);
      if (!parsed.ok) found = { ok: false, reason: `pilot_number ${parsed.reason}` };
      else if (!trunkNumbers.has(parsed.digits)) {
        found = { ok: false, reason: `pilot number ${parsed.digits} is not one of the account's SIP trunks (${trunkList}); run "portin trunks" to list them` };
      } else found = { ok: true, digits: parsed.digits };
      pilots.set(text, found);
    }
    return found;
  }
  const offeringsById = new Map(lookups.offerings.map((o) => [o.offeringId, o]));
  const offeringsByLowerId = new Map<string, Offering[]>();
  for (const offering of lookups.offerings) {
    const key = offering.offeringId.toLowerCase();
    offeringsByLowerId.set(key, [...(offeringsByLowerId.get(key) ?? []), offering]);
  }
  // Each distinct offering cell is resolved once: "did you mean" costs an edit distance per offering.
  const offeringCells = new Map<string, Offering | string>();
  function findOffering(text: string): Offering | string {
    let found = offeringCells.get(text);
    if (found === undefined) {
      found = resolveOffering(text);
      offeringCells.set(text, found);
    }
    return found;
  }
  function resolveOffering(text: string): Offering | string {
    const exact = offeringsById.get(text);
    if (exact) return exact;
    const loose = offeringsByLowerId.get(text.toLowerCase()) ?? [];
    if (loose.length === 1 && loose[0]) return loose[0];
    const [near] = closestNames(text, lookups.offerings.map((o) => o.offeringId));
    const hint = near === undefined ? "" : ` (closest: ${near})`;
    return `offering_id ${quote(text)} is not one of the account's offerings${hint}; run "portin offerings" to list them`;
  }

  // --- per row --------------------------------------------------------------------------
  /** A member cell whose conversion answers later (a file being read). */
  interface Waiting {
    readonly column: MemberColumn;
    readonly result: Promise<Converted>;
  }

  /** A row that has passed every check but the duplicate one: only its number's first row may keep it (finish). */
  type Pending = ValidRow;

  const invalid = (row: Pick<SheetRow, "index" | "line">, reason: string, digits = "", kind: NumberKind | null = null, operation: Operation | null = null): InvalidRow => ({
    valid: false,
    index: row.index,
    line: row.line,
    number: digits,
    numberKind: kind,
    operation,
    reason,
  });

  /** Everything but duplicates; a Promise only when the row names files. */
  function evaluate(row: SheetRow): InvalidRow | Pending | Promise<InvalidRow | Pending> {
    const given = row.cells;
    const numberText = cellOf(given, numberAt);
    const parsed = numberText === "" ? null : parseNanp(numberText);
    if (given.length !== width) {
      // The results still name the number (docs/contract.md §6 result_number) when its cell parses.
      const fields = `has ${given.length} field${given.length === 1 ? "" : "s"}, the header has ${width}`;
      return parsed?.ok === true ? invalid(row, fields, parsed.digits, parsed.kind) : invalid(row, fields);
    }
    // A cell the reader could not use where it is sent (a workbook's error value, a mangled number).
    if (row.problem !== undefined) return parsed?.ok === true ? invalid(row, row.problem, parsed.digits, parsed.kind) : invalid(row, row.problem);
    if (parsed === null) return invalid(row, "the number is empty: every row needs the number to port");
    if (!parsed.ok) return invalid(row, rangeHint(numberText) ?? parsed.reason);
    const { digits, kind } = parsed;
    const { cells, problem } = withAddress(given);
    if (problem !== undefined) return invalid(row, problem, digits, kind);

    const pilotText = cellOf(cells, pilotAt);
    const offeringText = cellOf(cells, offeringAt);
    if (pilotText === "" && offeringText === "") {
      return invalid(row, "no target: fill pilot_number (a SIP trunk) or offering_id (a telephone offering)", digits, kind);
    }
    if (pilotText !== "" && offeringText !== "") {
      return invalid(row, `two targets: pilot_number ${quote(pilotText)} and offering_id ${quote(offeringText)} are both filled; keep one`, digits, kind);
    }
    let target: string;
    let routed: Route;
    if (pilotText !== "") {
      const pilot = resolvePilot(pilotText);
      if (!pilot.ok) return invalid(row, pilot.reason, digits, kind);
      target = pilot.digits;
      routed = route(null, kind);
    } else {
      const offering = findOffering(offeringText);
      if (typeof offering === "string") return invalid(row, offering, digits, kind);
      if (!isOfferingType(offering.type)) {
        return invalid(row, `offering ${quote(offering.offeringId)} has Type ${offering.type}, outside 1..7: portin cannot port onto it`, digits, kind);
      }
      target = offering.offeringId;
      routed = route(offering.type, kind);
    }
    if (!routed.ok) return invalid(row, `${digits}: ${routed.reason}`, digits, kind);
    const operation = routed.operation;
    const plan = perOperation.get(operation);
    if (plan === undefined) return invalid(row, `no plan for ${describeOperation(operation)}`, digits, kind, operation);

    // The same cells under the same operation convert to the same records: rows whose
    // PortForm and request cells were seen before share those records and convert only their
    // item cells. Only records from rows whose every member cell converted are remembered, so
    // a row that meets one reports its first bad cell exactly as a row converted in full would.
    const sharedKey = cacheKey(sharedAt, cells);
    const shared = plan.shared.get(sharedKey);
    if (shared !== undefined) {
      const itemKey = cacheKey(itemAt, cells);
      let item = plan.items.get(itemKey);
      if (item === undefined) {
        const built = convertItem(row, cells, plan, digits, kind, operation);
        if (built === null) return convertAll(row, cells, plan, digits, kind, operation, target, sharedKey);
        if ("reason" in built) return built;
        item = rememberItem(plan, itemKey, built.item);
      }
      return complete(row, digits, kind, operation, target, cellOf(cells, groupAt), shared, item);
    }
    return convertAll(row, cells, plan, digits, kind, operation, target, sharedKey);
  }

  /**
   * The trimmed cells at `indexes` as one key. Length-prefixed, so no cell's text, NUL
   * included, can make two rows' keys meet; a lone cell is its own key, and no cells (a
   * sheet without item columns) the empty one. The operation is not in the key: each
   * operation has caches of its own.
   */
  function cacheKey(indexes: readonly number[], cells: readonly string[]): string {
    if (indexes.length === 1) return cellOf(cells, indexes[0] as number);
    let key = "";
    for (const index of indexes) {
      const cell = cellOf(cells, index);
      key += `${cell.length}:${cell}`;
    }
    return key;
  }

  /** The records rows with these cells share from now on (frozen: nothing may change them), or these once the cache is full. */
  function rememberShared(plan: PerOperation, key: string, verdict: CarrierVerdict, request: Record<string, MemberValue>): SharedRecords {
    const known = plan.shared.get(key);
    if (known !== undefined) return known;
    const portForm = verdict.portForm;
    const records: SharedRecords = {
      portForm: Object.freeze(portForm),
      request: Object.freeze(request),
      missing: missingFrom(plan.sharedRequirements, portForm, request, null),
      disputed: verdict.problems.length === 0 ? null : verdict.problems.join("; "),
      notes: verdict.notes.length === 0 ? null : verdict.notes.join("; "),
    };
    if (sharedKept >= SHARED_RECORDS_AT_MOST) return records;
    sharedKept++;
    plan.shared.set(key, records);
    return records;
  }

  function rememberItem(plan: PerOperation, key: string, item: Record<string, MemberValue>): ItemRecord {
    const known = plan.items.get(key);
    if (known !== undefined) return known;
    const missing = missingFrom(plan.itemRequirements, null, null, item);
    if (itemsKept >= SHARED_RECORDS_AT_MOST) return { item, missing };
    itemsKept++;
    const record: ItemRecord = { item: Object.freeze(item), missing };
    plan.items.set(key, record);
    return record;
  }

  /** The item record alone; null when a converter answers later (then the row is converted in full). */
  function convertItem(
    row: SheetRow,
    cells: readonly string[],
    plan: PerOperation,
    digits: string,
    kind: NumberKind,
    operation: Operation,
  ): { readonly item: Record<string, MemberValue> } | InvalidRow | null {
    // Item columns store into `item` alone: the other sections can be one shared, frozen record.
    const records: Records = { portForm: NO_MEMBERS, request: NO_MEMBERS, item: { ...plan.defaults.item } };
    const outcome = convertCells(row, cells, itemColumns, records, digits, kind, operation);
    if (outcome === null) return { item: records.item };
    return Array.isArray(outcome) ? null : outcome;
  }

  /**
   * Converts `columns`' cells into `records`, in column order. Returns the row's first bad
   * cell, or the conversions still under way (file reads), or null when every cell is stored.
   */
  function convertCells(
    row: SheetRow,
    cells: readonly string[],
    columns: readonly MemberColumn[],
    records: Records,
    digits: string,
    kind: NumberKind,
    operation: Operation,
  ): InvalidRow | Waiting[] | null {
    let waiting: Waiting[] | null = null;
    for (const column of columns) {
      const text = cellOf(cells, column.index);
      if (text === "") continue;
      const refusal = column.refusals.get(operation);
      if (refusal !== undefined) return invalid(row, refusal, digits, kind, operation);
      const result = column.convert(text);
      if (result instanceof Promise) {
        (waiting ??= []).push({ column, result });
        continue;
      }
      if (!result.ok) return invalid(row, `${column.label} ${result.reason}`, digits, kind, operation);
      store(records, column, result.value);
    }
    return waiting;
  }

  /** Every member cell in column order, so that the first bad cell is the one reported. */
  function convertAll(
    row: SheetRow,
    cells: readonly string[],
    plan: PerOperation,
    digits: string,
    kind: NumberKind,
    operation: Operation,
    target: string,
    sharedKey: string,
  ): InvalidRow | Pending | Promise<InvalidRow | Pending> {
    const records: Records = { portForm: { ...plan.defaults.portForm }, request: { ...plan.defaults.request }, item: { ...plan.defaults.item } };
    const waiting = convertCells(row, cells, memberColumns, records, digits, kind, operation);
    if (waiting !== null && !Array.isArray(waiting)) return waiting;
    if (extraColumns.length > 0) mergeExtraDetails(records.portForm, cells);
    const group = cellOf(cells, groupAt);
    const withVerdict = (verdict: CarrierVerdict): InvalidRow | Pending => {
      const shared = rememberShared(plan, sharedKey, verdict, records.request);
      const item = rememberItem(plan, cacheKey(itemAt, cells), records.item);
      return complete(row, digits, kind, operation, target, group, shared, item);
    };
    // A PortForm is judged as the carrier will see it, defaults merged, once per distinct record.
    const converted = (): InvalidRow | Pending | Promise<InvalidRow | Pending> => {
      const verdict = checkCarrierValues(records.portForm, calendar, portFormLabel);
      return verdict instanceof Promise ? verdict.then(withVerdict) : withVerdict(verdict);
    };
    if (waiting === null) return converted();
    const columns = waiting;
    return Promise.all(columns.map((w) => w.result)).then((results) => {
      for (let i = 0; i < results.length; i++) {
        const result = results[i];
        const column = columns[i]?.column;
        if (result === undefined || column === undefined) continue;
        if (!result.ok) return invalid(row, `${column.label} ${result.reason}`, digits, kind, operation);
        store(records, column, result.value);
      }
      return converted();
    });
  }

  function store(records: Records, column: MemberColumn, value: MemberValue): void {
    // An empty list (a cell of only separators) leaves the member out, like an empty cell.
    if (Array.isArray(value) && value.length === 0) return;
    records[column.section][column.member.name] = value;
  }

  /** `portform.ExtraDetails.<Key>` cells, in column order, over any defaults with the same Key. */
  function mergeExtraDetails(portForm: Record<string, MemberValue>, cells: readonly string[]): void {
    let details: ExtraDetail[] | null = null;
    for (const column of extraColumns) {
      const value = cellOf(cells, column.index);
      if (value === "") continue;
      details ??= [...((portForm["ExtraDetails"] as readonly ExtraDetail[] | undefined) ?? [])];
      const at = details.findIndex((d) => d.Key === column.key);
      if (at >= 0) details[at] = { Key: column.key, Value: value };
      else details.push({ Key: column.key, Value: value });
    }
    if (details !== null) portForm["ExtraDetails"] = details;
  }

  /**
   * The row, or why it is incomplete. What a record misses was worked out once, when it was
   * first remembered: many rows share it. Item requirements come last in requirementsOf, so
   * the PortForm and request labels, then the item labels, are the order the message has
   * always had.
   */
  function complete(
    row: SheetRow,
    digits: string,
    kind: NumberKind,
    operation: Operation,
    target: string,
    group: string,
    shared: SharedRecords,
    item: ItemRecord,
  ): InvalidRow | Pending {
    if (shared.disputed !== null) return invalid(row, shared.disputed, digits, kind, operation);
    if (shared.missing === null && item.missing === null) {
      return checkAttachmentTotal({
        valid: true,
        index: row.index,
        line: row.line,
        number: digits,
        numberKind: kind,
        operation,
        target,
        group,
        portForm: shared.portForm,
        request: shared.request,
        item: item.item,
        ...(shared.notes === null ? {} : { notes: shared.notes }),
      });
    }
    const missing = [...(shared.missing ?? []), ...(item.missing ?? [])];
    const them = missing.length === 1 ? "it" : "them";
    return invalid(row, `missing ${missing.join(", ")} (fill the column or set ${them} in --defaults)`, digits, kind, operation);
  }

  /** Labels of the requirements the records leave unmet, in requirement order; null when every one is met. */
  function missingFrom(
    requirements: readonly Requirement[],
    portForm: Record<string, MemberValue> | null,
    request: Record<string, MemberValue> | null,
    item: Record<string, MemberValue> | null,
  ): readonly string[] | null {
    const records = { portForm, request, item };
    let missing: string[] | null = null;
    for (const requirement of requirements) {
      const record = records[requirement.section];
      if (!requirement.anyOf.some((name) => record?.[name] !== undefined)) (missing ??= []).push(requirement.label);
    }
    return missing;
  }

  /** One request carries its rows' shared attachments in one body: their total is bounded too. */
  function checkAttachmentTotal(pending: Pending): InvalidRow | Pending {
    if (!mayAttach) return pending;
    const form = pending.portForm;
    let bytes = attachmentTotals.get(form);
    if (bytes === undefined) {
      bytes = attachmentBytes(form);
      attachmentTotals.set(form, bytes);
    }
    if (bytes <= MAX_ROW_ATTACHMENT_BYTES) return pending;
    return invalid(
      pending,
      `the row's attachments come to ${mebibytes(bytes)}, over the ${mebibytes(MAX_ROW_ATTACHMENT_BYTES)} portin sends in one request: send smaller scans`,
      pending.number,
      pending.numberKind,
      pending.operation,
    );
  }

  // --- every problem of an invalid row ----------------------------------------------------
  /**
   * An invalid row's message names every problem of the row, not only the first (docs/contract.md §3):
   * a user fixing a sheet should not need a run per mistake. Worked out again, in full, only
   * for rows the fast path above found invalid, so valid rows cost nothing more. A ragged
   * row's cells are out of line with the header: its field count is its one problem.
   */
  function everyProblem(row: SheetRow, first: InvalidRow): InvalidRow | Promise<InvalidRow> {
    // A cell the reader could not use (a workbook's `Numbers!A5`) is named by the reader, with the cell.
    if (row.cells.length !== width || row.problem !== undefined) return first;
    const problems: string[] = [];
    const { cells, problem } = withAddress(row.cells);
    if (problem !== undefined) problems.push(problem);
    const numberText = cellOf(cells, numberAt);
    const parsed = numberText === "" ? null : parseNanp(numberText);
    if (parsed === null) problems.push("the number is empty: every row needs the number to port");
    else if (!parsed.ok) problems.push(rangeHint(numberText) ?? parsed.reason);
    const digits = parsed?.ok === true ? parsed.digits : "";
    const kind = parsed?.ok === true ? parsed.kind : null;

    let operation: Operation | null = null;
    const pilotText = cellOf(cells, pilotAt);
    const offeringText = cellOf(cells, offeringAt);
    if (pilotText === "" && offeringText === "") problems.push("no target: fill pilot_number (a SIP trunk) or offering_id (a telephone offering)");
    else if (pilotText !== "" && offeringText !== "") {
      problems.push(`two targets: pilot_number ${quote(pilotText)} and offering_id ${quote(offeringText)} are both filled; keep one`);
    } else if (pilotText !== "") {
      const pilot = resolvePilot(pilotText);
      if (!pilot.ok) problems.push(pilot.reason);
      else if (kind !== null) operation = routeOrProblem(route(null, kind), digits, problems);
    } else {
      const offering = findOffering(offeringText);
      if (typeof offering === "string") problems.push(offering);
      else if (!isOfferingType(offering.type)) {
        problems.push(`offering ${quote(offering.offeringId)} has Type ${offering.type}, outside 1..7: portin cannot port onto it`);
      } else if (kind !== null) operation = routeOrProblem(route(offering.type, kind), digits, problems);
    }

    const plan = operation === null ? undefined : perOperation.get(operation);
    const records: Records = plan
      ? { portForm: { ...plan.defaults.portForm }, request: { ...plan.defaults.request }, item: { ...plan.defaults.item } }
      : { portForm: {}, request: {}, item: {} };
    const converted: { column: MemberColumn; result: Converted | Promise<Converted> }[] = [];
    for (const column of memberColumns) {
      const text = cellOf(cells, column.index);
      if (text === "") continue;
      const refusal = operation === null ? undefined : column.refusals.get(operation);
      if (refusal !== undefined) problems.push(refusal);
      else converted.push({ column, result: column.convert(text) });
    }
    const finish = (results: readonly Converted[]): InvalidRow | Promise<InvalidRow> => {
      results.forEach((result, i) => {
        const column = converted[i]?.column;
        if (column === undefined) return;
        if (result.ok) {
          store(records, column, result.value);
          return;
        }
        problems.push(`${column.label} ${result.reason}`);
        // A member given but wrong is not also missing.
        records[column.section][column.member.name] = true;
      });
      const verdict = checkCarrierValues(records.portForm, calendar, portFormLabel);
      return verdict instanceof Promise ? verdict.then(withDisputes) : withDisputes(verdict);
    };
    const withDisputes = (verdict: CarrierVerdict): InvalidRow => {
      problems.push(...verdict.problems);
      if (plan !== undefined) {
        const missing = [...plan.sharedRequirements, ...plan.itemRequirements]
          .filter((r) => !r.anyOf.some((name) => records[r.section][name] !== undefined))
          .map((r) => r.label);
        if (missing.length > 0) problems.push(`missing ${missing.join(", ")} (fill the column or set ${missing.length === 1 ? "it" : "them"} in --defaults)`);
      }
      // Found by the fast path but not here cannot happen; keep its reason rather than none.
      if (problems.length === 0) return first;
      return invalid(row, problems.join("; "), digits, kind, operation ?? first.operation);
    };
    if (!converted.some((c) => c.result instanceof Promise)) return finish(converted.map((c) => c.result as Converted));
    return Promise.all(converted.map((c) => Promise.resolve(c.result))).then(finish);
  }

  function routeOrProblem(routed: Route, digits: string, problems: string[]): Operation | null {
    if (routed.ok) return routed.operation;
    problems.push(`${digits}: ${routed.reason}`);
    return null;
  }

  /** The fast path, then every problem of a row it finds invalid. */
  function evaluateFully(row: SheetRow): InvalidRow | Pending | Promise<InvalidRow | Pending> {
    const outcome = evaluate(row);
    if (outcome instanceof Promise) return outcome.then((settled) => (settled.valid ? settled : everyProblem(row, settled)));
    return outcome.valid ? outcome : everyProblem(row, outcome);
  }

  // --- duplicates, decided in call order ---------------------------------------------------
  const taken = new TakenNumbers();
  // Rows share their PortForm record (SHARED_RECORDS_AT_MOST): hashed once per record.
  const formHashes = new WeakMap<Members, number>();
  const formHashOf = (form: Members): number => {
    let h = formHashes.get(form);
    if (h === undefined) formHashes.set(form, (h = textHash(JSON.stringify(form))));
    return h;
  };
  /** Earlier rows a later row with the same number contradicts: index -> reason (docs/contract.md §3). */
  const overruled = new Map<number, string>();
  function finish(outcome: InvalidRow | Pending): CheckedRow {
    if (!outcome.valid) return outcome;
    const mine = { line: outcome.line, index: outcome.index, targetHash: textHash(outcome.target), formHash: formHashOf(outcome.portForm) };
    const earlier = taken.take(outcome.number, mine);
    if (earlier === null) return outcome;
    const { number, numberKind, operation } = outcome;
    const differs = [earlier.targetHash !== mine.targetHash ? "target" : "", earlier.formHash !== mine.formHash ? "PortForm" : ""].filter((d) => d !== "").join(" and ");
    if (differs === "") return invalid(outcome, `duplicate of row ${earlier.line} (${number})`, number, numberKind, operation);
    // Which of two contradicting rows is right, portin cannot know: neither is sent.
    const why = (other: number): string => `number ${number} is also on row ${other} with a different ${differs}: portin cannot know which row is right; correct or remove one of them`;
    if (!overruled.has(earlier.index)) overruled.set(earlier.index, why(outcome.line));
    return invalid(outcome, why(earlier.line), number, numberKind, operation);
  }

  // Rows naming files wait for their reads; later rows queue behind them so that "the
  // earlier valid row" of a duplicate is always the earlier call.
  let tail: Promise<unknown> | null = null;
  return {
    overruled: () => overruled,
    check(row) {
      const outcome = evaluateFully(row);
      if (tail === null && !(outcome instanceof Promise)) return Promise.resolve(finish(outcome));
      const previous: Promise<unknown> = tail ?? Promise.resolve();
      const result = previous.then(() => outcome).then(finish);
      tail = result;
      void result.finally(() => {
        if (tail === result) tail = null;
      });
      return result;
    },
  };
}
