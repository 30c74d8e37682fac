// The gate holds the calls of a request body's own input to what that body
// allows (its tool_choice, the tools it can read): a call to a name the body
// refuses is blocked. A target that cannot write the choice writes a request
// that refuses less: Bedrock has no "none" and leaves every tool out, Anthropic
// and Bedrock have no allowed_tools and offer the tools it allows, which the
// gate does not take for a choice, and a choice that cannot be read is written
// nowhere. Written there as it is, such a call reads as one that may run. It is
// left out instead, with the outputs that answer it, each reported.
//
// | the call, in the body's input                           | written as                         |
// |---------------------------------------------------------|------------------------------------|
// | to a name both the source and the written body allow     | it is                              |
// | to a name both refuse                                   | it is: it stays refused             |
// | to a name the source refuses and the written body allows | nothing, reported, with its outputs |
// | an output of a call left out                            | nothing, reported                   |
import type { CanonicalItem } from "../models/open-responses.js";
import { isPlainObject } from "../models/json-value.js";
import type { Loss } from "../models/loss.js";
import { describeCallId, setAsideItem } from "./unfinished-calls.js";

/** Why a body refuses a call to `name`, as a sentence's end, or `undefined` when it allows it. */
export type Refusal = (name: string) => string | undefined;

/**
 * The input with each call the source body refuses and the written body
 * allows set aside (setAsideItem), with its outputs; each reported at the
 * record as a whole (`at`: the pointer of an item, for `left`), for a target
 * titled `target`. `left`: the pointers set aside, whose losses from the writer
 * say nothing more.
 */
export function leaveOutLostChoiceCalls(input: readonly CanonicalItem[], source: Refusal, written: Refusal, target: string, at: (index: number) => string): { items: CanonicalItem[]; losses: Loss[]; left: Set<string> } {
  const leftIds = new Set<string>();
  const losses: Loss[] = [];
  const left = new Set<string>();
  const items = input.map((item, index) => {
    if (!isPlainObject(item)) return item;
    const callId = item.call_id;
    if (item.type === "function_call" && typeof item.name === "string") {
      const why = source(item.name);
      if (why === undefined || written(item.name) !== undefined) return item;
      if (typeof callId === "string") leftIds.add(callId);
      losses.push({ path: "", code: "unsupported_item", detail: `the call ${describeCallId(callId)} is refused by the request it is in: ${why}; ${target} has no choice that refuses it, and written there the call would read as one that may run, so it is left out` });
    } else if (item.type === "function_call_output" && typeof callId === "string" && leftIds.has(callId)) {
      losses.push({ path: "", code: "unsupported_item", detail: `the output answers the call ${describeCallId(callId)}, left out as its request refuses it: it is left out with it` });
    } else return item;
    left.add(at(index));
    return setAsideItem(callId);
  });
  return { items, losses, left };
}
