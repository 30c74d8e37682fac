// An item id no provider gives an item: a placeholder, a Chat completion's id,
// a call id, or nothing at all. Converters that lost the item's real id write
// these (the peers' `__fake_id__`, the `chatcmpl-…` id on every item, the
// call_id put in `id`), so the gate blocks the item (foreign_id), and a
// converter to an envelope without item ids, where the id cannot follow the
// call, leaves the call out rather than let it pass there.
import { describeValue } from "./json-value.js";

/**
 * Why an item's id is not one a provider gave it, or `undefined` when it may be.
 * `type`: the item's kind as the gate names it (`function_call`,
 * `function_call_output`, `item_reference`…), which says whether a call id fits.
 */
export function foreignItemIdReason(fields: Record<string, unknown>, type: string): string | undefined {
  const id = fields.id;
  if (id === undefined || id === null || type === "item_reference") return undefined;
  if (typeof id !== "string") return `the id is ${quoted(id)}, not a string`;
  if (id.trim() === "") return "the id is empty";
  if (/^__.*__$/.test(id)) return `${quoted(id)} is a placeholder id`;
  if (id.startsWith("chatcmpl-")) return `${quoted(id)} is a Chat completion id, not an item id`;
  if (type === "function_call" && id.startsWith("call_")) return `${quoted(id)} is a call id put in the item id`;
  if ((type === "function_call" || type === "function_call_output") && id === fields.call_id) return `the id repeats the call_id ${quoted(id)}`;
  return undefined;
}

/** An id as the gate's findings quote it: at more length than elsewhere, since an id is what a reader looks for. */
function quoted(value: unknown): string {
  return describeValue(value, 60);
}
