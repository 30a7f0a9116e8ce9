/**
 * E-mail addresses as carriers and the port team use them (docs/contract.md §3 "Values the
 * losing carrier checks"): `EmailAddress` and each of `AdditionalEmailAddresses` must look
 * deliverable, a local part and a domain with a dot (`it@acme` is refused). The syntax is
 * zod's e-mail check, the project's schema library, rather than a regular expression of our own.
 */
import { z } from "zod";
import * as rows from "../messages/rows.js";

const ADDRESS = z.email();

/** Why `text` is not a deliverable-looking address, or null when it is one. */
export function emailProblem(text: string): string | null {
  if (ADDRESS.safeParse(text).success) return null;
  const quoted = JSON.stringify(text);
  const at = text.lastIndexOf("@");
  const domain = at < 0 ? "" : text.slice(at + 1);
  return rows.notAnEmail(quoted, rows.emailWhy(at >= 0, domain));

}
