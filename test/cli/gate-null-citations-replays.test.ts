// An Anthropic tool loop logged request, response, request: the second request
// sends the response's text block back with "citations": null, as the Anthropic
// Python SDK's model of the block dumps it (mirascope), where the response wrote
// no citations.
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const tools = [{ name: "get_weather", input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }];
const ask = { role: "user", content: "Weather in Paris?" };
const toolUse = { type: "tool_use", id: "toolu_01", name: "get_weather", input: { city: "Paris" } };
const journal = [
  { model: "claude-sonnet-4-0", max_tokens: 1024, tools, messages: [ask] },
  { id: "msg_01", type: "message", role: "assistant", model: "claude-sonnet-4-0", content: [{ type: "text", text: "I will look it up." }, toolUse], stop_reason: "tool_use", stop_sequence: null, usage: { input_tokens: 10, output_tokens: 10 } },
  {
    model: "claude-sonnet-4-0",
    max_tokens: 1024,
    tools,
    messages: [ask, { role: "assistant", content: [{ citations: null, text: "I will look it up.", type: "text" }, toolUse] }, { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01", content: "sunny" }] }],
  },
]
  .map((record) => JSON.stringify(record) + "\n")
  .join("");

describe("gate: an Anthropic request that sends a text block back with citations null", () => {
  test("the replayed text and call are the response's: only the new tool_result is gated", async () => {
    expect(await runOrbridge(["gate", "-"], journal)).toEqual({
      code: 0,
      stdout: [
        'line 1  message -  pass not_function_call: "message" is not a function_call',
        'line 2  message -  pass not_function_call: "message" is not a function_call',
        "line 2.1  function_call toolu_01  pass ok: completed call with arguments valid for its schema",
        'line 3.3  function_call_output toolu_01  pass not_function_call: "function_call_output" is not a function_call',
        "",
      ].join("\n"),
      stderr: "read 3 lines: 4 items, 0 errors; 0 blocked\n",
    });
  });
});
