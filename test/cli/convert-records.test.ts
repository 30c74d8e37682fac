// `convert` of whole response records between provider envelopes: what the
// target has a place for is carried, everything else is a loss whose path
// points into the record as the user wrote it, and no stop reason or empty
// value changes its meaning without a word.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";
import { withoutNeutralFields } from "../support/response-neutrals.js";

const folder = scratchFolder("convert-records");

/** Converts one record to `target`: the records written and every entry of the report. */
async function convertOne(name: string, record: unknown, target: string) {
  const input = join(folder, `${name}.jsonl`);
  const report = join(folder, `${name}.${target}.report.jsonl`);
  writeFileSync(input, JSON.stringify(record) + "\n");
  const result = await runOrbridge(["convert", "--to", target, "--report", report, input]);
  const written = result.stdout.trimEnd().split("\n").filter(Boolean).map((line) => JSON.parse(line) as unknown);
  const losses = readFileSync(report, "utf8").trimEnd().split("\n").filter(Boolean).map((line) => JSON.parse(line) as { line: number; path: string; code: string; detail: string });
  return { code: result.code, written, losses, stderr: result.stderr };
}

// Shapes of the recordings in providers/gemini and providers/bedrock of the corpus, with words of our own.
const geminiResponse = {
  candidates: [{ content: { parts: [{ text: "Paris is the capital of France." }], role: "model" }, finishReason: "STOP", index: 0 }],
  modelVersion: "gemini-2.5-flash",
  responseId: "wOd8abGuO5rgz7IP5tLEGA",
  createTime: "2026-01-30T17:00:00.123456Z",
  usageMetadata: { candidatesTokenCount: 7, promptTokenCount: 9, totalTokenCount: 16 },
};
const converseResponse = {
  metrics: { latencyMs: 567 },
  output: { message: { content: [{ text: "The capital of France is Paris." }], role: "assistant" } },
  stopReason: "end_turn",
  usage: { inputTokens: 531, outputTokens: 76, serverToolUsage: {}, totalTokens: 607 },
};
const completion = {
  id: "chatcmpl-Ab1",
  object: "chat.completion",
  created: 1743000000,
  model: "gpt-4o-2024-08-06",
  choices: [{ index: 0, message: { role: "assistant", content: "Let me check.", tool_calls: [{ id: "call_a1", type: "function", function: { name: "get_capital", arguments: '{"country":"France"}' } }] }, logprobs: null, finish_reason: "tool_calls" }],
  usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } },
  system_fingerprint: "fp_1",
};
const anthropicMessage = (stopReason: string, text: string) => ({ id: "msg_01Pause", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text }], stop_reason: stopReason, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } });

describe("a response's id, model and creation time", () => {
  test("Gemini to Bedrock: responseId and modelVersion, which Converse has no place for, are losses at the Gemini fields", async () => {
    const { code, written, losses } = await convertOne("gemini-bedrock", geminiResponse, "bedrock");
    expect(code).toBe(0);
    expect(written).toEqual([{ output: { message: { role: "assistant", content: [{ text: "Paris is the capital of France." }] } }, stopReason: "end_turn", usage: { inputTokens: 9, outputTokens: 7, totalTokens: 16 } }]);
    expect(losses).toEqual([
      { line: 1, path: "/candidates", code: "unsupported_field", detail: "a Bedrock Converse response has no place for gemini:candidates" },
      { line: 1, path: "/createTime", code: "unsupported_field", detail: "a Bedrock Converse response has no place for gemini:createTime" },
      { line: 1, path: "/usageMetadata", code: "unsupported_field", detail: "a Bedrock Converse response has no place for gemini:usageMetadata" },
      { line: 1, path: "/responseId", code: "unsupported_field", detail: 'a Bedrock Converse response has no id: "wOd8abGuO5rgz7IP5tLEGA" is not kept' },
      { line: 1, path: "/modelVersion", code: "unsupported_field", detail: 'a Bedrock Converse response has no model: "gemini-2.5-flash" is not kept' },
    ]);
  });

  test("Chat to Bedrock: id, model and created are losses at the completion's fields", async () => {
    const { written, losses } = await convertOne("chat-bedrock", completion, "bedrock");
    expect(written).toEqual([
      { output: { message: { role: "assistant", content: [{ text: "Let me check." }, { toolUse: { toolUseId: "call_a1", name: "get_capital", input: { country: "France" } } }] } }, stopReason: "tool_use", usage: { inputTokens: 20, outputTokens: 10, totalTokens: 30 } },
    ]);
    expect(losses).toEqual([
      { line: 1, path: "/system_fingerprint", code: "unsupported_field", detail: "system_fingerprint has no counterpart in a response object" },
      { line: 1, path: "/id", code: "unsupported_field", detail: 'a Bedrock Converse response has no id: "chatcmpl-Ab1" is not kept' },
      { line: 1, path: "/model", code: "unsupported_field", detail: 'a Bedrock Converse response has no model: "gpt-4o-2024-08-06" is not kept' },
      { line: 1, path: "/created", code: "unsupported_field", detail: "a Bedrock Converse response has no created_at: 1743000000 is not kept" },
    ]);
  });

  test("Chat to Gemini: created is carried as createTime", async () => {
    const { written, losses } = await convertOne("chat-gemini", completion, "gemini");
    expect(written).toEqual([
      {
        candidates: [{ content: { parts: [{ text: "Let me check." }, { functionCall: { name: "get_capital", args: { country: "France" }, id: "call_a1" } }], role: "model" }, finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 10, totalTokenCount: 30 },
        modelVersion: "gpt-4o-2024-08-06",
        responseId: "chatcmpl-Ab1",
        createTime: "2025-03-26T14:40:00.000Z",
      },
    ]);
    expect(losses).toEqual([{ line: 1, path: "/system_fingerprint", code: "unsupported_field", detail: "system_fingerprint has no counterpart in a response object" }]);
  });
});

describe("loss paths of a whole response point into the record as written", () => {
  test("Chat to Anthropic: /created, and no item id the completion never had", async () => {
    const { written, losses } = await convertOne("chat-anthropic", completion, "anthropic");
    expect(written).toEqual([
      {
        id: "chatcmpl-Ab1",
        type: "message",
        role: "assistant",
        model: "gpt-4o-2024-08-06",
        content: [{ type: "text", text: "Let me check." }, { type: "tool_use", id: "call_a1", name: "get_capital", input: { country: "France" } }],
        stop_reason: "tool_use",
        stop_sequence: null,
        usage: { input_tokens: 20, cache_read_input_tokens: 0, output_tokens: 10 },
      },
    ]);
    expect(losses).toEqual([
      { line: 1, path: "/system_fingerprint", code: "unsupported_field", detail: "system_fingerprint has no counterpart in a response object" },
      { line: 1, path: "/created", code: "unsupported_field", detail: "an Anthropic message has no creation time" },
    ]);
  });

  test("Bedrock to Chat: the Converse response's metrics and usage, no setting of a response object the completion does not hold", async () => {
    const { written, losses, stderr } = await convertOne("bedrock-chat", converseResponse, "chat");
    const id = "resp_b35d6e7f4e7c1f700b216c3c1817c61c9b335e833c056884";
    expect(written).toEqual([
      {
        id,
        object: "chat.completion",
        created: 0,
        model: "",
        choices: [{ index: 0, message: { role: "assistant", content: "The capital of France is Paris." }, logprobs: null, finish_reason: "stop" }],
        usage: { prompt_tokens: 531, completion_tokens: 76, total_tokens: 607, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } },
      },
    ]);
    expect(losses).toEqual([
      { line: 1, path: "", code: "synthesized", detail: `a Converse response has no id: "${id}" written, from its content` },
      { line: 1, path: "", code: "synthesized", detail: "a Converse response has no creation time: created_at 0 written" },
      { line: 1, path: "", code: "synthesized", detail: 'a Converse response does not name its model (the request URL does): "" written' },
      { line: 1, path: "/metrics", code: "provider_extension", detail: '"bedrock:metrics" is not a field of the portable shape; Chat Completions has no place for it' },
      { line: 1, path: "/usage", code: "provider_extension", detail: '"bedrock:usage" is not a field of the portable shape; Chat Completions has no place for it' },
    ]);
    expect(stderr).toBe("read 1 line: 1 record, 0 errors; 2 losses, 3 values synthesized\n");
  });

  test("Gemini to Chat: the fields Gemini wrote, by their Gemini names", async () => {
    const { written, losses } = await convertOne("gemini-chat", geminiResponse, "chat");
    expect(written).toEqual([
      {
        id: "wOd8abGuO5rgz7IP5tLEGA",
        object: "chat.completion",
        created: 1769792400,
        model: "gemini-2.5-flash",
        choices: [{ index: 0, message: { role: "assistant", content: "Paris is the capital of France." }, logprobs: null, finish_reason: "stop" }],
        usage: { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } },
      },
    ]);
    expect(losses).toEqual([
      { line: 1, path: "/candidates", code: "provider_extension", detail: '"gemini:candidates" is not a field of the portable shape; Chat Completions has no place for it' },
      { line: 1, path: "/createTime", code: "provider_extension", detail: '"gemini:createTime" is not a field of the portable shape; Chat Completions has no place for it' },
      { line: 1, path: "/usageMetadata", code: "provider_extension", detail: '"gemini:usageMetadata" is not a field of the portable shape; Chat Completions has no place for it' },
    ]);
  });
});

describe("stop reasons", () => {
  test("a Gemini candidate stopped by RECITATION is a Chat content_filter", async () => {
    const recited = { candidates: [{ content: { parts: [{ text: "Here is the" }], role: "model" }, finishReason: "RECITATION", index: 0 }], modelVersion: "gemini-2.5-flash", responseId: "aGVyZS1pcy10aGU" };
    const { written, losses } = await convertOne("recitation-chat", recited, "chat");
    expect(written).toEqual([
      { id: "aGVyZS1pcy10aGU", object: "chat.completion", created: 0, model: "gemini-2.5-flash", choices: [{ index: 0, message: { role: "assistant", content: "Here is the" }, logprobs: null, finish_reason: "content_filter" }] },
    ]);
    expect(losses).toEqual([
      { line: 1, path: "/created", code: "synthesized", detail: "a Gemini response has no creation time: created_at 0 written" },
      { line: 1, path: "/candidates", code: "provider_extension", detail: '"gemini:candidates" is not a field of the portable shape; Chat Completions has no place for it' },
    ]);
  });

  test("a Converse guardrail is an Anthropic refusal, reported", async () => {
    const guarded = { output: { message: { content: [{ text: "Sorry, the model cannot answer this question." }], role: "assistant" } }, stopReason: "guardrail_intervened", usage: { inputTokens: 5, outputTokens: 9, totalTokens: 14 } };
    const { written, losses } = await convertOne("guardrail-anthropic", guarded, "anthropic");
    const id = "resp_50f899cf37b3e8c04184907e837538ff6882370530d9d30c";
    expect(written).toEqual([
      { id, type: "message", role: "assistant", model: "", content: [{ type: "text", text: "Sorry, the model cannot answer this question." }], stop_reason: "refusal", stop_sequence: null, usage: { input_tokens: 5, cache_read_input_tokens: 0, output_tokens: 9 } },
    ]);
    expect(losses).toEqual([
      { line: 1, path: "", code: "synthesized", detail: `a Converse response has no id: "${id}" written, from its content` },
      { line: 1, path: "", code: "synthesized", detail: "a Converse response has no creation time: created_at 0 written" },
      { line: 1, path: "", code: "synthesized", detail: 'a Converse response does not name its model (the request URL does): "" written' },
      { line: 1, path: "/stopReason", code: "form_changed", detail: 'incomplete for reason "content_filter", which Anthropic has no stop_reason for: "refusal" written' },
      { line: 1, path: "/stopReason", code: "provider_extension", detail: '"bedrock:stopReason" is not a field of a response object; an Anthropic message has no place for it' },
      { line: 1, path: "/usage", code: "provider_extension", detail: '"bedrock:usage" is not a field of a response object; an Anthropic message has no place for it' },
    ]);
  });

  test("Anthropic's pause_turn is no Gemini finishReason: OTHER, reported", async () => {
    const { written, losses } = await convertOne("pause-gemini", anthropicMessage("pause_turn", "Searching the web."), "gemini");
    expect(written).toEqual([
      {
        candidates: [{ content: { parts: [{ text: "Searching the web." }], role: "model" }, finishReason: "OTHER", index: 0 }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
        modelVersion: "claude-sonnet-4-5",
        responseId: "msg_01Pause",
      },
    ]);
    expect(losses).toEqual([
      { line: 1, path: "/stop_reason", code: "form_changed", detail: 'incomplete for reason "pause_turn", which Gemini has no finishReason for: OTHER written' },
      { line: 1, path: "/stop_sequence", code: "provider_extension", detail: '"anthropic:stop_sequence" is not a field of the portable shape; Gemini has no place for it' },
      { line: 1, path: "/usage", code: "provider_extension", detail: '"anthropic:usage" is not a field of the portable shape; Gemini has no place for it' },
    ]);
  });

  test("Anthropic's pause_turn is no Converse stopReason: max_tokens, which leaves the turn unfinished, reported", async () => {
    const { written, losses } = await convertOne("pause-bedrock", anthropicMessage("pause_turn", "Searching the web."), "bedrock");
    expect(written).toEqual([{ output: { message: { role: "assistant", content: [{ text: "Searching the web." }] } }, stopReason: "max_tokens", usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } }]);
    expect(losses).toEqual([
      { line: 1, path: "/stop_reason", code: "form_changed", detail: 'incomplete for reason "pause_turn", which Bedrock Converse has no stopReason for: "max_tokens" written' },
      { line: 1, path: "/stop_sequence", code: "unsupported_field", detail: "a Bedrock Converse response has no place for anthropic:stop_sequence" },
      { line: 1, path: "/usage", code: "unsupported_field", detail: "a Bedrock Converse response has no place for anthropic:usage" },
      { line: 1, path: "/id", code: "unsupported_field", detail: 'a Bedrock Converse response has no id: "msg_01Pause" is not kept' },
      { line: 1, path: "/model", code: "unsupported_field", detail: 'a Bedrock Converse response has no model: "claude-sonnet-4-5" is not kept' },
    ]);
  });
});

describe("empty values", () => {
  test("a chat.completion with no choice is an unfinished response, reported, and comes back with no choice", async () => {
    const empty = { id: "chatcmpl-Empty", object: "chat.completion", created: 1743000000, model: "gpt-4o", choices: [], usage: { prompt_tokens: 5, completion_tokens: 0, total_tokens: 5 } };
    const there = await convertOne("no-choice-responses", empty, "responses");
    const [response] = there.written as Array<Record<string, unknown>>;
    expect([response!.status, response!.incomplete_details, response!.output]).toEqual(["in_progress", null, []]);
    expect(withoutNeutralFields(there.losses)).toEqual([
      { line: 1, path: "/choices", code: "form_changed", detail: "a chat.completion with no choice says no finish_reason: output [] and status in_progress written" },
      { line: 1, path: "/usage/input_tokens_details/cached_tokens", code: "synthesized", detail: "a response's usage requires cached_tokens and the chat.completion's usage has no prompt_tokens_details: 0 written" },
      { line: 1, path: "/usage/output_tokens_details/reasoning_tokens", code: "synthesized", detail: "a response's usage requires reasoning_tokens and the chat.completion's usage has no completion_tokens_details: 0 written" },
    ]);
    const back = await convertOne("no-choice-back", response, "chat");
    expect((back.written[0] as Record<string, unknown>).choices).toEqual([]);
  });

  test("a message with no parts stays no parts in a chat.completion, never the empty string", async () => {
    const response = { id: "resp_parts", object: "response", created_at: 1743000000, status: "completed", model: "gpt-4o", output: [{ id: "msg_parts", type: "message", status: "completed", role: "assistant", content: [] }] };
    const { written, losses } = await convertOne("no-parts-chat", response, "chat");
    expect(written).toEqual([{ id: "resp_parts", object: "chat.completion", created: 1743000000, model: "gpt-4o", choices: [{ index: 0, message: { role: "assistant", content: [] }, logprobs: null, finish_reason: "stop" }] }]);
    expect(losses).toEqual([{ line: 1, path: "/output/0/id", code: "unsupported_field", detail: "item ids have no place in a chat.completion" }]);
  });

  test("a response with no output gives a completion whose empty message is reported synthesized", async () => {
    const response = { id: "resp_none", object: "response", created_at: 1743000000, status: "completed", model: "gpt-4o", output: [] };
    const { written, losses } = await convertOne("no-output-chat", response, "chat");
    expect(written).toEqual([{ id: "resp_none", object: "chat.completion", created: 1743000000, model: "gpt-4o", choices: [{ index: 0, message: { role: "assistant", content: null }, logprobs: null, finish_reason: "stop" }] }]);
    expect(losses).toEqual([{ line: 1, path: "/choices/0/message", code: "synthesized", detail: "a chat.completion's choice requires a message and the response's output has no assistant message: an empty one written" }]);
  });

  test("a completion without usage, to Anthropic: the zero counts written are reported, not the null of the Open Responses form", async () => {
    const { usage: _usage, ...withoutUsage } = completion;
    const { written, losses } = await convertOne("no-usage-anthropic", withoutUsage, "anthropic");
    expect((written[0] as Record<string, unknown>).usage).toEqual({ input_tokens: 0, output_tokens: 0 });
    expect(losses.filter((loss) => loss.path === "/usage")).toEqual([{ line: 1, path: "/usage", code: "synthesized", detail: "no usage: input_tokens 0 and output_tokens 0 written, which Anthropic always reports" }]);
  });
});
