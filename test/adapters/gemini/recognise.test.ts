// The recognisers tell Gemini records by shape, and claim no other envelope's.
import { describe, expect, test } from "vitest";
import { isGeminiContent, isGeminiRequestBody, isGeminiResponse, isGeminiStreamChunk } from "../../../adapters/gemini/recognise.js";

describe("contents", () => {
  test("a model content of parts is Gemini's", () => {
    expect(isGeminiContent({ role: "model", parts: [{ text: "Hi." }] })).toBe(true);
  });

  test("a Chat message is not", () => {
    expect(isGeminiContent({ role: "assistant", content: "Hi." })).toBe(false);
  });
});

describe("request bodies", () => {
  test("a body with contents is Gemini's", () => {
    expect(isGeminiRequestBody({ contents: [{ parts: [{ text: "Hi." }], role: "user" }], generationConfig: {} })).toBe(true);
  });

  test("a Chat or Open Responses body is not", () => {
    expect([isGeminiRequestBody({ model: "gpt-4o", messages: [] }), isGeminiRequestBody({ model: "gpt-4o", input: [] })]).toEqual([false, false]);
  });
});

describe("responses and chunks", () => {
  test("candidates or a blocked prompt make a response", () => {
    expect([isGeminiResponse({ candidates: [], responseId: "x" }), isGeminiResponse({ promptFeedback: { blockReason: "SAFETY" } })]).toEqual([true, true]);
  });

  test("a chunk has the shape of a response", () => {
    expect(isGeminiStreamChunk({ candidates: [{ content: { parts: [{ text: "Hi" }], role: "model" } }] })).toBe(true);
  });

  test("an Open Responses response object is not", () => {
    expect(isGeminiResponse({ object: "response", output: [], candidates: [] })).toBe(false);
  });
});
