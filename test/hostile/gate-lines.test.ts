// Lines written to break the reader, through `orbridge gate`: each is either gated
// or an error record naming its line, and the lines after it are still gated.
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { call, gateJournal, jsonl, passed, salesSchema, scratchFolder } from "./support.js";

const file = scratchFolder();
const emea = JSON.stringify(call("call_1", "{\"region\":\"emea\"}"));
const apac = JSON.stringify(call("call_2", "{\"region\":\"apac\"}"));

describe("lines that are not JSON", () => {
  test("are error records naming their line, and the next line is gated", async () => {
    const run = await gateJournal(file, salesSchema, jsonl("not json", emea, "{\"type\":", apac));
    expect(run.verdicts).toEqual([
      { line: 1, index: 0, reason: "error", detail: "line is not JSON: Unexpected token 'o', \"not json\" is not valid JSON", blocked: true, findings: [] },
      passed(2, "call_1"),
      { line: 3, index: 0, reason: "error", detail: "line is not JSON: Unexpected end of JSON input", blocked: true, findings: [] },
      passed(4, "call_2"),
    ]);
    expect(run.stderr).toBe("read 4 lines: 2 items, 2 errors; 2 blocked\n  blocked by: error 2\n");
    expect(run.code).toBe(1);
  });
  test("a truncated last line without newline is an error record", async () => {
    const run = await gateJournal(file, salesSchema, emea + "\n" + apac.slice(0, 60));
    expect(run.verdicts).toEqual([passed(1, "call_1"), { line: 2, index: 0, reason: "error", detail: "line is not JSON: Expected double-quoted property name in JSON at position 60", blocked: true, findings: [] }]);
    expect(run.stderr).toBe("read 2 lines: 1 item, 1 error; 1 blocked\n  blocked by: error 1\n");
    expect(run.code).toBe(1);
  });
  test("a complete last line without newline is gated", async () => {
    const run = await gateJournal(file, salesSchema, emea + "\n" + apac);
    expect(run.verdicts).toEqual([passed(1, "call_1"), passed(2, "call_2")]);
    expect(run.code).toBe(0);
  });
});

describe("framing bytes", () => {
  test("a UTF-8 BOM before the first line is dropped and the line is gated", async () => {
    const run = await gateJournal(file, salesSchema, "\ufeff" + jsonl(emea, apac));
    expect(run.verdicts).toEqual([passed(1, "call_1"), passed(2, "call_2")]);
    expect(run.code).toBe(0);
  });
  test("a UTF-8 BOM before an SSE data line: the line is an error and the call of the stream it opened is blocked, as openai-python reads the stream without that chunk", async () => {
    const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const opening = chunk({ role: "assistant", tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "get_latest_sales_report", arguments: "" } }] });
    const sse = opening + chunk({ tool_calls: [{ index: 0, function: { arguments: '{"region":"emea"}' } }] }) + chunk({}, "tool_calls") + "data: [DONE]\n\n";
    expect((await gateJournal(file, salesSchema, sse)).code).toBe(0);
    const run = await gateJournal(file, salesSchema, "\ufeff" + sse);
    expect(run.verdicts[0]).toMatchObject({ line: 1, reason: "error", blocked: true });
    expect(run.verdicts.filter((verdict) => verdict.reason === "ok")).toEqual([]);
    expect(run.code).toBe(1);
  });
  test("a second blank line after an SSE event that gave an id: an error, and the stream's call is blocked, as openai-python throws at the empty event it dispatches there", async () => {
    const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n`;
    const opening = chunk({ role: "assistant", tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "get_latest_sales_report", arguments: "" } }] });
    const rest = chunk({ tool_calls: [{ index: 0, function: { arguments: '{"region":"emea"}' } }] }) + "\n" + chunk({}, "tool_calls") + "\ndata: [DONE]\n\n";
    expect((await gateJournal(file, salesSchema, `id: 1\n${opening}\n${rest}`)).code).toBe(0);
    const run = await gateJournal(file, salesSchema, `id: 1\n${opening}\n\n${rest}`);
    expect(run.verdicts[0]).toMatchObject({ line: 4, reason: "error", blocked: true });
    expect(run.verdicts.filter((verdict) => verdict.reason === "ok")).toEqual([]);
    expect(run.code).toBe(1);
  });
  test("CRLF line endings are gated like LF", async () => {
    const run = await gateJournal(file, salesSchema, `${emea}\r\n${apac}\r\n`);
    expect(run.verdicts).toEqual([passed(1, "call_1"), passed(2, "call_2")]);
    expect(run.stderr).toBe("read 2 lines: 2 items, 0 errors; 0 blocked\n");
  });
  test("a lone CR between tokens is JSON whitespace, not a line break", async () => {
    const run = await gateJournal(file, salesSchema, emea.replace(",\"name\"", ",\r\"name\"") + "\n");
    expect(run.verdicts).toEqual([passed(1, "call_1")]);
  });
  test("blank lines are counted, skipped, and later lines keep their numbers", async () => {
    const run = await gateJournal(file, salesSchema, `\n\n${emea}\n   \n\t\n${apac}\n\n`);
    expect(run.verdicts).toEqual([passed(3, "call_1"), passed(6, "call_2")]);
    expect(run.stderr).toBe("read 7 lines: 2 items, 0 errors; 0 blocked\n");
    expect(run.code).toBe(0);
  });
});

describe("bytes that are not text", () => {
  test("a raw NUL byte in a string is an error record, not a cut line", async () => {
    const withNul = emea.replace("emea", "em\0ea");
    const run = await gateJournal(file, salesSchema, jsonl(withNul, apac));
    expect(run.verdicts).toEqual([
      { line: 1, index: 0, reason: "error", detail: `line is not JSON: Bad control character in string literal in JSON at position ${withNul.indexOf("\0")}`, blocked: true, findings: [] },
      passed(2, "call_2"),
    ]);
  });
  test("an escaped NUL in the arguments is parsed and judged by the schema", async () => {
    const run = await gateJournal(file, salesSchema, jsonl(call("call_1", "{\"region\":\"em\\u0000ea\"}")));
    expect(run.verdicts).toEqual([
      {
        line: 1,
        index: 0,
        type: "function_call",
        call_id: "call_1",
        name: "get_latest_sales_report",
        reason: "arguments_schema",
        detail: "arguments/region must be equal to one of the allowed values (\"apac\", \"emea\", \"amer\")",
        path: "/arguments",
        blocked: true,
        findings: [],
      },
    ]);
  });
  test("invalid UTF-8 is an error record naming its line, never a call read with replaced bytes", async () => {
    // A decoder that drops the bad byte would read this type as "function_call".
    const line = Buffer.concat([Buffer.from("{\"type\":\"function_ca"), Buffer.from([0xff]), Buffer.from(emea.slice("{\"type\":\"function_ca".length)), Buffer.from("\n")]);
    const run = await gateJournal(file, salesSchema, Buffer.concat([line, Buffer.from(apac + "\n")]));
    expect(run.verdicts).toEqual([
      { line: 1, index: 0, reason: "error", detail: `line is not valid UTF-8 (byte 21 of ${line.length - 1}); it was not read`, blocked: true, findings: [] },
      passed(2, "call_2"),
    ]);
    expect(run.stderr).toBe("read 2 lines: 1 item, 1 error; 1 blocked\n  blocked by: error 1\n");
    expect(run.code).toBe(1);
  });
});

describe("records of every JSON type at top level", () => {
  test("a value that is not an object is an error record; an object without type is blocked as namespaced", async () => {
    const run = await gateJournal(file, salesSchema, jsonl("[" + emea + "]", "2", "\"function_call\"", "null", "true", "{}", apac));
    expect(run.verdicts).toEqual([
      { line: 1, index: 0, reason: "error", detail: "record is an array, not a journal record", blocked: true, findings: [] },
      { line: 2, index: 0, reason: "error", detail: "record is a number, not a journal record", blocked: true, findings: [] },
      { line: 3, index: 0, reason: "error", detail: "record is a string, not a journal record", blocked: true, findings: [] },
      { line: 4, index: 0, reason: "error", detail: "record is null, not a journal record", blocked: true, findings: [] },
      { line: 5, index: 0, reason: "error", detail: "record is a boolean, not a journal record", blocked: true, findings: [] },
      { line: 6, index: 0, reason: "namespaced", detail: "the item has no type", path: "/type", blocked: true, findings: [] },
      passed(7, "call_2"),
    ]);
    expect(run.stderr).toBe("read 7 lines: 2 items, 5 errors; 6 blocked\n  blocked by: error 5, namespaced 1\n");
    expect(run.code).toBe(1);
  });
});

describe("long lines", () => {
  test("--max-line-bytes makes a longer line a blocked error record with its size, and the next lines are gated", async () => {
    const long = JSON.stringify(call("call_3", JSON.stringify({ region: "apac", note: "x".repeat(4096) })));
    const run = await runOrbridge(["gate", "--schema", file("schema.json", JSON.stringify(salesSchema)), "--format", "json", "--max-line-bytes", "1024", file("journal.jsonl", jsonl(emea, long, apac))]);
    const verdicts = run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as unknown);
    expect(verdicts).toEqual([
      passed(1, "call_1"),
      { line: 2, index: 0, reason: "error", detail: `line is ${long.length} bytes, over the limit of 1024 bytes; it was not read`, blocked: true, findings: [] },
      passed(3, "call_2"),
    ]);
    expect(run.stderr).toBe("read 3 lines: 2 items, 1 error; 1 blocked\n  blocked by: error 1\n");
    expect(run.code).toBe(1);
  });
  // A number past the safe integers was handed to the line reader, which threw: an internal error with its stack.
  test.each(["99999999999999999999", "9007199254740993"])("--max-line-bytes %s, past the safe integers, is a usage error", async (value) => {
    for (const command of ["gate", "normalize"]) {
      const run = await runOrbridge([command, "--max-line-bytes", value, file("journal.jsonl", jsonl(emea))]);
      expect(run).toEqual({ code: 2, stdout: "", stderr: `orbridge ${command}: --max-line-bytes must be a positive whole number of bytes (got "${value}")\n` });
    }
  });
  test.each(["0", "-1", "1.5", "lots"])("--max-line-bytes %s is a usage error", async (value) => {
    const run = await runOrbridge(["gate", "--schema", file("schema.json", JSON.stringify(salesSchema)), "--max-line-bytes", value, file("journal.jsonl", jsonl(emea))]);
    expect(run).toEqual({ code: 2, stdout: "", stderr: `orbridge gate: --max-line-bytes must be a positive whole number of bytes (got "${value}")\n` });
  });
});
