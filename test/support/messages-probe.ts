/**
 * What test/messages.test.ts's check must tell apart, read as text and never run: a message
 * built where it is used (caught); an option's help, an internal fault, another's words matched, a
 * word list and SQL, a statement or the text of a `.query(...)` (left alone).
 */
export const probe = {
  option: { describe: "the worksheet of a workbook input to read" },
  refuse: (path: string): string => `${path}: the sheet is not what portin reads here; give another`,
  fault: (): Error => new Error("this state cannot happen in a well-formed journal"),
  matches: (said: string): boolean => said.startsWith("Unexpected end of JSON input"),
  streetTypes: new Set(("st street ave avenue rd road " + "blvd boulevard dr drive").split(" ")),
  statement: "SELECT id FROM portin_journals WHERE service_key = $1",
  indented: `
    WITH lock AS (SELECT pg_try_advisory_lock($1) AS taken) SELECT taken FROM lock`,
  queried: (client: { query: (text: string, values: unknown[]) => unknown }): unknown =>
    client.query("lock table portin_records in share row exclusive mode " + "nowait", []),
};
