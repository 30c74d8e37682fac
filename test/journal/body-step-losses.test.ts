// The second step's losses of a request body, pointed back into the body: by the
// message each input item came from, or left as they are when that is not known.
import { describe, expect, test } from "vitest";
import { joinBodyStepLosses, type BodySteps } from "../../src/journal/body-step-losses.js";

const record = { messages: [{ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] }, { role: "assistant", content: "ok", note: 1 }] };
const steps = (over: Partial<BodySteps> = {}): BodySteps => ({
  record,
  messagesField: "messages",
  itemsOf: () => 1,
  slug: "anthropic",
  input: [{ type: "message", "anthropic:cache_control": { type: "ephemeral" } }, { type: "message", "anthropic:note": 2 }],
  first: [],
  second: [],
  ...over,
});
const loss = (path: string) => ({ path, code: "provider_extension" as const, detail: "d" });

describe("joinBodyStepLosses", () => {
  test("a kept field goes to the block that holds its value; one no block holds with that value, to the message", () => {
    expect(joinBodyStepLosses(steps({ second: [loss("/input/0/anthropic:cache_control"), loss("/input/1/anthropic:note"), loss("/input/1/content")] })).map((one) => one.path)).toEqual([
      "/messages/0/content/0/cache_control",
      "/messages/1",
      "/messages/1",
    ]);
  });

  test("results of one message that hold one value alike: each item's kept field goes to the block of its own call_id", () => {
    const results = [1, 2, 3].map((n) => ({ type: "tool_result", tool_use_id: `toolu_${n}`, content: "r", is_error: false }));
    const input = [1, 2, 3].map((n) => ({ type: "function_call_output", call_id: `toolu_${n}`, output: "r", "anthropic:is_error": false }));
    const second = [0, 1, 2].map((k) => loss(`/input/${k}/anthropic:is_error`));
    expect(joinBodyStepLosses(steps({ record: { messages: [{ role: "user", content: results }] }, itemsOf: () => 3, input, second })).map((one) => one.path)).toEqual([
      "/messages/0/content/0/is_error",
      "/messages/0/content/1/is_error",
      "/messages/0/content/2/is_error",
    ]);
  });

  test("when the messages' items do not add up to the input, a loss at an item is the body's, and names its place in the Open Responses form", () => {
    const second = [loss("/input/1/anthropic:note")];
    const asBody = [{ path: "", code: "provider_extension", detail: "d (/input/1/anthropic:note of the Open Responses form)" }];
    expect(joinBodyStepLosses(steps({ itemsOf: () => 2, second }))).toEqual(asBody);
    expect(joinBodyStepLosses(steps({ itemsOf: () => { throw new Error("not a message"); }, second }))).toEqual(asBody);
    expect(joinBodyStepLosses(steps({ record: null, second }))).toEqual(asBody);
  });

  test("the first step's synthesized values move to their message; its other losses already point into the body", () => {
    const first = [{ path: "/input/1/arguments", code: "synthesized" as const, detail: "d" }, { path: "/messages/0/content/0/text", code: "form_changed" as const, detail: "d" }];
    expect(joinBodyStepLosses(steps({ first })).map((one) => one.path)).toEqual(["/messages/1", "/messages/0/content/0/text"]);
  });

  test("a field a tool kept under the slug goes to the body's tool that holds it; when the tools cannot be matched, to the body", () => {
    const withTools = { ...record, tools: [{ name: "a" }, { name: "b", defer_loading: true }] };
    const tools = [{ type: "function", name: "a" }, { type: "function", name: "b", "anthropic:defer_loading": true }];
    const second = [loss("/tools/1/anthropic:defer_loading"), loss("/tools/1/parameters")];
    // A path the body does not hold (its tools have no `parameters`) is the body's.
    expect(joinBodyStepLosses(steps({ record: withTools, tools, second })).map((one) => one.path)).toEqual(["/tools/1/defer_loading", ""]);
    expect(joinBodyStepLosses(steps({ record: { ...withTools, tools: [withTools.tools[1]] }, tools, second })).map((one) => one.path)).toEqual(["", ""]);
  });
});
