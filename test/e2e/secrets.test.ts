/**
 * Secrets, once more, everywhere (docs/security.md): every command and failure path run
 * with a known password and a known `item.SipPassword` cell value. Neither may appear in any
 * output or any file portin writes; SPEC sends the item value in the request body to the
 * service, and that is the one place it may be.
 *
 * The service here is sometimes hostile: a server that echoes the Authorization header and
 * the whole request body back in its messages, on 401, 422, 500 and 200 alike.
 */
import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import PQueue from "p-queue";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox } from "../../src/sandbox/server.js";
import { CLI, FORM_CELLS, FORM_HEADER, runCli, tempDir, writeSheet } from "./harness.js";
import type { CliRun } from "./harness.js";

const USER = "acme-migrations";
const PASSWORD = "Quartz-Lantern-7f3c9e";
const SIP = "Marmalade-Sip-9d2e41";
/** Every form a secret could be written in: as is, base64 alone, and as Basic credentials. */
const FORMS = [PASSWORD, SIP, b64(PASSWORD), b64(SIP), b64(`${USER}:${PASSWORD}`)];

function b64(text: string): string {
  return Buffer.from(text).toString("base64");
}

/** Everything portin printed, by the run that printed it. */
const printed: { readonly what: string; readonly text: string }[] = [];
let dir = "";
let sheet = "";
let sandbox: RunningSandbox;
let otherSandbox: RunningSandbox;
let slowSandbox: RunningSandbox;
let echo: { url: string; close(): Promise<void> };

/** Answers lookups like the sandbox's account; POSTs per the mode that starts the path, echoing what it got. */
async function echoServer(): Promise<{ url: string; close(): Promise<void> }> {
  const lookups: Record<string, unknown> = {
    SipTrunks: [{ Number: 4165550100, Label: "HQ" }],
    "Products/TelephoneOfferings": [],
    "NumberPorts/Providers": [{ ID: 17, Name: "Bell Canada" }],
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.setEncoding("utf8").on("data", (d: string) => (body += d));
    req.on("end", () => {
      const [, mode = "", ...rest] = (req.url ?? "/").split("/");
      const path = rest.join("/");
      const said = `you sent ${req.headers.authorization ?? ""} and ${body}`;
      const answer = (status: number, json: unknown): void => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      };
      if (req.method === "GET") {
        if (path in lookups) return answer(200, lookups[path]);
        return answer(404, { ID: "NotFound", Message: said });
      }
      switch (mode) {
        case "hang":
          return; // never answers: the POST times out
        case "accept":
          return answer(200, { TicketMask: "PI-777", Reply: 2, Message: said });
        default:
          return answer(Number(mode), { ID: "Echo", Message: said });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

beforeAll(async () => {
  sandbox = await startSandbox({ user: USER, password: PASSWORD });
  otherSandbox = await startSandbox({ user: USER, password: "not-the-one-portin-sends" });
  slowSandbox = await startSandbox({ user: USER, password: PASSWORD, latencyMs: 1_500 });
  echo = await echoServer();
  dir = await tempDir();
  const rows = ["416-555-6001", "416-555-6002", "416-555-600", "416-555-6003"].map((n) => `${n},4165550100,${FORM_CELLS},${SIP}`);
  sheet = await writeSheet(dir, "secrets.csv", `number,pilot_number,${FORM_HEADER},item.SipPassword\n${rows.join("\n")}\n`);
});
afterAll(async () => {
  await Promise.all([sandbox.close(), otherSandbox.close(), slowSandbox.close(), echo.close()]);
});

/** Runs portin, keeping what it printed for the final check, and returns the run. */
async function portin(what: string, args: readonly string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<CliRun> {
  const run = await runCli(args, { cwd: dir, ...options });
  printed.push({ what, text: `${run.stdout}\n${run.stderr}` });
  return run;
}

const flags = (url: string, password = PASSWORD) => ["--base-url", url, "--user", USER, "--password", password];

it("keeps the password and item.SipPassword out of every output and file, on every path", async () => {
  const results = (name: string) => join(dir, `${name}.results.csv`);
  const state = (name: string) => join(dir, `${name}.state.jsonl`);

  // Runs that share no file go four at a time: the suite's time is mostly these spawns.
  const queue = new PQueue({ concurrency: 4 });
  const side = (what: string, args: readonly string[], codes: readonly number[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<void> =>
    queue.add(async () => expect(codes, what).toContain((await portin(what, args, options)).code));
  const independent: Promise<void>[] = [
    // Lookup commands, with the password as an option and in the environment, and --help.
    ...["trunks", "offerings", "providers"].flatMap((command) => [
      side(command, [command, ...flags(sandbox.url)], [0]),
      side(`${command} --json, env`, [command, "--json", "--base-url", sandbox.url], [0], { env: { PORTIN_USER: USER, PORTIN_PASSWORD: PASSWORD } }),
    ]),
    side("--help", ["submit", "--help"], [0], { env: { PORTIN_PASSWORD: PASSWORD } }),
    side("plan", ["plan", sheet, ...flags(sandbox.url), "--results", results("plan")], [1]),
    side("plan from stdin", ["plan", "-", ...flags(sandbox.url)], [1], { stdin: await readFile(sheet, "utf8") }),
    // A password the service refuses (401), with and without --debug.
    side("status, 401", ["status", sheet, ...flags(otherSandbox.url), "--state", state("status-refused"), "--output", join(dir, "refused.status.csv"), "--debug"], [2]),
    side("trunks, 401", ["trunks", ...flags(otherSandbox.url), "--debug"], [2]),
    side("submit, 401", ["submit", sheet, ...flags(otherSandbox.url), "--state", state("refused"), "--debug"], [2]),
    // A service that echoes the credentials and the body back: 401 on the POST, 422, 500, and an acceptance.
    ...["401", "422", "500", "accept"].map((mode) =>
      side(`submit, echo ${mode}`, ["submit", sheet, ...flags(`${echo.url}/${mode}`), "--state", state(`echo-${mode}`), "--results", results(`echo-${mode}`), "--debug"], [1, 2]),
    ),
  ];

  // A run that submits, writes results and a journal, then a re-run that reads the journal.
  expect((await portin("submit", ["submit", sheet, ...flags(sandbox.url), "--state", state("ok"), "--results", results("ok"), "--json"])).code).toBe(1);
  expect((await portin("submit again", ["submit", sheet, ...flags(sandbox.url), "--state", state("ok"), "--results", results("ok-again"), "--debug"])).code).toBe(1);

  // portin status: the journal read, each order asked about, its report written.
  const status = await portin("status", ["status", sheet, ...flags(sandbox.url), "--state", state("ok"), "--output", join(dir, "ok.status.csv"), "--json", "--debug"]);
  expect([0, 1]).toContain(status.code);
  expect(await readFile(join(dir, "ok.status.csv"), "utf8")).toContain("status_ticket");
  await Promise.all(independent);

  // Timeouts: a lookup that does not answer in time, and a POST that never answers.
  const slow = await portin("lookup timeout", ["submit", sheet, ...flags(slowSandbox.url), "--timeout", "200", "--retries", "0", "--debug"]);
  expect(slow.code).toBe(2);
  expect(slow.stderr).toContain("no answer within 200 ms");
  const hung = await portin("POST timeout", ["submit", sheet, ...flags(`${echo.url}/hang`), "--timeout", "300", "--state", state("hang"), "--results", results("hang"), "--debug"]);
  expect(hung.code).toBe(1);

  // got's own errors: TLS spoken to a plain HTTP server, and a refused connection.
  const tls = await portin("TLS error", ["trunks", ...flags(echo.url.replace("http:", "https:")), "--debug"]);
  expect(tls.code).toBe(2);
  expect(tls.stderr).toMatch(/GET \/SipTrunks could not reach https:\/\/127\.0\.0\.1:\d+\/: /);
  const refused = await portin("refused", ["submit", sheet, ...flags("http://127.0.0.1:9"), "--retries", "0", "--debug"]);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain("connection refused by 127.0.0.1:9");

  // Usage errors that sit beside the password on the command line.
  expect((await portin("unknown option", ["trunks", ...flags(sandbox.url), "--colour"])).code).toBe(2);
  expect((await portin("credentials without a service", ["submit", sheet, "--password", PASSWORD, "--debug"])).code).toBe(2);

  // The sandbox command, given the password, serving one run.
  printed.push({ what: "portin sandbox", text: await sandboxCommandServing() });

  // The echo did reach the results and the journal, scrubbed: the check below is not vacuous.
  const echoed = await readFile(results("echo-422"), "utf8");
  expect(echoed).toContain('you sent Basic *** and {""PortForm""');
  expect(echoed).toContain('""SipPassword"":""***""');
  expect(await readFile(state("echo-500"), "utf8")).toContain('\\"SipPassword\\":\\"***\\"');
  expect(printed.find((p) => p.what === "submit, echo 401")?.text).toContain("stopped sending: the service refused user 'acme-migrations' (401) (you sent Basic *** and");

  // What the service was sent: the item value is there, as SPEC says, and nowhere else.
  expect(JSON.stringify(sandbox.received())).toContain(SIP);

  for (const { what, text } of printed) {
    for (const secret of FORMS) expect(text, `${what} printed ${secret}`).not.toContain(secret);
  }
  const written = (await readdir(dir)).filter((name) => name !== "secrets.csv");
  expect(written.filter((name) => name.endsWith(".results.csv")).length).toBeGreaterThanOrEqual(7);
  expect(written.filter((name) => name.endsWith(".state.jsonl")).length).toBeGreaterThanOrEqual(5);
  for (const name of written) {
    const contents = await readFile(join(dir, name), "utf8");
    for (const secret of FORMS) expect(contents, `${name} holds ${secret}`).not.toContain(secret);
  }
}, 300_000);

/** Runs `portin sandbox --password …`, submits the sheet to it, stops it, and returns all it printed. */
async function sandboxCommandServing(): Promise<string> {
  const child = spawn(process.execPath, [CLI, "sandbox", "--port", "0", "--user", USER, "--password", PASSWORD], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", () => {
      const found = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (found) resolve(found[0]);
    });
    child.once("exit", () => reject(new Error(`portin sandbox exited: ${out}`)));
  });
  const run = await portin("submit to portin sandbox", ["submit", sheet, ...flags(url), "--state", join(dir, "served.state.jsonl"), "--results", join(dir, "served.results.csv")]);
  expect(run.code).toBe(1);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGINT");
  await exited;
  expect(out).toContain("POST /v2/NumberPorts/Inbound/DIDs 200");
  return out;
}
