// A message record that carries its own response's stop reason (a response
// written without its type, or a message kept with the reason beside it) ended
// as that reason says: its calls get the status the response path gives them.
import { describe, expect, test } from "vitest";
import { gateJournal } from "../../src/gate/gate-journal.js";

const schema = { type: "object" };

async function statuses(record: unknown): Promise<string[]> {
  const verdicts: Array<{ type?: unknown; reason: string; detail: string }> = [];
  for await (const verdict of gateJournal([JSON.stringify(record)], { schema })) verdicts.push(verdict);
  return verdicts.filter((verdict) => verdict.type === "function_call").map((verdict) => `${verdict.reason}${verdict.reason === "status" ? `: ${verdict.detail}` : ""}`);
}


describe("a message that carries its response's stop reason", () => {
  test.each([
    ["Anthropic, max_tokens", { role: "assistant", stop_reason: "max_tokens", content: [{ type: "tool_use", id: "toolu_1", name: "delete_all", input: {} }] }],
    ["Anthropic, refusal", { role: "assistant", stop_reason: "refusal", content: [{ type: "tool_use", id: "toolu_1", name: "delete_all", input: {} }] }],
    ["Bedrock, guardrail_intervened", { role: "assistant", stopReason: "guardrail_intervened", content: [{ toolUse: { toolUseId: "t1", name: "delete_all", input: {} } }] }],
    ["Gemini, MALFORMED_FUNCTION_CALL", { role: "model", finishReason: "MALFORMED_FUNCTION_CALL", parts: [{ functionCall: { id: "g1", name: "delete_all", args: {} } }] }],
    ["Chat, length", { role: "assistant", content: null, finish_reason: "length", tool_calls: [{ id: "call_1", type: "function", function: { name: "delete_all", arguments: "{}" } }] }],
    ["Anthropic, in the other spelling", { role: "assistant", stopReason: "max_tokens", content: [{ type: "tool_use", id: "toolu_1", name: "delete_all", input: {} }] }],
    ["Bedrock, in the other spelling", { role: "assistant", stop_reason: "max_tokens", content: [{ toolUse: { toolUseId: "t1", name: "delete_all", input: {} } }] }],
    ["Chat, in the other spelling", { role: "assistant", content: null, finishReason: "length", tool_calls: [{ id: "call_1", type: "function", function: { name: "delete_all", arguments: "{}" } }] }],
    ["Anthropic, two spellings that disagree", { role: "assistant", stop_reason: "tool_use", stopReason: "max_tokens", content: [{ type: "tool_use", id: "toolu_1", name: "delete_all", input: {} }] }],
    ["Gemini, two spellings that disagree", { role: "model", finishReason: "STOP", finish_reason: "SAFETY", parts: [{ functionCall: { id: "g1", name: "delete_all", args: {} } }] }],
    ["Gemini, a content that says STOP in a candidate that says SAFETY", { candidates: [{ content: { role: "model", finishReason: "STOP", parts: [{ functionCall: { id: "g1", name: "delete_all", args: {} } }] }, finishReason: "SAFETY" }] }],
  ])("%s: its call is blocked", async (_, record) => {
    expect(await statuses(record)).toEqual([expect.stringMatching(/^status: status is "(incomplete|in_progress)"; only "completed" may run$/)]);
  });

  test.each([
    ["Anthropic, tool_use", { role: "assistant", stop_reason: "tool_use", content: [{ type: "tool_use", id: "toolu_1", name: "delete_all", input: {} }] }],
    ["Bedrock, tool_use", { role: "assistant", stopReason: "tool_use", content: [{ toolUse: { toolUseId: "t1", name: "delete_all", input: {} } }] }],
    ["Gemini, STOP", { role: "model", finishReason: "STOP", parts: [{ functionCall: { id: "g1", name: "delete_all", args: {} } }] }],
    ["Gemini, STOP in both spellings and in its candidate", { candidates: [{ content: { role: "model", finishReason: "STOP", finish_reason: "STOP", parts: [{ functionCall: { id: "g1", name: "delete_all", args: {} } }] }, finishReason: "STOP" }] }],
    ["Chat, tool_calls", { role: "assistant", content: null, finish_reason: "tool_calls", tool_calls: [{ id: "call_1", type: "function", function: { name: "delete_all", arguments: "{}" } }] }],
  ])("%s: its call runs", async (_, record) => {
    expect(await statuses(record)).toEqual(["ok"]);
  });
});

describe("a response that gives its stop reason two ways", () => {
  const toolUse = { type: "tool_use", id: "toolu_1", name: "delete_all", input: {} };
  const anthropic = (reasons: Record<string, unknown>) => ({ id: "msg_1", type: "message", role: "assistant", model: "claude", content: [toolUse], ...reasons });

  test("Anthropic, stop_reason and stopReason that disagree: its call is blocked", async () => {
    expect(await statuses(anthropic({ stop_reason: "tool_use", stopReason: "max_tokens" }))).toEqual(['status: status is "incomplete"; only "completed" may run']);
  });

  test("Anthropic, the same reason in both spellings: its call runs", async () => {
    expect(await statuses(anthropic({ stop_reason: "tool_use", stopReason: "tool_use" }))).toEqual(["ok"]);
  });

  const bedrock = (reasons: Record<string, unknown>, onMessage: Record<string, unknown> = {}) => ({
    output: { message: { role: "assistant", content: [{ toolUse: { toolUseId: "t1", name: "delete_all", input: {} } }], ...onMessage } },
    ...reasons,
  });

  test.each([
    ["Bedrock, stopReason and stop_reason that disagree", bedrock({ stopReason: "tool_use", stop_reason: "max_tokens" })],
    ["Bedrock, a message that says max_tokens in a response that says tool_use", bedrock({ stopReason: "tool_use" }, { stopReason: "max_tokens" })],
  ])("%s: its call is blocked", async (_, record) => {
    expect(await statuses(record)).toEqual(['status: status is "incomplete"; only "completed" may run']);
  });

  test("Bedrock, the same reason on the response and its message: its call runs", async () => {
    expect(await statuses(bedrock({ stopReason: "tool_use", stop_reason: "tool_use" }, { stopReason: "tool_use" }))).toEqual(["ok"]);
  });
});

describe("a Gemini response that says its prompt was blocked and still holds a candidate", () => {
  // A blocked prompt gets no candidate: a response that says both is read as filtered.
  const candidates = [{ content: { role: "model", parts: [{ functionCall: { id: "g1", name: "delete_all", args: {} } }] }, finishReason: "STOP" }];

  test.each([
    ["promptFeedback.blockReason", { promptFeedback: { blockReason: "SAFETY" }, candidates }],
    ["prompt_feedback.block_reason, as the Python SDK dumps it", { prompt_feedback: { block_reason: "OTHER" }, candidates }],
  ])("%s: its call is blocked", async (_, record) => {
    expect(await statuses(record)).toEqual(['status: status is "incomplete"; only "completed" may run']);
  });

  test("a promptFeedback that names no blockReason (null, or safety ratings alone) blocks nothing: its call runs", async () => {
    expect(await statuses({ prompt_feedback: { block_reason: null, safety_ratings: null }, candidates })).toEqual(["ok"]);
    expect(await statuses({ promptFeedback: { safetyRatings: [] }, candidates })).toEqual(["ok"]);
  });
});
