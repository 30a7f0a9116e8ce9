import { afterEach } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/server.js";

/**
 * A function that starts a sandbox on a free port and closes it after the test that started
 * it; call at the top of a test file.
 */
export function sandboxPerTest(): () => Promise<RunningSandbox> {
  const running: RunningSandbox[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
  });
  return async () => {
    const sandbox = await startSandbox();
    running.push(sandbox);
    return sandbox;
  };
}
