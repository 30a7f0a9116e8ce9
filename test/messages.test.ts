/**
 * The message catalog (src/messages/, docs/architecture.md "Messages"): every entry says what
 * it means and what the user does next, and no other module of src/ builds a sentence a user
 * reads. Both are read from the source with TypeScript's own parser, as the architecture test
 * reads imports: the rule is about the text of the code.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../src/version.js";

const SRC = join(PACKAGE_ROOT, "src");
const CATALOG = join(SRC, "messages");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

const parse = (file: string): ts.SourceFile => ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);

/** A literal of this many words or more is a sentence: "the split street address" is a phrase, not yet a message. */
const SENTENCE_WORDS = 5;

/**
 * Where sentences belong outside the catalog, each for its reason: the sandbox speaks as the
 * service, not as portin; a letter's, a page's and a workbook's own text are documents, not
 * messages.
 */
const DOCUMENTS = new Set([
  "letters/wording.ts",
  "report/page.ts",
  "report/page-script.ts",
  "report/calendar.ts",
  "results/xlsx-parts.ts",
  "commands/template-workbook.ts",
]);
const isDocument = (path: string): boolean => path.startsWith("sandbox/") || DOCUMENTS.has(path);

/**
 * Modules whose sentences are still built where they are used: each is a step of moving them
 * into the catalog still to take. The list only shrinks; a module that has none left must
 * leave it (checked below), and a new module never joins it.
 */
const NOT_YET_MOVED = new Set<string>([]);

/** yargs's help: each option's and command's own description and examples, read with the definition they describe. */
const HELP_PROPERTIES = new Set(["describe", "description", "desc", "defaultDescription", "example", "examples"]);
const HELP_CALLS = new Set(["usage", "epilogue", "completion", "demandCommand", "example", "option", "options", "positional"]);

function isHelpText(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node.parent; at !== undefined && !ts.isSourceFile(at); at = at.parent) {
    if (ts.isPropertyAssignment(at) && HELP_PROPERTIES.has(at.name.getText())) return true;
    if (ts.isCallExpression(at) && ts.isPropertyAccessExpression(at.expression) && HELP_CALLS.has(at.expression.name.text)) return true;
    // An example as a pair: ["$0 plan sheet.csv", "what it does"].
    if (ts.isArrayLiteralExpression(at)) {
      const first = at.elements[0];
      if (first !== undefined && ts.isStringLiteral(first) && first.text.startsWith("$0")) return true;
    }
  }
  return false;
}

/** Matching another's words (V8's "Unexpected end of JSON input"), not saying them. */
const MATCH_CALLS = new Set(["startsWith", "endsWith", "includes", "indexOf", "match"]);

/**
 * Text that is read, not said: another's words matched (an argument of `startsWith`, …), or a
 * word list split into a set (`"st street ave …".split(" ")`, the street types of an address).
 */
function isMatchedText(node: ts.Node): boolean {
  const call = node.parent;
  if (call !== undefined && ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression) && MATCH_CALLS.has(call.expression.name.text)) return true;
  for (let at: ts.Node = node; at.parent !== undefined && !ts.isSourceFile(at.parent); at = at.parent) {
    const parent = at.parent;
    if (ts.isPropertyAccessExpression(parent) && parent.expression === at && parent.name.text === "split") return true;
    if (!ts.isParenthesizedExpression(parent) && !ts.isBinaryExpression(parent)) return false;
  }
  return false;
}

/**
 * `new Error("...")`: a fault of portin's own, which cli.ts shows as an internal error, not a
 * message of the catalog (input/workbook-reader.ts's HandlerFailure is one: what a row's handler threw).
 */
function isInternalFault(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node.parent; at !== undefined && !ts.isSourceFile(at); at = at.parent) {
    if (ts.isNewExpression(at) && ts.isIdentifier(at.expression) && /^(Error|TypeError|RangeError|HandlerFailure)$/.test(at.expression.text)) return true;
    if (ts.isBlock(at)) return false;
  }
  return false;
}

/** SQL begins with one of these words, in capitals as portin writes it: a sentence that began "With" would not. */
const SQL_STATEMENT = /^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|WITH|DROP)\b/;

/**
 * SQL is read by the database, not said to a user: a literal that reads as a statement, or the
 * text handed to a client's `.query(...)` (whole, or in parts joined with `+`).
 */
function isSql(node: ts.Node, text: string): boolean {
  if (SQL_STATEMENT.test(text)) return true;
  let at: ts.Node = node;
  while (at.parent !== undefined && (ts.isParenthesizedExpression(at.parent) || ts.isBinaryExpression(at.parent))) at = at.parent;
  const call = at.parent;
  return call !== undefined && ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === "query" && call.arguments[0] === at;
}

const words = (text: string): number => text.split(/\s+/).filter((word) => /[A-Za-z]/.test(word)).length;

/** The literal text of each string and template in a file that reads as a sentence, with its line. */
function sentencesIn(file: string): string[] {
  const source = parse(file);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    let text: string | undefined;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
    else if (ts.isTemplateExpression(node)) text = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(" … ");
    const skip = ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword);
    if (skip) return;
    if (text !== undefined && words(text) >= SENTENCE_WORDS && !isHelpText(node) && !isInternalFault(node) && !isMatchedText(node) && !isSql(node, text)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.push(`${relative(SRC, file)}:${line}: ${text.slice(0, 100)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the message catalog", () => {
  const catalog = sources(CATALOG);

  it("says of every entry what it means and, after 'Next:', what the user does", () => {
    const bare: string[] = [];
    let entries = 0;
    for (const file of catalog) {
      const source = parse(file);
      for (const statement of source.statements) {
        const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
        if (!exported) continue;
        const names = ts.isVariableStatement(statement)
          ? statement.declarationList.declarations.map((d) => d.name.getText())
          : ts.isFunctionDeclaration(statement) && statement.name !== undefined
            ? [statement.name.text]
            : [];
        const doc = ts
          .getJSDocCommentsAndTags(ts.isVariableStatement(statement) ? statement.declarationList.declarations[0]! : statement)
          .map((comment) => (typeof comment.comment === "string" ? comment.comment : (comment.comment ?? []).map((part) => part.text).join("")))
          .join(" ");
        for (const name of names) {
          entries += 1;
          const [meaning = "", next] = doc.split("Next:");
          if (words(meaning) < 3 || next === undefined || words(next) < 1) bare.push(`${relative(SRC, file)}: ${name}`);
        }
      }
    }
    expect(entries).toBeGreaterThan(300);
    expect(bare).toEqual([]);
  });

  it("holds the sentences users read: no other module of src/ builds one", () => {
    const outside = sources(SRC)
      .filter((file) => !file.startsWith(CATALOG + "/"))
      .filter((file) => !isDocument(relative(SRC, file)) && !NOT_YET_MOVED.has(relative(SRC, file)))
      .flatMap(sentencesIn);
    expect(outside).toEqual([]);
  });

  it("lists as not yet moved only modules that still build a sentence", () => {
    const moved = [...NOT_YET_MOVED].filter((path) => sentencesIn(join(SRC, path)).length === 0);
    expect(moved).toEqual([]);
  });

  it("finds a sentence built outside it, and leaves help texts, internal faults and SQL alone", () => {
    // The check itself: a module that built a message of its own would be caught.
    expect(sentencesIn(join(PACKAGE_ROOT, "test", "support", "messages-probe.ts"))).toEqual([
      expect.stringContaining("the sheet is not what portin reads here"),
    ]);
  });
});
