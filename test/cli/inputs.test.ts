// Inputs as people store them: one JSON document, gzip, wrapped lines, stored
// logs, and the mistakes of giving a directory, a missing file or nothing at all.
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { inputChunks } from "../../src/cli/inputs.js";
import { runCli } from "../../src/cli/run.js";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const call = { type: "function_call", call_id: "call_123", name: "get_latest_sales_report", arguments: '{"region":"apac"}', status: "completed" };
const output = { type: "function_call_output", call_id: "call_123", output: "sales report for apac" };
const schema = "golden/examples/sales-report.schema.json";
const otlpExport = "golden/otlp/genai-parts/export.json";

describe("a file that is one JSON document", () => {
  test("an array of records is read record by record", async () => {
    const folder = scratchFolder("inputs");
    const file = join(folder, "array.json");
    writeFileSync(file, JSON.stringify([call, output], null, 2));
    expect(await runOrbridge(["normalize", file])).toEqual({
      code: 0,
      stdout: `${JSON.stringify(call)}\n${JSON.stringify(output)}\n`,
      stderr: `orbridge: ${file} is one JSON document, an array of 2 records: record N is element /{N-1}\nread 2 lines, 2 records: 2 emitted (2 items), 0 reported; 0 losses\n`,
    });
  });

  test("a record that names a member twice is blocked as it is on a line of its own", async () => {
    const folder = scratchFolder("inputs");
    const file = join(folder, "twice.json");
    writeFileSync(file, '[\n  {\n    "type": "openai:shell_call",\n    "type": "function_call",\n    "call_id": "call_123",\n    "name": "get_latest_sales_report",\n    "arguments": "{\\"region\\":\\"apac\\"}",\n    "status": "completed"\n  }\n]\n');
    expect(await runOrbridge(["gate", "--schema", schema, file])).toEqual({
      code: 1,
      stdout: 'line 1  - -  BLOCKED error: line has the name "type" twice in one object, at "/type"; JSON.parse keeps the last value, other readers keep the first\n',
      stderr: `orbridge: ${file} is one JSON document, an array of 1 record: record N is element /{N-1}\nread 1 line: 0 items, 1 error; 1 blocked\n  blocked by: error 1\n`,
    });
  });

  test("a pretty-printed document that does not parse stops with one error", async () => {
    const folder = scratchFolder("inputs");
    const file = join(folder, "cut.json");
    const text = '[\n  {"type": "function_call",\n';
    writeFileSync(file, text);
    // The parser's own words, which differ between Node versions.
    const reason = (() => {
      try {
        return JSON.parse(text);
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(await runOrbridge(["gate", "--schema", schema, file])).toEqual({
      code: 2,
      stdout: "",
      stderr: `orbridge gate: ${file} is neither JSONL (one JSON record per line) nor one JSON document: ${reason}\n`,
    });
  });
});

describe("gzip", () => {
  test("a compressed journal is gated as its plain form is", async () => {
    const folder = scratchFolder("inputs");
    const plain = readFileSync("golden/examples/sales-report.jsonl");
    writeFileSync(join(folder, "journal.jsonl.gz"), gzipSync(plain));
    const expected = await runOrbridge(["gate", "--schema", schema, "golden/examples/sales-report.jsonl"]);
    expect(await runOrbridge(["gate", "--schema", schema, join(folder, "journal.jsonl.gz")])).toEqual(expected);
  });

  test("--out FILE.gz writes the output compressed", async () => {
    const folder = scratchFolder("inputs");
    const out = join(folder, "items.jsonl.gz");
    const result = await runOrbridge(["normalize", "--out", out], `${JSON.stringify(call)}\n`);
    expect(result.code).toBe(0);
    expect(gunzipSync(readFileSync(out)).toString("utf8")).toBe(`${JSON.stringify(call)}\n`);
  });
});

describe("--record", () => {
  test("reads the record inside each wrapped line and writes its item back in the wrapper; a line without it is an error on its line", async () => {
    const lines = [{ timestamp: "2026-01-01T00:00:00Z", conversation_id: "c1", message: call }, { timestamp: "2026-01-01T00:00:01Z", conversation_id: "c1" }].map((line) => JSON.stringify(line)).join("\n");
    expect(await runOrbridge(["normalize", "--record", "/message"], `${lines}\n`)).toEqual({
      code: 1,
      stdout: `${JSON.stringify({ timestamp: "2026-01-01T00:00:00Z", conversation_id: "c1", message: call })}\n`,
      stderr: 'orbridge normalize: line 2: --record /message finds no record in this line: the record has no member "message"\nread 2 lines, 2 records: 1 emitted (1 item), 1 reported; 0 losses\n',
    });
  });

  test("a wrapper with two names that fold to one (message and Message) is an error on its line, whichever the pointer names", async () => {
    const record = (region: string) => JSON.stringify({ ...call, arguments: JSON.stringify({ region }) });
    const line = `{"ts":1,"message":${record("apac")},"Message":${record("global")}}`;
    const result = await runOrbridge(["gate", "--record", "/message", "--schema", schema], `${line}\n`);
    expect(result.stdout).toBe('line 1  - -  BLOCKED error: line has the names "message" and "Message" in one object, at the top level: a reader that matches names regardless of case or width (Go\'s encoding/json does) takes them for one name and keeps the last value\n');
    expect(result.code).toBe(1);
  });

  test("a wrapper that a carriage return without line feed splits, hiding a wrapper of its own, is an error on its line", async () => {
    const hidden = JSON.stringify({ message: { type: "local_shell_call", id: "lsh_1", call_id: "call_9", action: { type: "exec", command: ["rm", "-rf", "/"] }, status: "completed" } });
    const line = `{"ts":1,"x":\r${hidden}\r,"message":${JSON.stringify(call)}}`;
    const result = await runOrbridge(["gate", "--record", "/message", "--schema", schema], `${line}\n`);
    expect(result.stdout).toBe("line 1  - -  BLOCKED error: line holds a carriage return with no line feed after it, where Python's text files, Node's readline and Java's readLine end a line: they read it as 3 lines, 1 of them JSON that the gate never judged as a record\n");
    expect(result.code).toBe(1);
  });

  test("a pointer that is not one is a usage error", async () => {
    expect(await runOrbridge(["gate", "--record", "message"], "")).toEqual({ code: 2, stdout: "", stderr: 'orbridge gate: --record: a JSON Pointer starts with "/" (got "message")\n' });
  });
});

describe("stored logs", () => {
  test("a trace export is read by its reader, said on stderr, and normalized", async () => {
    const result = await runOrbridge(["normalize", otlpExport]);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line).type)).toEqual(["message", "message", "reasoning", "function_call", "function_call_output", "otel:server_tool_call", "message", "otel:hologram"]);
    expect(result.stderr.split("\n")[0]).toBe(`orbridge: ${otlpExport}: read as otlp: 4 units (1 other, 2 llm_call, 1 tool); 13 read, 8 emitted, 5 repeats, 0 not read; 8 records in 1 conversation; 8 losses`);
    expect(result.stderr.split("\n").at(-2)).toBe("read 8 lines, 8 records: 8 emitted (8 items), 0 reported; 0 losses");
  });

  test("the gate sees each call of a trace once, with its result", async () => {
    const result = await runOrbridge(["gate", "--format", "json", otlpExport]);
    const verdicts = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(verdicts.map((verdict) => [verdict.line, verdict.type, verdict.reason, verdict.blocked])).toEqual([
      [1, "message", "not_function_call", false],
      [2, "message", "not_function_call", false],
      [3, "reasoning", "not_function_call", false],
      [4, "function_call", "unknown_tool", true],
      [5, "function_call_output", "not_function_call", true],
      [6, "otel:server_tool_call", "namespaced", true],
      [7, "message", "not_function_call", false],
      [8, "otel:hologram", "namespaced", true],
    ]);
    expect(result.code).toBe(1);
  });

  test("--from forces a reader, which says it found nothing of its store", async () => {
    const result = await runOrbridge(["normalize", "--from", "jaeger", otlpExport]);
    expect(result).toEqual({ code: 0, stdout: "", stderr: `orbridge: ${otlpExport}: read as jaeger: 0 units (none); 0 read, 0 emitted, 0 repeats, 0 not read; 0 records in 0 conversations; 0 losses\nread 0 lines, 0 records: 0 emitted (0 items), 0 reported; 0 losses\n` });
  });

  test("a usage error that quotes a line of the journal shows its carriage return and escape sequences escaped", async () => {
    const folder = scratchFolder("inputs");
    const file = join(folder, "page.jsonl");
    writeFileSync(file, '{"object":"list","data":[],"has_more":false}\n\r\u001b[2K\u001b[32mline 9  function_call call_9  pass ok\n');
    expect(await runOrbridge(["gate", "--from", "openai-list", "--schema", schema, file])).toEqual({
      code: 2,
      stdout: "",
      stderr: `orbridge gate: cannot read ${file}: ${file}:2: a line of a openai-list export that is not JSON: Unexpected token '\\u001b', "\\u000d\\u001b[2K\\u001b[32ml"... is not valid JSON\n`,
    });
  });

  test("what the reading says quotes the store with every character that could end or rub out its line escaped", async () => {
    // On a terminal, this key would erase its note and print a verdict that passed.
    const forged = "\r\u001b[2K\u001b[32mline 9  function_call call_9  pass ok\u001b[39m\nline 10 \u202e";
    const span = {
      name: "ChatCompletion",
      spanId: `ab${forged}`,
      attributes: [
        { key: "llm.input_messages.0.message.role", value: { stringValue: "user" } },
        { key: "llm.input_messages.0.message.content", value: { stringValue: "hi" } },
        { key: forged, value: { stringValue: "x" } },
      ],
      status: { code: "STATUS_CODE_OK" },
    };
    const folder = scratchFolder("inputs");
    const file = join(folder, "span.json");
    writeFileSync(file, JSON.stringify(span));
    const result = await runOrbridge(["gate", "--schema", schema, file]);
    const shown = "\\u000d\\u001b[2K\\u001b[32mline 9  function_call call_9  pass ok\\u001b[39m\\u000aline 10 \\u202e";
    expect(result.stderr.split("\n")).toEqual([
      `orbridge: ${file}: read as otlp: 1 unit (1 llm_call); 1 read, 1 emitted, 0 repeats, 0 not read; 1 record in 1 conversation; 2 losses`,
      `orbridge: ${file}#/0 (span ab${shown}): left_behind: the span's ids, name, times and the exporter's bookkeeping are transport of the trace: no item holds them`,
      `orbridge: ${file}#/0/attributes/2/value/stringValue (span ab${shown}): left_behind: the attribute ${shown} is in no item`,
      "read 1 line: 1 item, 0 errors; 0 blocked",
      "",
    ]);
  });

  test("--from names a store orbridge reads", async () => {
    expect(await runOrbridge(["normalize", "--from", "splunk", otlpExport])).toEqual({ code: 2, stdout: "", stderr: 'orbridge normalize: --from must be one of langfuse, jaeger, openai-list, otlp (got "splunk")\n' });
  });
});

describe("inputs that are not journals", () => {
  test("a directory is named as one", async () => {
    const folder = scratchFolder("inputs");
    mkdirSync(join(folder, "logs"));
    expect(await runOrbridge(["normalize", join(folder, "logs")])).toEqual({ code: 2, stdout: "", stderr: `orbridge normalize: ${join(folder, "logs")} is a directory: give the journal files in it (as ${join(folder, "logs")}/*.jsonl)\n` });
  });

  // Node reads a directory given as stdin as empty, without an error: the gate said "0 blocked" of a journal it never read.
  test("standard input that is a directory is named as one, before anything is read", async () => {
    const folder = scratchFolder("inputs");
    const fd = openSync(folder, "r");
    try {
      for (const argv of [["gate"], ["gate", "--schema", schema, "golden/examples/sales-report.jsonl", "-"]]) {
        const result = await runOrbridge(argv, Object.assign(Readable.from([]), { fd }));
        expect([argv, result]).toEqual([
          argv,
          { code: 2, stdout: "", stderr: "orbridge gate: standard input is a directory: give the journal files in it (as FOLDER/*.jsonl)\n" },
        ]);
      }
    } finally {
      closeSync(fd);
    }
  });

  test("standard input that is a directory, in a process of its own: status 2, not a run over nothing", () => {
    const folder = scratchFolder("inputs");
    const fd = openSync(folder, "r");
    try {
      const run = spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "gate", "--quiet"], { encoding: "utf8", stdio: [fd, "pipe", "pipe"] });
      expect({ code: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ code: 2, stdout: "", stderr: "orbridge gate: standard input is a directory: give the journal files in it (as FOLDER/*.jsonl)\n" });
    } finally {
      closeSync(fd);
    }
  }, 30_000);

  test("a missing file is named as one", async () => {
    expect(await runOrbridge(["convert", "--to", "chat", "no/such/journal.jsonl"])).toEqual({ code: 2, stdout: "", stderr: "orbridge convert: cannot read no/such/journal.jsonl: no such file or not readable\n" });
  });

  test("on a terminal with no file, what is expected is said before reading", async () => {
    const stdin = Object.assign(Readable.from([`${JSON.stringify(call)}\n`]), { isTTY: true });
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const err: Buffer[] = [];
    stderr.on("data", (chunk: Buffer) => err.push(chunk));
    stdout.resume();
    const code = await runCli(["normalize"], { stdin, stdout, stderr, env: {} });
    expect({ code, stderr: Buffer.concat(err).toString("utf8") }).toEqual({
      code: 0,
      stderr: "orbridge: reading a journal from the terminal: paste JSONL records, one per line, and end with Ctrl-D; or give a FILE\nread 1 line, 1 record: 1 emitted (1 item), 0 reported; 0 losses\n",
    });
  });
});

describe("an input that fails while a chunk is worked on", () => {
  test("the failure is thrown where the next chunk is asked for, and never reported as unhandled before", async () => {
    const unhandled: unknown[] = [];
    const count = (reason: unknown) => void unhandled.push(reason);
    process.on("unhandledRejection", count);
    try {
      const stdin = new Readable({ read() {} });
      stdin.push(`${JSON.stringify(call)}\n`);
      const io = { stdin, stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
      const chunks = inputChunks(["-"], io);
      const first = await chunks.next();
      expect(first.value).toEqual({ source: "-", bytes: Buffer.from(`${JSON.stringify(call)}\n`) });
      // The next read is under way while the consumer works on the first chunk, and fails then.
      stdin.destroy(new Error("the disk went away"));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
      await expect(chunks.next()).rejects.toThrow("cannot read -: the disk went away");
    } finally {
      process.off("unhandledRejection", count);
    }
  });
});
