// A GenerateContentResponse as the Python SDK's model_dump writes it: its fields
// in snake_case (response_id, model_version, create_time, usage_metadata), read
// as their camelCase spellings are, and written back as they were.
import { describe, expect, test } from "vitest";
import { generateContentToResponse } from "../../../adapters/gemini/generate-content-to-response.js";
import { isGeminiResponse, isGeminiStreamChunk } from "../../../adapters/gemini/recognise.js";
import { responseToGenerateContent } from "../../../adapters/gemini/response-to-generate-content.js";
import { runOrbridge } from "../../support/run-cli.js";

const dumped = {
  candidates: [{ content: { parts: [{ text: "Four." }], role: "model" }, finish_reason: "STOP", index: null }],
  create_time: "2025-06-01T12:00:00Z",
  model_version: "gemini-2.5-flash",
  response_id: "Q3tCaOmXLqC",
  usage_metadata: { candidates_token_count: 5, prompt_token_count: 10, thoughts_token_count: 2, total_token_count: 17 },
};
const pick = (value: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((key) => [key, value[key]]));

describe("a response dumped in snake_case", () => {
  test("gives the id, model, time and usage it holds, with nothing synthesized for them", () => {
    const { value, losses } = generateContentToResponse({ response: dumped });
    expect(pick(value, ["id", "model", "created_at", "usage"])).toEqual({
      id: "Q3tCaOmXLqC",
      model: "gemini-2.5-flash",
      created_at: 1748779200,
      usage: { input_tokens: 10, output_tokens: 7, total_tokens: 17, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 2 } },
    });
    expect(losses.filter((loss) => ["/id", "/model", "/created_at", "/usage"].includes(loss.path))).toEqual([]);
  });

  test("is written back in the spelling it was read in, and not again in camelCase", () => {
    const { value } = generateContentToResponse({ response: dumped });
    const back = responseToGenerateContent({ response: value });
    expect(back.value).toEqual({
      candidates: [{ content: { parts: [{ text: "Four." }], role: "model" }, finish_reason: "STOP", index: null }],
      create_time: "2025-06-01T12:00:00Z",
      model_version: "gemini-2.5-flash",
      response_id: "Q3tCaOmXLqC",
      usage_metadata: { candidates_token_count: 5, prompt_token_count: 10, thoughts_token_count: 2, total_token_count: 17 },
    });
  });
});

describe("a blocked prompt dumped in snake_case", () => {
  const blocked = { candidates: null, prompt_feedback: { block_reason: "SAFETY", safety_ratings: null }, usage_metadata: { prompt_token_count: 10, total_token_count: 10 }, model_version: "gemini-2.5-flash", response_id: "b1" };

  test("is a Gemini response", () => {
    expect(isGeminiResponse(blocked)).toBe(true);
  });

  test("is incomplete, filtered, with no output", () => {
    const { value } = generateContentToResponse({ response: blocked });
    expect(pick(value, ["id", "status", "incomplete_details", "output"])).toEqual({ id: "b1", status: "incomplete", incomplete_details: { reason: "content_filter" }, output: [] });
  });

  test("normalize reads it, with no error record", async () => {
    const run = await runOrbridge(["normalize"], JSON.stringify(blocked) + "\n");
    expect([run.code, run.stdout]).toEqual([0, ""]);
    expect(run.stderr).not.toContain("no known kind");
  });
});

describe("a chunk whose finish_reason is null", () => {
  test("is still streaming, as one without a finish_reason is", () => {
    const chunk = { candidates: [{ content: { parts: [{ text: "Rolling." }], role: "model" }, finish_reason: null, index: null }], response_id: "r1" };
    expect([isGeminiResponse(chunk), isGeminiStreamChunk(chunk)]).toEqual([false, true]);
  });
});
