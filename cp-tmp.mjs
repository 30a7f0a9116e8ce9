import { parse } from "csv-parse";
import { readFileSync } from "node:fs";
const buf = readFileSync("fixtures/sample.csv");
const opts = JSON.parse(process.argv[2] ?? "{}");
const out = [];
for (let i = 0; i < 8; i++) {
  const t = performance.now();
  await new Promise((res, rej) => { const p = parse(opts); let n = 0; p.on("data", () => n++); p.on("end", res); p.on("error", rej); p.write(buf); p.end(); });
  out.push((performance.now() - t).toFixed(1));
}
console.log(buf.length, JSON.stringify(opts), out.join(" "));
