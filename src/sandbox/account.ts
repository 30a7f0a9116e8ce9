/**
 * The sandbox's account: the trunks, offerings and providers its lookups answer, and the
 * numbers its losing carriers refuse to release. Entries are written in the service's own
 * spelling so that the lookups can serve them as they are.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { UsageError } from "../errors.js";
import { NANP } from "./body-schemas.js";
import { describeIssues } from "../service/zod-issues.js";
import { portalOrderSchema } from "./portal.js";

const phone = z
  .number()
  .int()
  .refine((n) => NANP.test(String(n)), { message: "must be a 10-digit NANP telephone number" });
const nonEmpty = z.string().min(1, "must not be empty");

const trunkSchema = z.strictObject({ Number: phone, Label: z.string() });
// Any integer Type: the fixture carries one outside 1..7 so that portin's refusal of it can be exercised.
const offeringSchema = z.strictObject({
  OfferingID: nonEmpty,
  Type: z.number().int(),
  ProductName: z.strictObject({ En: z.string(), Fr: z.string() }),
});
const providerSchema = z.strictObject({ ID: z.number().int().positive(), Name: nonEmpty });
const unportableSchema = z.strictObject({ number: phone, reason: nonEmpty });

/**
 * The service's Local Number Portability coverage (docs/contract.md §1.4): every NPA-NXX of
 * `areaCodes` (exchanges 200-999) but those listed in `notPortable`, as 6-digit integers.
 * An account file without it covers DEFAULT_AREA_CODES.
 */
const npaNxx = z
  .number()
  .int()
  .refine((n) => /^[2-9]\d{2}[2-9]\d{2}$/.test(String(n)), { message: "must be a 6-digit NPA-NXX such as 613555" });
const portabilitySchema = z.strictObject({
  areaCodes: z
    .array(z.number().int().min(200).max(999))
    .optional(),
  notPortable: z.array(npaNxx).default([]),
});

/**
 * Canada's busiest area codes and the toll-free ones: enough for every sheet in fixtures/,
 * test/ and bench/, and a list (27,200 prefixes) of the order of size a real service answers.
 */
export const DEFAULT_AREA_CODES: readonly number[] = [
  204, 250, 289, 306, 403, 416, 418, 437, 438, 450, 506, 514, 519, 581, 587, 604, 613, 647, 705, 709, 778, 780, 807, 819, 867, 902, 905,
  800, 833, 844, 855, 866, 877, 888,
];

function unique<T>(key: (item: T) => unknown, what: string) {
  return (list: readonly T[], ctx: z.RefinementCtx) => {
    const seen = new Set<unknown>();
    list.forEach((item, i) => {
      const k = key(item);
      if (seen.has(k)) ctx.addIssue({ code: "custom", path: [i], message: `repeats ${what} ${String(k)}` });
      seen.add(k);
    });
  };
}

export const accountSchema = z.strictObject({
  trunks: z.array(trunkSchema).superRefine(unique((t) => t.Number, "pilot number")),
  offerings: z.array(offeringSchema).superRefine(unique((o) => o.OfferingID, "OfferingID")),
  providers: z.array(providerSchema).superRefine(unique((p) => p.ID, "provider ID")),
  unportable: z.array(unportableSchema).default([]),
  portability: portabilitySchema.default({ notPortable: [] }),
  /** Orders placed in the web portal, placed in this order when the sandbox starts. */
  orders: z.array(portalOrderSchema).default([]),
});

export type SandboxAccount = z.infer<typeof accountSchema>;
export type AccountOffering = SandboxAccount["offerings"][number];

/**
 * fixtures/sandbox-account.json, found by walking up to the package root, so that the same
 * code finds it from src/sandbox (tests) and from dist/src/sandbox (the built CLI).
 */
export function defaultAccountFile(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, "package.json"))) return join(dir, "fixtures", "sandbox-account.json");
    const parent = dirname(dir);
    if (parent === dir) throw new UsageError("cannot find portin's package root for the default sandbox account: pass --account FILE");
    dir = parent;
  }
}

/** Reads and checks an account file; every problem is reported at once as `path: message`. */
export function loadAccount(file: string = defaultAccountFile()): SandboxAccount {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new UsageError(`cannot read sandbox account file '${file}' (${reason}): check the path given to --account`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`sandbox account file '${file}' is not JSON (${(error as Error).message}): fix it or pass another --account`);
  }
  // Read once a start: without zod's compiled fast path, which would cost the sample plan's start more than it saves (lookup-answer.ts `askedOnce`).
  const parsed = accountSchema.safeParse(json, { jitless: true });
  if (!parsed.success) {
    throw new UsageError(`sandbox account file '${file}' is not valid: ${describeIssues(parsed.error)}`);
  }
  return parsed.data;
}
