import { defineConfig } from "vitest/config";
import { measureSlowness } from "./test/setup/slowness.js";

// Timeouts scale with how slow the machine is when the suite starts (test/setup/slowness.ts),
// so that the suite passes beside a busy CPU; the workers inherit the factor for scaled().
const slowness = Number(process.env["PORTIN_TEST_SLOWNESS"] ?? measureSlowness());
process.env["PORTIN_TEST_SLOWNESS"] = String(slowness);

export default defineConfig({
  test: {
    globalSetup: ["test/setup/fresh-build.ts"],
    include: ["test/**/*.test.ts"],
    testTimeout: Math.round(30_000 * slowness),
    hookTimeout: Math.round(30_000 * slowness),
  },
});
