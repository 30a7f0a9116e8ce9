#!/usr/bin/env node
/**
 * The built `portin` (package.json `bin`, dist/src/cli.cjs: scripts/bundle.ts puts this there,
 * as CommonJS: an ES module entry would load node's ES module loader first).
 * The CLI itself, cli.ts and all it loads, is one CommonJS bundle, portin.cjs, which this
 * requires as node requires any module (docs/contract.md §8, "Start-up"). `portin --version`
 * alone is answered here, without reading the bundle at all.
 *
 * Nothing is written anywhere at start, least of all into the install folder, which the user
 * running portin may not be able to write. node's own compile cache is the user's to turn on
 * (NODE_COMPILE_CACHE, Node 22.1 or later; node keeps and checks it in a folder it names).
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { holdHeapNearLive } from "./commands/heap-growth.js";
import { VERSION } from "./version.js";

const BUNDLE = join(dirname(fileURLToPath(import.meta.url)), "portin.cjs");

const args = process.argv.slice(2);
// Before the CLI's code runs: the heap's growth is the process's (commands/heap-growth.ts).
holdHeapNearLive();
// `portin --version` answers before the CLI is read (docs/contract.md §8): it is what a script asks first.
if (args.length === 1 && args[0] === "--version") process.stdout.write(`${VERSION}\n`);
else createRequire(import.meta.url)(BUNDLE);
