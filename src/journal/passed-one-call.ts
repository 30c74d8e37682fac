// A request body's one call a turn written in a member passed through to the
// model (an SDK's `extra_body`, a dump's `model_extra`, Bedrock's
// `additionalModelRequestFields`: passed-through.ts) is the request's own, and
// the gate holds its response to it; no other envelope's body has that member,
// so converted, the body would lose the limit and its response's second call
// would read as one that may run. The body's Open Responses (or Chat) form says
// it where it means it, as `parallel_tool_calls` false, reported where the
// source wrote it; a target that cannot write it leaves the calls out
// (own-limit-calls.ts).
import type { Converted } from "../models/loss.js";
import { isPlainObject } from "../models/json-value.js";
import { oneCallFlag, shownFlag } from "../models/one-call-flag.js";
import { PASSED_THROUGH } from "../models/passed-through.js";

/** `written` (the Open Responses or Chat form of the request body `record`) with the one call a turn `record` passes through said at its top. */
export function withPassedOneCall(record: unknown, written: Converted<unknown>): Converted<unknown> {
  const flag = oneCallFlag(record);
  if (flag === undefined || !PASSED_THROUGH.some((holder) => flag.field.startsWith(`/${holder}/`))) return written;
  if (!isPlainObject(written.value) || oneCallFlag(written.value) !== undefined) return written;
  const detail = `${flag.name} ${shownFlag(flag.value)} reaches the model as the request's own, and lets its response make one call: written as parallel_tool_calls false at the top of the body, where the request says it`;
  return { value: { ...written.value, parallel_tool_calls: false }, losses: [...written.losses, { path: flag.field, code: "form_changed", detail }] };
}
