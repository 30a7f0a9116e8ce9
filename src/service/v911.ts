/**
 * The wire of the 9-1-1 endpoints and of a number on its trunk (docs/contract.md §1.5): their
 * paths, the V911 record a body holds, and the V911 and trunk-DID answers, read tolerantly
 * like the lookups (member names in any case).
 */
import { z } from "zod";
import { once } from "../once.js";
import { tolerant } from "./answers.js";
import { E911_MEMBERS } from "../catalog/e911.js";
import type { E911Address, E911Member } from "../catalog/e911.js";

export const V911_VERIFY_PATH = "/v2/V911s/Verify";
export const V911_PATH = "/v2/V911s";

/** GET or PUT one number's V911 record. */
export function v911RecordPath(tenDigits: string): string {
  return `${V911_PATH}/${tenDigits}`;
}

/** GET: whether a number is on a trunk (404 when it is not). */
export function trunkDidPath(pilot: string, tenDigits: string): string {
  return `/SipTrunks/${pilot}/Dids/${tenDigits}`;
}

export type { E911Address };

/** The body of a Verify, a registration (PendingPort: true while the port is pending) or a replacement. */
export function v911Body(tenDigits: string, address: E911Address, pendingPort: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { Number: Number(tenDigits) };
  for (const member of E911_MEMBERS) {
    const value = address[member];
    if (value !== undefined && value !== "") body[member] = value;
  }
  body["PendingPort"] = pendingPort;
  return body;
}

/** One reason the database refused an address, with what it would accept. */
export interface V911Refusal {
  readonly message: string;
  readonly suggestedCity: string;
  readonly suggestedProvince: string;
}

/** What a V911 answer says: accepted, or refused with reasons. */
export type V911Reply = { readonly accepted: true } | { readonly accepted: false; readonly message: string; readonly refusals: readonly V911Refusal[] };


export const v911AnswerSchema = once(() =>
  tolerant(
    z.object({
      reply: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]),
      message: z.string().nullish(),
      responsedata: tolerant(
        z.object({
          accepted: z.boolean().nullish(),
          errors: z
            .array(
              tolerant(
                z.object({
                  errormessage: z.string().nullish(),
                  suggestedcity: z.string().nullish(),
                  suggestedprovince: z.string().nullish(),
                }),
              ),
            )
            .nullish(),
        }),
      ).nullish(),
    }),
  ).transform((a): V911Reply => {
    if (a.reply === 1 && a.responsedata?.accepted !== false) return { accepted: true };
    const refusals = (a.responsedata?.errors ?? []).map((e) => ({
      message: e.errormessage?.trim() ?? "",
      suggestedCity: e.suggestedcity?.trim() ?? "",
      suggestedProvince: e.suggestedprovince?.trim() ?? "",
    }));
    return { accepted: false, message: a.message?.trim() ?? "", refusals };
  }),
);

/** A number's V911 record as GET answers it: its address members, compared with the sheet's. */
export const v911RecordSchema = once(() =>
  tolerant(z.object(Object.fromEntries(E911_MEMBERS.map((m) => [m.toLowerCase(), z.string().nullish()])))).transform((r): E911Address => {
    const out: Partial<Record<E911Member, string>> = {};
    for (const member of E911_MEMBERS) {
      const value = r[member.toLowerCase()];
      if (typeof value === "string" && value !== "") out[member] = value;
    }
    return out;
  }),
);

/** Any 200 answer to the trunk-DID GET says the number is on the trunk; its members are not read. */
export const trunkDidSchema = once(() => z.looseObject({}));
