/**
 * A letter's file name, after its customer and account (docs/contract.md §2): `Acme
 * Plumbing - ACME-1.pdf`. Names are made to travel (e-mail, a customer's Windows share): no
 * character a file system refuses, accents kept only as their letters. Two groups that would
 * share a name (one account at two carriers) are told apart by their carrier, then a number.
 */
import type { LetterContent } from "../group/letters.js";

/** Long enough for a company's full name and account; short of any file system's limit. */
const MAX_PART = 80;

/** Characters Windows, macOS or Linux refuse in a name, control characters, and `;`, which separates a `File…` cell's paths (docs/contract.md §3). */
function part(text: string): string {
  const plain = text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[<>:"/\\|?*;]+|\p{Cc}+/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    // Windows drops a trailing dot or space; a leading dot hides the file.
    .replace(/^[.\s]+|[.\s]+$/g, "");
  return plain.slice(0, MAX_PART).trim();
}

/** One file name per letter, in order; each unique whatever the case (macOS and Windows ignore it). */
export function letterFileNames(letters: readonly LetterContent[]): string[] {
  const base = (letter: LetterContent): string => [part(letter.customer) || "customer", part(letter.account)].filter((p) => p !== "").join(" - ");
  const counts = new Map<string, number>();
  for (const letter of letters) counts.set(base(letter).toLowerCase(), (counts.get(base(letter).toLowerCase()) ?? 0) + 1);
  const taken = new Set<string>();
  return letters.map((letter) => {
    let name = base(letter);
    if ((counts.get(name.toLowerCase()) ?? 0) > 1 && part(letter.carrier) !== "") name = `${name} - ${part(letter.carrier)}`;
    let unique = name;
    for (let n = 2; taken.has(unique.toLowerCase()); n++) unique = `${name} (${n})`;
    taken.add(unique.toLowerCase());
    return `${unique}.pdf`;
  });
}
