/**
 * The import rule of docs/architecture.md: data flows one way, so every import in src/ points
 * at a layer below its own (or within it). A test rather than a lint rule: it reads the
 * imports as text, which is all the rule is about.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../src/version.js";

const SRC = join(PACKAGE_ROOT, "src");

/** Lowest first. Files at the top of src/ beside cli.ts are named by their own name. */
const LAYERS: readonly (readonly string[])[] = [
  ["errors", "io", "paths", "pid", "version", "closest", "system-error", "private-files", "file-kind", "terminal-text", "monotonic", "once", "messages", "number-index"],
  ["catalog"],
  ["input"],
  ["validate"],
  ["group"],
  ["service"],
  ["journal"],
  ["send"],
  ["sandbox"],
  ["results"],
  ["letters"],
  ["engine"],
  ["report"],
  ["exit-codes"],
  ["commands"],
  ["cli", "api", "launcher"],
];

function layerOf(path: string): number {
  const [first = "", second] = relative(SRC, path).split("/");
  const name = second === undefined ? first.replace(/\.ts$|\.js$/, "") : first;
  const layer = LAYERS.findIndex((names) => names.includes(name));
  if (layer === -1) throw new Error(`${relative(SRC, path)} is in no layer of docs/architecture.md`);
  return layer;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

const imports = sources(SRC).flatMap((file) =>
  [...readFileSync(file, "utf8").matchAll(/from "(\.[^"]+)"|import\("(\.[^"]+)"\)/g)].map((match) => ({
    file: relative(SRC, file),
    target: relative(SRC, resolve(dirname(file), (match[1] ?? match[2]) as string)),
    upward: layerOf(resolve(dirname(file), (match[1] ?? match[2]) as string)) > layerOf(file),
  })),
);

/**
 * Import cycles among src's files, each as the path that closes it (`a.ts -> b.ts -> a.ts`),
 * type-only and dynamic imports included: a cycle is modules that cannot be read, or moved,
 * one without the others. Depth-first: each import back into the path being walked closes
 * one, so the list is empty exactly when the graph has no cycle.
 */
function importCycles(): string[] {
  const edges = new Map<string, Set<string>>();
  for (const { file, target } of imports) {
    const targets = edges.get(file) ?? new Set<string>();
    targets.add(target.replace(/\.js$/, ".ts"));
    edges.set(file, targets);
  }
  const cycles: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): void => {
    const at = path.indexOf(file);
    if (at !== -1) {
      cycles.push([...path.slice(at), file].join(" -> "));
      return;
    }
    if (done.has(file)) return;
    path.push(file);
    for (const target of edges.get(file) ?? []) visit(target);
    path.pop();
    done.add(file);
  };
  for (const file of [...edges.keys()].sort()) visit(file);
  return cycles;
}

describe("the import rule", () => {
  it("reads the imports of every source file", () => {
    expect(imports.length).toBeGreaterThan(100);
  });

  it("has no import from a lower layer to a higher one", () => {
    expect(imports.filter((i) => i.upward).map((i) => `${i.file} -> ${i.target}`)).toEqual([]);
  });

  it("has no import cycle: every file can be read after the files it imports", () => {
    expect(importCycles()).toEqual([]);
  });

  it("keeps the engine out of the commands: it is handed a ready client", () => {
    expect(imports.filter((i) => i.file.startsWith("engine/") && /^(commands|sandbox)\/|^cli/.test(i.target))).toEqual([]);
  });

  it("keeps the results' copy of the input's cells out of validation: prepare reads rows, and the copy is told them on the way (results/input-copy.ts reading)", () => {
    expect(imports.filter((i) => (i.file === "engine/prepare.ts" || i.file.startsWith("validate/")) && i.target.startsWith("results/")).map((i) => `${i.file} -> ${i.target}`)).toEqual([]);
  });
});
