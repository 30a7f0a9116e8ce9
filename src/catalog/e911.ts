/**
 * A number's 9-1-1 address (docs/contract.md §1.5, §3 `e911.<Member>` columns): the V911
 * record's address members in the service's own spelling, and which are required. portin
 * never takes them from the PortForm's billing address: the phone may be elsewhere.
 */
export const E911_MEMBERS = ["FirstName", "LastName", "StreetNumber", "StreetName", "SuiteNumber", "City", "ProvinceState", "PostalZip", "OtherInfo"] as const;
export type E911Member = (typeof E911_MEMBERS)[number];

/** Required of every record besides its `Number` (docs/contract.md §1.5). */
export const E911_REQUIRED: readonly E911Member[] = ["FirstName", "LastName", "StreetNumber", "StreetName", "City", "ProvinceState", "PostalZip"];

/** A 9-1-1 address: each member's text; an optional member left empty is absent. */
export type E911Address = Readonly<Partial<Record<E911Member, string>>>;

/** The member of this name in any case, or undefined. */
export function findE911Member(name: string): E911Member | undefined {
  const lower = name.trim().toLowerCase();
  return E911_MEMBERS.find((m) => m.toLowerCase() === lower);
}

/** One key per distinct address: two rows with this key need one Verify (docs/contract.md §2). */
export function e911Key(address: E911Address): string {
  return JSON.stringify(E911_MEMBERS.map((m) => address[m] ?? ""));
}
