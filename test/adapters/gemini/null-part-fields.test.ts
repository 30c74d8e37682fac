// The Python SDK's model_dump writes every field of a Part, null but the one it
// holds, and ADK writes its sessions and eval sets so. The API reads a null as
// absent: a part is what its one present field says.
import { describe, expect, test } from "vitest";
import { contentsToItems } from "../../../adapters/gemini/contents-to-items.js";
import { itemsToContents } from "../../../adapters/gemini/items-to-contents.js";
import { gatedCalls as gate, journalOf as journal } from "../../support/gated-calls.js";

const question = { parts: [{ function_call: null, function_response: null, text: "Roll a die with 6 sides." }], role: "user" };
const call = { parts: [{ function_call: { id: "adk-1", name: "roll_die", args: { sides: 6 } }, function_response: null, text: null }], role: "model" };
const result = { parts: [{ function_call: null, function_response: { id: "adk-1", name: "roll_die", response: { result: 4 } }, text: null }], role: "user" };
const declarations = [{ functionDeclarations: [{ name: "roll_die", parameters: { type: "object", properties: { sides: { type: "integer" } }, required: ["sides"] } }] }];

describe("parts whose other fields are null", () => {
  test("a user's text beside function_response: null is the user's text, not a result", () => {
    const { value, losses } = contentsToItems({ contents: [question] });
    expect(value).toEqual([{ type: "message", role: "user", content: [{ type: "input_text", text: "Roll a die with 6 sides.", "gemini:function_call": null, "gemini:function_response": null }] }]);
    expect(losses).toEqual([]);
  });

  test("a call beside text: null is the call", () => {
    const { value, losses } = contentsToItems({ contents: [call] });
    expect(value).toEqual([{ type: "function_call", call_id: "adk-1", name: "roll_die", arguments: '{"sides":6}', status: "completed", "gemini:spelling": "snake", "gemini:function_response": null, "gemini:text": null }]);
    expect(losses).toEqual([]);
  });

  test("a part of another kind beside null data fields is named by the field it holds", () => {
    const code = { parts: [{ executable_code: { language: "PYTHON", code: "print(1)" }, function_call: null, text: null }], role: "model" };
    const { value, losses } = contentsToItems({ contents: [code] });
    expect(value).toEqual([{ type: "gemini:executable_code", executable_code: { language: "PYTHON", code: "print(1)" }, function_call: null, text: null }]);
    expect(losses).toEqual([]);
  });

  test("a part whose every field is null holds nothing: no item, and a loss that says so", () => {
    const empty = { parts: [{ executable_code: null, function_call: null, function_response: null, text: null }], role: "model" };
    expect(contentsToItems({ contents: [empty] })).toEqual({ value: [], losses: [{ path: "/contents/0/parts/0", code: "unsupported_part", detail: "a part whose every field is null holds nothing" }] });
  });

  test("the contents are written back as they were read", () => {
    const { value } = contentsToItems({ contents: [question, call, result] });
    expect(itemsToContents({ items: value }).value).toEqual({ contents: [question, call, result] });
  });

  test("the gate lets the call run and takes the result for its output", async () => {
    expect(await gate(journal([{ contents: [question, call, result], tools: declarations }]))).toEqual({
      code: 0,
      verdicts: [
        [1, "function_call", "adk-1", "ok", []],
        [1, "function_call_output", "adk-1", "not_function_call", []],
      ],
    });
  });
});

describe("a call whose streaming fields are null", () => {
  const whole = { parts: [{ function_call: { id: null, name: "roll_die", args: { sides: 6 }, partial_args: null, will_continue: null }, text: null }], role: "model" };

  test("is a whole call, completed where the response ended with STOP", () => {
    const { value } = contentsToItems({ contents: [whole], finishReason: "STOP" });
    expect(value).toEqual([
      {
        type: "function_call",
        call_id: expect.stringMatching(/^gemini_call_/),
        name: "roll_die",
        arguments: '{"sides":6}',
        status: "completed",
        "gemini:spelling": "snake",
        "gemini:partial_args": null,
        "gemini:will_continue": null,
        "gemini:text": null,
      },
    ]);
  });

  test("the gate lets it run from the response that holds it", async () => {
    const response = { candidates: [{ content: whole, finish_reason: "STOP", index: null }], model_version: "gemini-2.5-flash" };
    const { code, verdicts } = await gate(journal([{ request: { contents: [question], tools: declarations }, response }]));
    expect(code).toBe(0);
    expect(verdicts).toEqual([[1, "function_call", expect.stringMatching(/^gemini_call_/), "ok", []]]);
  });
});
