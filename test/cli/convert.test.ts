import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const lines = (...records: unknown[]) => records.map((record) => (typeof record === "string" ? record : JSON.stringify(record)) + "\n").join("");
const golden = (name: string, file: string) => JSON.parse(readFileSync(join("golden/chat-completions", name, file), "utf8"));
const scratch = () => mkdtempSync(join(tmpdir(), "orbridge-convert-"));
const readReport = (path: string) =>
  readFileSync(path, "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));

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

  test("a request body stays one request body and a completion becomes one response object", async () => {
    const stdin = lines(golden("body-response-format-json-schema", "chat.json"), golden("completion-refusal", "chat.json"));
    expect(await runOrbridge(["convert", "--to", "responses", "-"], stdin)).toEqual({
      code: 0,
      stdout: lines(golden("body-response-format-json-schema", "responses.json"), golden("completion-refusal", "responses.json")),
      stderr: "read 2 lines: 2 records, 0 errors; 0 losses\n",
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
      stderr: "read 1 lines: 1 records, 0 errors; 0 losses\n",
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
      "orbridge convert: line 2: line is not JSON: Unexpected token 'o', \"not json\" is not valid JSON\nread 3 lines: 2 records, 1 errors; 2 losses\n",
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
        "read 4 lines: 1 records, 2 errors; 0 losses\n",
    });
  });

  test("a record its converter cannot read is an error that says where it departs from its envelope", async () => {
    const stdin = lines({ model: "gpt-4o", messages: [], tools: "get_weather" });
    expect(await runOrbridge(["convert", "--to", "responses"], stdin)).toEqual({
      code: 1,
      stdout: "",
      stderr: "orbridge convert: line 1: not a valid Chat request body: /tools: Invalid input: expected array, received string\nread 1 lines: 0 records, 1 errors; 0 losses\n",
    });
  });
});

describe("orbridge convert --to chat", () => {
  test("consecutive loose items merge into messages: one assistant message with its calls, each tool message after it in call order", async () => {
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
        { role: "tool", tool_call_id: "call_q2", content: "Peru" },
        { role: "tool", tool_call_id: "call_b5", content: "Orbridge Lite" },
      ),
      stderr: "read 6 lines: 6 records, 0 errors; 0 losses\n",
    });
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

describe("usage errors exit 2 with one line each", () => {
  test("--to is required", async () => {
    expect(await runOrbridge(["convert"], "")).toEqual({ code: 2, stdout: "", stderr: "orbridge convert: convert needs --to responses or --to chat (see orbridge convert --help)\n" });
  });

  test("--to takes responses or chat", async () => {
    expect(await runOrbridge(["convert", "--to", "anthropic"], "")).toEqual({
      code: 2,
      stdout: "",
      stderr: 'orbridge convert: --to must be one of responses, chat (got "anthropic")\n',
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
    expect(result.stdout).toMatch(/^Usage: orbridge convert --to responses\|chat \[--out FILE\] \[--report FILE\] \[--max-line-bytes N\] \[FILE\.\.\.\|-\]\n/);
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
