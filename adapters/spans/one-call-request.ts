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
// A flag that is no boolean is read as one call (one-call-flag.ts): the answer a
// request that a strict reader refuses recorded was not the model's to it.
import { isPlainObject } from "../../src/models/json-value.js";
import { oneCallFlag, shownFlag } from "../../src/models/one-call-flag.js";
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
    const flag = oneCallFlag(value);
    if (flag !== undefined) return { said: `${flag.name} ${shownFlag(flag.value)}`, path: located.path };
  }
  return undefined;
}

/** Why a call after the first of such an answer is not read. */
export function oneCallRefusal(name: string, count: number, limit: OneCallLimit): string {
  return `the call of "${name}" is call ${count} of an answer whose request let it make one (${limit.said}, at ${limit.path}): not read`;
}
