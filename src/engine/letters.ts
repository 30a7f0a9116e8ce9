/**
 * The engine behind `portin loa` (docs/contract.md §2, "Letters of authorization"): the rows
 * read and checked as `plan` checks them, the valid ones grouped by customer, account and
 * losing carrier (group/letters.ts), and one PDF written per group. Invalid rows are in no
 * letter: the report lists them for the command to print.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { OutputError } from "../errors.js";
import type { Sheet } from "../input/reader.js";
import type { LetterContent } from "../group/letters.js";
import { letterGroups } from "../group/letters.js";
import { letterFileNames } from "../letters/file-names.js";
import { renderLetter } from "../letters/pdf.js";
import type { LetterLanguage } from "../letters/wording.js";
import { writeWholeFile } from "../results/sink.js";
import type { ServiceClient } from "../service/client.js";
import { describeSystemError } from "../system-error.js";
import type { DefaultsFile } from "../validate/defaults.js";
import type { InvalidRow, ValidRow } from "../validate/types.js";
import { prepare } from "./prepare.js";
import * as outputWords from "../messages/output.js";
import { withRangesExpanded } from "../validate/ranges.js";

export interface LettersOptions {
  readonly sheet: Sheet;
  readonly defaults: DefaultsFile | null;
  /** The folder the letters go in; made if missing. */
  readonly output: string;
  /** `--language`: every letter in this language; null: French for a group whose rows' Locale is FrenchCA, else English. */
  readonly language: LetterLanguage | null;
  readonly expandRanges?: boolean;
  /** Names portin in the letters' properties ("portin 1.2.3"). */
  readonly producer: string;
}

export interface WrittenLetter {
  readonly path: string;
  readonly content: LetterContent;
  readonly language: LetterLanguage;
}

export interface LettersReport {
  readonly letters: readonly WrittenLetter[];
  /** Rows in no letter, in input order. */
  readonly invalid: readonly InvalidRow[];
}

export async function runLetters(options: LettersOptions, client: ServiceClient): Promise<LettersReport> {
  const prepared = await prepare(options.expandRanges === true ? withRangesExpanded(options.sheet) : options.sheet, client, options.defaults, { letters: "make" });
  const valid: ValidRow[] = [];
  const invalid: InvalidRow[] = [];
  for (const row of prepared.rows) {
    if (row.valid) valid.push(row);
    else invalid.push(row);
  }
  const groups = letterGroups(valid, prepared.lookups.providers);
  const names = letterFileNames(groups.map((group) => group.content));
  if (groups.length > 0) {
    try {
      await mkdir(options.output, { recursive: true });
    } catch (error) {
      throw new OutputError(outputWords.cannotMakeLettersFolder(options.output, describeSystemError(error)), { cause: error });

    }
  }
  const letters: WrittenLetter[] = [];
  for (const [at, group] of groups.entries()) {
    const language = options.language ?? (group.content.french ? "fr" : "en");
    const path = join(options.output, names[at] as string);
    await writeWholeFile(path, await renderLetter(group.content, language, options.producer), "--output DIR");
    letters.push({ path, content: group.content, language });
  }
  return { letters, invalid };
}
