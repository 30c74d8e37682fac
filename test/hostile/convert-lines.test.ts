// Hostile lines through `orbridge convert`: each is converted or reported with
// its line number, the lines after it are converted, and the input is not touched.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { runOrbridge, type CliResult } from "../support/run-cli.js";
import { jsonl, scratchFolder } from "./support.js";

const file = scratchFolder();
const NO_KIND = "record of no known kind (not a message, item, request body, completion or response)";
const question = { role: "user", content: "which region sold most this week?" };
const questionItem = { type: "message", role: "user", content: "which region sold most this week?" };

async function convert(to: "responses" | "chat", journal: string | Buffer): Promise<CliResult & { unchanged: boolean }> {
  const path = file("journal.jsonl", journal);
  const hash = () => createHash("sha256").update(readFileSync(path)).digest("hex");
  const before = hash();
  const result = await runOrbridge(["convert", "--to", to, path]);
  return { ...result, unchanged: hash() === before };
}

const reported = (line: number, detail: string) => `orbridge convert: line ${line}: ${detail}\n`;

describe("lines that are not records", () => {
  test("are reported with their line, the rest is converted, and the input is unchanged", async () => {
    const bad = Buffer.from("{\"role\":\"user\",\"content\":\"caf\xe9\"}\n", "latin1");
    const run = await convert("responses", Buffer.concat([Buffer.from(jsonl(question, "not json", "[1]", "42", "null", "\"text\"", "{}", "", questionItem)), bad, Buffer.from(jsonl(question))]));
    expect(run).toEqual({
      code: 1,
      stdout: jsonl(questionItem, questionItem, questionItem),
      stderr:
        reported(2, "line is not JSON: Unexpected token 'o', \"not json\" is not valid JSON") +
        reported(3, NO_KIND) +
        reported(4, NO_KIND) +
        reported(5, NO_KIND) +
        reported(6, NO_KIND) +
        reported(7, NO_KIND) +
        reported(10, `line is not valid UTF-8 (byte 30 of ${bad.length - 1}); it was not read`) +
        "read 11 lines: 3 records, 7 errors; 0 losses\n",
      unchanged: true,
    });
  });
  test("CRLF endings and a BOM are framing, and a cut last line is reported", async () => {
    const run = await convert("responses", `\ufeff${JSON.stringify(question)}\r\n${JSON.stringify(question).slice(0, 20)}`);
    expect(run).toEqual({
      code: 1,
      stdout: jsonl(questionItem),
      stderr: reported(2, "line is not JSON: Unterminated string in JSON at position 20") + "read 2 lines: 1 record, 1 error; 0 losses\n",
      unchanged: true,
    });
  });
});

describe("values nested 100,000 deep", () => {
  const deep = "{\"a\":".repeat(100_000) + "{}" + "}".repeat(100_000);
  test("a deep field the target cannot hold is a loss, and the record is converted", async () => {
    const run = await convert("responses", jsonl(`{"role":"user","content":"hi","metadata":${deep}}`, question));
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(jsonl({ type: "message", role: "user", content: "hi" }, questionItem));
    expect(run.stderr).toBe("read 2 lines: 2 records, 0 errors; 1 loss\n");
  });
  // A record already in the target envelope is written as it is: JSON.stringify
  // throws RangeError in the write loop and the whole run stops.
  test("a deep record already in the target envelope is reported with its line, and the next lines converted", async () => {
    const run = await convert("chat", jsonl(`{"role":"user","content":"hi","metadata":${deep}}`, question));
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(jsonl(question));
    expect(run.stderr).toMatch(/^orbridge convert: line 1: .+\nread 2 lines: 1 record, 1 error; 0 losses\n$/);
  });
});

describe("hostile keys", () => {
  test("__proto__, constructor and prototype in Chat messages are losses with their paths, and pollute nothing", async () => {
    const hostile = "{\"role\":\"assistant\",\"content\":null,\"__proto__\":{\"polluted\":\"yes\"},\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"constructor\",\"arguments\":\"{}\",\"prototype\":{\"polluted\":\"yes\"}}}]}";
    const output = "{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"done\",\"constructor\":{\"prototype\":{\"polluted\":\"yes\"}}}";
    const report = file("report.jsonl", "");
    const run = await runOrbridge(["convert", "--to", "responses", "--report", report, file("journal.jsonl", jsonl(hostile, output))]);
    expect(run).toEqual({
      code: 0,
      stdout: jsonl({ type: "function_call", call_id: "call_1", name: "constructor", arguments: "{}", status: "completed" }, { type: "function_call_output", call_id: "call_1", output: "done" }),
      stderr: "read 2 lines: 2 records, 0 errors; 3 losses\n",
    });
    const field = (name: string) => `"${name}" is not a field of the portable shape; Open Responses has no place for it`;
    expect(readFileSync(report, "utf8")).toBe(
      jsonl(
        { line: 1, path: "/__proto__", code: "provider_extension", detail: field("__proto__") },
        { line: 1, path: "/tool_calls/0/function/prototype", code: "provider_extension", detail: field("prototype") },
        { line: 2, path: "/constructor", code: "provider_extension", detail: field("constructor") },
      ),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
