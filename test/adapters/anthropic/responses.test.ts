// Anthropic responses and Open Responses response objects, both ways: the stop
// reasons and what a response object holds that a message does not.
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { replayGate } from "../../../src/gate/replay-gate.js";
import { messageToResponse } from "../../../adapters/anthropic/message-to-response.js";
import type { AnthropicResponse } from "../../../adapters/anthropic/models.js";
import { responseToMessage } from "../../../adapters/anthropic/response-to-message.js";
import type { ResponseResource } from "../../../src/models/open-responses.js";
import { responseWith } from "../../support/response-object.js";
import { withoutNeutralFields } from "../../support/response-neutrals.js";

const ID = "msg_01Hq7c2vVwXyZ8Lm3Nk4Pq5R";
const itemId = (prefix: string, index: number) => `${prefix}_${createHash("sha256").update(`${ID}\u0000${index}`).digest("hex").slice(0, 48)}`;
const usage = { input_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 5, output_tokens: 9 };
const message = (fields: Record<string, unknown>) =>
  ({ id: ID, type: "message", role: "assistant", model: "claude-sonnet-4-5-20250929", content: [], stop_reason: "end_turn", stop_sequence: null, usage, ...fields }) as AnthropicResponse;
const text = (value: string) => ({ type: "text", text: value });
const toolUse = (id: string) => ({ type: "tool_use", id, name: "get_weather", input: { city: "Oslo" } });
const created = { path: "/created_at", code: "synthesized", detail: "an Anthropic message has no creation time: created_at 0 written" };

describe("messageToResponse, stop reasons", () => {
  test("end_turn is completed, with item ids derived from the response id and usage counted as Open Responses counts it", () => {
    const converted = messageToResponse({ message: message({ content: [text("Rain.")] }) });
    expect({ ...converted, losses: withoutNeutralFields(converted.losses) }).toEqual({
      value: responseWith({
        id: ID,
        created_at: 0,
        model: "claude-sonnet-4-5-20250929",
        output: [{ id: itemId("msg", 0), type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "Rain.", annotations: [] }] }],
        usage: { input_tokens: 25, output_tokens: 9, total_tokens: 34, input_tokens_details: { cached_tokens: 5 }, output_tokens_details: { reasoning_tokens: 0 } },
        "anthropic:stop_sequence": null,
        "anthropic:usage": usage,
      }),
      losses: [created, { path: "/output/0/id", code: "synthesized", detail: `an Anthropic block has no item id: ${itemId("msg", 0)} derived from the message id and the item's place` }],
    });
  });

  test("max_tokens is incomplete, and the call it cut (the last block) incomplete too", () => {
    const converted = messageToResponse({ message: message({ content: [toolUse("toolu_01A"), toolUse("toolu_01B")], stop_reason: "max_tokens" }) });
    expect(converted.value.status).toBe("incomplete");
    expect(converted.value.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect(converted.value.output.map((item) => [item.type, item.status])).toEqual([
      ["function_call", "completed"],
      ["function_call", "incomplete"],
    ]);
  });

  test("stop_sequence is completed, and the stop_reason the status cannot give back is kept", () => {
    const converted = messageToResponse({ message: message({ content: [text("The city of ")], stop_reason: "stop_sequence", stop_sequence: "Oslo" }) });
    expect(converted.value).toMatchObject({ status: "completed", "anthropic:stop_reason": "stop_sequence", "anthropic:stop_sequence": "Oslo" });
  });

  test("pause_turn is an incomplete response whose reason says so", () => {
    const converted = messageToResponse({ message: message({ content: [{ type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: { query: "fjords" } }], stop_reason: "pause_turn" }) });
    expect(converted.value).toMatchObject({ status: "incomplete", incomplete_details: { reason: "pause_turn" } });
    expect(converted.value.output).toEqual([{ type: "anthropic:server_tool_use", id: "srvtoolu_01", name: "web_search", input: { query: "fjords" } }]);
  });

  test("a call in a refused turn is incomplete, and the gate blocks it; its text stays completed; the way back keeps the stop_reason", () => {
    const refused = message({ content: [text("Checking."), toolUse("toolu_01")], stop_reason: "refusal" });
    const converted = messageToResponse({ message: refused });
    expect(converted.value.output.map((item) => [item.type, (item as { status?: unknown }).status])).toEqual([
      ["message", "completed"],
      ["function_call", "incomplete"],
      ["message", "completed"],
    ]);
    expect(replayGate(converted.value.output[1] as never, { type: "object" }).reason).toBe("status");
    expect(responseToMessage({ response: converted.value }).losses.filter((loss) => loss.path.endsWith("/status"))).toEqual([]);
  });

  test("refusal ends the output with a refusal part holding the explanation", () => {
    const stopDetails = { type: "refusal", category: "cyber", explanation: "This could enable harm." };
    const converted = messageToResponse({ message: message({ content: [text("I can")], stop_reason: "refusal", stop_details: stopDetails }) });
    expect(converted.value.output).toEqual([
      {
        id: itemId("msg", 0),
        type: "message",
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: "I can", annotations: [] }, { type: "refusal", refusal: "This could enable harm." }],
      },
    ]);
    expect(responseToMessage({ response: converted.value })).toEqual({ value: message({ content: [text("I can")], stop_reason: "refusal", stop_details: stopDetails }), losses: [] });
  });

  test("a refusal without text content is a message of its own", () => {
    const converted = messageToResponse({ message: message({ content: [], stop_reason: "refusal" }) });
    expect(converted.value.output).toEqual([{ id: itemId("msg", 0), type: "message", status: "completed", role: "assistant", content: [{ type: "refusal", refusal: "" }] }]);
    expect(responseToMessage({ response: converted.value }).value).toEqual(message({ content: [], stop_reason: "refusal" }));
  });

  test("no stop_reason yet (a message_start snapshot) is in_progress, its calls too", () => {
    const converted = messageToResponse({ message: message({ content: [toolUse("toolu_01A")], stop_reason: null }) });
    expect(converted.value).toMatchObject({ status: "in_progress", incomplete_details: null });
    expect(converted.value.output[0].status).toBe("in_progress");
  });
});

describe("responseToMessage, a response object Anthropic did not write", () => {
  const response = (fields: Record<string, unknown>) =>
    responseWith({ id: "resp_68af", created_at: 0, model: "gpt-5", output: [], usage: { input_tokens: 30, output_tokens: 4, total_tokens: 34, input_tokens_details: { cached_tokens: 10 }, output_tokens_details: { reasoning_tokens: 0 } }, ...fields }) as ResponseResource;

  test("a completed response with a call gives tool_use, usage less its cached tokens", () => {
    const converted = responseToMessage({
      response: response({ output: [{ id: "fc_68af01", type: "function_call", status: "completed", call_id: "call_Qx7", name: "get_weather", arguments: '{"city":"Oslo"}' }] }),
    });
    expect(converted).toEqual({
      value: {
        id: "resp_68af",
        type: "message",
        role: "assistant",
        model: "gpt-5",
        content: [{ type: "tool_use", id: "call_Qx7", name: "get_weather", input: { city: "Oslo" } }],
        stop_reason: "tool_use",
        stop_sequence: null,
        usage: { input_tokens: 20, cache_read_input_tokens: 10, output_tokens: 4 },
      },
      losses: [{ path: "/output/0/id", code: "unsupported_field", detail: "item ids have no place in an Anthropic response" }],
    });
  });

  test("a usage that does not say its cached tokens gives no cache_read_input_tokens: not written as 0", () => {
    const converted = responseToMessage({ response: response({ usage: { input_tokens: 30, output_tokens: 4, total_tokens: 34 } }) });
    expect(converted.value.usage).toEqual({ input_tokens: 30, output_tokens: 4 });
    expect(converted.losses).toEqual([]);
  });

  test("a usage without input_tokens gives 0, reported at the field", () => {
    const converted = responseToMessage({ response: response({ usage: { output_tokens: 4 } }) });
    expect(converted.value.usage).toEqual({ input_tokens: 0, output_tokens: 4 });
    expect(converted.losses).toEqual([{ path: "/usage/input_tokens", code: "synthesized", detail: "no input_tokens: 0 written, which Anthropic always reports" }]);
  });

  test("incomplete for max_output_tokens gives max_tokens", () => {
    expect(responseToMessage({ response: response({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } }) }).value.stop_reason).toBe("max_tokens");
  });

  test("a failed response has no stop_reason, reported with its error", () => {
    const converted = responseToMessage({ response: response({ status: "failed", error: { code: "server_error", message: "boom" } }) });
    expect(converted.value.stop_reason).toBeNull();
    expect(converted.losses).toEqual([
      { path: "/status", code: "unsupported_field", detail: 'status "failed" has no stop_reason; null written' },
      { path: "/error", code: "unsupported_field", detail: "an Anthropic message has no error" },
    ]);
  });

  test("fields a message cannot hold are reported when they differ from the neutral value", () => {
    const converted = responseToMessage({ response: response({ created_at: 1756315657, temperature: 0.2, instructions: "Be brief.", "openai:x": 1 }) });
    expect(converted.losses).toEqual([
      { path: "/created_at", code: "unsupported_field", detail: "an Anthropic message has no creation time" },
      { path: "/instructions", code: "unsupported_field", detail: 'an Anthropic message has no instructions (a value other than null is lost)' },
      { path: "/temperature", code: "unsupported_field", detail: "an Anthropic message has no temperature (a value other than 1 is lost)" },
      { path: "/openai:x", code: "provider_extension", detail: '"openai:x" is not a field of a response object; an Anthropic message has no place for it' },
    ]);
  });

  test("a user message in the output is reported", () => {
    const converted = responseToMessage({ response: response({ output: [{ type: "message", id: "msg_1", status: "completed", role: "user", content: [{ type: "input_text", text: "Hi" }] }] }) });
    expect(converted.losses).toEqual([{ path: "/output/0", code: "unsupported_item", detail: "a user message has no place in an Anthropic response, which holds the assistant's turn only" }]);
  });
});
