/**
 * A test's own timeout, in the units of this machine's speed when the suite started
 * (test/setup/slowness.ts, passed on by vitest.config.ts): `scaled(60_000)` is 60 s on a
 * quiet 2-core machine and proportionally more beside a busy CPU.
 */
const SLOWNESS = Number(process.env["PORTIN_TEST_SLOWNESS"] ?? "1");

export function scaled(ms: number): number {
  return Math.round(ms * (Number.isFinite(SLOWNESS) && SLOWNESS >= 1 ? SLOWNESS : 1));
}
