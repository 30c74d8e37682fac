import { describe, expect, test } from "vitest";
import { countWrittenCalls, writtenCallPaths } from "../../src/journal/count-written-calls.js";

const chatCall = { id: "call_1", type: "function", function: { name: "f", arguments: "{}" } };

describe("the calls a record writes, in any envelope's form", () => {
  test("each form counts once, where it sits", () => {
    const record = {
      choices: [{ message: { tool_calls: [chatCall, chatCall], function_call: { name: "f", arguments: "{}" } } }],
      candidates: [{ content: { parts: [{ text: "x", functionCall: { name: "f", args: {} } }] } }],
      output: { message: { content: [{ toolUse: { toolUseId: "t", name: "f", input: {} } }] } },
      input: [{ type: "function_call", call_id: "c", name: "f", arguments: "{}" }],
      content: [{ type: "tool_use", id: "toolu_1", name: "f", input: {} }],
      contents: [{ parts: [{ text: "x", function_call: { name: "f", args: {} } }] }],
    };
    expect(countWrittenCalls(record)).toBe(8);
    expect(writtenCallPaths(record, 10)).toEqual([
      "/choices/0/message/tool_calls/0",
      "/choices/0/message/tool_calls/1",
      "/choices/0/message/function_call",
      "/candidates/0/content/parts/0/functionCall",
      "/output/message/content/0/toolUse",
      "/input/0",
      "/content/0",
      "/contents/0/parts/0/function_call",
    ]);
    expect(writtenCallPaths(record, 2)).toEqual(["/choices/0/message/tool_calls/0", "/choices/0/message/tool_calls/1"]);
  });

  test("a request's tools and choices, results and a forced function name are no calls", () => {
    const body = {
      model: "m",
      messages: [{ role: "tool", tool_call_id: "call_1", content: "x" }],
      tools: [{ type: "function", function: { name: "f", parameters: {} } }],
      tool_choice: { type: "function", function: { name: "f" } },
      function_call: { name: "f" },
      toolConfig: { functionCallingConfig: { mode: "ANY" } },
      contents: [{ parts: [{ functionResponse: { name: "f", response: {} } }, { toolResult: { toolUseId: "t", content: [] } }] }],
      tool_calls: [],
    };
    expect(countWrittenCalls(body)).toBe(0);
    expect(writtenCallPaths(body, 3)).toEqual([]);
  });

  test("a record nested far deeper than the call stack is counted", () => {
    let deep: unknown = { type: "function_call" };
    for (let i = 0; i < 100_000; i++) deep = { inner: deep };
    expect(countWrittenCalls(deep)).toBe(1);
  });
});
