/**
 * `npm run fuzz`: the fuzz tests only, from a random seed (or FUZZ_SEED), many times the
 * runs of `npm test` (FUZZ_FACTOR, default 25). The seed is printed first so that a failing
 * run can be replayed: FUZZ_SEED=<seed> npm run fuzz.
 */
import { randomInt } from "node:crypto";
import { defineConfig } from "vitest/config";

const seed = process.env["FUZZ_SEED"] === undefined ? randomInt(2 ** 31) : Number(process.env["FUZZ_SEED"]);
const factor = Number(process.env["FUZZ_FACTOR"] ?? 25);
process.stdout.write(`fuzz: seed ${seed}, ${factor} times the runs of npm test (replay: FUZZ_SEED=${seed} npm run fuzz)\n`);

export default defineConfig({
  test: {
    globalSetup: ["test/setup/fresh-build.ts"],
    include: ["test/fuzz/**/*.test.ts"],
    provide: { fuzz: { seed, factor } },
    // As in vitest.config.ts: generous, so that a busy CPU slows the run without failing it.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
