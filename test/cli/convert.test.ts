import { createHash } from "node:crypto";
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { ENVELOPE_NAMES } from "../../adapters/index.js";
import { runCli } from "../../src/cli/run.js";
import { runOrbridge, type CliResult } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";
import { responseWith } from "../support/response-object.js";
import { isDerivedChatItemId, withoutNeutralFields } from "../support/response-neutrals.js";

const lines = (...records: unknown[]) => records.map((record) => (typeof record === "string" ? record : JSON.stringify(record)) + "\n").join("");
const golden = (name: string, file: string) => JSON.parse(readFileSync(join("golden/chat-completions", name, file), "utf8"));
const scratch = () => scratchFolder("convert");
/**
 * The report's entries, without the response fields every converted response is
 * given and the item ids a converted chat.completion is given (asserted in
 * test/adapters/response-fields.test.ts and chat-completions/responses.test.ts,
 * and counted in the summaries here).
 */
const readReport = (path: string) =>
  withoutNeutralFields(
    readFileSync(path, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { line: number; path: string; code: string; detail: string; source?: string }),
  ).filter((loss) => !isDerivedChatItemId(loss));
const records = (text: string) =>
  text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
const stream = (name: string, file: string) => join("golden/streams", name, file);
/** The records of an SSE recording, one JSON line each: its `data:` payloads without the framing and `[DONE]`. */
const sseRecords = (path: string) =>
  lines(
    ...readFileSync(path, "utf8")
      .split("\n")
      .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
      // Each event as the stream wrote it: convert keeps its numbers' text (1.0 stays 1.0).
      .map((line) => line.slice("data: ".length)),
  );
/** The id a converted completion gives its output item at `outputIndex`: sha256 of the response id, choice 0 and the index. */
const outputItemId = (prefix: string, responseId: string, outputIndex: number) =>
  `${prefix}_${createHash("sha256").update(`${responseId}\u00000\u0000${outputIndex}`).digest("hex").slice(0, 48)}`;
/** A response object as a completion gives it. */
const responseObject = (fields: { id: string; created_at: number; status: string; model: string; output: unknown[]; usage: unknown }) => responseWith(fields);
const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
/** The id a call without one gets: its rank among such calls, and 16 hex digits of sha256 of its name and arguments. */
const synthesizedId = (rank: number, name: string, args: string) => `synth_${rank}_${createHash("sha256").update(`${name}\u0000${args}`).digest("hex").slice(0, 16)}`;

/** Runs a command whose stdin gives `text` and then fails, as a disk or a pipe can. */
async function runWithFailingStdin(argv: string[], text: string): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on("data", (chunk: Buffer) => out.push(chunk));
  stderr.on("data", (chunk: Buffer) => err.push(chunk));
  const stdin = Readable.from(
    (async function* () {
      yield Buffer.from(text);
      throw new Error("device lost");
    })(),
  );
  const code = await runCli(argv, { stdin, stdout, stderr, env: {} });
  return { code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") };
}

describe("orbridge convert --to responses", () => {
  test("a loose chat message becomes one line per item: its text, then each call", async () => {
    const stdin = lines(
      { role: "user", content: "Weather in Lima?" },
      { role: "assistant", content: "Checking.", tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Lima"}' } }] },
      { role: "tool", tool_call_id: "call_1", content: "overcast" },
    );
    expect(await runOrbridge(["convert", "--to", "responses"], stdin)).toEqual({
      code: 0,
      stdout: lines(
        { type: "message", role: "user", content: "Weather in Lima?" },
        { type: "message", role: "assistant", content: "Checking." },
        { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Lima"}', status: "completed" },
        { type: "function_call_output", call_id: "call_1", output: "overcast" },
      ),
      stderr: "read 3 lines: 3 records, 0 errors; 0 losses\n",
    });
  });

  test("legacy calls of one name in two turns get two call_ids, each paired with its answer", async () => {
    const legacy = (city: string) => ({ role: "assistant", content: null, function_call: { name: "get_weather", arguments: `{"city":"${city}"}` } });
    const stdin = lines(
      { role: "user", content: "Paris?" },
      legacy("Paris"),
      { role: "function", name: "get_weather", content: "sunny" },
      { role: "user", content: "Rome?" },
      legacy("Rome"),
      { role: "function", name: "get_weather", content: "rainy" },
    );
    const result = await runOrbridge(["convert", "--to", "responses"], stdin);
    const callIds = result.stdout.trim().split("\n").map((line) => JSON.parse(line).call_id).filter((callId) => callId !== undefined);
    expect(callIds).toEqual(["legacy_1_get_weather", "legacy_1_get_weather", "legacy_2_get_weather", "legacy_2_get_weather"]);
    expect(result.code).toBe(0);
  });

  test("a request body stays one request body and a completion becomes one response object", async () => {
    const stdin = lines(golden("body-response-format-json-schema", "chat.json"), golden("completion-refusal", "chat.json"));
    expect(await runOrbridge(["convert", "--to", "responses", "-"], stdin)).toEqual({
      code: 0,
      stdout: lines(golden("body-response-format-json-schema", "responses.json"), golden("completion-refusal", "responses.json")),
      stderr: "read 2 lines: 2 records, 0 errors; 0 losses, 23 values synthesized\n",
    });
  });

  test("records already in Open Responses are written unchanged", async () => {
    const stdin = lines({ type: "function_call", call_id: "call_9", name: "f", arguments: "{}" }, { model: "gpt-4o", input: "hi" });
    expect(await runOrbridge(["convert", "--to", "responses"], stdin)).toEqual({ code: 0, stdout: stdin, stderr: "read 2 lines: 2 records, 0 errors; 0 losses\n" });
  });

  test("a logged exchange keeps its shape, both parts converted", async () => {
    const exchange = { request: golden("body-response-format-json-schema", "chat.json"), response: golden("completion-refusal", "chat.json"), latency_ms: 812 };
    const result = await runOrbridge(["convert", "--to", "responses"], lines(exchange));
    expect(result).toEqual({
      code: 0,
      stdout: lines({ request: golden("body-response-format-json-schema", "responses.json"), response: golden("completion-refusal", "responses.json"), latency_ms: 812 }),
      stderr: "read 1 line: 1 record, 0 errors; 0 losses, 23 values synthesized\n",
    });
  });

  test("--report writes each loss with its line and JSON Pointer, and each error", async () => {
    const report = join(scratch(), "losses.jsonl");
    const stdin = lines({ role: "user", content: "hi", name: "ana" }, "not json", { model: "gpt-4o", messages: [{ role: "user", content: "hello" }], n: 2 });
    const result = await runOrbridge(["convert", "--to", "responses", "--report", report], stdin);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(lines({ type: "message", role: "user", content: "hi" }, { model: "gpt-4o", input: [{ type: "message", role: "user", content: "hello" }] }));
    expect(readReport(report)).toEqual([
      { line: 1, path: "/name", code: "unsupported_field", detail: "a participant name has no place in an Open Responses message" },
      { line: 2, path: "", code: "error", detail: "line is not JSON: Unexpected token 'o', \"not json\" is not valid JSON" },
      { line: 3, path: "/n", code: "unsupported_field", detail: "n has no counterpart in Open Responses" },
    ]);
    expect(result.stderr).toBe(
      "orbridge convert: line 2: line is not JSON: Unexpected token 'o', \"not json\" is not valid JSON\nread 3 lines: 2 records, 1 error; 2 losses\n",
    );
  });

  test("a record of no known kind and a chunk that belongs to no completion are errors with their line numbers; blank lines are skipped", async () => {
    const stdin = lines({ hello: "world" }, "", { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-4o", choices: [] }, { role: "user", content: "still here" });
    expect(await runOrbridge(["convert", "--to", "responses"], stdin)).toEqual({
      code: 1,
      stdout: lines({ type: "message", role: "user", content: "still here" }),
      stderr:
        "orbridge convert: line 1: record of no known kind (not a message, item, request body, completion or response)\n" +
        "orbridge convert: line 3: a chat.completion.chunk with no choices belongs to no completion: nothing to convert\n" +
        "read 4 lines: 1 record, 2 errors; 0 losses\n",
    });
  });

  test("a record nested too deep to be written is an error on its line, and the lines after it are converted", async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const stdin = `{"type":"message","role":"user","content":"hi","metadata":${deep}}\n` + lines({ role: "user", content: "after" });
    expect(await runOrbridge(["convert", "--to", "responses"], stdin)).toEqual({
      code: 1,
      stdout: lines({ type: "message", role: "user", content: "after" }),
      stderr: "orbridge convert: line 1: not written: the record nests 100,001 levels deep, at /metadata/0/0/0/0/0/…, deeper than orbridge follows\nread 2 lines: 1 record, 1 error; 0 losses\n",
    });
  });

  test("a record nested too deep to be converted names its line, the field and its depth, not the engine's stack", async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const stdin =
      `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01","name":"lookup","input":{"filter":${deep}}}]}\n` +
      lines({ role: "user", content: [{ type: "text", text: "after" }] });
    expect(await runOrbridge(["convert", "--to", "gemini"], stdin)).toEqual({
      code: 1,
      stdout: lines({ role: "user", parts: [{ text: "after" }] }),
      stderr: "orbridge convert: line 1: not converted: the record nests 100,004 levels deep, at /content/0/input/filter/0/0/…, deeper than orbridge follows\nread 2 lines: 1 record, 1 error; 0 losses\n",
    });
  });

  test("a record its converter cannot read is an error that says where it departs from its envelope", async () => {
    const stdin = lines({ model: "gpt-4o", messages: [], tools: "get_weather" });
    expect(await runOrbridge(["convert", "--to", "responses"], stdin)).toEqual({
      code: 1,
      stdout: "",
      stderr: "orbridge convert: line 1: not a valid Chat request body: /tools: Invalid input: expected array, received string\nread 1 line: 0 records, 1 error; 0 losses\n",
    });
  });
});

describe("orbridge convert --to responses: tool calls without id", () => {
  test("a tool call without id gets a synthesized call_id, and the tool message without tool_call_id on a later line answers it", async () => {
    const report = join(scratch(), "losses.jsonl");
    const stdin = lines(
      { role: "user", content: "Weather in Lima?" },
      { role: "assistant", content: null, tool_calls: [{ type: "function", function: { name: "get_weather", arguments: '{"city":"Lima"}' } }] },
      { role: "tool", content: "overcast" },
    );
    const id = synthesizedId(1, "get_weather", '{"city":"Lima"}');
    expect(await runOrbridge(["convert", "--to", "responses", "--report", report], stdin)).toEqual({
      code: 0,
      stdout: lines(
        { type: "message", role: "user", content: "Weather in Lima?" },
        { type: "function_call", call_id: id, name: "get_weather", arguments: '{"city":"Lima"}', status: "completed" },
        { type: "function_call_output", call_id: id, output: "overcast" },
      ),
      stderr: "read 3 lines: 3 records, 0 errors; 0 losses, 2 values synthesized\n",
    });
    expect(readReport(report)).toEqual([
      { line: 2, path: "/tool_calls/0", code: "synthesized", detail: `a tool call without id: call_id "${id}" was synthesized; a tool message without tool_call_id that follows answers it` },
      { line: 3, path: "", code: "synthesized", detail: `a tool message without tool_call_id answers the earliest call without id still unanswered: call_id "${id}"` },
    ]);
  });
});

describe("orbridge convert --to chat", () => {
  test("consecutive loose items merge into messages: one assistant message with its calls, the tool messages after it in the order the outputs came", async () => {
    const stdin = lines(
      { type: "message", role: "user", content: "Country and product?" },
      { type: "message", role: "assistant", content: "Looking both up." },
      { type: "function_call", call_id: "call_q2", name: "get_country", arguments: "{}", status: "completed" },
      { type: "function_call", call_id: "call_b5", name: "get_product_name", arguments: "", status: "completed" },
      { type: "function_call_output", call_id: "call_b5", output: "Orbridge Lite" },
      { type: "function_call_output", call_id: "call_q2", output: "Peru" },
    );
    expect(await runOrbridge(["convert", "--to", "chat"], stdin)).toEqual({
      code: 0,
      stdout: lines(
        { role: "user", content: "Country and product?" },
        {
          role: "assistant",
          content: "Looking both up.",
          tool_calls: [
            { id: "call_q2", type: "function", function: { name: "get_country", arguments: "{}" } },
            { id: "call_b5", type: "function", function: { name: "get_product_name", arguments: "" } },
          ],
        },
        { role: "tool", tool_call_id: "call_b5", content: "Orbridge Lite" },
        { role: "tool", tool_call_id: "call_q2", content: "Peru" },
      ),
      stderr: "read 6 lines: 6 records, 0 errors; 0 losses\n",
    });
  });

  test("call A, text, call B, then both outputs: one assistant message for the turn, the text's move reported on its line", async () => {
    const report = join(scratch(), "losses.jsonl");
    const stdin = lines(
      { type: "message", role: "user", content: "Weather in Lima and Quito?" },
      { type: "function_call", call_id: "call_A", name: "get_weather", arguments: '{"city":"Lima"}', status: "completed" },
      { type: "message", role: "assistant", content: "Now Quito." },
      { type: "function_call", call_id: "call_B", name: "get_weather", arguments: '{"city":"Quito"}', status: "completed" },
      { type: "function_call_output", call_id: "call_A", output: "overcast" },
      { type: "function_call_output", call_id: "call_B", output: "sunny" },
    );
    expect(await runOrbridge(["convert", "--to", "chat", "--report", report], stdin)).toEqual({
      code: 0,
      stdout: lines(
        { role: "user", content: "Weather in Lima and Quito?" },
        {
          role: "assistant",
          content: "Now Quito.",
          tool_calls: [
            { id: "call_A", type: "function", function: { name: "get_weather", arguments: '{"city":"Lima"}' } },
            { id: "call_B", type: "function", function: { name: "get_weather", arguments: '{"city":"Quito"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_A", content: "overcast" },
        { role: "tool", tool_call_id: "call_B", content: "sunny" },
      ),
      stderr: "read 6 lines: 6 records, 0 errors; 1 loss\n",
    });
    expect(readReport(report)).toEqual([
      {
        line: 3,
        path: "",
        code: "reordered",
        detail: "assistant text between the calls of a turn and their outputs: written in the message that makes the turn's calls, as Chat holds a turn's text and calls in one message",
      },
    ]);
  });

  test("a function_call without call_id, which the gate blocks, is left out, and so is the output without call_id in the next run, which then answers no call", async () => {
    const report = join(scratch(), "losses.jsonl");
    const stdin = lines(
      { type: "function_call", name: "get_weather", arguments: '{"city":"Lima"}', status: "completed" },
      { type: "message", role: "user", content: "And?" },
      { type: "function_call_output", output: "overcast" },
    );
    expect(await runOrbridge(["convert", "--to", "chat", "--report", report], stdin)).toEqual({
      code: 0,
      stdout: lines({ role: "user", content: "And?" }),
      stderr: "read 3 lines: 3 records, 0 errors; 2 losses\n",
    });
    expect(readReport(report)).toEqual([
      { line: 1, path: "", code: "unsupported_item", detail: "the call without call_id gives none, which the gate blocks: Chat writes an id of its own in its place, and written there it would read as a call that may run, so it is left out" },
      { line: 3, path: "", code: "unsupported_item", detail: "a function_call_output without call_id answers no call, and no call without call_id waits for an answer; Chat needs the tool_call_id" },
    ]);
  });

  test("a run of items ends at the next record of another kind, and output keeps the input order", async () => {
    const stdin = lines(
      { type: "message", role: "user", content: "first" },
      golden("completion-refusal", "responses.json"),
      { type: "message", role: "user", content: "second" },
    );
    expect(await runOrbridge(["convert", "--to", "chat"], stdin)).toEqual({
      code: 0,
      stdout: lines({ role: "user", content: "first" }, golden("completion-refusal", "chat.json"), { role: "user", content: "second" }),
      stderr: "read 3 lines: 3 records, 0 errors; 0 losses\n",
    });
  });

  test("the loss of an item in a run is reported on the item's own line", async () => {
    const report = join(scratch(), "losses.jsonl");
    const stdin = lines(
      { type: "message", role: "user", content: "Total?" },
      { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "gAAAAB" },
      { type: "function_call", id: "fc_1", call_id: "call_1", name: "calculator", arguments: '{"a":5,"b":3,"op":"add"}', status: "completed" },
    );
    const result = await runOrbridge(["convert", "--to", "chat", "--report", report], stdin);
    expect(result).toEqual({
      code: 0,
      stdout: lines(
        { role: "user", content: "Total?" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "calculator", arguments: '{"a":5,"b":3,"op":"add"}' } }] },
      ),
      stderr: "read 3 lines: 3 records, 0 errors; 2 losses\n",
    });
    expect(readReport(report)).toEqual([
      { line: 2, path: "", code: "unsupported_item", detail: "Chat Completions cannot replay a reasoning item" },
      { line: 3, path: "/id", code: "unsupported_field", detail: 'Chat Completions has no item ids; the call keeps its call_id "call_1"' },
    ]);
  });

  test("with several inputs, errors and report records name their file", async () => {
    const dir = scratch();
    const first = join(dir, "a.jsonl");
    const second = join(dir, "b.jsonl");
    const report = join(dir, "losses.jsonl");
    writeFileSync(first, lines({ type: "message", role: "user", content: "one", id: "msg_1", status: "completed" }));
    writeFileSync(second, lines("{oops"));
    const result = await runOrbridge(["convert", "--to", "chat", "--report", report, first, second]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(lines({ role: "user", content: "one" }));
    expect(result.stderr).toMatch(new RegExp(`^orbridge convert: ${second.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:1: line is not JSON: `));
    expect(readReport(report).map((record) => [record.source, record.line, record.path, record.code])).toEqual([
      [first, 1, "/id", "unsupported_field"],
      [first, 1, "/status", "unsupported_field"],
      [second, 1, "", "error"],
    ]);
  });
});

const PARALLEL_ID = "chatcmpl-ABfwAwrNePHUgBBezonVC6MX3zd63";
const GROQ_ID = "chatcmpl-b610d559-f156-4aca-8827-24b4fe6af54f";
const groqResponse = responseObject({
  id: GROQ_ID,
  created_at: 1770770843,
  status: "completed",
  model: "llama-3.3-70b-versatile",
  output: [{ id: outputItemId("fc", GROQ_ID, 0), type: "function_call", status: "completed", arguments: "{}", call_id: "tk85n1k4m", name: "weather" }],
  usage: { input_tokens: 210, input_tokens_details: { cached_tokens: 0 }, output_tokens: 15, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 225 },
});
/** A response's usage count the completion's usage did not give: written 0, reported on the chunk that carried the usage. */
const zeroDetail = (line: number, field: "cached_tokens" | "reasoning_tokens") =>
  field === "cached_tokens"
    ? { line, path: "/usage/input_tokens_details/cached_tokens", code: "synthesized", detail: "a response's usage requires cached_tokens and the chat.completion's usage has no prompt_tokens_details: 0 written" }
    : { line, path: "/usage/output_tokens_details/reasoning_tokens", code: "synthesized", detail: "a response's usage requires reasoning_tokens and the chat.completion's usage has no completion_tokens_details: 0 written" };

const groqLosses = [
  { line: 1, path: "/system_fingerprint", code: "unsupported_field", detail: "system_fingerprint has no counterpart in a response object" },
  { line: 1, path: "/x_groq", code: "provider_extension", detail: '"x_groq" is not a field of the portable shape; Open Responses has no place for it' },
  ...["queue_time", "prompt_time", "completion_time", "total_time"].map((key) => ({
    line: 3,
    path: `/usage/${key}`,
    code: "provider_extension",
    detail: `"${key}" is not a field of the portable shape; Open Responses has no place for it`,
  })),
];

describe("orbridge convert: what the gate would block is moved or reported", () => {
  test("--to chat: an output before its call is written after the assistant message with the call, reported", async () => {
    const report = join(scratch(), "losses.jsonl");
    const stdin = lines(
      { type: "message", role: "user", content: "Weather in Lima?" },
      { type: "function_call_output", call_id: "call_late", output: "overcast" },
      { type: "function_call", call_id: "call_late", name: "get_weather", arguments: '{"city":"Lima"}', status: "completed" },
    );
    expect(await runOrbridge(["convert", "--to", "chat", "--report", report], stdin)).toEqual({
      code: 0,
      stdout: lines(
        { role: "user", content: "Weather in Lima?" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_late", type: "function", function: { name: "get_weather", arguments: '{"city":"Lima"}' } }] },
        { role: "tool", tool_call_id: "call_late", content: "overcast" },
      ),
      stderr: "read 3 lines: 3 records, 0 errors; 1 loss\n",
    });
    expect(readReport(report)).toEqual([
      { line: 2, path: "", code: "reordered", detail: "the output comes before its call (item 2): its tool message is written after the assistant message that makes the call, as Chat requires" },
    ]);
  });

  test("--to responses: a tool message before the assistant message with its call gives an output after the call, reported", async () => {
    const report = join(scratch(), "losses.jsonl");
    const stdin = lines(
      { role: "user", content: "Weather in Lima?" },
      { role: "tool", tool_call_id: "call_late", content: "overcast" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_late", type: "function", function: { name: "get_weather", arguments: '{"city":"Lima"}' } }] },
    );
    expect(await runOrbridge(["convert", "--to", "responses", "--report", report], stdin)).toEqual({
      code: 0,
      stdout: lines(
        { type: "message", role: "user", content: "Weather in Lima?" },
        { type: "function_call", call_id: "call_late", name: "get_weather", arguments: '{"city":"Lima"}', status: "completed" },
        { type: "function_call_output", call_id: "call_late", output: "overcast" },
      ),
      stderr: "read 3 lines: 3 records, 0 errors; 1 loss\n",
    });
    expect(readReport(report)).toEqual([
      { line: 2, path: "", code: "reordered", detail: "the tool message comes before the assistant message that makes its call (message 2): its output is written after the call, where the gate looks for it" },
    ]);
  });

  test.each([
    ["chat", { type: "function_call", call_id: "call_obj", name: "get_weather", arguments: { city: "Lima" }, status: "completed" }, "/arguments", "Chat Completions"],
    ["responses", { role: "assistant", content: null, tool_calls: [{ id: "call_obj", type: "function", function: { name: "get_weather", arguments: { city: "Lima" } } }] }, "/tool_calls/0/function/arguments", "Open Responses"],
  ])("--to %s: object arguments are written as they are and reported", async (target, record, path, envelope) => {
    const report = join(scratch(), "losses.jsonl");
    const result = await runOrbridge(["convert", "--to", target, "--report", report], lines(record));
    expect([result.code, result.stderr]).toEqual([0, "read 1 line: 1 record, 0 errors; 1 loss\n"]);
    expect(JSON.stringify(records(result.stdout))).toContain('"arguments":{"city":"Lima"}');
    expect(readReport(report)).toEqual([
      { line: 1, path, code: "target_rejects", detail: `arguments is an object, not a JSON string: written as it is, which ${envelope} rejects and the gate blocks (arguments_type)` },
    ]);
  });
});

describe("orbridge convert: reasoning in Chat dialects", () => {
  const completion = golden("completion-deepseek-reasoning-tool-call", "chat.json");
  const reasoning = completion.choices[0].message.reasoning_content;

  test("--to responses: DeepSeek's reasoning_content becomes a reasoning item ahead of the call, the dialect named in the report", async () => {
    const report = join(scratch(), "losses.jsonl");
    const result = await runOrbridge(["convert", "--to", "responses", "--report", report], lines(completion));
    expect(records(result.stdout)[0].output.slice(0, 1)).toEqual([
      { id: outputItemId("rs", completion.id, 0), type: "reasoning", summary: [{ type: "summary_text", text: reasoning }], chat_field: "reasoning_content" },
    ]);
    expect(readReport(report).find((loss) => loss.path.endsWith("/reasoning_content"))).toEqual({
      line: 1,
      path: "/choices/0/message/reasoning_content",
      code: "form_changed",
      detail: "reasoning_content (DeepSeek's dialect, vLLM's before it took `reasoning`) read as a reasoning item: its text is the item's summary",
    });
  });

  test("--to chat --reasoning-field reasoning_content: the reasoning goes back into the assistant message, nothing lost", async () => {
    const response = records((await runOrbridge(["convert", "--to", "responses"], lines(completion))).stdout)[0];
    const result = await runOrbridge(["convert", "--to", "chat", "--reasoning-field", "reasoning_content"], lines(response));
    expect([result.code, result.stderr]).toEqual([0, "read 1 line: 1 record, 0 errors; 0 losses\n"]);
    expect(records(result.stdout)[0].choices[0].message).toEqual({
      role: "assistant",
      content: null,
      reasoning_content: reasoning,
      tool_calls: [{ id: "call_00_9V0vrf86Pc9aelHCJMZqnJBo", type: "function", function: { name: "weather", arguments: '{"location": "Porto"}' } }],
    });
  });

  test("--to chat without a reasoning field: the reasoning is a loss", async () => {
    const report = join(scratch(), "losses.jsonl");
    const response = records((await runOrbridge(["convert", "--to", "responses"], lines(completion))).stdout)[0];
    const result = await runOrbridge(["convert", "--to", "chat", "--report", report], lines(response));
    expect(records(result.stdout)[0].choices[0].message.reasoning_content).toBeUndefined();
    expect(readReport(report)).toEqual([{ line: 1, path: "/output/0", code: "unsupported_item", detail: "Chat Completions cannot replay a reasoning item" }]);
  });

  test("loose items: --reasoning-field writes an OpenRouter dialect back as it was", async () => {
    const chat = golden("openrouter-reasoning-details-kept", "chat.json");
    const items = (await runOrbridge(["convert", "--to", "responses"], lines(...chat))).stdout;
    const back = await runOrbridge(["convert", "--to", "chat", "--reasoning-field", "reasoning_details"], items);
    expect({ ...back, stdout: records(back.stdout) }).toEqual({
      code: 0,
      stdout: golden("openrouter-reasoning-details-kept", "chat-roundtrip.json"),
      stderr: "read 4 lines: 4 records, 0 errors; 0 losses\n",
    });
  });
});

describe("orbridge convert --to chat --for chat-completions --reasoning-field FIELD", () => {
  test("keeps the reasoning the field asks for, as it does without --for", async () => {
    const journal = lines(
      { type: "message", role: "user", content: "go" },
      { type: "reasoning", summary: [{ type: "summary_text", text: "look up apac" }] },
      { type: "function_call", call_id: "c1", name: "sales", arguments: '{"region":"apac"}', status: "completed" },
      { type: "function_call_output", call_id: "c1", output: "r1" },
    );
    const plain = await runOrbridge(["convert", "--to", "chat", "--reasoning-field", "reasoning_content"], journal);
    const forTarget = await runOrbridge(["convert", "--to", "chat", "--for", "chat-completions", "--reasoning-field", "reasoning_content"], journal);
    expect(records(forTarget.stdout)).toEqual(records(plain.stdout));
    expect(records(forTarget.stdout)[1]).toEqual({ role: "assistant", content: null, reasoning_content: "look up apac", tool_calls: [{ id: "c1", type: "function", function: { name: "sales", arguments: '{"region":"apac"}' } }] });
  });
});

describe("orbridge convert --to ENVELOPE --for TARGET, record by record", () => {
  const chatTurn = [
    { role: "user", content: "go" },
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "sales", arguments: '{"region":"apac"}' } }] },
    { role: "tool", tool_call_id: "c1", content: "r1" },
  ];

  test.each(["chat-completions", "deepseek", "adjacent"])("a tool message whose call is on an earlier line is not reported as missing its call (--for %s)", async (target) => {
    const report = join(scratch(), "losses.jsonl");
    const result = await runOrbridge(["convert", "--to", "chat", "--for", target, "--report", report], lines(...chatTurn));
    expect({ code: result.code, stdout: records(result.stdout), report: readFileSync(report, "utf8") }).toEqual({ code: 0, stdout: chatTurn, report: "" });
  });

  test.each(["responses", "anthropic", "bedrock"])("a call_id the target rejects is reported on the line of the message that gave it, at its field, for the call and its tool message (--to %s --for anthropic)", async (envelope) => {
    const report = join(scratch(), "losses.jsonl");
    const rejected = [chatTurn[0], { ...chatTurn[1], tool_calls: [{ id: "call.1", type: "function", function: { name: "sales", arguments: '{"region":"apac"}' } }] }, { ...chatTurn[2], tool_call_id: "call.1" }];
    const result = await runOrbridge(["convert", "--to", envelope, "--for", "anthropic", "--report", report], lines(...rejected));
    expect(result.code).toBe(0);
    const detail = 'call_id "call.1" does not match ^[a-zA-Z0-9_-]+$: written as "call_1_e8b7b7b3", the call and its output alike';
    expect(readReport(report).filter((loss) => /^call_id/.test(loss.detail))).toEqual([
      { line: 2, path: "/tool_calls/0/id", code: "form_changed", detail },
      { line: 3, path: "/tool_call_id", code: "form_changed", detail },
    ]);
  });

  test("a tool message whose call comes on a later line is reported, and left where it is", async () => {
    const report = join(scratch(), "losses.jsonl");
    const result = await runOrbridge(["convert", "--to", "chat", "--for", "chat-completions", "--report", report], lines(chatTurn[0], chatTurn[2], chatTurn[1]));
    expect(records(result.stdout)).toEqual([chatTurn[0], chatTurn[2], chatTurn[1]]);
    expect(readReport(report)).toEqual([{ line: 2, path: "", code: "form_changed", detail: "its call comes neither before it nor in the 0 items held after it: left where it is; the target rejects an output without its call" }]);
  });
});

describe("orbridge convert --to responses: Chat streams", () => {
  test("a Chat SSE stream becomes the response object of the completion it streams, its calls completed", async () => {
    const report = join(scratch(), "losses.jsonl");
    const result = await runOrbridge(["convert", "--to", "responses", "--report", report, stream("chat-openai-parallel-calls", "stream.sse")]);
    expect({ ...result, stdout: records(result.stdout) }).toEqual({
      code: 0,
      stdout: [
        responseObject({
          id: PARALLEL_ID,
          created_at: 1727346178,
          status: "completed",
          model: "gpt-4o-2024-08-06",
          output: [
            {
              id: outputItemId("fc", PARALLEL_ID, 0),
              type: "function_call",
              status: "completed",
              arguments: '{"city": "Edinburgh", "country": "GB", "units": "c"}',
              call_id: "call_JMW1whyEaYG438VE1OIflxA2",
              name: "GetWeatherArgs",
            },
            {
              id: outputItemId("fc", PARALLEL_ID, 1),
              type: "function_call",
              status: "completed",
              arguments: '{"ticker": "AAPL", "exchange": "NASDAQ"}',
              call_id: "call_DNYTawLBoN8fj3KN6qU9N1Ou",
              name: "get_stock_price",
            },
          ],
          usage: { input_tokens: 149, input_tokens_details: { cached_tokens: 0 }, output_tokens: 60, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 209 },
        }),
      ],
      // 52 lines of SSE text hold 25 records and `[DONE]`, which is framing.
      stderr: "read 52 lines: 25 records, 0 errors; 1 loss, 26 values synthesized\n",
    });
    expect(readReport(report)).toEqual([
      { line: 1, path: "/system_fingerprint", code: "unsupported_field", detail: "system_fingerprint has no counterpart in a response object" },
      zeroDetail(49, "cached_tokens"),
    ]);
  });

  test("a chunk stream of JSON lines becomes one response object; the losses name the chunk that carried each field", async () => {
    const report = join(scratch(), "losses.jsonl");
    const result = await runOrbridge(["convert", "--to", "responses", "--report", report, stream("chat-groq-whole-call", "chunks.jsonl")]);
    expect({ ...result, stdout: records(result.stdout) }).toEqual({ code: 0, stdout: [groqResponse], stderr: "read 3 lines: 3 records, 0 errors; 6 losses, 26 values synthesized\n" });
    expect(readReport(report)).toEqual([...groqLosses, zeroDetail(3, "cached_tokens"), zeroDetail(3, "reasoning_tokens")]);
  });

  test("a streamed completion converts as its non-streamed twin", async () => {
    const twin = {
      id: GROQ_ID,
      object: "chat.completion",
      created: 1770770843,
      model: "llama-3.3-70b-versatile",
      system_fingerprint: "fp_f8b414701e",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: null, tool_calls: [{ id: "tk85n1k4m", type: "function", function: { name: "weather", arguments: "{}" } }] },
          logprobs: null,
          finish_reason: "tool_calls",
        },
      ],
      usage: { queue_time: 0.041520249, prompt_tokens: 210, prompt_time: 0.010407901, completion_tokens: 15, completion_time: 0.046601227, total_tokens: 225, total_time: 0.057009128 },
    };
    const streamed = await runOrbridge(["convert", "--to", "responses", stream("chat-groq-whole-call", "chunks.jsonl")]);
    const whole = await runOrbridge(["convert", "--to", "responses"], lines(twin));
    expect(records(streamed.stdout)).toEqual([groqResponse]);
    expect(streamed.stdout).toBe(whole.stdout);
  });

  test("a stream cut inside the arguments gives an in_progress response whose calls stay in_progress", async () => {
    const result = await runOrbridge(["convert", "--to", "responses", stream("cut-chat-mid-arguments", "stream.sse")]);
    expect({ ...result, stdout: records(result.stdout) }).toEqual({
      code: 0,
      stdout: [
        responseObject({
          id: PARALLEL_ID,
          created_at: 1727346178,
          status: "in_progress",
          model: "gpt-4o-2024-08-06",
          output: [
            {
              id: outputItemId("fc", PARALLEL_ID, 0),
              type: "function_call",
              status: "in_progress",
              arguments: '{"city": "Edinburgh", "country": "GB", "units": "c"}',
              call_id: "call_JMW1whyEaYG438VE1OIflxA2",
              name: "GetWeatherArgs",
            },
            { id: outputItemId("fc", PARALLEL_ID, 1), type: "function_call", status: "in_progress", arguments: '{"ticker"', call_id: "call_DNYTawLBoN8fj3KN6qU9N1Ou", name: "get_stock_price" },
          ],
          usage: null,
        }),
      ],
      stderr: "read 31 lines: 16 records, 0 errors; 2 losses, 26 values synthesized\n",
    });
  });

  test("an unknown finish_reason leaves the response and its items incomplete, as the stream says, and is reported on its chunk", async () => {
    const report = join(scratch(), "losses.jsonl");
    const chunk = (content: string, finishReason: string | null) => ({
      id: "chatcmpl-9",
      object: "chat.completion.chunk",
      created: 7,
      model: "m",
      choices: [{ index: 0, delta: { content }, finish_reason: finishReason }],
    });
    const result = await runOrbridge(["convert", "--to", "responses", "--report", report], lines(chunk("Lim", null), chunk("a", "eos")));
    expect({ ...result, stdout: records(result.stdout) }).toEqual({
      code: 0,
      stdout: [
        responseObject({
          id: "chatcmpl-9",
          created_at: 7,
          status: "incomplete",
          model: "m",
          output: [{ id: outputItemId("msg", "chatcmpl-9", 0), type: "message", status: "incomplete", content: [{ type: "output_text", annotations: [], logprobs: [], text: "Lima" }], role: "assistant" }],
          usage: null,
        }),
      ],
      stderr: "read 2 lines: 2 records, 0 errors; 1 loss, 25 values synthesized\n",
    });
    expect(readReport(report)).toEqual([{ line: 2, path: "/choices/0/finish_reason", code: "form_changed", detail: 'finish_reason "eos" written as status incomplete; it comes back as "length"' }]);
  });

  test("a stream ends at the first record that is not part of it, and the output keeps the input order", async () => {
    const stdin = lines({ role: "user", content: "Weather?" }) + readFileSync(stream("chat-groq-whole-call", "chunks.jsonl"), "utf8").trimEnd() + "\n" + lines({ role: "user", content: "Thanks." });
    const result = await runOrbridge(["convert", "--to", "responses"], stdin);
    expect({ ...result, stdout: records(result.stdout) }).toEqual({
      code: 0,
      stdout: [{ type: "message", role: "user", content: "Weather?" }, groqResponse, { type: "message", role: "user", content: "Thanks." }],
      stderr: "read 5 lines: 5 records, 0 errors; 6 losses, 26 values synthesized\n",
    });
  });

  test("a chunk the assembler cannot read is an error on its line, and the rest of the stream is converted with its calls incomplete", async () => {
    const [first, second, third] = readFileSync(stream("chat-groq-whole-call", "chunks.jsonl"), "utf8").trimEnd().split("\n");
    const stdin = [first, second, '{"object":"chat.completion.chunk","choices":"none"}', third].join("\n") + "\n";
    const result = await runOrbridge(["convert", "--to", "responses"], stdin);
    // The stream lost a record: whatever it held, no call of it may pass as completed.
    const damaged = { ...groqResponse, status: "incomplete", output: groqResponse.output.map((item: Record<string, unknown>) => ({ ...item, status: "incomplete" })) };
    expect({ ...result, stdout: records(result.stdout) }).toEqual({
      code: 1,
      stdout: [damaged],
      stderr: "orbridge convert: line 3: not reassembled: a chat.completion.chunk is an object with a choices array\nread 4 lines: 3 records, 1 error; 8 losses, 26 values synthesized\n",
    });
  });
});

describe("orbridge convert --to chat: Chat streams", () => {
  test("a Chat SSE stream stays a stream: each record on its own line, without the SSE framing", async () => {
    const path = stream("chat-openai-parallel-calls", "stream.sse");
    expect(await runOrbridge(["convert", "--to", "chat", path])).toEqual({ code: 0, stdout: sseRecords(path), stderr: "read 52 lines: 25 records, 0 errors; 0 losses\n" });
  });

  test("a chunk stream of JSON lines is written unchanged", async () => {
    const path = stream("chat-groq-whole-call", "chunks.jsonl");
    // The recording has no newline after its last line; every line written has one.
    expect(await runOrbridge(["convert", "--to", "chat", path])).toEqual({ code: 0, stdout: readFileSync(path, "utf8").trimEnd() + "\n", stderr: "read 3 lines: 3 records, 0 errors; 0 losses\n" });
  });
});

const AZURE_RESPONSE_ID = "resp_04041325ab8ae30400698c519fb7fc81979972618138fc336d";
const PYDANTIC_IDS = ["resp_67e554a155508191900ee113293c4c830794405d35281ae2", "resp_67e554a21aa88191b65876ac5e5bbe0406c52f0e511c76ed"];
const chatUsage = (prompt: number, completion: number) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  prompt_tokens_details: { cached_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0 },
});
/** An event's obfuscation, which no record holds: said on its line. */
const padding = (line: number) => ({ line, path: "/obfuscation", code: "left_behind", detail: "obfuscation is padding of the transport: no item or record holds it" });
/** A setting the response said at its neutral value, which a chat.completion has no place for. */
const neutralSaid = (line: number, field: string, value: string) => ({
  line,
  path: `/response/${field}`,
  code: "unsupported_field",
  detail: `a chat.completion has no ${field}: the response's ${value} (the neutral value) is not written`,
});
const notNeutral = (line: number, field: string, neutral: string) => ({
  line,
  path: `/response/${field}`,
  code: "unsupported_field",
  detail: `a chat.completion has no ${field} (a value other than ${neutral} is lost)`,
});

describe("orbridge convert --to chat: Open Responses event streams", () => {
  test("an event stream of JSON lines becomes the chat.completion its response object gives; losses point into the event that carried the response", async () => {
    const report = join(scratch(), "losses.jsonl");
    const result = await runOrbridge(["convert", "--to", "chat", "--report", report, stream("responses-azure-function-call", "chunks.jsonl")]);
    expect({ ...result, stdout: records(result.stdout) }).toEqual({
      code: 0,
      stdout: [
        {
          id: AZURE_RESPONSE_ID,
          object: "chat.completion",
          created: 1770803615,
          model: "gpt-5.1",
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: null,
                tool_calls: [{ id: "call_H5DxLSFnsGhiROnUiDHmgyc8", type: "function", function: { name: "weather", arguments: '{"location":"San Francisco"}' } }],
              },
              logprobs: null,
              finish_reason: "tool_calls",
            },
          ],
          usage: chatUsage(45, 24),
          service_tier: "default",
        },
      ],
      stderr: "read 12 lines: 12 records, 0 errors; 14 losses, 6 padding fields left behind\n",
    });
    expect(readReport(report)).toEqual([
      ...[4, 5, 6, 7, 8, 9].map(padding),
      neutralSaid(12, "background", "false"),
      notNeutral(12, "completed_at", "null"),
      { line: 12, path: "/response/content_filters", code: "provider_extension", detail: '"content_filters" is not a field of the portable shape; Chat Completions has no place for it' },
      { line: 12, path: "/response/output/0/id", code: "unsupported_field", detail: "item ids have no place in a chat.completion" },
      neutralSaid(12, "parallel_tool_calls", "true"),
      notNeutral(12, "reasoning", "null"),
      notNeutral(12, "store", "false"),
      neutralSaid(12, "temperature", "1"),
      { line: 12, path: "/response/text/verbosity", code: "unsupported_field", detail: "text.verbosity has no place in a chat.completion" },
      neutralSaid(12, "tool_choice", '"auto"'),
      notNeutral(12, "tools", "[]"),
      neutralSaid(12, "top_logprobs", "0"),
      neutralSaid(12, "top_p", "1"),
      neutralSaid(12, "truncation", '"disabled"'),
    ]);
  });

  test("an SSE recording of two responses becomes two chat.completions, in order", async () => {
    const report = join(scratch(), "losses.jsonl");
    const result = await runOrbridge(["convert", "--to", "chat", "--report", report, stream("responses-pydantic-stream", "stream.sse")]);
    expect({ ...result, stdout: records(result.stdout) }).toEqual({
      code: 0,
      stdout: [
        {
          id: PYDANTIC_IDS[0],
          object: "chat.completion",
          created: 1743082657,
          model: "gpt-4o-2024-08-06",
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: null,
                tool_calls: [{ id: "call_kL0PCQV7M2WMoVX8V8OtYSAL", type: "function", function: { name: "get_capital", arguments: '{"country":"France"}' } }],
              },
              logprobs: null,
              finish_reason: "tool_calls",
            },
          ],
          usage: chatUsage(255, 16),
        },
        {
          id: PYDANTIC_IDS[1],
          object: "chat.completion",
          created: 1743082658,
          model: "gpt-4o-2024-08-06",
          choices: [{ index: 0, message: { role: "assistant", content: "Paris is the French capital city." }, logprobs: null, finish_reason: "stop" }],
          usage: chatUsage(278, 9),
        },
      ],
      stderr: "read 78 lines: 26 records, 0 errors; 20 losses\n",
    });
    expect(readReport(report)).toEqual(
      [31, 76].flatMap((line) => [
        notNeutral(line, "instructions", "null"),
        { line, path: "/response/output/0/id", code: "unsupported_field", detail: "item ids have no place in a chat.completion" },
        neutralSaid(line, "parallel_tool_calls", "true"),
        notNeutral(line, "reasoning", "null"),
        notNeutral(line, "store", "false"),
        neutralSaid(line, "temperature", "1"),
        neutralSaid(line, "tool_choice", '"auto"'),
        notNeutral(line, "tools", "[]"),
        neutralSaid(line, "top_p", "1"),
        neutralSaid(line, "truncation", '"disabled"'),
      ]),
    );
  });

  test("a stream cut inside the arguments gives a null finish_reason, and the in_progress statuses are reported lost on their lines", async () => {
    const report = join(scratch(), "losses.jsonl");
    const result = await runOrbridge(["convert", "--to", "chat", "--report", report, stream("cut-responses-mid-arguments", "stream.sse")]);
    expect({ ...result, stdout: records(result.stdout) }).toEqual({
      code: 0,
      stdout: [
        {
          id: PYDANTIC_IDS[0],
          object: "chat.completion",
          created: 1743082657,
          model: "gpt-4o-2024-08-06",
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: null,
                tool_calls: [{ id: "call_kL0PCQV7M2WMoVX8V8OtYSAL", type: "function", function: { name: "get_capital", arguments: '{"country":"' } }],
              },
              logprobs: null,
              finish_reason: null,
            },
          ],
        },
      ],
      stderr: "read 17 lines: 6 records, 0 errors; 13 losses\n",
    });
    expect(readReport(report)).toEqual([
      // The recording ends before its last event's blank line: read, and its stream damaged.
      { line: 1, path: "", code: "form_changed", detail: "line 16 is an SSE event the recording ends before its blank line, which SSE readers discard; its calls are marked incomplete" },
      { line: 4, path: "/response/status", code: "unsupported_field", detail: 'status "in_progress" has no finish_reason; null written' },
      notNeutral(4, "instructions", "null"),
      neutralSaid(4, "parallel_tool_calls", "true"),
      notNeutral(4, "reasoning", "null"),
      notNeutral(4, "store", "false"),
      neutralSaid(4, "temperature", "1"),
      neutralSaid(4, "tool_choice", '"auto"'),
      notNeutral(4, "tools", "[]"),
      neutralSaid(4, "top_p", "1"),
      neutralSaid(4, "truncation", '"disabled"'),
      { line: 7, path: "/item/id", code: "unsupported_field", detail: "item ids have no place in a chat.completion" },
      { line: 7, path: "/item/status", code: "unsupported_field", detail: 'item status "in_progress" differs from the finish_reason\'s; it is not kept' },
    ]);
  });

  test("events of no known type that open no response are reported, each counted", async () => {
    const stdin = lines({ type: "response.audio.delta", delta: "AAA" }, { type: "response.audio.delta", delta: "BBB" });
    expect(await runOrbridge(["convert", "--to", "chat"], stdin)).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "orbridge convert: line 1: streaming events (2 records, lines 1-2) open no response: response.audio.delta (2 events, lines 1–2) is an event of no known type: ignored; its fields are not read: nothing to convert\n" +
        "read 2 lines: 0 records, 2 errors; 0 losses\n",
    });
  });
});

describe("orbridge convert --to responses: Open Responses event streams", () => {
  test("an event stream is already in the target envelope and is written unchanged", async () => {
    const path = stream("responses-azure-function-call", "chunks.jsonl");
    expect(await runOrbridge(["convert", "--to", "responses", path])).toEqual({ code: 0, stdout: readFileSync(path, "utf8"), stderr: "read 12 lines: 12 records, 0 errors; 0 losses\n" });
  });

  test("an SSE event stream is written as its records, one per line", async () => {
    const path = stream("responses-pydantic-stream", "stream.sse");
    expect(await runOrbridge(["convert", "--to", "responses", path])).toEqual({ code: 0, stdout: sseRecords(path), stderr: "read 78 lines: 26 records, 0 errors; 0 losses\n" });
  });
});

describe("--out FILE", () => {
  test("writes the records to FILE and nothing to stdout", async () => {
    const out = join(scratch(), "chat.jsonl");
    const result = await runOrbridge(["convert", "--to", "chat", "--out", out], lines({ type: "message", role: "user", content: "Capital of France?" }));
    expect(result).toEqual({ code: 0, stdout: "", stderr: "read 1 line: 1 record, 0 errors; 0 losses\n" });
    expect(readFileSync(out, "utf8")).toBe(lines({ role: "user", content: "Capital of France?" }));
  });

  test("a run that fails leaves FILE as it was and no temporary file beside it", async () => {
    const folder = scratch();
    const out = join(folder, "items.jsonl");
    writeFileSync(out, "previous content\n");
    const result = await runWithFailingStdin(["convert", "--to", "responses", "--out", out], lines({ role: "user", content: "one" }, { role: "user", content: "two" }));
    expect(result).toEqual({ code: 2, stdout: "", stderr: "orbridge convert: cannot read -: device lost\n" });
    expect(readFileSync(out, "utf8")).toBe("previous content\n");
    expect(readdirSync(folder)).toEqual(["items.jsonl"]);
  });

  const input = () => {
    const folder = scratch();
    const path = join(folder, "input.jsonl");
    writeFileSync(path, lines({ role: "user", content: "keep me" }));
    return { folder, path };
  };
  test.each([
    ["the same path", (path: string) => path],
    ["a relative path", (path: string) => relative(process.cwd(), path)],
    ["a path through the parent folder", (path: string) => `${dirname(path)}/../${basename(dirname(path))}/${basename(path)}`],
    [
      "a symbolic link",
      (path: string) => {
        const link = join(path, "..", "link.jsonl");
        symlinkSync(path, link);
        return link;
      },
    ],
  ])("--out naming the input by %s is refused with exit 2, and the input kept", async (_label, spell) => {
    const { path } = input();
    const before = sha256(path);
    const out = spell(path);
    expect(await runOrbridge(["convert", "--to", "responses", "--out", out, path])).toEqual({
      code: 2,
      stdout: "",
      stderr: `orbridge convert: --out ${out} is also an input; inputs are never overwritten\n`,
    });
    expect(sha256(path)).toBe(before);
  });

  test("--report naming the input by a relative path is refused with exit 2, and the input kept", async () => {
    const { path } = input();
    const before = sha256(path);
    const report = relative(process.cwd(), path);
    expect(await runOrbridge(["convert", "--to", "responses", "--report", report, path])).toEqual({
      code: 2,
      stdout: "",
      stderr: `orbridge convert: --report ${report} is also an input; inputs are never overwritten\n`,
    });
    expect(sha256(path)).toBe(before);
  });
});

describe("--max-line-bytes N", () => {
  test("a longer line is an error with its line and size, and the lines after it are converted", async () => {
    const long = JSON.stringify({ role: "user", content: "x".repeat(200) });
    const stdin = lines({ role: "user", content: "short" }, long, { role: "user", content: "after" });
    expect(await runOrbridge(["convert", "--to", "responses", "--max-line-bytes", "100"], stdin)).toEqual({
      code: 1,
      stdout: lines({ type: "message", role: "user", content: "short" }, { type: "message", role: "user", content: "after" }),
      stderr: `orbridge convert: line 2: line is ${Buffer.byteLength(long)} bytes, over the limit of 100 bytes; it was not read\nread 3 lines: 2 records, 1 error; 0 losses\n`,
    });
  });

  test("N must be a positive whole number", async () => {
    expect(await runOrbridge(["convert", "--to", "chat", "--max-line-bytes", "0"], "")).toEqual({
      code: 2,
      stdout: "",
      stderr: 'orbridge convert: --max-line-bytes must be a positive whole number of bytes (got "0")\n',
    });
  });
});

describe("usage errors exit 2 with one line each", () => {
  test("--to is required", async () => {
    expect(await runOrbridge(["convert"], "")).toEqual({ code: 2, stdout: "", stderr: `orbridge convert: convert needs --to and an envelope: ${ENVELOPE_NAMES.join(", ")} (see orbridge convert --help)\n` });
  });

  test("--to takes a registered envelope", async () => {
    expect(await runOrbridge(["convert", "--to", "cohere"], "")).toEqual({
      code: 2,
      stdout: "",
      stderr: `orbridge convert: --to must be one of ${ENVELOPE_NAMES.join(", ")} (got "cohere")\n`,
    });
  });

  test("--reasoning-field goes with --to chat only, and names a field a dialect uses", async () => {
    expect(await runOrbridge(["convert", "--to", "responses", "--reasoning-field", "reasoning"], "")).toEqual({
      code: 2,
      stdout: "",
      stderr: "orbridge convert: --reasoning-field names the Chat field that takes reasoning: it goes with --to chat\n",
    });
    expect(await runOrbridge(["convert", "--to", "chat", "--reasoning-field", "thinking"], "")).toEqual({
      code: 2,
      stdout: "",
      stderr: 'orbridge convert: --reasoning-field must be one of reasoning_content, reasoning, reasoning_details (got "thinking")\n',
    });
  });

  test("unknown options and an unreadable input", async () => {
    expect(await runOrbridge(["convert", "--to", "chat", "--strict"], "")).toEqual({ code: 2, stdout: "", stderr: "orbridge convert: unknown option: --strict\n" });
    expect(await runOrbridge(["convert", "--to", "chat", "no/such/journal.jsonl"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "orbridge convert: cannot read no/such/journal.jsonl: no such file or not readable\n",
    });
  });
});

describe("help", () => {
  test("convert --help explains the options with examples and exits 0", async () => {
    const result = await runOrbridge(["convert", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout.startsWith(`Usage: orbridge convert --to ${ENVELOPE_NAMES.join("|")} `)).toBe(true);
    expect(result.stdout).toMatch(/^Usage: orbridge convert --to [a-z|]+ \[--reasoning-field FIELD\] \[--out FILE\] \[--report FILE\] \[--max-line-bytes N\] \[FILE\.\.\.\|-\]\n/);
    expect(result.stdout).toContain("  --reasoning-field FIELD\n                   with --to chat: write reasoning into each assistant message\n");
    expect(result.stdout).toContain("  --out FILE       write the records to FILE, atomically (all or nothing)\n");
    expect(result.stdout).toContain("  --max-line-bytes N\n                   report a line longer than N bytes as an error");
    expect(result.stdout).toContain("  --report FILE    write every loss and error as JSONL: {line, path, code, detail}\n");
    expect(result.stdout).toContain("Examples:\n  orbridge convert --to responses chat-log.jsonl > responses-log.jsonl\n");
  });

  test("the command list names convert", async () => {
    const result = await runOrbridge(["--help"]);
    expect(result.stdout).toContain("  convert    convert a journal between Chat Completions and Open Responses\n");
  });
});

describe("a stream with a line that could not be read", () => {
  const damage = (line: number, missing: number) => ({ line, path: "", code: "form_changed", detail: `line ${missing} of this stream could not be read; its calls are marked incomplete` });

  test("a chunk stream with a line that is not JSON gives an incomplete response whose calls are incomplete, and a loss names the line", async () => {
    const report = join(scratch(), "losses.jsonl");
    const [first, second, third] = readFileSync(stream("chat-groq-whole-call", "chunks.jsonl"), "utf8").trimEnd().split("\n");
    const cut = '{"id":"chatcmpl-b610d559-f156-4aca-8827-24b4fe6af54f","object":"chat.co';
    const result = await runOrbridge(["convert", "--to", "responses", "--report", report], [first, second, cut, third].join("\n") + "\n");
    let notJson = "";
    try {
      JSON.parse(cut);
    } catch (error) {
      notJson = (error as Error).message;
    }
    expect({ ...result, stdout: records(result.stdout) }).toEqual({
      code: 1,
      stdout: [{ ...groqResponse, status: "incomplete", output: [{ ...groqResponse.output[0], status: "incomplete" }] }],
      stderr: `orbridge convert: line 3: line is not JSON: ${notJson}\nread 4 lines: 3 records, 1 error; 8 losses, 26 values synthesized\n`,
    });
    expect(readReport(report)).toEqual([
      { line: 3, path: "", code: "error", detail: `line is not JSON: ${notJson}` },
      groqLosses[0],
      groqLosses[1],
      damage(1, 3),
      ...groqLosses.slice(2).map((loss) => ({ ...loss, line: 4 })),
      zeroDetail(4, "cached_tokens"),
      zeroDetail(4, "reasoning_tokens"),
      { line: 4, path: "/choices/0/finish_reason", code: "form_changed", detail: 'finish_reason "tool_calls" written as status incomplete' },
    ]);
  });

  test("an event stream with a line longer than --max-line-bytes gives a chat.completion whose calls are not completed, and a loss names the line", async () => {
    const report = join(scratch(), "losses.jsonl");
    const events = readFileSync(stream("responses-azure-function-call", "chunks.jsonl"), "utf8").trimEnd().split("\n");
    const long = JSON.stringify({ type: "response.function_call_arguments.delta", sequence_number: 5, item_id: "fc_0", output_index: 0, delta: "", obfuscation: "x".repeat(3000) });
    const stdin = [...events.slice(0, 5), long, ...events.slice(5)].join("\n") + "\n";
    const result = await runOrbridge(["convert", "--to", "chat", "--report", report, "--max-line-bytes", "2500"], stdin);
    const tooLong = `line is ${Buffer.byteLength(long)} bytes, over the limit of 2500 bytes; it was not read`;
    expect({ ...result, stdout: records(result.stdout) }).toEqual({
      code: 1,
      stdout: [
        {
          id: AZURE_RESPONSE_ID,
          object: "chat.completion",
          created: 1770803615,
          model: "gpt-5.1",
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: null,
                tool_calls: [{ id: "call_H5DxLSFnsGhiROnUiDHmgyc8", type: "function", function: { name: "weather", arguments: '{"location":"San Francisco"}' } }],
              },
              logprobs: null,
              finish_reason: "length",
            },
          ],
          usage: chatUsage(45, 24),
          service_tier: "default",
        },
      ],
      stderr: `orbridge convert: line 6: ${tooLong}\nread 13 lines: 12 records, 1 error; 15 losses, 6 padding fields left behind\n`,
    });
    expect(readReport(report)).toEqual([
      { line: 6, path: "", code: "error", detail: tooLong },
      damage(1, 6),
      ...[4, 5, 7, 8, 9, 10].map(padding),
      neutralSaid(13, "background", "false"),
      notNeutral(13, "completed_at", "null"),
      { line: 13, path: "/response/content_filters", code: "provider_extension", detail: '"content_filters" is not a field of the portable shape; Chat Completions has no place for it' },
      { line: 13, path: "/response/output/0/id", code: "unsupported_field", detail: "item ids have no place in a chat.completion" },
      neutralSaid(13, "parallel_tool_calls", "true"),
      notNeutral(13, "reasoning", "null"),
      notNeutral(13, "store", "false"),
      neutralSaid(13, "temperature", "1"),
      { line: 13, path: "/response/text/verbosity", code: "unsupported_field", detail: "text.verbosity has no place in a chat.completion" },
      neutralSaid(13, "tool_choice", '"auto"'),
      notNeutral(13, "tools", "[]"),
      neutralSaid(13, "top_logprobs", "0"),
      neutralSaid(13, "top_p", "1"),
      neutralSaid(13, "truncation", '"disabled"'),
    ]);
  });

  test("the converted completion normalizes to incomplete calls, as the stream does", async () => {
    const events = readFileSync(stream("responses-azure-function-call", "chunks.jsonl"), "utf8").trimEnd().split("\n");
    const stdin = [...events.slice(0, 5), "{not json", ...events.slice(5)].join("\n") + "\n";
    const converted = await runOrbridge(["convert", "--to", "chat"], stdin);
    const fromCompletion = await runOrbridge(["normalize"], converted.stdout);
    const fromStream = await runOrbridge(["normalize"], stdin);
    const statuses = (text: string) => records(text).flatMap((item) => (item.type === "function_call" ? [item.status] : []));
    expect(statuses(fromStream.stdout)).toEqual(["incomplete"]);
    expect(statuses(fromCompletion.stdout)).toEqual(["incomplete"]);
  });
});

// Loose messages written in another envelope put the system prompt on a line of
// its own, which must read back as the system message it came from.
describe.each(["anthropic", "gemini", "bedrock"])("orbridge convert --to %s: a loose system message", (target) => {
  const journal = lines({ role: "system", content: "Answer briefly." }, { role: "system", content: [{ type: "text", text: "One." }, { type: "text", text: "Two." }] }, { role: "user", content: "Hi" });

  test("is written on a system line that normalize and convert --to chat read back as the same message", async () => {
    const converted = await runOrbridge(["convert", "--to", target], journal);
    expect(converted.code).toBe(0);
    const normalized = await runOrbridge(["normalize"], converted.stdout);
    expect(records(normalized.stdout).slice(0, 2)).toEqual([
      { type: "message", role: "system", content: "Answer briefly." },
      { type: "message", role: "system", content: [{ type: "input_text", text: "One." }, { type: "input_text", text: "Two." }] },
    ]);
    const back = await runOrbridge(["convert", "--to", "chat"], converted.stdout);
    expect(records(back.stdout).slice(0, 2)).toEqual([
      { role: "system", content: "Answer briefly." },
      { role: "system", content: [{ type: "text", text: "One." }, { type: "text", text: "Two." }] },
    ]);
  });
});

describe("orbridge convert --to an envelope whose calls and results hold objects", () => {
  const journal = lines(
    { role: "user", content: "Which order?" },
    { role: "assistant", content: null, tool_calls: [{ id: "call_big", type: "function", function: { name: "find_order", arguments: '{"order":9007199254740993}' } }] },
    { role: "tool", tool_call_id: "call_big", content: '{"order":12345678901234567890,"total":1.0}' },
  );
  const argumentsLoss = (noun: string, target: string) => ({
    line: 2,
    path: "/tool_calls/0/function/arguments",
    code: "target_rejects",
    detail: `the number 9007199254740993 is not one a double holds: the ${noun} object would not hold what the arguments text says, so the text is written as it is, which ${target} rejects`,
  });

  test.each([
    ["anthropic", [argumentsLoss("input", "Anthropic")]],
    ["bedrock", [argumentsLoss("input", "Bedrock")]],
    [
      "gemini",
      [
        { line: 1, path: "/content", code: "form_changed", detail: "the text is written as one text part, Gemini's only form of a message's content: it comes back as parts, not as a string" },
        argumentsLoss("args", "Gemini"),
        { line: 3, path: "/content", code: "form_changed", detail: "the number 12345678901234567890 is not one a double holds: the response object does not hold what the output text says" },
      ],
    ],
  ])("--to %s reports a value the object cannot hold on the line and at the field of the message that gave it", async (target, expected) => {
    const report = join(scratch(), `${target}-report.jsonl`);
    const result = await runOrbridge(["convert", "--to", target, "--report", report], journal);
    expect(result.code).toBe(0);
    expect(readReport(report)).toEqual(expected);
  });

  // Which value a tool reads of a name given twice depends on its parser: the gate blocks the text, and must block what it becomes.
  test.each(["anthropic", "bedrock", "gemini"])("--to %s: a call whose arguments name a member twice stays blocked", async (target) => {
    const schema = join(scratch(), "region.schema.json");
    writeFileSync(schema, JSON.stringify({ type: "object", required: ["region"], properties: { region: { enum: ["apac"] } } }));
    const twice = lines({ type: "function_call", call_id: "call_1", name: "sales", arguments: '{"region":"global","region":"apac"}', status: "completed" });
    const converted = await runOrbridge(["convert", "--to", target], twice);
    const gated = await runOrbridge(["gate", "--schema", schema, "--format", "json"], converted.stdout);
    expect(records(gated.stdout).map((verdict) => [verdict.type, verdict.blocked])).toEqual([["function_call", true]]);
  });
});
