/**
 * The floor for `plan` on this machine: the same sheet read with csv-parse (records as
 * arrays) and written back with csv-stringify, each row with eight result cells added, and
 * nothing else: no validation, no planning. Run as its own process, like portin.
 * Usage: node dist/bench/floor.js <input.csv> <output.csv>
 */
import { createReadStream, createWriteStream } from "node:fs";
import { once } from "node:events";
import { parse } from "csv-parse";
import { stringify } from "csv-stringify";

const [input, output] = process.argv.slice(2);
if (input === undefined || output === undefined) throw new Error("usage: floor.js <input.csv> <output.csv>");

const RESULT_CELLS = ["planned", "4165550101", "regular", "POST /v2/NumberPorts/Inbound/DIDs", "1", "", "", ""];

const parser = createReadStream(input).pipe(parse({ bom: true, skip_empty_lines: true, relax_column_count: true }));
const stringifier = stringify();
const out = createWriteStream(output);
stringifier.pipe(out);
let rows = 0;
for await (const record of parser as AsyncIterable<string[]>) {
  rows++;
  if (!stringifier.write(record.concat(RESULT_CELLS))) await once(stringifier, "drain");
}
stringifier.end();
await once(out, "finish");
process.stdout.write(`${rows}\n`);
