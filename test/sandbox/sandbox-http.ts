/** Talking to a sandbox started in the test's process, as a client would: real HTTP, Basic credentials. */
import { afterEach } from "vitest";
import { operationById } from "../../src/catalog/operations.js";
import type { Members } from "../../src/catalog/members.js";
import { buildBody } from "../../src/service/body.js";
import { startSandbox } from "../../src/sandbox/server.js";
import type { RunningSandbox, SandboxOptions } from "../../src/sandbox/server.js";
import { PORT_FORM } from "../support/port-form.js";

const running: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** 2026-03-02 is a Monday: the carrier answers on Tuesday (day 1) and ports on Thursday (day 3). */
export const MONDAY = "2026-03-02";

/** A sandbox closed after the test, on a known Monday, whose carriers reject nothing unless told. */
export async function sandboxWith(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ startDate: MONDAY, rejectRate: 0, seed: 7, ...options });
  running.push(sandbox);
  return sandbox;
}

export interface Answered {
  status: number;
  json: unknown;
}

const auth = (s: RunningSandbox): string => `Basic ${Buffer.from(`${s.user}:${s.password}`).toString("base64")}`;

export async function get(s: RunningSandbox, path: string, withAuth = true): Promise<Answered> {
  const res = await fetch(s.url + path, { headers: withAuth ? { Authorization: auth(s) } : {} });
  return { status: res.status, json: (await res.json()) };
}

export async function post(s: RunningSandbox, path: string, body: unknown, withAuth = true): Promise<Answered> {
  const headers = { "Content-Type": "application/json", ...(withAuth ? { Authorization: auth(s) } : {}) };
  const res = await fetch(s.url + path, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) };
}

/** A SIP trunk order for these numbers, built the way portin builds one. */
export function didsBody(numbers: readonly string[], form: Members = PORT_FORM): Record<string, unknown> {
  const operation = operationById("dids");
  if (!operation) throw new Error("no dids operation");
  return buildBody({ operation, target: "4165550100", portForm: form, request: {}, numbers: numbers.map((number) => ({ number, item: {} })) });
}

/** POSTs a SIP trunk order and gives the service's TicketResponse. */
export async function orderDids(s: RunningSandbox, numbers: readonly string[]): Promise<Answered> {
  return post(s, operationById("dids")!.path, didsBody(numbers));
}
