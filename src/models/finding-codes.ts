// The codes of the gate's journal-wide findings. Plain data, apart from the Zod
// model of a finding (finding.ts), so that a thread that only checks journals
// does not load Zod.
export const FINDING_CODES = [
  /** A function_call_output with no earlier function_call of that call_id. */
  "orphan_output",
  /** An output whose call's verdict is not `ok`: only a completed, valid call may get one. */
  "output_for_blocked_call",
  /** A call_id called twice, or answered twice. */
  "duplicate_call_id",
  /** An item id used by an earlier item. */
  "duplicate_id",
  /** A call that later items pass by without an output. */
  "missing_output",
  /** An `incomplete` item followed by more items of its response, or inside a response that is not incomplete. */
  "incomplete_not_last",
  /** A function_call without a non-empty call_id or name, a function_call_output without call_id. */
  "missing_field",
  /** A call whose name is outside the allowed tools in force. */
  "tool_not_allowed",
  /** A reasoning item not followed by the item it precedes. */
  "reasoning_without_following_item",
  /** An item_reference that names an item the gate blocked, or one the journal does not hold: what it brings back was not passed. */
  "blocked_reference",
  /** A placeholder or wrong-prefix id (`__fake_id__`, `chatcmpl-…`, `call_…` on a call, an empty id). */
  "foreign_id",
  /** A Chat structure (`tool_calls`, `tool_call_id`, a `tool` role…) inside an item. */
  "mixed_envelope",
  /** The replay target cannot hold the item (`gate --for`). */
  "target_rejects",
  /** The item is not where the replay target needs it (`gate --for`): an output away from its call. */
  "target_order",
] as const;
