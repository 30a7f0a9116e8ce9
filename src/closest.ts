/** "Did you mean" support, shared by header matching and value conversion. */

/** Levenshtein distance: edits (insert, delete, substitute) from `a` to `b`. */
export function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The candidates closest to `name` (case-insensitive), nearest first (ties keep candidate order); at most `limit`. */
export function closestNames(name: string, candidates: readonly string[], limit = 1): string[] {
  const wanted = name.toLowerCase();
  return candidates
    .map((candidate) => ({ candidate, score: distance(wanted, candidate.toLowerCase()) }))
    .sort((x, y) => x.score - y.score)
    .slice(0, limit)
    .map((scored) => scored.candidate);
}
