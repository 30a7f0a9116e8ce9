import type { HeldState, PriorState } from "../../src/journal/prior.js";

type Kind = HeldState["kind"];
type Fields<K extends Kind> = Omit<Extract<HeldState, { readonly kind: K }>, "kind">;

/** The numbers a journal reading holds in one kind of state, each with that state's other fields. */
export function numbersIn<K extends Kind>(prior: PriorState, kind: K): Map<string, Fields<K>> {
  const found = new Map<string, Fields<K>>();
  for (const [number, state] of prior.states) {
    if (state.kind !== kind) continue;
    const fields: { kind?: Kind } = { ...state };
    delete fields.kind;
    found.set(number, fields as Fields<K>);
  }
  return found;
}
