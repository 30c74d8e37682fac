// The same conversation written in Anthropic Messages and in Chat Completions:
// a request body, a response with parallel calls (one with arguments its schema
// refuses), the results, and a streamed response. Every command reads the
// Anthropic one through the registry, and the gate answers it as the Chat one.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ENVELOPE_NAMES } from "../../adapters/index.js";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";
import { withoutNeutralFields } from "../support/response-neutrals.js";

const weatherSchema = { type: "object", additionalProperties: false, required: ["city"], properties: { city: { type: "string" } } };

const anthropicJournal = [
  JSON.stringify({
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    system: "You answer with the weather.",
    tools: [{ name: "get_weather", description: "Weather for a city", input_schema: weatherSchema }],
    messages: [{ role: "user", content: "Weather in Paris and Lyon?" }],
  }),
  JSON.stringify({
    id: "msg_01A",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-5",
    content: [
      { type: "text", text: "Checking both." },
      { type: "tool_use", id: "toolu_01", name: "get_weather", input: { city: "Paris" } },
      { type: "tool_use", id: "toolu_02", name: "get_weather", input: { town: "Lyon" } },
    ],
    stop_reason: "tool_use",
    stop_sequence: null,
    usage: { input_tokens: 50, output_tokens: 40 },
  }),
  JSON.stringify({
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "toolu_01", content: "Sunny" },
      { type: "tool_result", tool_use_id: "toolu_02", content: "Rain" },
    ],
  }),
  ...sse([
    ["message_start", { type: "message_start", message: { id: "msg_01B", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 80, output_tokens: 1 } } }],
    ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_03", name: "get_weather", input: {} } }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"city":' } }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '"Nice"}' } }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 12 } }],
    ["message_stop", { type: "message_stop" }],
  ]),
].join("\n");

const chatJournal = [
  JSON.stringify({
    model: "gpt-4.1",
    messages: [
      { role: "system", content: "You answer with the weather." },
      { role: "user", content: "Weather in Paris and Lyon?" },
    ],
    tools: [{ type: "function", function: { name: "get_weather", description: "Weather for a city", parameters: weatherSchema } }],
  }),
  JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "gpt-4.1",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: "Checking both.",
          tool_calls: [
            { id: "toolu_01", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
            { id: "toolu_02", type: "function", function: { name: "get_weather", arguments: '{"town":"Lyon"}' } },
          ],
        },
        finish_reason: "tool_calls",
      },
    ],
  }),
  JSON.stringify({ role: "tool", tool_call_id: "toolu_01", content: "Sunny" }),
  JSON.stringify({ role: "tool", tool_call_id: "toolu_02", content: "Rain" }),
  `data: ${JSON.stringify({ id: "chatcmpl-2", object: "chat.completion.chunk", created: 2, model: "gpt-4.1", choices: [{ index: 0, delta: { role: "assistant", tool_calls: [{ index: 0, id: "toolu_03", type: "function", function: { name: "get_weather", arguments: '{"city":' } }] }, finish_reason: null }] })}`,
  "",
  `data: ${JSON.stringify({ id: "chatcmpl-2", object: "chat.completion.chunk", created: 2, model: "gpt-4.1", choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '"Nice"}' } }] }, finish_reason: "tool_calls" }] })}`,
  "",
  "data: [DONE]",
  "",
].join("\n");

function sse(events: Array<[string, unknown]>): string[] {
  return events.flatMap(([name, data]) => [`event: ${name}`, `data: ${JSON.stringify(data)}`, ""]);
}

const folder = scratchFolder("envelopes");
const anthropicFile = join(folder, "anthropic.jsonl");
const chatFile = join(folder, "chat.jsonl");
const toolsFile = join(folder, "tools.json");
writeFileSync(anthropicFile, anthropicJournal + "\n");
writeFileSync(chatFile, chatJournal);
writeFileSync(toolsFile, JSON.stringify([{ type: "function", name: "get_weather", parameters: weatherSchema }]));

function jsonLines(text: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as unknown);
}

const reportFile = (name: string) => join(folder, `${name}.report.jsonl`);

const calls = {
  paris: { type: "function_call", call_id: "toolu_01", name: "get_weather", arguments: '{"city":"Paris"}', status: "completed" },
  lyon: { type: "function_call", call_id: "toolu_02", name: "get_weather", arguments: '{"town":"Lyon"}', status: "completed" },
  nice: { type: "function_call", call_id: "toolu_03", name: "get_weather", arguments: '{"city":"Nice"}', status: "completed" },
};

describe("an Anthropic journal", () => {
  test("normalize: the canonical items, with the fields no item holds reported", async () => {
    const result = await runOrbridge(["normalize", "--report", reportFile("normalize"), anthropicFile]);
    expect(result.code).toBe(0);
    const items = jsonLines(result.stdout) as Array<Record<string, unknown>>;
    expect(items.map(({ id: _id, ...item }) => item)).toEqual([
      { type: "message", role: "system", content: "You answer with the weather." },
      { type: "message", role: "user", content: "Weather in Paris and Lyon?" },
      { type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "Checking both.", annotations: [] }] },
      calls.paris,
      calls.lyon,
      { type: "function_call_output", call_id: "toolu_01", output: "Sunny" },
      { type: "function_call_output", call_id: "toolu_02", output: "Rain" },
      calls.nice,
    ]);
    const report = jsonLines(readFileSync(reportFile("normalize"), "utf8")) as Array<{ line: number; path: string; code: string }>;
    // The stored message's items carry ids and arguments it never wrote: synthesized, at the block of the message each comes from.
    expect(report.filter((entry) => entry.code === "synthesized").map(({ line, path }) => [line, path])).toEqual([
      [2, "/content/1/input"],
      [2, "/content/2/input"],
      [2, "/content/0"],
      [2, "/content/1"],
      [2, "/content/2"],
    ]);
    expect(report.filter((entry) => entry.code !== "synthesized")).toEqual([
      { line: 1, path: "/model", code: "left_behind", detail: "model of the request body is in no item: normalize writes items only" },
      { line: 1, path: "/max_tokens", code: "left_behind", detail: "max_tokens of the request body is in no item: normalize writes items only" },
      { line: 1, path: "/tools", code: "left_behind", detail: "tools of the request body is in no item: normalize writes items only" },
      { line: 2, path: "/id", code: "left_behind", detail: "id of the response is in no item: normalize writes items only" },
      { line: 2, path: "/model", code: "left_behind", detail: "model of the response is in no item: normalize writes items only" },
      { line: 2, path: "/usage", code: "left_behind", detail: "usage of the response is in no item: normalize writes items only" },
      { line: 4, path: "/message/id", code: "left_behind", detail: "id of the message is in no item: normalize writes items only" },
      { line: 4, path: "/message/model", code: "left_behind", detail: "model of the message is in no item: normalize writes items only" },
      { line: 4, path: "/message/usage", code: "left_behind", detail: "usage of the message is in no item: normalize writes items only" },
      { line: 19, path: "/delta/stop_reason", code: "left_behind", detail: "stop_reason of the message is in no item: normalize writes items only" },
      { line: 19, path: "/usage", code: "left_behind", detail: "usage of the message is in no item: normalize writes items only" },
    ]);
    expect(result.stderr).toBe("read 24 lines, 4 records: 4 emitted (8 items), 0 reported; 0 losses, 11 record fields left behind, 5 values synthesized\n");
  });

  test("gate --tools: the verdicts of the same conversation written in Chat Completions", async () => {
    const anthropic = await runOrbridge(["gate", "--tools", toolsFile, "--format", "json", anthropicFile]);
    const chat = await runOrbridge(["gate", "--tools", toolsFile, "--format", "json", chatFile]);
    const verdicts = (stdout: string) => (jsonLines(stdout) as Array<Record<string, unknown>>).map(({ type, reason, blocked, findings }) => ({ type, reason, blocked, findings: (findings as Array<{ code: string }>).map((finding) => finding.code) }));
    expect(anthropic.code).toBe(1);
    expect(chat.code).toBe(1);
    expect(verdicts(anthropic.stdout)).toEqual(verdicts(chat.stdout));
    expect(verdicts(anthropic.stdout).filter((verdict) => verdict.type === "function_call").map((verdict) => verdict.reason)).toEqual(["ok", "arguments_schema", "ok"]);
  });

  test("convert --to anthropic: the journal back as it was, the stream a stream", async () => {
    const result = await runOrbridge(["convert", "--to", "anthropic", "--report", reportFile("anthropic"), anthropicFile]);
    expect(result).toEqual({ code: 0, stdout: jsonLines(anthropicJournal.replace(/^(event: .*|data: )/gm, "")).map((record) => JSON.stringify(record) + "\n").join(""), stderr: "read 24 lines: 10 records, 0 errors; 0 losses\n" });
    expect(readFileSync(reportFile("anthropic"), "utf8")).toBe("");
  });

  test("convert --to chat: a body, completions and tool messages, with losses", async () => {
    const result = await runOrbridge(["convert", "--to", "chat", "--report", reportFile("chat"), anthropicFile]);
    expect(result.code).toBe(0);
    const [body, completion, paris, lyon, streamed] = jsonLines(result.stdout) as Array<Record<string, unknown>>;
    expect(body).toMatchObject({ model: "claude-sonnet-4-5", max_completion_tokens: 1024, messages: [{ role: "system", content: "You answer with the weather." }, { role: "user", content: "Weather in Paris and Lyon?" }] });
    expect((completion!.choices as unknown[])[0]).toEqual({
      index: 0,
      message: {
        role: "assistant",
        content: "Checking both.",
        tool_calls: [
          { id: "toolu_01", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          { id: "toolu_02", type: "function", function: { name: "get_weather", arguments: '{"town":"Lyon"}' } },
        ],
      },
      logprobs: null,
      finish_reason: "tool_calls",
    });
    expect([paris, lyon]).toEqual([
      { role: "tool", tool_call_id: "toolu_01", content: "Sunny" },
      { role: "tool", tool_call_id: "toolu_02", content: "Rain" },
    ]);
    // A stream is written as the message it amounts to: its model and usage kept, as the stored message's are.
    expect(streamed).toEqual({
      id: "msg_01B",
      object: "chat.completion",
      created: 0,
      model: "claude-sonnet-4-5",
      choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: "toolu_03", type: "function", function: { name: "get_weather", arguments: '{"city":"Nice"}' } }] }, logprobs: null, finish_reason: "tool_calls" }],
      usage: { prompt_tokens: 80, completion_tokens: 12, total_tokens: 92, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } },
    });
    expect(Object.keys(completion!)).toEqual(Object.keys(streamed!));
    const losses = jsonLines(readFileSync(reportFile("chat"), "utf8")) as Array<Record<string, unknown>>;
    expect(withoutNeutralFields(losses as Array<{ line: number; path: string; code: string }>).map(({ line, path, code }) => ({ line, path, code }))).toEqual([
      { line: 1, path: "/system", code: "form_changed" },
      // A whole message's losses point into the message: its usage, not the Open Responses form's
      // `anthropic:usage`; item ids it never had are neither synthesized nor lost in a completion.
      { line: 2, path: "/created", code: "synthesized" },
      { line: 2, path: "/choices", code: "synthesized" },
      { line: 2, path: "/choices", code: "synthesized" },
      { line: 2, path: "/usage", code: "provider_extension" },
      { line: 4, path: "/message/usage/output_tokens", code: "form_changed" },
      // A stream's losses point into its events as the stored message's do into it: the usage at the
      // message_delta that said its last count, the created it never had at the completion written.
      { line: 4, path: "/created", code: "synthesized" },
      { line: 19, path: "/usage", code: "provider_extension" },
    ]);
    // The settings only a response object holds, synthesized for the stream, are not reported of a completion, as for the stored message.
    expect(result.stderr).toBe("read 24 lines: 10 records, 0 errors; 4 losses, 4 values synthesized\n");
  });

  test("convert --to responses: a body, response objects and items", async () => {
    const result = await runOrbridge(["convert", "--to", "responses", "--report", reportFile("responses"), anthropicFile]);
    expect(result.code).toBe(0);
    const [body, response, paris, lyon, streamed] = jsonLines(result.stdout) as Array<Record<string, unknown>>;
    expect(body).toEqual({
      model: "claude-sonnet-4-5",
      max_output_tokens: 1024,
      input: [{ type: "message", role: "user", content: "Weather in Paris and Lyon?" }],
      instructions: "You answer with the weather.",
      tools: [{ type: "function", name: "get_weather", description: "Weather for a city", parameters: weatherSchema }],
    });
    expect(response).toMatchObject({ id: "msg_01A", object: "response", status: "completed", model: "claude-sonnet-4-5" });
    expect((response!.output as Array<Record<string, unknown>>).slice(1).map(({ id: _id, ...item }) => item)).toEqual([calls.paris, calls.lyon]);
    expect([paris, lyon]).toEqual([
      { type: "function_call_output", call_id: "toolu_01", output: "Sunny" },
      { type: "function_call_output", call_id: "toolu_02", output: "Rain" },
    ]);
    // A stream is written as the message it amounts to, as the stored one is: every field the spec requires, its output items with ids.
    expect(streamed).toMatchObject({ id: "msg_01B", object: "response", status: "completed", model: "claude-sonnet-4-5", usage: { input_tokens: 80, output_tokens: 12, total_tokens: 92 } });
    expect((streamed!.output as Array<Record<string, unknown>>).map(({ id, ...item }) => [String(id).slice(0, 3), item])).toEqual([["fc_", calls.nice]]);
    expect(Object.keys(streamed!)).toEqual(Object.keys(response!));
    const losses = jsonLines(readFileSync(reportFile("responses"), "utf8")) as Array<Record<string, unknown>>;
    expect(withoutNeutralFields(losses as Array<{ line: number; path: string; code: string }>).map(({ line, path, code }) => ({ line, path, code }))).toEqual([
      { line: 2, path: "/created_at", code: "synthesized" },
      { line: 2, path: "/output/1/arguments", code: "synthesized" },
      { line: 2, path: "/output/2/arguments", code: "synthesized" },
      { line: 2, path: "/output/0/id", code: "synthesized" },
      { line: 2, path: "/output/1/id", code: "synthesized" },
      { line: 2, path: "/output/2/id", code: "synthesized" },
      { line: 4, path: "/message/usage/output_tokens", code: "form_changed" },
      { line: 4, path: "/created_at", code: "synthesized" },
      { line: 4, path: "/output/0/id", code: "synthesized" },
    ]);
  });

  test("convert --to anthropic of the Chat journal: Anthropic records that read back as the same items", async () => {
    const converted = await runOrbridge(["convert", "--to", "anthropic", chatFile]);
    expect(converted.code).toBe(0);
    const back = await runOrbridge(["normalize", "-"], converted.stdout);
    const original = await runOrbridge(["normalize", chatFile]);
    const calls = (stdout: string) => (jsonLines(stdout) as Array<Record<string, unknown>>).filter((item) => item.type !== "message").map(({ id: _id, ...item }) => item);
    expect(calls(back.stdout)).toEqual(calls(original.stdout));
  });
});

describe("a Bedrock Converse journal", () => {
  const bedrockFile = join(folder, "bedrock.jsonl");
  writeFileSync(bedrockFile, readFileSync(new URL("./envelopes/bedrock.jsonl", import.meta.url)));

  test("gate --tools: the verdicts of the same conversation written in Chat Completions", async () => {
    const bedrock = await runOrbridge(["gate", "--tools", toolsFile, "--format", "json", bedrockFile]);
    const chat = await runOrbridge(["gate", "--tools", toolsFile, "--format", "json", chatFile]);
    const verdicts = (stdout: string) => (jsonLines(stdout) as Array<Record<string, unknown>>).map(({ type, reason, blocked }) => ({ type, reason, blocked }));
    expect(bedrock.code).toBe(1);
    expect(verdicts(bedrock.stdout)).toEqual(verdicts(chat.stdout));
  });

  test("convert --to bedrock: the journal back, the stream a stream", async () => {
    const result = await runOrbridge(["convert", "--to", "bedrock", bedrockFile]);
    expect(result).toEqual({ code: 0, stdout: readFileSync(bedrockFile, "utf8"), stderr: "read 8 lines: 8 records, 0 errors; 0 losses\n" });
  });
});

describe("a Gemini journal", () => {
  const geminiFile = join(folder, "gemini.jsonl");
  writeFileSync(geminiFile, readFileSync(new URL("./envelopes/gemini.jsonl", import.meta.url)));

  test("normalize: a body, a response, contents and an SSE stream of chunks, one response", async () => {
    const result = await runOrbridge(["normalize", geminiFile]);
    expect(result.code).toBe(0);
    const items = jsonLines(result.stdout) as Array<Record<string, unknown>>;
    expect(items.map((item) => [item.type, item.role ?? item.arguments ?? item.output])).toEqual([
      ["message", "system"],
      ["message", "user"],
      ["message", "assistant"],
      ["function_call", '{"city":"Paris"}'],
      ["function_call", '{"town":"Lyon"}'],
      ["function_call_output", '{"result":"Sunny"}'],
      ["function_call_output", '{"result":"Rain"}'],
      ["function_call", '{"city":"Nice"}'],
      ["message", "assistant"],
    ]);
    expect(result.stderr).toBe("read 7 lines, 4 records: 4 emitted (9 items), 0 reported; 2 losses, 12 record fields left behind, 8 values synthesized\n");
  });

  test("normalize: what a response's candidate holds besides its parts is left behind at its own field, as a stream's is, not the whole candidates", async () => {
    const report = join(folder, "gemini.report.jsonl");
    await runOrbridge(["normalize", "--report", report, geminiFile]);
    const leftBehind = jsonLines(readFileSync(report, "utf8")) as Array<{ line: number; path: string; code: string }>;
    expect(leftBehind.filter((loss) => loss.code === "left_behind" && loss.path.startsWith("/candidates")).map((loss) => [loss.line, loss.path])).toEqual([
      [2, "/candidates/0/finishReason"],
      [2, "/candidates/0/index"],
      [4, "/candidates/0/index"],
      [6, "/candidates/0/finishReason"],
      [6, "/candidates/0/index"],
    ]);
  });
});

describe("a Gemini SSE stream whose chunks have no responseId, converted to gemini", () => {
  const weather = [{ type: "function", name: "get_weather", parameters: weatherSchema }];
  const chunks = [
    { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Lyon" } } }] }, index: 0 }], modelVersion: "gemini-2.5-flash" },
    { candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 5 }, modelVersion: "gemini-2.5-flash" },
  ];
  const sse = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("");

  test("is written a chunk a line, and the loss says that its last chunk then reads as a response of its own, its call cut short", async () => {
    const file = join(folder, "gemini-no-id.sse");
    const tools = join(folder, "gemini-no-id-tools.json");
    const report = join(folder, "gemini-no-id.report.jsonl");
    writeFileSync(file, sse);
    writeFileSync(tools, JSON.stringify(weather));
    const before = await runOrbridge(["gate", "--format", "json", "--tools", tools, file]);
    expect(before.code).toBe(0);
    const converted = await runOrbridge(["convert", "--to", "gemini", "--report", report, file]);
    expect(converted.stdout).toBe(chunks.map((chunk) => JSON.stringify(chunk) + "\n").join(""));
    expect(jsonLines(readFileSync(report, "utf8"))).toEqual([expect.objectContaining({ line: 3, path: "", code: "form_changed", detail: expect.stringContaining("read back, the stream before it ends cut short") })]);
    const after = await runOrbridge(["gate", "--format", "json", "--tools", tools, "-"], converted.stdout);
    expect(after.code).toBe(1);
    // With the responseId the chunks share, the last one continues the stream on a line too: nothing to say.
    const withId = chunks.map((chunk) => ({ ...chunk, responseId: "r1" }));
    writeFileSync(file, withId.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join(""));
    const same = await runOrbridge(["convert", "--to", "gemini", file]);
    expect(same.stderr).toBe("read 4 lines: 2 records, 0 errors; 0 losses\n");
    expect((await runOrbridge(["gate", "--tools", tools, "-"], same.stdout)).code).toBe(0);
  });
});

describe("convert --to", () => {
  test("names every registered envelope in its help", async () => {
    const result = await runOrbridge(["convert", "--help"]);
    expect(result.stdout.split("\n")[0]).toBe(`Usage: orbridge convert --to ${ENVELOPE_NAMES.join("|")} [--reasoning-field FIELD] [--out FILE] [--report FILE] [--max-line-bytes N] [FILE...|-]`);
    expect(ENVELOPE_NAMES.slice(0, 3)).toEqual(["responses", "chat", "anthropic"]);
  });
});

describe("gate of a lone stream record", () => {
  test("an event of no known type, alone: a blocked error line", async () => {
    const result = await runOrbridge(["gate", "--tools", toolsFile, "--format", "json", "-"], '{"type":"response.function_call.done","item_id":"fc_1","arguments":"{}"}\n');
    expect(result.code).toBe(1);
    const [verdict] = jsonLines(result.stdout) as Array<Record<string, unknown>>;
    expect(verdict).toMatchObject({ line: 1, reason: "error", blocked: true });
  });
});
