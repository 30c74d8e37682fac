import { describe, expect, test } from "vitest";
import { chatCompletionToResponse } from "../../adapters/chat-completions/completion-to-response.js";
import { responseToChatCompletion } from "../../adapters/chat-completions/response-to-completion.js";
import { ChatStreamAssembler } from "../../adapters/chat-completions/stream.js";
import { GeminiStreamAssembler } from "../../adapters/gemini/stream.js";
import { convertAssembledResponse } from "../../src/journal/convert-assembled-response.js";
import { ResponsesStreamAssembler } from "../../src/journal/responses-stream.js";
import type { AssembledResponse } from "../../src/models/assembled-response.js";
import type { ChatCompletion } from "../../src/models/chat-completions.js";
import type { Loss } from "../../src/models/loss.js";
import type { ResponseResource } from "../../src/models/open-responses.js";
import { isDerivedChatItemId, withoutNeutralFields } from "../support/response-neutrals.js";

/** Pushes records numbered from 1 into an assembler asked for whole records; returns the responses, in order. */
function assemble(assembler: ChatStreamAssembler | ResponsesStreamAssembler, records: unknown[]): AssembledResponse[] {
  return [...records.flatMap((record, i) => assembler.push(record, i + 1)), ...assembler.finish()];
}
const damage = (line: number): Loss => ({ path: "", code: "form_changed", detail: `line ${line} of this stream could not be read; its calls are marked incomplete` });

const CHAT_ID = "chatcmpl-b610d559-f156-4aca-8827-24b4fe6af54f";
const fields = { id: CHAT_ID, object: "chat.completion.chunk", created: 1770770843, model: "llama-3.3-70b-versatile" };
const chunk = (delta: object, finishReason: string | null = null, extra: object = {}) => ({ ...fields, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...extra });
const usage = { prompt_tokens: 210, completion_tokens: 15, total_tokens: 225 };
const toolCall = { id: "tk85n1k4m", type: "function", function: { name: "weather", arguments: "{\"city\":\"Lyon\"}" } };
const callChunks = [chunk({ role: "assistant", content: null }), chunk({ tool_calls: [{ index: 0, ...toolCall }] }), chunk({}, "tool_calls", { usage })];
/** The chat.completion the call chunks stream, as the API gives it whole. */
const callTwin = { id: CHAT_ID, object: "chat.completion", created: 1770770843, model: "llama-3.3-70b-versatile", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [toolCall] }, finish_reason: "tool_calls" }], usage };
const textChunks = [chunk({ role: "assistant", content: "Sunny in " }), chunk({ content: "Lyon." }), chunk({}, "stop")];
const textTwin = { ...callTwin, choices: [{ index: 0, message: { role: "assistant", content: "Sunny in Lyon." }, finish_reason: "stop" }], usage: undefined };
/** The conversion, without the response fields every Chat response is given (test/adapters/response-fields.test.ts). */
const withoutNeutrals = <T extends { losses: Array<{ code: string; path: string; detail: string }> }>(converted: T): T => ({ ...converted, losses: withoutNeutralFields(converted.losses).filter((loss) => !isDerivedChatItemId(loss)) });
/** What a Chat usage without token details gives: the zeros a response's usage requires, reported on the chunk that carried the usage. */
const zeroDetails = (line: number) => [
  { line, path: "/usage/input_tokens_details/cached_tokens", code: "synthesized", detail: "a response's usage requires cached_tokens and the chat.completion's usage has no prompt_tokens_details: 0 written" },
  { line, path: "/usage/output_tokens_details/reasoning_tokens", code: "synthesized", detail: "a response's usage requires reasoning_tokens and the chat.completion's usage has no completion_tokens_details: 0 written" },
];
const wholeOf = (completion: object) => chatCompletionToResponse({ completion: completion as ChatCompletion }).value as unknown as Record<string, unknown> & { output: Array<Record<string, unknown>> };

describe("a Chat stream", () => {
  test("converts as the chat.completion it streams would", () => {
    const [response] = assemble(new ChatStreamAssembler({ completion: true }), callChunks);
    expect(withoutNeutrals(convertAssembledResponse({ envelope: "chat", response }))).toEqual({ value: wholeOf(callTwin), losses: zeroDetails(3) });
  });

  test("cut before its finish_reason, it keeps the in_progress status the stream left, and so do its calls", () => {
    const [response] = assemble(new ChatStreamAssembler({ completion: true }), callChunks.slice(0, 2));
    const whole = wholeOf({ ...callTwin, choices: [{ ...callTwin.choices[0], finish_reason: null }], usage: undefined });
    expect(withoutNeutrals(convertAssembledResponse({ envelope: "chat", response }))).toEqual({ value: whole, losses: [] });
    expect(whole.status).toBe("in_progress");
  });

  test("a loss of the conversion names the chunk that carried the field", () => {
    const [response] = assemble(new ChatStreamAssembler({ completion: true }), [chunk({ role: "assistant", content: "Hi." }, null, { system_fingerprint: "fp_f8b414701e" }), chunk({}, "stop", { usage: { ...usage, queue_time: 0.04 } })]);
    expect(withoutNeutrals(convertAssembledResponse({ envelope: "chat", response })).losses).toEqual([
      { line: 1, path: "/system_fingerprint", code: "unsupported_field", detail: "system_fingerprint has no counterpart in a response object" },
      { line: 2, path: "/usage/queue_time", code: "provider_extension", detail: '"queue_time" is not a field of the portable shape; Open Responses has no place for it' },
      ...zeroDetails(2),
    ]);
  });

  test("damaged, a response with calls is incomplete and so are its calls; the damage and the finish_reason it overrides are losses", () => {
    const [response] = assemble(new ChatStreamAssembler({ completion: true }), callChunks);
    const whole = wholeOf(callTwin);
    expect(withoutNeutrals(convertAssembledResponse({ envelope: "chat", response, damage: damage(2) }))).toEqual({
      value: { ...whole, status: "incomplete", output: [{ ...whole.output[0], status: "incomplete" }] },
      losses: [
        { line: 1, ...damage(2) },
        ...zeroDetails(3),
        { line: 3, path: "/choices/0/finish_reason", code: "form_changed", detail: 'finish_reason "tool_calls" written as status incomplete' },
      ],
    });
  });

  test("damaged, a response without calls keeps its status; the damage is a loss", () => {
    const [response] = assemble(new ChatStreamAssembler({ completion: true }), textChunks);
    expect(withoutNeutrals(convertAssembledResponse({ envelope: "chat", response, damage: damage(2) }))).toEqual({ value: wholeOf(textTwin), losses: [{ line: 1, ...damage(2) }] });
  });
});

const RESP = "resp_04041325ab8ae30400698c519fb7fc81979972618138fc336d";
const FC = "fc_04041325ab8ae30400698c51c5467c8197a4be8edc8b7a2a8c";
const callOpened = { id: FC, type: "function_call", status: "in_progress", arguments: "", call_id: "call_H5DxLSFnsGhiROnUiDHmgyc8", name: "weather" };
const callFinal = { ...callOpened, status: "completed", arguments: "{\"location\":\"San Francisco\"}" };
const resource = (status: string, output: unknown[]) => ({ id: RESP, object: "response", created_at: 1770803615, status, model: "gpt-5.1", output, store: true });
const events = [
  { type: "response.created", response: resource("in_progress", []) },
  { type: "response.output_item.added", output_index: 0, item: callOpened },
  { type: "response.function_call_arguments.delta", item_id: FC, output_index: 0, delta: "{\"location\":\"San Francisco\"}" },
  { type: "response.output_item.done", output_index: 0, item: callFinal },
  { type: "response.completed", response: resource("completed", [callFinal]) },
];
const completionOf = (response: object) => responseToChatCompletion({ response: response as ResponseResource }).value as unknown as Record<string, unknown> & { choices: Array<Record<string, unknown>> };

describe("an Open Responses event stream", () => {
  test("converts as the last response object it showed, with losses on the event that carried it", () => {
    const [response] = assemble(new ResponsesStreamAssembler({ resource: true }), events);
    expect(convertAssembledResponse({ envelope: "responses", response })).toEqual({
      value: completionOf(resource("completed", [callFinal])),
      losses: [
        { line: 5, path: "/response/output/0/id", code: "unsupported_field", detail: "item ids have no place in a chat.completion" },
        { line: 5, path: "/response/store", code: "unsupported_field", detail: "a chat.completion has no store (a value other than false is lost)" },
      ],
    });
  });

  test("cut, its output is the items as last seen, and a loss of an item names the event that set it", () => {
    const [response] = assemble(new ResponsesStreamAssembler({ resource: true }), events.slice(0, 3));
    const cut = { ...callOpened, arguments: "{\"location\":\"San Francisco\"}" };
    expect(convertAssembledResponse({ envelope: "responses", response })).toEqual({
      value: completionOf(resource("in_progress", [cut])),
      losses: [
        { line: 1, path: "/response/status", code: "unsupported_field", detail: 'status "in_progress" has no finish_reason; null written' },
        { line: 1, path: "/response/store", code: "unsupported_field", detail: "a chat.completion has no store (a value other than false is lost)" },
        { line: 2, path: "/item/id", code: "unsupported_field", detail: "item ids have no place in a chat.completion" },
        { line: 2, path: "/item/status", code: "unsupported_field", detail: 'item status "in_progress" differs from the finish_reason\'s; it is not kept' },
      ],
    });
  });

  test("damaged, a response with calls has the finish_reason of an incomplete one; the damage is the loss that says why", () => {
    const [assembled] = assemble(new ResponsesStreamAssembler({ resource: true }), events);
    // As StreamRecords gives a damaged response: its completed calls already incomplete.
    const response = { ...assembled, items: [{ ...callFinal, status: "incomplete" }] } as AssembledResponse;
    const whole = completionOf(resource("completed", [callFinal]));
    expect(convertAssembledResponse({ envelope: "responses", response, damage: damage(3) })).toEqual({
      value: { ...whole, choices: [{ ...whole.choices[0], finish_reason: "length" }] },
      losses: [
        { line: 1, ...damage(3) },
        { line: 5, path: "/response/output/0/id", code: "unsupported_field", detail: "item ids have no place in a chat.completion" },
        { line: 5, path: "/response/store", code: "unsupported_field", detail: "a chat.completion has no store (a value other than false is lost)" },
      ],
    });
  });
});

describe("a Gemini stream written in another envelope", () => {
  const chunks = [
    { candidates: [{ content: { role: "model", parts: [{ text: "Hi" }] }, index: 0 }], modelVersion: "gemini-2.5-flash", responseId: "r1" },
    { candidates: [{ content: { role: "model", parts: [{ text: " there" }] }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7, thoughtsTokenCount: 3 }, modelVersion: "gemini-2.5-flash", responseId: "r1" },
  ];
  const assembled = () => {
    const assembler = new GeminiStreamAssembler();
    return [...chunks.flatMap((chunk, i) => assembler.push(chunk, i + 1)), ...assembler.finish()];
  };

  test("a loss of the second step names the chunk that said the field and the field there, not the Open Responses form", () => {
    const [response] = assembled();
    expect(convertAssembledResponse({ envelope: "gemini", response, target: "anthropic" })).toEqual({
      value: { id: "r1", type: "message", role: "assistant", model: "gemini-2.5-flash", content: [{ type: "text", text: "Hi there" }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 5, cache_read_input_tokens: 0, output_tokens: 5 } },
      losses: [
        { line: 2, path: "/usageMetadata", code: "unsupported_field", detail: "reasoning_tokens: Anthropic counts thinking within output_tokens" },
        { line: 2, path: "/candidates", code: "provider_extension", detail: '"gemini:candidates" is not a field of a response object; an Anthropic message has no place for it' },
        { line: 2, path: "/usageMetadata", code: "provider_extension", detail: '"gemini:usageMetadata" is not a field of a response object; an Anthropic message has no place for it' },
      ],
    });
  });

  test("to Chat, the created it never had is reported at the completion's field", () => {
    const [response] = assembled();
    expect(convertAssembledResponse({ envelope: "gemini", response, target: "chat" }).losses).toEqual([
      { line: 1, path: "/created", code: "synthesized", detail: "a Gemini response has no creation time: created_at 0 written" },
      { line: 2, path: "/candidates", code: "provider_extension", detail: '"gemini:candidates" is not a field of the portable shape; Chat Completions has no place for it' },
      { line: 2, path: "/usageMetadata", code: "provider_extension", detail: '"gemini:usageMetadata" is not a field of the portable shape; Chat Completions has no place for it' },
    ]);
  });
});

describe("a Chat stream written in another envelope", () => {
  test("a loss of the second step names the chunk that carried the field, at its Chat name", () => {
    const [response] = assemble(new ChatStreamAssembler({ completion: true }), [chunk({ role: "assistant", content: "Hi." }), chunk({}, "stop", { usage })]);
    expect(convertAssembledResponse({ envelope: "chat", response, target: "anthropic" })).toEqual({
      value: { id: CHAT_ID, type: "message", role: "assistant", model: "llama-3.3-70b-versatile", content: [{ type: "text", text: "Hi." }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 210, cache_read_input_tokens: 0, output_tokens: 15 } },
      losses: [
        { line: 1, path: "/created", code: "unsupported_field", detail: "an Anthropic message has no creation time" },
        { line: 2, path: "/usage", code: "synthesized", detail: "a response's usage requires cached_tokens and the chat.completion's usage has no prompt_tokens_details: 0 written" },
        { line: 2, path: "/usage", code: "synthesized", detail: "a response's usage requires reasoning_tokens and the chat.completion's usage has no completion_tokens_details: 0 written" },
      ],
    });
  });
});
