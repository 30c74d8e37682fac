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

// A Bedrock Converse tool loop: each request puts a cachePoint block after its
// last message's content, as Bedrock's prompt caching asks, so the message marked
// in one request is sent again unmarked in the next.
describe("gate: a Bedrock request that moves its cachePoint to its last message", () => {
  const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
  const toolConfig = { tools: [{ toolSpec: { name: "get_weather", inputSchema: { json: schema } } }] };
  const cachePoint = { cachePoint: { type: "default" } };
  const bedrockAsk = (marked: boolean) => ({ role: "user", content: [{ text: "Weather in Paris?" }, ...(marked ? [cachePoint] : [])] });
  const use = { role: "assistant", content: [{ toolUse: { toolUseId: "tooluse_01", name: "get_weather", input: { city: "Paris" } } }] };
  const result = (marked: boolean) => ({ role: "user", content: [{ toolResult: { toolUseId: "tooluse_01", content: [{ text: "sunny" }] } }, ...(marked ? [cachePoint] : [])] });
  const said = { role: "assistant", content: [{ text: "Sunny in Paris." }] };
  const exchange = (messages: unknown[], message: unknown, stopReason: string) => ({ request: { modelId: "anthropic.claude-sonnet-4", messages, toolConfig }, response: { output: { message }, stopReason } });
  const text = [
    exchange([bedrockAsk(true)], use, "tool_use"),
    exchange([bedrockAsk(false), use, result(true)], said, "end_turn"),
    exchange([bedrockAsk(false), use, result(false), said, { role: "user", content: [{ text: "Thanks." }, cachePoint] }], { role: "assistant", content: [{ text: "You are welcome." }] }, "end_turn"),
  ]
    .map((record) => JSON.stringify(record) + "\n")
    .join("");

  test("the question sent again without its cachePoint is the one sent before: only what is new is gated", async () => {
    expect(await runOrbridge(["gate", "-"], text)).toEqual({
      code: 0,
      stdout: [
        'line 1  message -  pass not_function_call: "message" is not a function_call',
        "line 1.1  function_call tooluse_01  pass ok: completed call with arguments valid for its schema",
        'line 2.2  function_call_output tooluse_01  pass not_function_call: "function_call_output" is not a function_call',
        'line 2.3  message -  pass not_function_call: "message" is not a function_call',
        'line 3.4  message -  pass not_function_call: "message" is not a function_call',
        'line 3.5  message -  pass not_function_call: "message" is not a function_call',
        "",
      ].join("\n"),
      stderr: "read 3 lines: 6 items, 0 errors; 0 blocked\n",
    });
  });
});
