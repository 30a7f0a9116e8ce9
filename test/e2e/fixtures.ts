/**
 * The files of fixtures/ the tests read, each by name. A user's own run of the checkout
 * (the README's first command, `npx portin submit fixtures/sample.csv`) writes beside its
 * sheet: the built-in sandbox's orders, results, plans, a journal (docs/contract.md §2, "The
 * built-in sandbox between runs"). A test that copied or listed the whole folder would read
 * those and see every number "already in open order"; so a test copies only the files it
 * names here, into a folder of its own. test/e2e/first-command.test.ts runs that first
 * command in a copy of the checkout and checks it writes none of these.
 */
import { copyFile, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { PACKAGE_ROOT } from "../../src/version.js";

/** Every file under fixtures/ a test reads, by its path there; each one is tracked by git. */
export const SUITE_FIXTURES = [
  "sample.csv",
  "sample.defaults.json",
  "loa-maple-leaf-dental.pdf",
  "disputable.csv",
  "loa-session-expired.pdf",
  "cutover.csv",
  "workbooks/libreoffice-errors.xlsx",
  "workbooks/libreoffice-errors.xls",
  "workbooks/libreoffice-errors.ods",
  "workbooks/libreoffice-sample.xls",
  "workbooks/libreoffice-sample.ods",
  "workbooks/libreoffice-notes-first.xlsx",
  "workbooks/openpyxl.xlsx",
  "workbooks/pandas.xlsx",
  "workbooks/openxml-sdk-prefixed.xlsx",
  "workbooks/reordered-rels-last.xlsx",
  "workbooks/reordered-sheet-first.xlsx",
  "workbooks/reordered-strings-last.xlsx",
  "workbooks/reordered-styles-last.xlsx",
  "workbooks/reordered-workbook-last.xlsx",
  "input/encrypted.xlsx",
  "input/bom-semicolon.csv",
  "input/crlf-multiline.csv",
  "input/tab-delimited.csv",
  "input/mac-roman.csv",
  "golden/business-lines.json",
  "golden/business-permanent-call-forwards.json",
  "golden/dids.json",
  "golden/general-child-products.json",
  "golden/general-products.json",
  "golden/permanent-call-forwards.json",
  "golden/residential-lines.json",
  "golden/tollfree-dids.json",
  "golden/tollfree-permanent-call-forwards.json",
  "golden/virtual-faxes.json",
  "sandbox-account.json",
] as const;

export type SuiteFixture = (typeof SUITE_FIXTURES)[number];

/** The name of a listed fixture within one folder of fixtures/: FixtureIn<"golden"> is "dids.json" | …. */
export type FixtureIn<Folder extends string, F = SuiteFixture> = F extends `${Folder}/${infer Name}` ? Name : never;

/** The sample sheet and what a run of it reads beside it: its defaults and the letter of authorization its rows name. */
export const SAMPLE: readonly SuiteFixture[] = ["sample.csv", "sample.defaults.json", "loa-maple-leaf-dental.pdf"];

/** The sheet of values a losing carrier would dispute, and the two letters its rows name. */
export const DISPUTABLE: readonly SuiteFixture[] = ["disputable.csv", "loa-maple-leaf-dental.pdf", "loa-session-expired.pdf"];

const CHECKOUT_FIXTURES = join(PACKAGE_ROOT, "fixtures");

/** The path of one fixture in the checkout, to read or copy by name. */
export function fixture(name: SuiteFixture): string {
  return join(CHECKOUT_FIXTURES, name);
}

/**
 * Copies the named fixtures into `dir`/fixtures/, as the checkout lays them out, so that a
 * run there can be given `fixtures/sample.csv` as the README does. `from` is another folder
 * laid out as fixtures/ (first-command.test.ts gives one a user's run has written into).
 */
export async function copyFixtures(dir: string, names: readonly SuiteFixture[], from: string = CHECKOUT_FIXTURES): Promise<string> {
  for (const name of names) {
    const target = join(dir, "fixtures", name);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(join(from, name), target);
  }
  return dir;
}
