import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const schema = "golden/examples/sales-report.schema.json";
const journal = "golden/examples/sales-report.jsonl";

describe("orbridge gate --schema", () => {
  test("writes one JSON verdict per item, in input order, and exits 1 when a call is blocked", async () => {
    const result = await runOrbridge(["gate", "--schema", schema, "--format", "json", journal]);
    expect(result.code).toBe(1);
    const records = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(records.map((r) => [r.line, r.index, r.type, r.call_id, r.reason])).toEqual([
      [1, 0, "message", undefined, "not_function_call"],
      [2, 0, "function_call", "call_123", "ok"],
      [3, 0, "function_call", "call_124", "arguments_schema"],
      [4, 0, "openai:web_search_call", undefined, "namespaced"],
      [5, 0, "function_call_output", "call_123", "not_function_call"],
      [6, 0, "function_call", "call_125", "status"],
      [7, 0, "function_call", "call_126", "arguments_type"],
      [8, 0, "function_call", "call_127", "arguments_parse"],
    ]);
    expect(records[2]).toEqual({
      line: 3,
      index: 0,
      type: "function_call",
      call_id: "call_124",
      name: "get_latest_sales_report",
      reason: "arguments_schema",
      detail: "arguments/region must be equal to one of the allowed values (\"apac\", \"emea\", \"amer\")",
      path: "/arguments",
      blocked: true,
      findings: [],
    });
    expect(result.stderr).toBe("read 8 lines: 8 items, 0 errors; 5 blocked\n  blocked by: arguments_parse 1, arguments_schema 1, arguments_type 1, namespaced 1, status 1\n");
  });

  test("exits 0 when nothing is blocked, reading stdin", async () => {
    const stdin = '{"type":"function_call","call_id":"call_1","name":"get_latest_sales_report","status":"completed","arguments":"{\\"region\\":\\"emea\\"}"}\n{"type":"function_call_output","call_id":"call_1","output":"emea: flat"}\n';
    const result = await runOrbridge(["gate", "--schema", schema], stdin);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'line 1  function_call call_1  pass ok: completed call with arguments valid for its schema\nline 2  function_call_output call_1  pass not_function_call: "function_call_output" is not a function_call\n',
    );
  });

  test("a line that is not JSON is an error record naming its line, and blocks", async () => {
    const result = await runOrbridge(["gate", "--schema", schema, "--format", "json", "-"], '{"type":"message","role":"user","content":"a"}\n{"type":\n');
    expect(result.code).toBe(1);
    const records = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(records[1]).toMatchObject({ line: 2, reason: "error", blocked: true });
    expect(records[1].detail).toMatch(/^line is not JSON: /);
    expect(result.stderr).toBe("read 2 lines: 1 item, 1 error; 1 blocked\n  blocked by: error 1\n");
  });
});

describe("orbridge gate and format", () => {
  const dateSchema = JSON.stringify({ type: "object", required: ["day"], properties: { day: { type: "string", format: "date" } } });
  const call = (day: string, id: string) => JSON.stringify({ type: "function_call", call_id: id, name: "book", status: "completed", arguments: JSON.stringify({ day }), conversation_id: "c" });
  const stdin = `${call("2026-12-02", "call_1")}\n${call("2026-13-40", "call_2")}\n`;
  const reasons = (stdout: string) => stdout.trimEnd().split("\n").map((line) => { const record = JSON.parse(line); return [record.call_id, record.reason, record.detail]; });

  async function withSchema(extra: string[]) {
    const folder = await mkdtemp(join(tmpdir(), "orbridge-gate-format-"));
    const path = join(folder, "schema.json");
    await writeFile(path, dateSchema);
    try {
      return await runOrbridge(["gate", "--schema", path, "--format", "json", ...extra, "-"], stdin);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  test("a format is an annotation by default, as JSON Schema 2020-12 says: a date that is no date passes", async () => {
    const result = await withSchema([]);
    expect(result.code).toBe(0);
    expect(reasons(result.stdout)).toEqual([
      ["call_1", "ok", "completed call with arguments valid for its schema"],
      ["call_2", "ok", "completed call with arguments valid for its schema"],
    ]);
  });

  test.each([[[]], [["--conversation", "/conversation_id"]]])("--assert-formats blocks it (%j)", async (extra) => {
    const result = await withSchema(["--assert-formats", ...extra]);
    expect(result.code).toBe(1);
    expect(reasons(result.stdout)).toEqual([
      ["call_1", "ok", "completed call with arguments valid for its schema"],
      ["call_2", "arguments_schema", 'arguments/day must match format "date"'],
    ]);
  });

  test("--assert-formats takes no value", async () => {
    const result = await runOrbridge(["gate", "--assert-formats=yes", "-"], "");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--assert-formats takes no value");
  });
});

describe("the text output shows what a journal wrote without letting it write a line of its own", () => {
  test("a call_id and a type holding line breaks, separators, bidirectional controls and invisible characters are shown escaped", async () => {
    const forged = "call_1  pass ok: completed call with arguments valid for its schema\nline 2  function_call call_2";
    const lines = [
      { type: "function_call", id: "fc_1", call_id: forged, name: "get_latest_sales_report", status: "completed", arguments: '{"region":"global"}' },
      { type: "function_call\r\u2028\u202e", id: "fc_2", call_id: "call_\u2029x", name: "get_latest_sales_report", status: "completed", arguments: '{"region":"apac"}' },
      { type: "function_call", id: "fc_3", call_id: "call_3\u0085\ud800", name: "get_latest_sales_report", status: "completed", arguments: '{"region":"apac"}' },
      { type: "function_call", id: "fc_4", call_id: "call_3\u200b\ufeff\u00ad\u2060", name: "get_latest_sales_report", status: "completed", arguments: '{"region":"apac"}' },
    ];
    const result = await runOrbridge(["gate", "--schema", schema, "-"], lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
    expect(result.code).toBe(1);
    const shown = result.stdout.trimEnd().split("\n");
    expect(shown.filter((line) => !line.startsWith("    "))).toEqual([
      String.raw`line 1  function_call "call_1  pass ok: completed call with arguments valid for its schema\nline 2  function_call call_2"  BLOCKED arguments_schema: arguments/region must be equal to one of the allowed values ("apac", "emea", "amer")`,
      String.raw`line 2  "function_call\r\u2028\u202e" "call_\u2029x"  BLOCKED namespaced: "function_call\r\u2028\u202e" is not a type the Open Responses spec defines, nor a provider type with a slug; it is never a portable call`,
      String.raw`line 3  function_call call_3\u0085\ud800  pass ok: completed call with arguments valid for its schema`,
      String.raw`line 4  function_call "call_3\u200b\ufeff\u00ad\u2060"  pass ok: completed call with arguments valid for its schema`,
    ]);
    expect(result.stdout).not.toMatch(/[\r\u0085\u2028\u2029\u202e\u200b\ufeff\u00ad\u2060]/);
  });
});

describe("a call_id that holds white space, is empty, is a dash or starts with a quote", () => {
  test("is quoted, so that the fields and the verdict after them read apart", async () => {
    const padded = `call_1  pass ok: completed call with arguments valid for its schema${" ".repeat(300)}`;
    const call = (callId: string) => ({ type: "function_call", call_id: callId, name: "get_latest_sales_report", status: "completed", arguments: '{"region":"global"}' });
    const result = await runOrbridge(["gate", "--schema", schema, "-"], [padded, "", "-", '"call_2"', "call 3"].map((callId) => JSON.stringify(call(callId))).join("\n") + "\n");
    const verdict = 'BLOCKED arguments_schema: arguments/region must be equal to one of the allowed values ("apac", "emea", "amer")';
    expect(result.stdout.trimEnd().split("\n").filter((line) => !line.startsWith("    "))).toEqual([
      `line 1  function_call ${JSON.stringify(padded.slice(0, 200))}…  ${verdict}`,
      `line 2  function_call ""  ${verdict}`,
      `line 3  function_call "-"  ${verdict}`,
      `line 4  function_call "\\"call_2\\""  ${verdict}`,
      `line 5  function_call "call 3"  ${verdict}`,
    ]);
  });
});

describe("a call_id that differs from another by a character that shows as a blank or as nothing", () => {
  test("is written with its escape, never as the other call_id", async () => {
    const call = (callId: string, region: string) => ({ type: "function_call", call_id: callId, name: "get_latest_sales_report", status: "completed", arguments: JSON.stringify({ region }) });
    const lookalikes = ["call_1\u00a0", "call_1\u3000", "call_1\u3164", "call_1\u2800", "call_1\ufe0f", "call_1\u{e0041}", "call_1\u206a"];
    const result = await runOrbridge(["gate", "--schema", schema, "-"], [call("call_1", "apac"), ...lookalikes.map((callId) => call(callId, "global"))].map((line) => JSON.stringify(line)).join("\n") + "\n");
    expect(result.stdout.trimEnd().split("\n").map((line) => line.split("  ")[1])).toEqual([
      "function_call call_1",
      String.raw`function_call "call_1\u00a0"`,
      String.raw`function_call "call_1\u3000"`,
      String.raw`function_call call_1\u3164`,
      String.raw`function_call call_1\u2800`,
      String.raw`function_call call_1\ufe0f`,
      String.raw`function_call call_1\udb40\udc41`,
      String.raw`function_call call_1\u206a`,
    ]);
  });
});

describe("usage errors exit 2 with one line each", () => {
  test("a tools file whose bound or constant is a number its double does not stand for", async () => {
    const folder = await mkdtemp(join(tmpdir(), "orbridge-gate-inexact-"));
    const tools = join(folder, "tools.json");
    await writeFile(tools, '[{"type":"function","name":"set_ratio","parameters":{"type":"object","properties":{"ratio":{"type":"number","maximum":0.29999999999999999}}}}]');
    try {
      const result = await runOrbridge(["gate", "--tools", tools, journal]);
      expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
        code: 2,
        stdout: "",
        stderr: `orbridge gate: tools file ${tools}: the number 0.29999999999999999 at /0/parameters/properties/ratio/maximum is one a double reads as another number: the gate would judge arguments by that other number\n`,
      });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
  test("unknown options", async () => {
    const result = await runOrbridge(["gate", "--schema", schema, "--colour", "--x=1", journal]);
    expect(result).toEqual({ code: 2, stdout: "", stderr: "orbridge gate: unknown option: --colour\norbridge gate: unknown option: --x=1\n" });
  });
  test("a missing input file", async () => {
    const result = await runOrbridge(["gate", "--schema", schema, "no/such/journal.jsonl"]);
    expect(result).toEqual({ code: 2, stdout: "", stderr: "orbridge gate: cannot read no/such/journal.jsonl: no such file or not readable\n" });
  });
  test("a schema file that is not JSON", async () => {
    const result = await runOrbridge(["gate", "--schema", journal, journal]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^orbridge gate: schema golden\/examples\/sales-report.jsonl is not JSON: /);
  });
  test("a tools file that names a member twice, which the gate would read one way and a reader that keeps the first another", async () => {
    const folder = await mkdtemp(join(tmpdir(), "orbridge-tools-"));
    const tools = join(folder, "tools.json");
    await writeFile(tools, '[{"type":"function","name":"f","parameters":{"type":"object","properties":{"region":{"enum":["apac"],"enum":["apac","global"]}}}}]');
    const result = await runOrbridge(["gate", "--tools", tools, journal]);
    await rm(folder, { recursive: true });
    expect(result).toEqual({ code: 2, stdout: "", stderr: `orbridge gate: tools file ${tools} has the name "enum" twice in one object, at "/0/parameters/properties/region/enum"; JSON.parse keeps the last value, other readers keep the first\n` });
  });
  test("a bad --format value", async () => {
    const result = await runOrbridge(["gate", "--schema", schema, "--format", "yaml", journal]);
    expect(result).toEqual({ code: 2, stdout: "", stderr: 'orbridge gate: --format must be one of text, json (got "yaml")\n' });
  });
  test("an unknown command", async () => {
    const result = await runOrbridge(["gait"]);
    expect(result).toEqual({ code: 2, stdout: "", stderr: 'orbridge: unknown command "gait" (orbridge --help lists them)\n' });
  });
});

describe("help", () => {
  test("gate --help explains every option with an example and exits 0", async () => {
    const result = await runOrbridge(["gate", "--help"]);
    expect(result.code).toBe(0);
    for (const option of ["--schema FILE", "--format FORMAT", "--assert-formats", "--help", "Example"]) expect(result.stdout).toContain(option);
  });
});

describe("orbridge schema", () => {
  test("lists the models without a name", async () => {
    const result = await runOrbridge(["schema"]);
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")).toContain("FunctionCallItemParam");
    expect(result.stdout.split("\n")).toContain("ChatCompletionChunk");
  });
  test("prints a model's JSON Schema from Zod", async () => {
    const result = await runOrbridge(["schema", "FunctionCallItemParam"]);
    expect(result.code).toBe(0);
    const jsonSchema = JSON.parse(result.stdout);
    expect(jsonSchema.required).toEqual(["type", "call_id", "name", "arguments"]);
    expect(jsonSchema.properties.name).toEqual({ type: "string", minLength: 1, maxLength: 64, pattern: "^[a-zA-Z0-9_-]+$" });
  });
  test("every listed model exports a JSON Schema", async () => {
    const names = (await runOrbridge(["schema"])).stdout.trim().split("\n");
    for (const name of names) {
      const result = await runOrbridge(["schema", name]);
      expect(result.code, name).toBe(0);
      expect(Object.keys(JSON.parse(result.stdout)).length, name).toBeGreaterThan(1);
    }
  });
  test("an unknown name is a usage error", async () => {
    expect(await runOrbridge(["schema", "Nope"])).toEqual({ code: 2, stdout: "", stderr: 'orbridge schema: no model named "Nope" (orbridge schema lists them)\n' });
  });
});
