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
import type { Loss } from "../models/loss.js";
import { isPlainObject } from "../models/json-value.js";
import { setAsideItem } from "./unfinished-calls.js";

interface Refusal {
  /** The pointer of the response's field that refuses the call. */
  field: string;
  why: string;
}

/** A field that lets a response make one call: its pointer, and what it says, as a sentence's start. */
export interface OneCall {
  field: string;
  says: string;
}

/**
 * Why the response's own fields refuse each call of its output, by index;
 * empty when they refuse none. `requestOneCall`: the request it answers lets
 * it make one call, where the record written cannot say so.
 */
export function refusedByOwnLimits(response: Record<string, unknown>, requestOneCall?: OneCall): Map<number, Refusal> {
  const refused = new Map<number, Refusal>();
  if (!Array.isArray(response.output)) return refused;
  const allows = namesAllowed(response);
  const oneCall = oneCallOnly(response) ?? requestOneCall;
  let calls = 0;
  response.output.forEach((item: unknown, index) => {
    if (!isPlainObject(item) || item.type !== "function_call") return;
    calls += 1;
    const name = item.name;
    const limit = allows.find((allowed) => typeof name !== "string" || !allowed.names.has(name));
    if (limit !== undefined) refused.set(index, { field: limit.field, why: `${limit.says}, and the call is to ${JSON.stringify(name)}` });
    else if (oneCall !== undefined && calls > 1) refused.set(index, { field: oneCall.field, why: `${oneCall.says}, and this is call ${calls} of it` });
  });
  return refused;
}

/**
 * The response with each call its own fields refuse left out (see the top of
 * this file), for a target titled `target` that has no place for those
 * fields; each left out reported at its item. A call left out is set aside in
 * its place (setAsideItem), so that every other item keeps its index; `left`:
 * the pointers set aside, whose losses from the writer say nothing more.
 */
export function leaveOutRefusedCalls(response: unknown, target: string, requestOneCall?: OneCall): { value: unknown; losses: Loss[]; left: Set<string> } {
  const left = new Set<string>();
  if (!isPlainObject(response) || !Array.isArray(response.output)) return { value: response, losses: [], left };
  const refused = refusedByOwnLimits(response, requestOneCall);
  if (refused.size === 0) return { value: response, losses: [], left };
  const losses: Loss[] = [];
  for (const [index, refusal] of refused) {
    const callId = (response.output[index] as Record<string, unknown>).call_id;
    const call = typeof callId === "string" ? JSON.stringify(callId) : "without call_id";
    const by = refusal.field.startsWith("/request/") ? `the request it answers (${refusal.field})` : `the response's own record of its request (${refusal.field})`;
    losses.push({ path: `/output/${index}`, code: "unsupported_item", detail: `the call ${call} is refused by ${by}: ${refusal.why}; ${target} has no place for that limit, and written there the call would read as one that may run, so it is left out` });
  }
  const output = response.output.map((item: unknown, index) => {
    if (!refused.has(index)) return item;
    left.add(`/output/${index}`);
    return setAsideItem((item as Record<string, unknown>).call_id);
  });
  return { value: { ...response, output }, losses, left };
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
    const names = new Set<string>();
    if (isPlainObject(choice) && choice.type === "function" && typeof choice.name === "string") names.add(choice.name);
    else if (isPlainObject(choice) && choice.type === "allowed_tools" && Array.isArray(choice.tools)) {
      for (const tool of choice.tools) if (isPlainObject(tool) && tool.type === "function" && typeof tool.name === "string") names.add(tool.name);
    }
    limits.push({ field: "/tool_choice", names, says: `it allows ${describeNames(names)}` });
  }
  if (Array.isArray(response.tools) && response.tools.length > 0) {
    const names = new Set<string>();
    for (const tool of response.tools) if (isPlainObject(tool) && tool.type === "function" && typeof tool.name === "string") names.add(tool.name);
    limits.push({ field: "/tools", names, says: `they list ${describeNames(names)}` });
  }
  return limits;
}

/** The field of a request body (Chat, Open Responses, Anthropic) that lets its response make one call, pointed at from the exchange. */
export function requestOneCall(request: unknown): OneCall | undefined {
  const oneCall = isPlainObject(request) ? oneCallOnly(request) : undefined;
  return oneCall && { field: "/request" + oneCall.field, says: oneCall.says };
}

/** The field of a response object, or of a request body, that lets the response make one call. As the gate reads it, a flag of another type than a boolean counts. */
function oneCallOnly(fields: Record<string, unknown>): OneCall | undefined {
  const parallel = fields.parallel_tool_calls;
  if (parallel !== undefined && parallel !== null && parallel !== true) return { field: "/parallel_tool_calls", says: `${JSON.stringify(parallel)} lets the response make one call` };
  const choice = fields.tool_choice;
  const disable = isPlainObject(choice) ? choice.disable_parallel_tool_use : undefined;
  if (disable !== undefined && disable !== null && disable !== false) return { field: "/tool_choice/disable_parallel_tool_use", says: `${JSON.stringify(disable)} lets the response make one call` };
  return undefined;
}

function describeNames(names: ReadonlySet<string>): string {
  return names.size === 0 ? "no function" : `only ${[...names].map((name) => JSON.stringify(name)).join(", ")}`;
}
