/**
 * What test/messages.test.ts's check must tell apart, read as text and never run: a message
 * built where it is used (caught); an option's help, an internal fault, another's words matched and a
 * word list (left alone).
 */
export const probe = {
  option: { describe: "the worksheet of a workbook input to read" },
  refuse: (path: string): string => `${path}: the sheet is not what portin reads here; give another`,
  fault: (): Error => new Error("this state cannot happen in a well-formed journal"),
  matches: (said: string): boolean => said.startsWith("Unexpected end of JSON input"),
  streetTypes: new Set(("st street ave avenue rd road " + "blvd boulevard dr drive").split(" ")),
};
