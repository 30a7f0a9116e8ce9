/**
 * Which encoding a sheet that is not UTF-8 reads as letters in (docs/input-sheet.md
 * "Encodings"): the guess a refused sheet's message names.
 */
import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import { guessEncoding } from "../../src/input/encoding-guess.js";

/** `text` as Windows-1252 bytes (its letters outside Latin-1 and typographic quotes included). */
function windows1252(text: string): Buffer {
  const special: Record<string, number> = { "’": 0x92, "“": 0x93, "”": 0x94, "–": 0x96, "€": 0x80, Ž: 0x8e };
  return Buffer.from([...text].map((c) => special[c] ?? c.charCodeAt(0)));
}

/** `text` as Mac Roman bytes, for the characters these cases use. */
function macRoman(text: string): Buffer {
  const table: Record<string, number> = { â: 0x89, ô: 0x99, é: 0x8e, è: 0x8f, ç: 0x8d, É: 0x83, "’": 0xd5, î: 0x94 };
  return Buffer.from([...text].map((c) => table[c] ?? c.charCodeAt(0)));
}

const at = (bytes: Buffer): number => bytes.findIndex((b) => b >= 0x80);

it.each([
  ["a Windows-1252 French name", windows1252("4165550101,Café Montréal,Québec\n"), "windows-1252", "4165550101,Café Montréal,Québec"],
  ["a Windows-1252 name with a typographic apostrophe and a dash", windows1252("4165550101,O’Brien – Hôtel Château\n"), "windows-1252", "4165550101,O’Brien – Hôtel Château"],
  ["a Mac Roman bakery", macRoman("4165550101,Pâtisserie Côté & Fils,Québec\n"), "macintosh", "4165550101,Pâtisserie Côté & Fils,Québec"],
  ["Mac Roman with a cedilla and an apostrophe", macRoman("4165550101,Garçon d’Été,Trois-Rivières\n"), "macintosh", "4165550101,Garçon d’Été,Trois-Rivières"],
])("reads %s as letters", (_, bytes, encoding, line) => {
  expect(guessEncoding(bytes, at(bytes))).toMatchObject({ encoding, line });
});

it("guesses nothing for bytes that are no text in any candidate", () => {
  const noise = randomBytes(4096);
  expect(guessEncoding(noise, 0)).toBeNull();
  // UTF-16 without its byte order mark: a control between every two letters.
  const utf16 = Buffer.from("4165550101,Café Montréal\n", "utf16le");
  expect(guessEncoding(utf16, at(utf16))).toBeNull();
});

it("shows a long line around its first letter outside ASCII, control characters escaped", () => {
  const bytes = windows1252(`${"x".repeat(300)},Caf\u00e9 Montr\u00e9al\u001b[2J,${"y".repeat(300)}\n`);
  const guess = guessEncoding(bytes, at(bytes));
  expect(guess?.line).toMatch(/^…x+,Café Montréal\\x1b\[2J,y+…$/);
  expect([...(guess?.line ?? "")].length).toBeLessThan(170);
});
