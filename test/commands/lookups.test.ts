import { PassThrough } from "node:stream";
import yargs from "yargs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CommandIO } from "../../src/io.js";
import { connect, withConnectionOptions } from "../../src/commands/connection.js";
import type { ConnectionArgs } from "../../src/commands/connection.js";
import { offeringsCommand, providersCommand, trunksCommand } from "../../src/commands/lookups.js";
import { UsageError } from "../../src/errors.js";
import { json, serve } from "../service/http-server.js";
import type { TestServer } from "../service/http-server.js";

const PASSWORD = "Tr0ub4dor-s3cret";

function memoryIO(): { io: CommandIO; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { out: [] as Buffer[], err: [] as Buffer[] };
  stdout.on("data", (c: Buffer) => chunks.out.push(c));
  stderr.on("data", (c: Buffer) => chunks.err.push(c));
  return {
    io: { stdout, stderr, stdin: new PassThrough(), signal: new AbortController().signal },
    out: () => Buffer.concat(chunks.out).toString("utf8"),
    err: () => Buffer.concat(chunks.err).toString("utf8"),
  };
}

let service: TestServer;
beforeAll(async () => {
  service = await serve((req, res) => {
    if (req.url === "/rest.svc/SipTrunks") return json(res, 200, [{ Number: 4165550000, Label: "HQ trunk" }, { number: "6135550000", label: "Ottawa" }]);
    if (req.url === "/rest.svc/Products/TelephoneOfferings") {
      return json(res, 200, [
        { OfferingID: "RES-1", Type: "3", ProductName: { En: "Home line", Fr: "Ligne" } },
        { OfferingID: "FAX-22", Type: 7, ProductName: "Virtual fax" },
      ]);
    }
    if (req.url === "/rest.svc/NumberPorts/Providers") return json(res, 200, [{ ID: 17, Name: "Bell Canada" }, { id: "204", name: "Rogers" }]);
    json(res, 404, { ID: "404", Message: "no such route" });
  });
});
afterAll(() => service.close());

function args(extra: Partial<ConnectionArgs & { json: boolean }> = {}) {
  return { baseUrl: `${service.url}/rest.svc`, user: "acme", password: PASSWORD, timeout: 2_000, allowInsecureHttp: false, json: false, ...extra };
}

describe("portin trunks / offerings / providers", () => {
  it("prints the trunks as an aligned table and exits 0", async () => {
    const { io, out, err } = memoryIO();
    expect(await trunksCommand.run(args(), io)).toEqual({ kind: "done" });
    expect(out()).toBe(["PILOT NUMBER  LABEL", "4165550000    HQ trunk", "6135550000    Ottawa", ""].join("\n"));
    expect(err()).toBe("");
  });

  it("prints the offerings with the name of their Type", async () => {
    const { io, out } = memoryIO();
    expect(await offeringsCommand.run(args(), io)).toEqual({ kind: "done" });
    expect(out()).toBe(
      [
        "OFFERING ID  TYPE  TYPE NAME         PRODUCT NAME",
        "RES-1        3     Residential Line  Home line",
        "FAX-22       7     Virtual Fax       Virtual fax",
        "",
      ].join("\n"),
    );
  });

  it("prints the providers as JSON with --json", async () => {
    const { io, out } = memoryIO();
    expect(await providersCommand.run(args({ json: true }), io)).toEqual({ kind: "done" });
    expect(JSON.parse(out())).toEqual([
      { id: 17, name: "Bell Canada" },
      { id: 204, name: "Rogers" },
    ]);
  });

  it("prints the normalized offerings as JSON with --json", async () => {
    const { io, out } = memoryIO();
    await offeringsCommand.run(args({ json: true }), io);
    expect(JSON.parse(out())).toEqual([
      { offeringId: "RES-1", type: 3, name: "Home line" },
      { offeringId: "FAX-22", type: 7, name: "Virtual fax" },
    ]);
  });

  it("shows an example in each command's help", async () => {
    for (const command of [trunksCommand, offeringsCommand, providersCommand]) {
      const help = await command.builder(yargs([])).getHelp();
      expect(help).toContain("Examples:");
      expect(help).toContain(` ${command.command}`);
    }
  });
});

describe("connection options", () => {
  it("documents the environment variables in --help but never shows the password's value", async () => {
    const saved = process.env["PORTIN_PASSWORD"];
    process.env["PORTIN_PASSWORD"] = PASSWORD;
    try {
      const help = await withConnectionOptions(yargs([])).getHelp();
      expect(help).toContain("$PORTIN_PASSWORD");
      expect(help).toContain("$PORTIN_USER");
      expect(help).toContain("[default: 30000]");
      expect(help).not.toContain(PASSWORD);
    } finally {
      if (saved === undefined) delete process.env["PORTIN_PASSWORD"];
      else process.env["PORTIN_PASSWORD"] = saved;
    }
  });

  it("takes --user and --password from PORTIN_USER and PORTIN_PASSWORD", async () => {
    const saved = { user: process.env["PORTIN_USER"], password: process.env["PORTIN_PASSWORD"] };
    process.env["PORTIN_USER"] = "env-user";
    process.env["PORTIN_PASSWORD"] = PASSWORD;
    try {
      const parsed = await withConnectionOptions(yargs(["--base-url", "https://api.thinktel.ca/rest.svc"])).parse();
      expect(parsed).toMatchObject({ baseUrl: "https://api.thinktel.ca/rest.svc", user: "env-user", password: PASSWORD, timeout: 30_000, allowInsecureHttp: false });
    } finally {
      for (const [key, value] of [["PORTIN_USER", saved.user], ["PORTIN_PASSWORD", saved.password]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it("refuses a base URL without a user, naming the option and its variable", async () => {
    const { io } = memoryIO();
    await expect(connect({ ...args(), user: undefined }, io)).rejects.toThrow(new UsageError(`--user is missing for ${service.url}/rest.svc: give --user or set PORTIN_USER`));
  });

  it("refuses a base URL without a password, naming the option and its variable", async () => {
    const { io } = memoryIO();
    const attempt = connect({ ...args(), password: "" }, io);
    await expect(attempt).rejects.toBeInstanceOf(UsageError);
    await expect(attempt).rejects.toThrow("--password is missing for user 'acme'");
    await expect(attempt).rejects.toThrow("PORTIN_PASSWORD");
  });

  it("refuses plain http to a non-loopback host before looking anything up (exit 2)", async () => {
    const { io } = memoryIO();
    const attempt = trunksCommand.run(args({ baseUrl: "http://api.example.com/rest.svc" }), io);
    await expect(attempt).rejects.toBeInstanceOf(UsageError);
    await expect(attempt).rejects.toMatchObject({ exitCode: 2 });
  });

  it("connects to the base URL it was given, as that user", async () => {
    const { io, err } = memoryIO();
    const connection = await connect(args(), io);
    expect(connection).toMatchObject({ service: { kind: "remote", baseUrl: `${service.url}/rest.svc` }, user: "acme" });
    expect(await connection.client.trunks()).toHaveLength(2);
    await connection.close();
    expect(err()).toBe("");
  });

  it("without --base-url, runs against the built-in sandbox and says so on stderr", async () => {
    const { io, out, err } = memoryIO();
    expect(await trunksCommand.run({ timeout: 2_000, allowInsecureHttp: false, json: true }, io)).toEqual({ kind: "done" });
    expect(err()).toMatch(/^portin: no --base-url given: using the built-in sandbox at http:\/\/127\.0\.0\.1:\d+; nothing real is ported\n$/);
    const trunks = JSON.parse(out()) as { pilotNumber: string }[];
    expect(trunks.length).toBeGreaterThan(0);
    expect(trunks[0]?.pilotNumber).toMatch(/^\d{10}$/);
  });
});
