import type { z } from "zod";

/** "PortForm.CustomerName: must not be empty; DIDs.0.Number: …" — zod issues as one line. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      const message = issue.code === "unrecognized_keys" ? `unknown member ${issue.keys.join(", ")}` : issue.message;
      return path ? `${path}: ${message}` : message;
    })
    .join("; ");
}
