import { join, parse } from "node:path";

/**
 * Whether a path names a workbook, `.xlsx`, `.xls` (Excel 97-2003) or `.ods` (LibreOffice):
 * read as one (docs/contract.md §3), and its results written as an `.xlsx` (§6).
 */
export function isWorkbookPath(path: string): boolean {
  return /\.(xlsx|xls|ods)$/i.test(path);
}

/** The formats results and reports are written in (docs/contract.md §2, §6), by extension. */
export type ResultsFormat = "csv" | "xlsx" | "jsonl";

/**
 * `.txt` and `.tsv` are delimited text as `.csv` is, in the input's delimiter: a tab-separated
 * `.txt` sheet's results keep its format and its extension (docs/contract.md §2 `--results`).
 */
const RESULTS_FORMATS: Readonly<Record<string, ResultsFormat>> = { ".csv": "csv", ".txt": "csv", ".tsv": "csv", ".xlsx": "xlsx", ".jsonl": "jsonl" };

/** The extension of a delimited-text input other than `.csv` (`.txt`, `.tsv`), which its results and report keep; null for any other. */
function textExtension(input: string): string | null {
  const ext = parse(input).ext;
  return /^\.(txt|tsv)$/i.test(ext) ? ext : null;
}

/** `suffix` (ending `.csv`) in the input's own format: `.xlsx` for a workbook, the input's `.txt` or `.tsv` for delimited text named so. */
function inInputFormat(input: string, suffix: string): string {
  if (isWorkbookPath(input)) return suffix.replace(/\.csv$/, ".xlsx");
  const text = textExtension(input);
  return text === null ? suffix : suffix.replace(/\.csv$/, text);
}

/** The format a results path asks for by its extension; "-" (standard output) is CSV; null for any other. */
export function resultsFormat(path: string): ResultsFormat | null {
  if (path === "-") return "csv";
  return RESULTS_FORMATS[parse(path).ext.toLowerCase()] ?? null;
}

/**
 * `<input without .csv><suffix>` beside the input (or without .xlsx, .xls, .ods): where a sheet's results,
 * journal and defaults live by default (docs/contract.md §2), so they travel with it.
 */
export function besideInput(input: string, suffix: string): string {
  const { dir, name, ext } = parse(input);
  const sheetExtension = ext.toLowerCase() === ".csv" || isWorkbookPath(ext);
  return join(dir, `${sheetExtension ? name : name + ext}${suffix}`);
}

/**
 * Which results a run writes: a real submit's, a dry run's, or a run on the built-in
 * sandbox. Each has its own file, so neither a dry run nor a sandbox run can overwrite the
 * results of a real migration (docs/contract.md §2).
 */
export type ResultsKind = "submit" | "plan" | "sandbox";

const RESULTS_SUFFIX: Readonly<Record<ResultsKind, string>> = {
  submit: ".results.csv",
  plan: ".plan.csv",
  sandbox: ".sandbox.results.csv",
};

/** The default `--results`: beside the input, named for the kind of run, in the input's format; stdout for standard input. */
export function defaultResultsPath(input: string, kind: ResultsKind): string {
  if (input === "-") return "-";
  // A workbook's results are a workbook: `numbers.xlsx` gives `numbers.results.xlsx`; a
  // tab-separated `numbers.txt`, `numbers.txt.results.txt`, tab-separated as its rows are copied.
  return besideInput(input, inInputFormat(input, RESULTS_SUFFIX[kind]));
}

/** The default `--state`: `<input without .csv>.state.jsonl`; none for standard input. */
export function defaultStatePath(input: string): string | null {
  return input === "-" ? null : besideInput(input, ".state.jsonl");
}

/**
 * The default `portin status --output`: `<input without .csv>.status.csv` (`.status.xlsx` for a
 * workbook), or `.sandbox.status.csv` on the built-in sandbox, so that a sandbox run cannot overwrite a
 * real report; stdout for standard input.
 */
export function defaultStatusPath(input: string, sandbox: boolean): string {
  if (input === "-") return "-";
  // A workbook's report is a workbook, as its results are.
  return besideInput(input, inInputFormat(input, sandbox ? ".sandbox.status.csv" : ".status.csv"));
}
