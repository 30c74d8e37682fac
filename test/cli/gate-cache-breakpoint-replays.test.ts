// An Anthropic tool loop logged request, response, request…: each request marks
// its last block with cache_control, as Anthropic's prompt caching asks of a
// multi-turn caller, so the tool_result marked in one request is sent again
// unmarked in the next.
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const tools = [{ name: "get_weather", input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }];
const ask = { role: "user", content: "Weather in Paris, then Lyon?" };
const toolUse = (id: string, city: string) => ({ role: "assistant", content: [{ type: "tool_use", id, name: "get_weather", input: { city } }] });
const response = (id: string, city: string) => ({ id: `msg_${id}`, type: "message", model: "claude-sonnet-4-0", ...toolUse(id, city), stop_reason: "tool_use", stop_sequence: null, usage: { input_tokens: 10, output_tokens: 10 } });
const toolResult = (id: string, content: string, mark: Record<string, unknown>) => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content, ...mark }] });
// The breakpoint on the last text block of the result, where the result's content is blocks.
const toolResultBlocks = (id: string, content: string, mark: Record<string, unknown>) => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: [{ type: "text", text: content, ...mark }] }] });
const request = (messages: unknown[]) => ({ model: "claude-sonnet-4-0", max_tokens: 1024, tools, messages });
const journal = (replayedMark: Record<string, unknown>, result = toolResult) =>
  [
    request([ask]),
    response("toolu_01", "Paris"),
    request([ask, toolUse("toolu_01", "Paris"), result("toolu_01", "sunny", { cache_control: { type: "ephemeral" } })]),
    response("toolu_02", "Lyon"),
    request([ask, toolUse("toolu_01", "Paris"), result("toolu_01", "sunny", replayedMark), toolUse("toolu_02", "Lyon"), result("toolu_02", "rainy", { cache_control: { type: "ephemeral" } })]),
  ]
    .map((record) => JSON.stringify(record) + "\n")
    .join("");

describe("gate: an Anthropic request that moves its cache breakpoint to its last block", () => {
  const verdicts = [
    'line 1  message -  pass not_function_call: "message" is not a function_call',
    "line 2  function_call toolu_01  pass ok: completed call with arguments valid for its schema",
    'line 3.2  function_call_output toolu_01  pass not_function_call: "function_call_output" is not a function_call',
    "line 4  function_call toolu_02  pass ok: completed call with arguments valid for its schema",
    'line 5.4  function_call_output toolu_02  pass not_function_call: "function_call_output" is not a function_call',
    "",
  ].join("\n");

  test("the tool_result sent again without its cache_control is the one sent before: only the new one is gated", async () => {
    expect(await runOrbridge(["gate", "-"], journal({}))).toEqual({ code: 0, stdout: verdicts, stderr: "read 5 lines: 5 items, 0 errors; 0 blocked\n" });
  });

  test("so is one sent again with cache_control null, as mirascope writes it", async () => {
    expect(await runOrbridge(["gate", "-"], journal({ cache_control: null }))).toEqual({ code: 0, stdout: verdicts, stderr: "read 5 lines: 5 items, 0 errors; 0 blocked\n" });
  });

  test("so is a tool_result whose text block carried the cache_control, sent again without it", async () => {
    expect(await runOrbridge(["gate", "-"], journal({}, toolResultBlocks))).toEqual({ code: 0, stdout: verdicts, stderr: "read 5 lines: 5 items, 0 errors; 0 blocked\n" });
  });
});
