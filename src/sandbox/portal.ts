/**
 * Orders "placed in the web portal" (docs/contract.md §2, the sandbox): port-ins the account
 * holds that no client sent, so that a client can be tested against numbers it never POSTed.
 * One schema reads them from the account file's `orders` and from `POST /_sandbox/orders`.
 */
import { z } from "zod";
import type { Phase } from "./carrier.js";
import { expandTnRange } from "./tn-ranges.js";

/** The numbers one portal order may hold: a whole NXX's line numbers, the most one range can name. */
export const MAX_PORTAL_NUMBERS = 10_000;

/** Where a portal order stands: the status it was placed with, and keeps. */
export const PORTAL_STATUSES = ["SUBMITTED", "CONFIRMED", "COMPLETED", "REJECTED", "CANCELLED"] as const satisfies readonly Phase[];

/**
 * A ticket of the service's shape that is not one of the `PI-000123` tickets the sandbox
 * gives the orders it is sent, so that the two can never collide.
 */
const TICKET = /^[A-Za-z0-9][A-Za-z0-9-]{0,31}$/;
const SENT_TICKET = /^PI-\d{6}$/;

/** Numbers and ranges as 10-digit numbers, each problem named by its place in the list. */
const numbersSchema = z
  .array(z.string())
  .min(1, "must name at least one number")
  .transform((list, ctx) => {
    const numbers: string[] = [];
    const seen = new Set<string>();
    list.forEach((text, i) => {
      const expanded = expandTnRange(text);
      if ("problem" in expanded) {
        ctx.addIssue({ code: "custom", path: [i], message: expanded.problem });
        return;
      }
      for (const n of expanded.numbers) {
        if (seen.has(n)) ctx.addIssue({ code: "custom", path: [i], message: `repeats ${n}` });
        seen.add(n);
        numbers.push(n);
      }
    });
    if (numbers.length > MAX_PORTAL_NUMBERS) ctx.addIssue({ code: "custom", message: `names ${numbers.length} numbers; an order holds ${MAX_PORTAL_NUMBERS} at most` });
    return numbers;
  });

export const portalOrderSchema = z.strictObject({
  numbers: numbersSchema,
  status: z.enum(PORTAL_STATUSES).default("SUBMITTED"),
  ticket: z
    .string()
    .regex(TICKET, "must be 1 to 32 letters, digits and dashes, such as PI-P00001")
    .refine((t) => !SENT_TICKET.test(t), "must not look like PI-000123: the sandbox gives those to the orders it is sent")
    .optional(),
  /** The order list's TnRanges for this order, as a person typed them in the portal; the service's own writing when absent. */
  listedAs: z.array(z.string().trim().min(1)).min(1).optional(),
});

export type PortalOrder = z.output<typeof portalOrderSchema>;
