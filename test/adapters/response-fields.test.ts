// A response object converted from any envelope holds what the source said and,
// for every other field the spec requires, a neutral value reported
// `synthesized` at its path: nothing in the output poses as the provider's.
import { describe, expect, test } from "vitest";
import { chatCompletionToResponse } from "../../adapters/chat-completions/completion-to-response.js";
import { ENVELOPES } from "../../adapters/index.js";
import type { ChatCompletion } from "../../src/models/chat-completions.js";
import { RESPONSE_FIELDS, SYNTHESIZED_RESPONSE_VALUES } from "../../src/models/response-neutrals.js";
import { isNeutralField } from "../support/response-neutrals.js";
import { specErrors } from "../support/spec-validator.js";

const chatCompletion = {
  id: "chatcmpl-7",
  object: "chat.completion",
  created: 1745960880,
  model: "gpt-4o-2024-08-06",
  choices: [{ index: 0, message: { role: "assistant", content: "Dry.", refusal: null }, logprobs: null, finish_reason: "stop" }],
} as ChatCompletion;

const anthropicMessage = {
  id: "msg_01",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-5-20250929",
  content: [{ type: "text", text: "Dry." }],
  stop_reason: "end_turn",
  stop_sequence: null,
  usage: { input_tokens: 5, output_tokens: 2 },
};

const geminiResponse = {
  candidates: [{ content: { role: "model", parts: [{ text: "Dry." }] }, finishReason: "STOP", index: 0 }],
  modelVersion: "gemini-2.5-flash",
  responseId: "resp-1",
};

const bedrockResponse = {
  output: { message: { role: "assistant", content: [{ text: "Dry." }] } },
  stopReason: "end_turn",
  usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 },
};

const cases = [
  { envelope: "chat", convert: () => chatCompletionToResponse({ completion: chatCompletion }), given: [] as string[] },
  { envelope: "anthropic", convert: () => ENVELOPES.anthropic.responseToResource(anthropicMessage), given: ["usage"] },
  { envelope: "gemini", convert: () => ENVELOPES.gemini.responseToResource(geminiResponse), given: [] as string[] },
  { envelope: "bedrock", convert: () => ENVELOPES.bedrock.responseToResource(bedrockResponse), given: ["usage"] },
];

describe.each(cases)("a response converted from $envelope", ({ convert, given }) => {
  test("reports every required field its source cannot tell as synthesized, in the spec's order, and no other", () => {
    const { losses } = convert();
    const expected = RESPONSE_FIELDS.filter((field) => field in SYNTHESIZED_RESPONSE_VALUES && !given.includes(field)).map((field) => `/${field}`);
    expect(losses.filter(isNeutralField).map((loss) => loss.path)).toEqual(expected);
  });

  test("holds at each synthesized path the value the report names, and is a valid response object", () => {
    const { value, losses } = convert();
    const written = losses.filter(isNeutralField).map((loss) => [loss.path.slice(1), (value as Record<string, unknown>)[loss.path.slice(1)]]);
    expect(written).toEqual(written.map(([field]) => [field, SYNTHESIZED_RESPONSE_VALUES[field as keyof typeof SYNTHESIZED_RESPONSE_VALUES]]));
    for (const loss of losses.filter(isNeutralField)) expect(loss.detail).toContain(`: ${JSON.stringify(SYNTHESIZED_RESPONSE_VALUES[loss.path.slice(1) as keyof typeof SYNTHESIZED_RESPONSE_VALUES])} written`);
    expect(specErrors("ResponseResource", value)).toEqual([]);
  });
});
