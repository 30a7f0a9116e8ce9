import type { Members } from "../../src/catalog/members.js";

/** Every member a PortForm requires (docs/contract.md §1.2): enough for a toll-free form. */
export const TOLL_FREE_PORT_FORM: Members = {
  CustomerAccountNumber: "ACME-001",
  CustomerName: "Acme Widgets Inc.",
  CustomerStreetNumber: "100",
  CustomerStreetName: "King St W",
  CustomerCity: "Toronto",
  CustomerProvince: "ON",
  CustomerPostalCode: "M5X 1A9",
  CustomerCountry: "CA",
  EmailAddress: "telecom@acme.example",
};

/** A regular form also needs its losing carrier: 17 is Bell Canada in fixtures/sandbox-account.json. */
export const PORT_FORM: Members = { ...TOLL_FREE_PORT_FORM, CurrentProvider: 17 };
