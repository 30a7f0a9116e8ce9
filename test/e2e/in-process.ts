/**
 * `portin submit` run in this process, through the library's own function (src/api.ts, which
 * writes the same journal and results as the command): the set-up of an end-to-end test whose
 * behaviour is the command run after it, which is spawned. One start of node fewer per test;
 * the command's own behaviour keeps its spawned tests (submit.test.ts and the rest).
 */
import { PassThrough } from "node:stream";
import { connect, submit, type PortInOptions } from "../../src/api.js";

export interface InProcessRun {
  readonly exitCode: number;
  /** What the command would have printed on stderr, for a failing expectation's message. */
  readonly stderr: string;
}

export async function submitInProcess(service: { url: string; user: string; password: string }, options: PortInOptions): Promise<InProcessRun> {
  let said = "";
  const stderr = new PassThrough().setEncoding("utf8").on("data", (d: string) => (said += d));
  const client = await connect({ baseUrl: service.url, user: service.user, password: service.password }, { stderr });
  try {
    return { exitCode: (await submit(options, client, { stderr })).exitCode, stderr: said };
  } finally {
    await client.close();
  }
}
