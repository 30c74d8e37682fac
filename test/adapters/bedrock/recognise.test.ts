// Bedrock records are told by shape: blocks of one member, no `type`. Records
// of the other envelopes are never claimed.
import { describe, expect, test } from "vitest";
import { bedrock } from "../../../adapters/bedrock/index.js";
import { isBedrockMessage, isBedrockRequestBody, isBedrockResponse, isBedrockStreamEvent } from "../../../adapters/bedrock/recognise.js";

describe("isBedrockMessage", () => {
  test("claims a message of one-member blocks", () => {
    expect(isBedrockMessage({ role: "user", content: [{ text: "Hi" }, { toolResult: { toolUseId: "t1", content: [{ text: "ok" }] } }] })).toBe(true);
  });

  test("leaves Chat, Anthropic, Open Responses and Gemini messages alone", () => {
    expect(
      [
        { role: "user", content: "Hi" },
        { role: "user", content: [{ type: "text", text: "Hi" }] },
        { type: "message", role: "user", content: [{ type: "input_text", text: "Hi" }] },
        { role: "model", parts: [{ text: "Hi" }] },
        { role: "system", content: [{ text: "Hi" }] },
      ].map(isBedrockMessage),
    ).toEqual([false, false, false, false, false]);
  });
});

describe("isBedrockRequestBody", () => {
  test("claims a body of Bedrock messages, with or without system", () => {
    expect(isBedrockRequestBody({ messages: [{ role: "user", content: [{ text: "Hi" }] }], system: [], inferenceConfig: {} })).toBe(true);
  });

  test("claims a body with no message by a sign only Converse has", () => {
    expect(
      [
        { messages: [], system: [{ text: "You are terse." }] },
        { messages: [], inferenceConfig: { maxTokens: 5 } },
        { messages: [], toolConfig: { tools: [] } },
        { messages: [], additionalModelRequestFields: {} },
      ].map(isBedrockRequestBody),
    ).toEqual([true, true, true, true]);
  });

  test("leaves a body with no message and no sign of its own to the others", () => {
    expect(
      [{ messages: [] }, { messages: [], system: [] }, { messages: [], system: [{ type: "text", text: "Hi" }] }, { messages: [], system: "Hi" }, { messages: [], temperature: 0 }].map(isBedrockRequestBody),
    ).toEqual([false, false, false, false, false]);
  });

  test("leaves a Chat or Anthropic body alone", () => {
    expect(isBedrockRequestBody({ model: "gpt-5", messages: [{ role: "user", content: "Hi" }] })).toBe(false);
    expect(isBedrockRequestBody({ messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }], system: "Be brief." })).toBe(false);
  });
});

describe("isBedrockResponse", () => {
  test("claims an output.message of role assistant beside a stopReason", () => {
    expect(isBedrockResponse({ output: { message: { role: "assistant", content: [{ text: "Hi" }] } }, stopReason: "end_turn", usage: {} })).toBe(true);
  });

  test("leaves an Open Responses response alone", () => {
    expect(isBedrockResponse({ object: "response", output: [{ type: "message", role: "assistant", content: [] }], status: "completed" })).toBe(false);
  });

  test("claims a response stopped before any block, its content empty, and no message of another shape", () => {
    expect(isBedrockResponse({ output: { message: { role: "assistant", content: [] } }, stopReason: "content_filtered", usage: {} })).toBe(true);
    expect(isBedrockResponse({ output: { message: { role: "user", content: [] } }, stopReason: "content_filtered" })).toBe(false);
    expect(isBedrockResponse({ output: { message: { role: "assistant", content: [], status: "x" } }, stopReason: "end_turn" })).toBe(false);
  });
});

describe("isBedrockStreamEvent", () => {
  test("claims each ConverseStream event", () => {
    expect(
      [
        { messageStart: { role: "assistant" } },
        { contentBlockStart: { contentBlockIndex: 1, start: { toolUse: { toolUseId: "t", name: "f" } } } },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { text: "Hi" }, p: "abc" } },
        { contentBlockStop: { contentBlockIndex: 0 } },
        { messageStop: { stopReason: "end_turn" } },
        { metadata: { usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } } },
      ].map(isBedrockStreamEvent),
    ).toEqual([true, true, true, true, true, true]);
  });

  test("leaves Anthropic and Open Responses events alone, and a block event without its index", () => {
    expect([{ type: "message_start", message: {} }, { type: "response.created", sequence_number: 0 }, { contentBlockStop: {} }].map(isBedrockStreamEvent)).toEqual([false, false, false]);
  });
});

describe("the descriptor", () => {
  test("names the envelope and its slug, and holds every converter", () => {
    expect([bedrock.name, bedrock.slug, Object.keys(bedrock)]).toEqual([
      "bedrock",
      "bedrock",
      ["name", "slug", "argumentsAsObjects", "textAsPartsOnly", "recognise", "messages", "requestBodies", "tools", "toolChoice", "responses", "stream", "writer", "eventStream", "journal"],
    ]);
  });
});
