import { join, parse } from "node:path";

/**
 * `<input without .csv><suffix>` beside the input: where a sheet's results, journal and
 * defaults live by default (SPEC §2), so they travel with it.
 */
export function besideInput(input: string, suffix: string): string {
  const { dir, name, ext } = parse(input);
  return join(dir, `${ext.toLowerCase() === ".csv" ? name : name + ext}${suffix}`);
}
