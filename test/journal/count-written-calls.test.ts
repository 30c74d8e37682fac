import { describe, expect, test } from "vitest";
import { countWrittenCalls, writesNoCall, writtenCallPaths } from "../../src/journal/count-written-calls.js";

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

describe("a line that can write no call", () => {
  test("is one that writes none of the names a call is written with, and no \\u escape", () => {
    const lines = {
      message: '{"type":"message","role":"user","content":"what is a \\"tool_calls\\" array?"}',
      output: '{"type":"function_call_output","call_id":"call_1","output":"done"}',
      toolCalls: '{"role":"assistant","tool_calls":[]}',
      finishReason: '{"finish_reason":"tool_calls"}',
      functionCall: '{"type":"function_call"}',
      geminiCall: '{"functionCall":{}}',
      bedrockCall: '{"toolUse":{}}',
      anthropicCall: '{"type":"tool_use"}',
      escapedName: String.raw`{"type":"tool\u005fuse"}`,
      escapedText: String.raw`{"content":"caf\u00e9"}`,
    };
    const results = Object.fromEntries(Object.entries(lines).map(([name, line]) => [name, writesNoCall(line)]));
    expect(results).toEqual({
      message: true,
      output: true,
      toolCalls: false,
      finishReason: false,
      functionCall: false,
      geminiCall: false,
      bedrockCall: false,
      anthropicCall: false,
      escapedName: false,
      escapedText: false,
    });
  });

  test("agrees with the count: every line it clears writes no call", () => {
    const records = [
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "tool_use and functionCall are names", annotations: [] }] },
      { role: "tool", tool_call_id: "call_1", content: "a toolUse part" },
      { type: "function_call_output", call_id: "call_1", output: "{\"tool_calls\":1}" },
    ];
    for (const record of records) {
      const line = JSON.stringify(record);
      expect([writesNoCall(line), countWrittenCalls(record)]).toEqual([true, 0]);
    }
  });
});
