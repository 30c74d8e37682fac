// Converse responses ⇄ response objects: the edges the golden cases do not pin.
import { describe, expect, test } from "vitest";
import { converseToResponse, responseStatusOf } from "../../../adapters/bedrock/converse-to-response.js";
import { responseToConverse } from "../../../adapters/bedrock/response-to-converse.js";

const converse = (stopReason: string, content: unknown[] = [{ text: "Done." }]) =>
  ({ output: { message: { role: "assistant", content } }, stopReason, usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 } }) as never;

describe("converseToResponse", () => {
  test("each stopReason gives its status and incomplete reason", () => {
    expect(["end_turn", "tool_use", "stop_sequence", "max_tokens", "guardrail_intervened", "content_filtered", "malformed_tool_use", "model_context_window_exceeded"].map(responseStatusOf)).toEqual([
      { status: "completed", reason: null },
      { status: "completed", reason: null },
      { status: "completed", reason: null },
      { status: "incomplete", reason: "max_output_tokens" },
      { status: "incomplete", reason: "content_filter" },
      { status: "incomplete", reason: "content_filter" },
      { status: "incomplete", reason: "malformed_tool_use" },
      { status: "incomplete", reason: "model_context_window_exceeded" },
    ]);
  });

  test("the id is a digest of the response, the same whatever its key order", () => {
    const a = converseToResponse({ response: converse("end_turn"), model: "m" }).value.id;
    const reordered = { usage: { totalTokens: 12, outputTokens: 2, inputTokens: 10 }, stopReason: "end_turn", output: { message: { content: [{ text: "Done." }], role: "assistant" } } };
    expect(converseToResponse({ response: reordered as never, model: "m" }).value.id).toBe(a);
    expect(a).toMatch(/^resp_[0-9a-f]{48}$/);
  });

  test("without a model, an empty one is written, reported", () => {
    expect(converseToResponse({ response: converse("end_turn") }).losses.map((loss) => loss.detail)).toContain('a Converse response does not name its model (the request URL does): "" written');
  });

  test("a stop_sequence stopReason, which the status does not give back, is kept", () => {
    const response = converseToResponse({ response: converse("stop_sequence"), model: "m" }).value as unknown as Record<string, unknown>;
    expect(response["bedrock:stopReason"]).toBe("stop_sequence");
    expect(responseToConverse({ response: response as never }).value.stopReason).toBe("stop_sequence");
  });

  test("a malformed_tool_use stop leaves its call incomplete, and is kept for the way back", () => {
    const response = converseToResponse({ response: converse("malformed_tool_use", [{ toolUse: { toolUseId: "tooluse_A", name: "f", input: {} } }, { text: "…" }]), model: "m" }).value as unknown as Record<string, unknown>;
    expect([(response.output as Array<Record<string, unknown>>)[0].status, response.incomplete_details, response["bedrock:stopReason"]]).toEqual(["incomplete", { reason: "malformed_tool_use" }, undefined]);
    expect(responseToConverse({ response: response as never }).value.stopReason).toBe("malformed_tool_use");
  });

  test("throws on what is not a Converse response", () => {
    expect(() => converseToResponse({ response: { stopReason: "end_turn" } as never })).toThrow("not a Bedrock Converse response: it has no output.message");
  });
});

describe("responseToConverse", () => {
  test("a response object of another provider: the stopReason derived, usage converted, item ids reported", () => {
    const converted = responseToConverse({
      response: {
        id: "resp_1",
        object: "response",
        created_at: 1,
        status: "incomplete",
        incomplete_details: { reason: "max_output_tokens" },
        model: "gpt-5",
        output: [{ id: "msg_1", type: "message", role: "assistant", status: "incomplete", content: [{ type: "output_text", text: "The capital", annotations: [] }] }],
        usage: { input_tokens: 20, output_tokens: 3, total_tokens: 23, input_tokens_details: { cached_tokens: 8 }, output_tokens_details: { reasoning_tokens: 0 } },
      } as never,
    });
    expect(converted).toEqual({
      value: {
        output: { message: { role: "assistant", content: [{ text: "The capital" }] } },
        stopReason: "max_tokens",
        usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15, cacheReadInputTokens: 8 },
      },
      losses: [
        { path: "/output/0/id", code: "unsupported_field", detail: "Bedrock Converse messages have no item ids" },
        { path: "/id", code: "unsupported_field", detail: 'a Bedrock Converse response has no id: "resp_1" is not kept' },
        { path: "/model", code: "unsupported_field", detail: 'a Bedrock Converse response has no model: "gpt-5" is not kept' },
        { path: "/created_at", code: "unsupported_field", detail: "a Bedrock Converse response has no created_at: 1 is not kept" },
      ],
    });
  });

  test("a failed response has no stopReason: null written, reported", () => {
    const converted = responseToConverse({ response: { id: "r", object: "response", status: "failed", output: [] } as never });
    expect([converted.value.stopReason, converted.losses]).toEqual([
      null,
      [
        { path: "/status", code: "unsupported_field", detail: 'status "failed" has no stopReason: stopReason null written, which the way back reads as a response not finished' },
        { path: "/usage", code: "synthesized", detail: "a Bedrock Converse response requires usage and the response has none: zero counts written" },
        { path: "/id", code: "unsupported_field", detail: 'a Bedrock Converse response has no id: "r" is not kept' },
      ],
    ]);
  });

  test("a response still in progress keeps its call unfinished: stopReason null, never end_turn", () => {
    const call = { type: "function_call", call_id: "call_21", name: "get_weather", arguments: '{"city":"Oslo"}', status: "in_progress" };
    const converted = responseToConverse({ response: { id: "s1", object: "response", status: "in_progress", output: [call] } as never });
    expect(converted).toEqual({
      value: { output: { message: { role: "assistant", content: [{ toolUse: { toolUseId: "call_21", name: "get_weather", input: { city: "Oslo" } } }] } }, stopReason: null, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 } },
      losses: [
        { path: "/status", code: "unsupported_field", detail: 'status "in_progress" has no stopReason: stopReason null written, which the way back reads as a response not finished' },
        { path: "/usage", code: "synthesized", detail: "a Bedrock Converse response requires usage and the response has none: zero counts written" },
        { path: "/id", code: "unsupported_field", detail: 'a Bedrock Converse response has no id: "s1" is not kept' },
      ],
    });
    const back = converseToResponse({ response: converted.value });
    expect(back.value.output.map((item) => [item.type, (item as { status?: string }).status])).toEqual([["function_call", "in_progress"]]);
  });
});
