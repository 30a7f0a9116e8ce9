/** "Did you mean" support, shared by header matching and value conversion. */
import * as commandLine from "./messages/command-line.js";

/**
 * Levenshtein distance: edits (insert, delete, substitute) from `a` to `b`. One row of the
 * table, reused: a sheet's unknown headers are each measured against every member name at
 * start-up, in code not yet optimised, where an array made per row of the table cost ~4 ms.
 */
export function distance(a: string, b: string): number {
  const row = new Uint32Array(b.length + 1);
  for (let j = 1; j <= b.length; j++) row[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const letter = a.charCodeAt(i - 1);
    // The cell up and to the left of the one being filled: row[j - 1] before this pass wrote it.
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0;
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (letter === b.charCodeAt(j - 1) ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

/** The candidates closest to `name` (case-insensitive), nearest first (ties keep candidate order); at most `limit`. */
export function closestNames(name: string, candidates: readonly string[], limit = 1): string[] {
  const wanted = name.toLowerCase();
  if (limit === 1) return nearest(wanted, candidates);
  return candidates
    .map((candidate) => ({ candidate, score: distance(wanted, candidate.toLowerCase()) }))
    .sort((x, y) => x.score - y.score)
    .slice(0, limit)
    .map((scored) => scored.candidate);
}

/**
 * The first of the nearest candidates, measuring only those that could be nearer: the
 * difference in length is edits no candidate avoids (each unknown header of a sheet is
 * measured against every member name at start-up).
 */
function nearest(wanted: string, candidates: readonly string[]): string[] {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    if (Math.abs(lower.length - wanted.length) >= bestScore) continue;
    const score = distance(wanted, lower);
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best === undefined ? [] : [best];
}

/**
 * yargs's refusal of unknown arguments ("Unknown arguments: retry-unknwon, retryUnknwon") with
 * the nearest of the command's `options` after each one that is a likely typo:
 * "Unknown argument: retry-unknwon (did you mean --retry-unknown?)". yargs's recommendCommands
 * does this for commands only. Its camelCase copies of a kebab-case name are left out.
 */
export function suggestOptions(message: string, options: readonly string[]): string {
  const listed = /^(Unknown arguments?): (.+)$/.exec(message);
  if (listed === null) return message;
  const names = (listed[2] ?? "").split(", ");
  const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const unknown = names.filter((name) => !/[A-Z]/.test(name) || !names.includes(kebab(name)));
  const known = options.filter((option) => !/[A-Z]/.test(option));
  const hinted = unknown.map((name) => {
    const [near] = closestNames(name, known);
    // A typo is an edit or two (a third for long names), not any other option.
    const close = near !== undefined && distance(name.toLowerCase(), near.toLowerCase()) <= Math.max(2, Math.floor(name.length / 5));
    return close ? commandLine.didYouMeanOption(name, near) : name;
  });
  return commandLine.unknownArguments(unknown.length, hinted.join(", "));

}
