import { describe, expect, test } from "vitest";
import { detectEnvelopeRecord, detectRecord, type RecordKind } from "../../src/journal/detect.js";

describe("records are told apart by shape", () => {
  const cases: Array<[string, unknown, RecordKind]> = [
    ["a chat user message", { role: "user", content: "What is the capital of France?" }, "chat_message"],
    ["a chat assistant message with tool_calls", { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_capital", arguments: "{}" } }] }, "chat_message"],
    ["a chat tool message", { role: "tool", tool_call_id: "call_1", content: "Paris" }, "chat_message"],
    ["a legacy function message", { role: "function", name: "get_capital", content: "Paris" }, "chat_message"],
    ["an Open Responses message item", { type: "message", role: "user", content: "hi" }, "responses_item"],
    ["a typeless message with input_text parts", { role: "user", content: [{ type: "input_text", text: "hi" }] }, "responses_item"],
    ["a function_call item", { type: "function_call", call_id: "call_1", name: "f", arguments: "{}" }, "responses_item"],
    ["an extension item", { type: "openai:web_search_call", id: "ws_1" }, "responses_item"],
    ["an unprefixed provider item", { type: "web_search_call", id: "ws_1", status: "completed" }, "responses_item"],
    ["an item_reference without type", { id: "msg_1" }, "responses_item"],
    ["a chat request body", { model: "gpt-4o", messages: [], tools: [] }, "chat_request"],
    ["a responses request body", { model: "gpt-4o", input: [] }, "responses_request"],
    ["a responses request body with string input", { input: "hi", instructions: "be brief" }, "responses_request"],
    ["a responses request body naming a stored prompt in place of its input", { prompt: { id: "pmpt_0a1b2c", version: "3", variables: { topic: "tides" } } }, "responses_request"],
    ["a legacy Completions body, whose prompt is text", { model: "gpt-3.5-turbo-instruct", prompt: "Say hi" }, "unknown"],
    ["a chat.completion", { id: "chatcmpl-1", object: "chat.completion", choices: [] }, "chat_completion"],
    ["a chat.completion.chunk", { id: "chatcmpl-1", object: "chat.completion.chunk", choices: [] }, "chat_chunk"],
    ["Azure's prompt filter chunk", { choices: [], created: 0, id: "", model: "", object: "", prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] }, "chat_chunk"],
    ["Perplexity's last chunk", { id: "b7e0c2f4-1d9a-4c3e-8f21-5a6b7c8d9e0f", model: "sonar", created: 1770768237, object: "chat.completion.done", choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: "stop" }] }, "chat_chunk"],
    ["a response object", { id: "resp_1", object: "response", output: [] }, "response"],
    ["a compacted response", { id: "resp_1", object: "response.compaction", created_at: 1775105412, output: [{ id: "cmp_1", type: "compaction", encrypted_content: "gAAA" }], usage: {} }, "response"],
    ["a streaming event", { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: {} }, "responses_event"],
    ["an error event, as the specification writes it", { type: "error", sequence_number: 7, error: { type: "server_error", code: "server_error", message: "down", param: null } }, "responses_event"],
    ["an error event, as OpenAI writes it", { type: "error", sequence_number: 7, code: "server_error", message: "down", param: null }, "responses_event"],
    ["an extension streaming event", { type: "acme:trace_event", sequence_number: 1, phase: "tool_resolution" }, "responses_event"],
    ["an extension item with a sequence_number and its id", { type: "acme:trace_event", id: "tr_1", sequence_number: 1 }, "responses_item"],
    ["a type error with nothing of an error", { type: "error" }, "unknown"],
    ["a logged exchange", { request: { messages: [] }, response: { object: "chat.completion" } }, "exchange"],
    ["an object of no known kind", { hello: "world" }, "unknown"],
    ["an unknown unprefixed type", { type: "thought", text: "x" }, "unknown"],
    ["an array", [1, 2], "unknown"],
    ["a number", 42, "unknown"],
    ["a string", "message", "unknown"],
    ["null", null, "unknown"],
  ];
  test.each(cases)("%s", (_label, record, kind) => {
    expect(detectRecord(record)).toBe(kind);
  });
});

describe("a request body with no message yet", () => {
  test("is Bedrock's when only Converse writes what it holds, Chat's otherwise", () => {
    expect(
      [
        { messages: [], system: [{ text: "You are terse." }] },
        { messages: [], inferenceConfig: { maxTokens: 5 } },
        { messages: [], toolConfig: { tools: [{ toolSpec: { name: "get_weather", inputSchema: { json: { type: "object" } } } }] } },
        { messages: [], max_tokens: 5 },
        { messages: [] },
      ].map(detectEnvelopeRecord),
    ).toEqual([
      { kind: "envelope_request", envelope: "bedrock" },
      { kind: "envelope_request", envelope: "bedrock" },
      { kind: "envelope_request", envelope: "bedrock" },
      { kind: "chat_request" },
      { kind: "chat_request" },
    ]);
  });
});
