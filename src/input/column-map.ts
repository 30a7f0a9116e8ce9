/**
 * `--defaults` "columns" (docs/contract.md §3): a customer's own header names mapped to portin's
 * columns, so their sheet runs unchanged. Checked at start, every problem at once, like a
 * header: a mapping to an unknown member is refused with the closest known name.
 */
import { InputError } from "../errors.js";
import type { ColumnMap } from "./columns.js";
import { normalize, roleOf } from "./columns.js";
import { closestColumnName } from "./likely-column.js";
import type { ColumnRole } from "./types.js";
import * as sheetWords from "../messages/sheet.js";

/**
 * `mapping` is the JSON value of "columns"; `where` names the file in messages. Each value is a
 * portin column name (`number`, `pilot_number`, `portform.CustomerName`, …) or null, which keeps
 * the column as a pass-through without listing it among the columns never sent, or
 * `{"split": "address"}`, which splits each cell into the PortForm's street members.
 */
export function checkColumnMap(where: string, mapping: unknown): ColumnMap {
  if (typeof mapping !== "object" || mapping === null || Array.isArray(mapping)) {
    throw new InputError(sheetWords.columnsNotAnObject(where));
  }
  const map = new Map<string, ColumnRole | null>();
  const problems: string[] = [];
  for (const [header, target] of Object.entries(mapping as Record<string, unknown>)) {
    const path = `columns.${JSON.stringify(header)}`;
    if (target === null) {
      map.set(normalize(header), null);
      continue;
    }
    if (typeof target === "object" && !Array.isArray(target)) {
      // docs/contract.md §3: one "Service Address" cell split into the street members.
      const split = (target as Record<string, unknown>)["split"];
      if (split === "address" && Object.keys(target).length === 1) map.set(normalize(header), { kind: "address" });
      else problems.push(sheetWords.unknownColumnRule(path, JSON.stringify(target)));
      continue;
    }
    if (typeof target !== "string" || target.trim() === "") {
      problems.push(sheetWords.notAColumnName(path, JSON.stringify(target)));
      continue;
    }
    try {
      const role = roleOf(`${path}: ${JSON.stringify(target)}`, target);
      if (role.kind === "passthrough") {
        const near = closestColumnName(target);
        problems.push(sheetWords.notAPortinColumn(path, JSON.stringify(target), near));

        continue;
      }
      map.set(normalize(header), role);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(error.message);
    }
  }
  if (problems.length > 0) throw new InputError(`${where}: ${problems.join("; ")}`);
  return map;
}
