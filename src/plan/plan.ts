/**
 * ValidRow[] -> PortRequest[]: pure, no I/O (SPEC §4). Rows that share one operation, one
 * target, one group label and identical PortForm and request members form one request; a
 * group larger than --max-per-request is cut into consecutive requests in input order.
 */
import type { BodyInput, WireMembers } from "../service/wire.js";
import type { ValidRow } from "../validate/types.js";

/** SPEC §2: `--max-per-request` default. */
export const DEFAULT_MAX_PER_REQUEST = 100;

export interface PortRequest extends BodyInput {
  /** 1-based sequence number in this run: the results' `result_batch`. */
  readonly batch: number;
  readonly group: string;
  /** The rows it carries, in input order; each is also the body's item source. */
  readonly numbers: readonly ValidRow[];
}

/** Plans requests in order of each group's first row, then each group's cuts in input order. */
export function planRequests(rows: Iterable<ValidRow>, maxPerRequest: number): PortRequest[] {
  const groups = new Map<string, ValidRow[]>();
  const keyer = new GroupKeyer();
  for (const row of rows) {
    const key = keyer.keyOf(row);
    const members = groups.get(key);
    if (members) members.push(row);
    else groups.set(key, [row]);
  }
  const requests: PortRequest[] = [];
  for (const members of groups.values()) {
    for (let start = 0; start < members.length; start += maxPerRequest) {
      const numbers = members.slice(start, start + maxPerRequest);
      const first = numbers[0] as ValidRow;
      requests.push({
        batch: requests.length + 1,
        operation: first.operation,
        target: first.target,
        group: first.group,
        portForm: first.portForm,
        request: first.request,
        numbers,
      });
    }
  }
  return requests;
}

/**
 * The grouping key. Member records are compared by value, key order ignored; attachments
 * are compared by identity (the validator reads each distinct path once and shares the
 * result) so that megabytes of base64 are not copied into a key per row.
 */
class GroupKeyer {
  private readonly attachmentIds = new WeakMap<object, number>();
  private nextAttachmentId = 0;

  keyOf(row: ValidRow): string {
    return [row.operation.id, row.target, row.group, this.membersKey(row.portForm), this.membersKey(row.request)].join(
      "\u0000",
    );
  }

  private membersKey(members: WireMembers): string {
    const names = Object.keys(members).sort();
    let key = "";
    for (const name of names) key += `${name}=${this.valueKey(members[name])}\u0001`;
    return key;
  }

  private valueKey(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map((v) => this.valueKey(v)).join(",")}]`;
    if (value !== null && typeof value === "object") {
      let id = this.attachmentIds.get(value);
      if (id === undefined) {
        // Objects without identity sharing (ExtraDetails entries) still compare by value.
        if (!("Base64Contents" in value)) return JSON.stringify(value);
        id = this.nextAttachmentId++;
        this.attachmentIds.set(value, id);
      }
      return `#file${id}`;
    }
    return JSON.stringify(value);
  }
}
