import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["test/setup/fresh-build.ts"],
    include: ["test/**/*.test.ts"],
    // Generous on purpose: a timeout only ends a test that hangs, and the suite must pass beside
    // a busy CPU, where every spawn of the CLI takes several times longer than on a quiet one.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
