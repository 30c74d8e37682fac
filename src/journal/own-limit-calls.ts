// A response object repeats what its request allowed (`tool_choice`, `tools`,
// `parallel_tool_calls`: the Responses API writes all three), and the gate
// holds its calls to it: a call to a tool it does not allow, or a second call
// where it allows one, is refused. A chat.completion, an Anthropic message, a
// Gemini response and a Bedrock response have no place for these fields, so
// written there such a call would read as one that may run. It is left out
// instead, and each is reported where the response said it.
//
// | the response's own field                      | calls left out                              |
// |-----------------------------------------------|---------------------------------------------|
// | tool_choice "none"                            | every call                                  |
// | tool_choice {type: "function", name}          | a call to any other name                    |
// | tool_choice {type: "allowed_tools", tools}    | a call to a function it does not name       |
// | tool_choice of another form (a hosted tool…)  | every call: it allows no function that can be named |
// | tools, a list that is not empty               | a call to a function it does not list       |
// | parallel_tool_calls false, or not a boolean   | every call after the first                  |
// | tool_choice.disable_parallel_tool_use true, or not a boolean | the same                     |
//
// "auto", "required", null and an absent field limit nothing, and neither does
// an empty tools list: converters write one where their source had none.
//
// The same holds for what a request body allows the responses that answer it
// (its own exchange's, or those on the lines after it, until the next request
// body, as the gate reads them), where the request written in the target
// cannot say it (lostRequestLimits): one call a turn in Gemini and Bedrock, a
// subset of tools (allowed_tools) in Anthropic and Bedrock, which write it as
// the tools it allows, and "none" in Bedrock, which writes it as no tool; a
// request on a line of its own that lists some tools limits nothing at the gate.
// The gate holds the loose messages and items after such a request to the
// functions it allows too, and each assistant message among them, one answer,
// to one call a turn (not two loose items, which may be two answers), so a
// loose call it refuses is left out with its outputs of the same run.
import type { Loss } from "../models/loss.js";
import type { CanonicalItem } from "../models/open-responses.js";
import { isPlainObject } from "../models/json-value.js";
import { oneCallFlag } from "../models/one-call-flag.js";
import { describeCallId, setAsideItem } from "./unfinished-calls.js";

interface Refusal {
  /** What refuses the call: a field of the response, or a request. */
  by: string;
  why: string;
}

/** What a request allows its responses and the record written of it cannot say; `by` names the request and its field. */
export interface RequestLimits {
  oneCall?: { by: string; says: string };
  allows?: { by: string; names: ReadonlySet<string>; says: string };
}

/**
 * Why the response's own fields, or the request limits given, refuse each
 * call of its output, by index; empty when they refuse none.
 */
export function refusedByOwnLimits(response: Record<string, unknown>, request?: RequestLimits): Map<number, Refusal> {
  const refused = new Map<number, Refusal>();
  if (!Array.isArray(response.output)) return refused;
  const said = "the response's own record of its request";
  const allows = namesAllowed(response).map(({ field, names, says }) => ({ by: `${said} (${field})`, names, says }));
  if (request?.allows !== undefined) allows.push(request.allows);
  const own = oneCallOnly(response);
  const oneCall = own !== undefined ? { by: `${said} (${own.field})`, says: own.says } : request?.oneCall;
  let calls = 0;
  response.output.forEach((item: unknown, index) => {
    if (!isPlainObject(item) || item.type !== "function_call") return;
    calls += 1;
    const name = item.name;
    const limit = allows.find((allowed) => typeof name !== "string" || !allowed.names.has(name));
    if (limit !== undefined) refused.set(index, { by: limit.by, why: `${limit.says}, and the call is to ${JSON.stringify(name)}` });
    else if (oneCall !== undefined && calls > 1) refused.set(index, { by: oneCall.by, why: `${oneCall.says}, and this is call ${calls} of it` });
  });
  return refused;
}

/**
 * The response with each call its own fields, or the request limits given,
 * refuse left out (see the top of this file), for a target titled `target`
 * that has no place for those limits; each left out reported at its item. A
 * call left out is set aside in its place (setAsideItem), so that every other
 * item keeps its index; `left`: the pointers set aside, whose losses from the
 * writer say nothing more.
 */
export function leaveOutRefusedCalls(response: unknown, target: string, request?: RequestLimits): { value: unknown; losses: Loss[]; left: Set<string> } {
  const left = new Set<string>();
  if (!isPlainObject(response) || !Array.isArray(response.output)) return { value: response, losses: [], left };
  const refused = refusedByOwnLimits(response, request);
  if (refused.size === 0) return { value: response, losses: [], left };
  const losses: Loss[] = [];
  for (const [index, refusal] of refused) losses.push(refusedCallLoss(`/output/${index}`, (response.output[index] as Record<string, unknown>).call_id, refusal, target));
  const output = response.output.map((item: unknown, index) => {
    if (!refused.has(index)) return item;
    left.add(`/output/${index}`);
    return setAsideItem((item as Record<string, unknown>).call_id);
  });
  return { value: { ...response, output }, losses, left };
}

/**
 * Loose items (of the messages or items on the lines after a request body),
 * each call to a function `request` does not allow set aside in its place, and
 * each output among them that answers one, for a target titled `target` that
 * has no place for the limit; `at(index)`: an item's pointer. `answerOf(index)`:
 * the assistant message an item comes from, whose calls are one answer's, held
 * to the request's one call a turn (none for loose items: each may be an answer
 * of its own). Items already set aside stay as they are (they are no call).
 * `left`: the pointers set aside.
 */
export function leaveOutDisallowedLooseCalls(items: readonly CanonicalItem[], target: string, at: (index: number) => string, request?: RequestLimits, answerOf?: (index: number) => unknown): { items: CanonicalItem[]; losses: Loss[]; left: Set<string> } {
  const left = new Set<string>();
  const losses: Loss[] = [];
  // The calls the functions allowed refuse, read as a response's are.
  const refused = request?.allows === undefined ? new Map<number, Refusal>() : refusedByOwnLimits({ output: items }, { allows: request.allows });
  const oneCall = request?.oneCall;
  if (oneCall !== undefined && answerOf !== undefined) {
    const calls = new Map<unknown, number>();
    items.forEach((item, index) => {
      if (!isPlainObject(item) || item.type !== "function_call") return;
      const answer = answerOf(index);
      const count = (calls.get(answer) ?? 0) + 1;
      calls.set(answer, count);
      if (count > 1 && !refused.has(index)) refused.set(index, { by: oneCall.by, why: `${oneCall.says}, and this is call ${count} of it` });
    });
  }
  if (refused.size === 0) return { items: [...items], losses, left };
  const refusedIds = new Set<unknown>();
  const kept = items.map((item, index) => {
    const refusal = refused.get(index);
    if (!isPlainObject(item)) return item;
    if (refusal !== undefined) {
      if (typeof item.call_id === "string") refusedIds.add(item.call_id);
      losses.push(refusedCallLoss(at(index), item.call_id, refusal, target));
    } else if (item.type === "function_call_output" && refusedIds.has(item.call_id)) {
      losses.push({ path: at(index), code: "unsupported_item", detail: `the output answers the call ${describeCallId(item.call_id)}, left out as its request does not allow it: it is left out with it` });
    } else return item;
    left.add(at(index));
    return setAsideItem(item.call_id);
  });
  return { items: kept, losses, left };
}

/** The loss of a call left out because a limit the target has no place for refuses it. */
function refusedCallLoss(path: string, callId: unknown, refusal: Refusal, target: string): Loss {
  return { path, code: "unsupported_item", detail: `the call ${describeCallId(callId)} is refused by ${refusal.by}: ${refusal.why}; ${target} has no place for that limit, and written there the call would read as one that may run, so it is left out` };
}

/**
 * What the Open Responses form of a request body allows its responses that
 * the body written in `target` cannot say, for the responses that answer it;
 * `request` names the request in a sentence (`the request it answers`, `the
 * request body of line 3`). Undefined when the target says it all.
 */
export function lostRequestLimits(body: unknown, target: string, request: string): RequestLimits | undefined {
  if (!isPlainObject(body)) return undefined;
  const limits: RequestLimits = {};
  const oneCall = target === "gemini" || target === "bedrock" ? oneCallOnly(body) : undefined;
  if (oneCall !== undefined) limits.oneCall = { by: `${request} (${oneCall.field})`, says: oneCall.says };
  const choice = body.tool_choice;
  const lostChoice = (target === "anthropic" || target === "bedrock") && isPlainObject(choice) && choice.type === "allowed_tools";
  if (lostChoice || (target === "bedrock" && choice === "none")) {
    const names = choiceNames(choice);
    limits.allows = { by: `${request} (/tool_choice)`, names, says: `it allows ${describeNames(names)}` };
  }
  return limits.oneCall === undefined && limits.allows === undefined ? undefined : limits;
}

interface NamesAllowed {
  field: string;
  names: ReadonlySet<string>;
  says: string;
}

function namesAllowed(response: Record<string, unknown>): NamesAllowed[] {
  const limits: NamesAllowed[] = [];
  const choice = response.tool_choice;
  if (choice !== undefined && choice !== null && choice !== "auto" && choice !== "required") {
    const names = choiceNames(choice);
    limits.push({ field: "/tool_choice", names, says: `it allows ${describeNames(names)}` });
  }
  if (Array.isArray(response.tools) && response.tools.length > 0) {
    const names = new Set<string>();
    for (const tool of response.tools) if (isPlainObject(tool) && tool.type === "function" && typeof tool.name === "string") names.add(tool.name);
    limits.push({ field: "/tools", names, says: `they list ${describeNames(names)}` });
  }
  return limits;
}

/**
 * The functions a tool_choice that limits them allows: a named one, those
 * allowed_tools names, or none ("none", allowed_tools of mode "none", a
 * function of a namespace, which is no top-level function, any other form).
 */
function choiceNames(choice: unknown): Set<string> {
  const names = new Set<string>();
  if (isPlainObject(choice) && choice.type === "function" && typeof choice.name === "string" && (choice.namespace === undefined || choice.namespace === null)) names.add(choice.name);
  else if (isPlainObject(choice) && choice.type === "allowed_tools" && choice.mode !== "none" && Array.isArray(choice.tools)) {
    for (const tool of choice.tools) if (isPlainObject(tool) && tool.type === "function" && typeof tool.name === "string") names.add(tool.name);
  }
  return names;
}

/** The field of a response object, or of a request body, that lets the response make one call (one-call-flag.ts). */
function oneCallOnly(fields: Record<string, unknown>): { field: string; says: string } | undefined {
  const flag = oneCallFlag(fields);
  return flag && { field: flag.field, says: `${JSON.stringify(flag.value)} lets the response make one call` };
}

function describeNames(names: ReadonlySet<string>): string {
  return names.size === 0 ? "no function" : `only ${[...names].map((name) => JSON.stringify(name)).join(", ")}`;
}
