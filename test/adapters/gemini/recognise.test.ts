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

  test("a candidate without finishReason is still streaming: a chunk, not a response; with it, either", () => {
    const streaming = { candidates: [{ content: { parts: [{ functionCall: { name: "read_screen", willContinue: true } }], role: "model" } }], responseId: "r" };
    const finished = { candidates: [{ content: { parts: [{ text: "" }], role: "model" }, finishReason: "STOP" }], responseId: "r" };
    expect([isGeminiResponse(streaming), isGeminiStreamChunk(streaming), isGeminiResponse(finished), isGeminiStreamChunk(finished)]).toEqual([false, true, true, true]);
  });

  test("an Open Responses response object is not", () => {
    expect(isGeminiResponse({ object: "response", output: [], candidates: [] })).toBe(false);
  });
});
