/**
 * Which numbers a rejection is about (docs/contract.md §4): when the service's message names
 * some of a request's numbers ("8665550199 is not portable; 4165550101 already has a pending
 * port-in"), only those rows are rejected, each with the part of the message about it, and
 * the rest can be sent again at once: a rejected request committed nothing. Pure.
 */

/**
 * A NANP number as a message may write it: `4165550101`, `1-416-555-0101`, `(416) 555-0101`,
 * `+1 416.555.0101`. Digits either side would make it part of a longer figure.
 */
const WRITTEN_NUMBER = /(?<![\d])(?:\+?1[\s.-]?)?(?:\(\d{3}\)|\d{3})[\s.-]?\d{3}[\s.-]?\d{4}(?![\d])/g;

/** Clauses of a message: the service joins one reason per number with `;`, sentences, or lines. */
const CLAUSE_BREAK = /;|\r?\n|(?<=\.)\s+/;

/**
 * Each named number of `numbers` (10 digits) with the clauses of `message` that name it,
 * joined with "; "; null when the message names none of them, and the whole request is
 * rejected for the whole message.
 */
export function rejectionsByNumber(message: string, numbers: readonly string[]): Map<string, string> | null {
  const ours = new Set(numbers);
  const parts = new Map<string, string[]>();
  for (const raw of message.split(CLAUSE_BREAK)) {
    const clause = raw.trim();
    if (clause === "") continue;
    for (const match of clause.matchAll(WRITTEN_NUMBER)) {
      const digits = match[0].replace(/\D/g, "");
      const number = digits.length === 11 ? digits.slice(1) : digits;
      if (!ours.has(number)) continue;
      const said = parts.get(number);
      if (said === undefined) parts.set(number, [clause]);
      else if (!said.includes(clause)) said.push(clause);
    }
  }
  if (parts.size === 0) return null;
  return new Map([...parts].map(([number, clauses]) => [number, clauses.join("; ")]));
}
