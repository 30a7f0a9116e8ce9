/**
 * `npm run fuzz`: the fuzz tests only, from a random seed (or FUZZ_SEED), many times the
 * runs of `npm test` (FUZZ_FACTOR, default 25). The seed is printed first so that a failing
 * run can be replayed: FUZZ_SEED=<seed> npm run fuzz.
 */
import { randomInt } from "node:crypto";
import { defineConfig } from "vitest/config";
import { measureSlowness } from "./test/setup/slowness.js";

const seed = process.env["FUZZ_SEED"] === undefined ? randomInt(2 ** 31) : Number(process.env["FUZZ_SEED"]);
const factor = Number(process.env["FUZZ_FACTOR"] ?? 25);
process.stdout.write(`fuzz: seed ${seed}, ${factor} times the runs of npm test (replay: FUZZ_SEED=${seed} npm run fuzz)\n`);

const slowness = Number(process.env["PORTIN_TEST_SLOWNESS"] ?? measureSlowness());
process.env["PORTIN_TEST_SLOWNESS"] = String(slowness);

export default defineConfig({
  test: {
    globalSetup: ["test/setup/fresh-build.ts"],
    include: ["test/fuzz/**/*.test.ts"],
    provide: { fuzz: { seed, factor } },
    // As in vitest.config.ts: timeouts scale with the machine's speed when the run starts.
    testTimeout: Math.round(30_000 * slowness),
    hookTimeout: Math.round(30_000 * slowness),
  },
});
