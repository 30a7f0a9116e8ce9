/**
 * ValidRow[] -> PortRequest[]: pure, no I/O (docs/contract.md §4). Rows that share one operation, one
 * target, one group label and identical PortForm and request members form one request; a
 * group larger than --max-per-request is cut into consecutive requests in input order.
 */
import { createHash } from "node:crypto";
import type { FileAttachment, Members } from "../catalog/members.js";
import type { Operation } from "../catalog/operations.js";
import type { ValidRow } from "../validate/types.js";

/** docs/contract.md §2: `--max-per-request` default. */
export const DEFAULT_MAX_PER_REQUEST = 100;

export interface PortRequest {
  /** 1-based sequence number in this run: the results' `result_batch`. */
  readonly sequence: number;
  readonly operation: Operation;
  /** The pilot number (10 digits) for trunk operations; the OfferingID otherwise. */
  readonly target: string;
  readonly group: string;
  readonly portForm: Members;
  readonly request: Members;
  /** The rows it carries, in input order; each is also the body's item source. */
  readonly numbers: readonly ValidRow[];
}

/** Plans requests in order of each group's first row, then each group's cuts in input order. */
export function groupRequests(rows: Iterable<ValidRow>, maxPerRequest: number): PortRequest[] {
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
      // A group that fits is its own request's list; a larger one is cut and then let go.
      const numbers = members.length <= maxPerRequest ? members : members.slice(start, start + maxPerRequest);
      const first = numbers[0] as ValidRow;
      requests.push({
        sequence: requests.length + 1,
        operation: first.operation,
        target: first.target,
        group: first.group,
        portForm: first.portForm,
        request: first.request,
        numbers,
      });
    }
    if (members.length > maxPerRequest) members.length = 0;
  }
  return requests;
}

/**
 * The grouping key. Member records are compared by value, key order ignored. An attachment
 * is keyed by a digest of its content, computed once per attachment object: docs/contract.md §4 groups
 * identical values, and the same file read twice (a cell and the --defaults file name it
 * separately) is two objects; a digest keeps megabytes of base64 out of every key.
 *
 * A row's key is three small numbers (its lane: operation, target and group; its PortForm;
 * its request), written as six UTF-16 units, two per number: fixed width, so two rows' keys
 * meet only when all three numbers do, and one short string a row to build and hash rather
 * than the operation, target and group spelled out (the narrow sheet of `npm run bench`).
 */
class GroupKeyer {
  private readonly attachmentKeys = new WeakMap<object, string>();
  /**
   * Equal records get one small number. The validator shares one record object among the rows
   * that state it, so each object is keyed by value once, not once a row.
   */
  private readonly recordIds = new WeakMap<Members, number>();
  private readonly idsByValue = new Map<string, number>();
  /** Lane numbers by operation, target and group: a row's strings are already made, and hashed once each. */
  private readonly lanes = new Map<Operation, Map<string, Map<string, number>>>();
  private laneCount = 0;

  keyOf(row: ValidRow): string {
    const lane = this.laneOf(row);
    const form = this.recordId(row.portForm);
    const request = this.recordId(row.request);
    // Ids count distinct values seen, so they stay far below 2^32: each takes two units.
    return String.fromCharCode(lane & 0xffff, lane >>> 16, form & 0xffff, form >>> 16, request & 0xffff, request >>> 16);
  }

  private laneOf(row: ValidRow): number {
    let byTarget = this.lanes.get(row.operation);
    if (byTarget === undefined) this.lanes.set(row.operation, (byTarget = new Map<string, Map<string, number>>()));
    let byGroup = byTarget.get(row.target);
    if (byGroup === undefined) byTarget.set(row.target, (byGroup = new Map<string, number>()));
    let lane = byGroup.get(row.group);
    if (lane === undefined) byGroup.set(row.group, (lane = this.laneCount++));
    return lane;
  }

  private recordId(members: Members): number {
    let id = this.recordIds.get(members);
    if (id === undefined) {
      const key = this.computeKey(members);
      id = this.idsByValue.get(key);
      if (id === undefined) {
        id = this.idsByValue.size;
        this.idsByValue.set(key, id);
      }
      this.recordIds.set(members, id);
    }
    return id;
  }

  private computeKey(members: Members): string {
    const names = Object.keys(members).sort();
    let key = "";
    for (const name of names) key += `${name}=${this.valueKey(members[name])}\u0001`;
    return key;
  }

  private valueKey(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map((v) => this.valueKey(v)).join(",")}]`;
    if (value !== null && typeof value === "object") {
      // ExtraDetails entries are small: compared as they are.
      if (!("Base64Contents" in value)) return JSON.stringify(value);
      let key = this.attachmentKeys.get(value);
      if (key === undefined) {
        key = `#file${attachmentDigest(value as FileAttachment)}`;
        this.attachmentKeys.set(value, key);
      }
      return key;
    }
    return JSON.stringify(value);
  }
}

export function attachmentDigest(file: FileAttachment): string {
  return createHash("sha1").update(JSON.stringify([file.FileName, file.ContentType])).update(file.Base64Contents).digest("base64");
}
