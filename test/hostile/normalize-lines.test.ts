// Lines written to break the reader, through `orbridge normalize`: each is
// emitted or reported with its line number, and the lines after it still are.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { runOrbridge, type CliResult } from "../support/run-cli.js";
import { jsonl, scratchFolder } from "./support.js";

const file = scratchFolder();
const question = JSON.stringify({ type: "message", role: "user", content: "which region sold most this week?" });
const answer = JSON.stringify({ type: "function_call", call_id: "call_1", name: "get_latest_sales_report", arguments: "{\"region\":\"apac\"}", status: "completed" });

async function normalize(journal: string | Buffer, ...options: string[]): Promise<CliResult> {
  return runOrbridge(["normalize", ...options, file("journal.jsonl", journal)]);
}

/** V8's message for text that is not JSON, as the command reports it. */
function notJson(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return `line is not JSON: ${(error as Error).message}`;
  }
  throw new Error(`${text} is JSON`);
}

const reported = (line: number, detail: string) => `orbridge normalize: line ${line}: ${detail}\n`;
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
const summary = (lines: number, records: number, items: number, errors: number) =>
  `read ${plural(lines, "line")}, ${plural(records, "record")}: ${records - errors} emitted (${plural(items, "item")}), ${errors} reported; 0 losses\n`;

describe("lines that are not JSON", () => {
  test("are reported with their line, and the next lines are emitted", async () => {
    const run = await normalize(jsonl("not json", question, "{\"type\":", answer));
    expect(run).toEqual({ code: 1, stdout: jsonl(question, answer), stderr: reported(1, notJson("not json")) + reported(3, notJson("{\"type\":")) + summary(4, 4, 2, 2) });
  });
  test("a truncated last line without newline is reported", async () => {
    const cut = answer.slice(0, 60);
    const run = await normalize(question + "\n" + cut);
    expect(run).toEqual({ code: 1, stdout: jsonl(question), stderr: reported(2, notJson(cut)) + summary(2, 2, 1, 1) });
  });
  test("a complete last line without newline is emitted", async () => {
    const run = await normalize(question + "\n" + answer);
    expect(run).toEqual({ code: 0, stdout: jsonl(question, answer), stderr: summary(2, 2, 2, 0) });
  });
});

describe("the report", () => {
  test("names the line of every error record", async () => {
    const report = file("report.jsonl", "");
    const run = await runOrbridge(["normalize", "--report", report, file("journal.jsonl", jsonl(question, "not json", "", "[1]", answer))]);
    expect(run.code).toBe(1);
    expect(readFileSync(report, "utf8")).toBe(
      jsonl({ line: 2, path: "", code: "error", detail: notJson("not json") }, { line: 4, path: "", code: "error", detail: "record is an array, not a journal record" }),
    );
  });
});

describe("framing bytes", () => {
  test("a UTF-8 BOM before the first line is dropped", async () => {
    const run = await normalize("\ufeff" + jsonl(question, answer));
    expect(run).toEqual({ code: 0, stdout: jsonl(question, answer), stderr: summary(2, 2, 2, 0) });
  });
  test("CRLF endings are read like LF, and the output uses LF", async () => {
    const run = await normalize(`${question}\r\n${answer}\r\n`);
    expect(run).toEqual({ code: 0, stdout: jsonl(question, answer), stderr: summary(2, 2, 2, 0) });
  });
  test("blank lines are counted as lines, not records, and later lines keep their numbers", async () => {
    const run = await normalize(`\n\n${question}\n  \n\t\nnot json\n\n`);
    expect(run).toEqual({ code: 1, stdout: jsonl(question), stderr: reported(6, notJson("not json")) + summary(7, 2, 1, 1) });
  });
});

describe("bytes that are not text", () => {
  test("a raw NUL byte in a string is reported", async () => {
    const withNul = question.replace("which", "wh\0ich");
    const run = await normalize(jsonl(withNul, answer));
    expect(run).toEqual({ code: 1, stdout: jsonl(answer), stderr: reported(1, notJson(withNul)) + summary(2, 2, 1, 1) });
  });
  test("an escaped NUL is content and is written back escaped", async () => {
    const escaped = JSON.stringify({ type: "message", role: "user", content: "wh\0ich" });
    const run = await normalize(jsonl(escaped));
    expect(run).toEqual({ code: 0, stdout: jsonl(escaped), stderr: summary(1, 1, 1, 0) });
  });
  test("invalid UTF-8 is reported with its line, never written with replaced bytes", async () => {
    const bad = Buffer.concat([Buffer.from("{\"type\":\"message\",\"role\":\"user\",\"content\":\"caf"), Buffer.from([0xe9]), Buffer.from("\"}\n")]);
    const run = await normalize(Buffer.concat([bad, Buffer.from(jsonl(answer))]));
    expect(run).toEqual({ code: 1, stdout: jsonl(answer), stderr: reported(1, `line is not valid UTF-8 (byte 47 of ${bad.length - 1}); it was not read`) + summary(2, 2, 1, 1) });
  });
});

describe("records of every JSON type at top level", () => {
  test("are reported, each with its line", async () => {
    const run = await normalize(jsonl("[" + question + "]", "42", "\"message\"", "null", "true", "{}", question));
    expect(run).toEqual({
      code: 1,
      stdout: jsonl(question),
      stderr:
        reported(1, "record is an array, not a journal record") +
        reported(2, "record is a number, not a journal record") +
        reported(3, "record is a string, not a journal record") +
        reported(4, "record is null, not a journal record") +
        reported(5, "record is a boolean, not a journal record") +
        reported(6, "record of no known kind (keys: none)") +
        summary(7, 7, 1, 6),
    });
  });
});

// A 50 MB line takes a second or two; the timeout only guards against a hang.
const BIG_LINE_TIMEOUT = 60_000;

describe("long lines", () => {
  const big = JSON.stringify({ type: "message", role: "user", content: "x".repeat(50 * 1024 * 1024) });
  test("a 50 MB line is normalized whole when no limit is set", async () => {
    const run = await normalize(jsonl(big, answer));
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(summary(2, 2, 2, 0));
    expect(run.stdout.length).toBe(big.length + answer.length + 2);
    expect(run.stdout === jsonl(big, answer)).toBe(true);
  }, BIG_LINE_TIMEOUT);
  test("--max-line-bytes reports a longer line with its size, and normalizes the rest", async () => {
    const run = await normalize(jsonl(question, big, answer), "--max-line-bytes", "1048576");
    expect(run).toEqual({
      code: 1,
      stdout: jsonl(question, answer),
      stderr: reported(2, `line is ${big.length} bytes, over the limit of 1048576 bytes; it was not read`) + summary(3, 3, 2, 1),
    });
  }, BIG_LINE_TIMEOUT);
});

describe("values nested 100,000 deep", () => {
  const deep = "{\"a\":".repeat(100_000) + "{}" + "}".repeat(100_000);
  // JSON.stringify of the item throws RangeError in the command's write loop, and
  // the whole run stops with an internal error: nothing after the line is written.
  test("a record too deep to write is reported with its line, and the next lines are emitted", async () => {
    const run = await normalize(jsonl(`{"type":"message","role":"user","content":"hi","metadata":${deep}}`, question));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(jsonl(question));
    expect(run.stderr).toMatch(/^orbridge normalize: line 1: .+\nread 2 lines, 2 records: 1 emitted \(1 item\), 1 reported; 0 losses\n$/);
  });
  test("deep arguments are a string, copied as they are", async () => {
    const deepCall = JSON.stringify({ type: "function_call", call_id: "call_1", name: "get_latest_sales_report", arguments: deep, status: "completed" });
    const run = await normalize(jsonl(deepCall, question));
    expect(run.code).toBe(0);
    expect(run.stdout === jsonl(deepCall, question)).toBe(true);
  });
});

describe("hostile keys", () => {
  test("__proto__, constructor and prototype in items are kept as data and pollute nothing", async () => {
    const hostile = "{\"type\":\"message\",\"role\":\"user\",\"content\":\"hi\",\"__proto__\":{\"polluted\":\"yes\"},\"constructor\":{\"prototype\":{\"polluted\":\"yes\"}},\"prototype\":{\"polluted\":\"yes\"}}";
    const run = await normalize(jsonl(hostile, question));
    expect(run).toEqual({ code: 0, stdout: jsonl(hostile, question), stderr: summary(2, 2, 2, 0) });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  test("in Chat messages and their tool calls, they pollute nothing", async () => {
    const chat = [
      "{\"role\":\"user\",\"content\":\"hi\",\"__proto__\":{\"polluted\":\"yes\"}}",
      "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"__proto__\",\"arguments\":\"{\\\"__proto__\\\":{\\\"polluted\\\":\\\"yes\\\"}}\",\"__proto__\":{\"polluted\":\"yes\"}},\"constructor\":{\"prototype\":{\"polluted\":\"yes\"}}}]}",
      "{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"done\",\"prototype\":{\"polluted\":\"yes\"}}",
    ];
    const run = await normalize(jsonl(...chat));
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split("\n").map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(["message", "function_call", "function_call_output"]);
    expect(JSON.parse(run.stdout.trimEnd().split("\n")[1])).toMatchObject({ call_id: "call_1", name: "__proto__", arguments: "{\"__proto__\":{\"polluted\":\"yes\"}}" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
