// Whether the request an LLM call recorded let its answer make one call only,
// as the gate reads a logged `{request, response}` exchange:
//
// | written in a request body or its parameters                  | answer      |
// |--------------------------------------------------------------|-------------|
// | `parallel_tool_calls: false` (Chat, Responses)                | one call    |
// | `tool_choice.disable_parallel_tool_use: true` (Anthropic)     | one call    |
// | either flag of another type than a boolean (`"false"`, `0`)   | one call    |
// | either absent, null, or the boolean that allows several       | no limit    |
//
// A flag that is no boolean is read as one call: a reader that coerces it (lax
// validation, a proxy) limits the answer so, and one that does not refuses the
// request, so the answer it recorded was not the model's to that request.
import { isPlainObject } from "../../src/models/json-value.js";
import { parsedValue, type Located } from "./attributes.js";

/** Where a request says its answer makes one call, and how it says it. */
export interface OneCallLimit {
  said: string;
  path: string;
}

/** The first of `bodies` (request bodies, or the parameters an instrumentation recorded of one) that limits the answer to one call. */
export function oneCallRequest(bodies: readonly (Located | undefined)[]): OneCallLimit | undefined {
  for (const located of bodies) {
    if (located === undefined) continue;
    const { value } = parsedValue(located.value);
    if (!isPlainObject(value)) continue;
    const parallel = value.parallel_tool_calls;
    if (parallel !== undefined && parallel !== null && parallel !== true) return { said: `parallel_tool_calls ${shown(parallel)}`, path: located.path };
    const choice = value.tool_choice;
    const disable = isPlainObject(choice) ? choice.disable_parallel_tool_use : undefined;
    if (disable !== undefined && disable !== null && disable !== false) return { said: `tool_choice.disable_parallel_tool_use ${shown(disable)}`, path: located.path };
  }
  return undefined;
}

/** Why a call after the first of such an answer is not read. */
export function oneCallRefusal(name: string, count: number, limit: OneCallLimit): string {
  return `the call of "${name}" is call ${count} of an answer whose request let it make one (${limit.said}, at ${limit.path}): not read`;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
