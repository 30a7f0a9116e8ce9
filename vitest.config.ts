import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // PostgreSQL first: it runs as a user of its own, who must reach its password file in the machine's /tmp, not the run's private one.
    globalSetup: ["test/setup/postgres.ts", "test/setup/fresh-build.ts"],
    include: ["test/**/*.test.ts"],
    // Generous on purpose: a timeout only ends a test that hangs, and the suite must pass beside
    // a busy CPU, where every spawn of the CLI takes several times longer than on a quiet one.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // Most end-to-end tests wait on a spawned CLI and a sandbox's latency, not on this CPU: four
    // files at a time took the suite from about 9 to 5 minutes on a quiet 2-core machine.
    maxWorkers: 4,
    // Files in one worker share its loaded modules rather than each loading src/, exceljs, got
    // and zod again: on a quiet 2-core machine the files' loading summed 88 s with isolation and
    // 33 s without, and vitest took 195 s and 160 s. No test keeps state in a module past its file:
    // the one that fakes timers and the one that sets credentials in process.env restore them.
    isolate: false,
  },
});
