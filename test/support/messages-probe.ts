/**
 * What test/messages.test.ts's check must tell apart, read as text and never run: a message
 * built where it is used (caught), an option's help and an internal fault (left alone).
 */
export const probe = {
  option: { describe: "the worksheet of a workbook input to read" },
  refuse: (path: string): string => `${path}: the sheet is not what portin reads here; give another`,
  fault: (): Error => new Error("this state cannot happen in a well-formed journal"),
};
