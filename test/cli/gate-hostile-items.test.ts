// Items the gate once let through that it must block, from the command line:
// a name given twice (in the record, or in its arguments), a number a double
// does not hold, an item type no one defines. Each verdict is the same with one
// thread and with two.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { gatedBatches, WORKER_MIN_BYTES } from "../../src/cli/gate-jobs.js";
import type { ToolSchema } from "../../src/gate/schema.js";
import { call, jsonl } from "../hostile/support.js";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("gate-hostile-items");
let files = 0;
function file(content: string): string {
  const path = join(folder, `file-${(files += 1)}.json`);
  writeFileSync(path, content);
  return path;
}

const schema = {
  type: "object",
  additionalProperties: false,
  properties: {
    region: { type: "string", enum: ["apac", "emea", "amer"] },
    limit: { type: "integer", maximum: 9007199254740992 },
    batch: { const: 12345678901234567890 },
    count: { type: "integer" },
  },
};
const schemaFile = file(JSON.stringify(schema));

/** `orbridge gate --schema … --format json` on the journal; the verdict lines parsed. */
async function gate(journal: string, extra: string[] = []) {
  const run = await runOrbridge(["gate", "--schema", schemaFile, "--format", "json", ...extra, file(journal)]);
  return { code: run.code, stderr: run.stderr, verdicts: run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const OK_DETAIL = "completed call with arguments valid for its schema";
const twice = (what: string, name: string, path: string) => `${what} has the name "${name}" twice in one object, at "${path}"; JSON.parse keeps the last value, other readers keep the first`;
const unknownType = (quoted: string) => `${quoted} is not a type the Open Responses spec defines, nor a provider type with a slug; it is never a portable call`;
const notCompared = (where: string, literal: string) => `arguments${where} is ${literal}, which a double reads as another number; the gate does not compare it`;
const errorLine = (line: number, detail: string) => ({ line, index: 0, reason: "error", detail, blocked: true, findings: [] });
const verdict = (callId: string, reason: string, detail: string, path?: string) => ({
  line: 1,
  index: 0,
  type: "function_call",
  call_id: callId,
  name: "get_latest_sales_report",
  reason,
  detail,
  ...(path === undefined ? {} : { path }),
  blocked: reason !== "ok",
  findings: [],
});

/** A completed call written by hand, so that a name can be given twice. */
const rawCall = (fields: string) => `{${fields},"id":"fc_1","call_id":"call_1","name":"get_latest_sales_report","arguments":"{\\"region\\":\\"apac\\"}"}`;

describe("a record with a name given twice", () => {
  test("an extension whose type is written over with function_call is an error line, blocked", async () => {
    const run = await gate(rawCall('"type":"openai:shell_call","type":"function_call","status":"completed"') + "\n");
    expect(run).toEqual({ code: 1, stderr: "read 1 line: 0 items, 1 error; 1 blocked\n  blocked by: error 1\n", verdicts: [errorLine(1, twice("line", "type", "/type"))] });
  });
  test("a streaming call whose status is written over with completed is an error line, blocked", async () => {
    const run = await gate(rawCall('"type":"function_call","status":"in_progress","status":"completed"') + "\n");
    expect(run.verdicts).toEqual([errorLine(1, twice("line", "status", "/status"))]);
  });
  test("a call inside a response's output, written twice, blocks its line", async () => {
    const line = `{"object":"response","id":"resp_1","status":"completed","output":[${rawCall('"type":"function_call","status":"completed"').replace('"call_id":"call_1"', '"call_id":"call_1","call_id":"call_2"')}]}`;
    expect((await gate(line + "\n")).verdicts).toEqual([errorLine(1, twice("line", "call_id", "/output/0/call_id"))]);
  });
  test("in SSE data, it is an error line, blocked", async () => {
    const run = await gate(`data: ${rawCall('"type":"function_call","status":"in_progress","status":"completed"')}\n\n`);
    expect(run.verdicts).toEqual([errorLine(1, twice("SSE data", "status", "/status"))]);
  });
  test("the lines after it are still gated", async () => {
    const run = await gate(rawCall('"type":"openai:shell_call","type":"function_call","status":"completed"') + "\n" + jsonl(call("call_2", '{"region":"apac"}')));
    expect(run.verdicts).toEqual([errorLine(1, twice("line", "type", "/type")), { ...verdict("call_2", "ok", OK_DETAIL), line: 2 }]);
  });
  test("normalize and convert report the line, and emit nothing for it", async () => {
    const journal = file(rawCall('"type":"openai:shell_call","type":"function_call","status":"completed"') + "\n" + jsonl({ role: "user", content: "hi" }));
    const detail = twice("line", "type", "/type");
    expect(await runOrbridge(["normalize", journal])).toEqual({
      code: 1,
      stdout: '{"type":"message","role":"user","content":"hi"}\n',
      stderr: `orbridge normalize: line 1: ${detail}\nread 2 lines, 2 records: 1 emitted (1 item), 1 reported; 0 losses\n`,
    });
    const converted = await runOrbridge(["convert", "--to", "chat", journal]);
    expect(converted.code).toBe(1);
    expect(converted.stdout).toBe('{"role":"user","content":"hi"}\n');
    expect(converted.stderr).toContain(`orbridge convert: line 1: ${detail}\n`);
  });
});

describe("arguments with a name given twice", () => {
  test.each([
    ["the region JSON.parse keeps last", '{"region":"global","region":"apac"}', "region", "/region"],
    ["escaped another way", '{"region":"global","\\u0072egion":"apac"}', "region", "/region"],
    ["__proto__", '{"__proto__":{},"__proto__":{}}', "__proto__", "/__proto__"],
  ])("%s: arguments_parse", async (_label, args, name, path) => {
    const run = await gate(jsonl(call("call_1", args)));
    expect(run.verdicts).toEqual([verdict("call_1", "arguments_parse", twice("arguments", name, path), "/arguments")]);
  });
});

describe("numbers a double does not hold", () => {
  test.each([
    ["an integer past 2^53 against a maximum", '{"limit":9007199254740993}', "/limit", "9007199254740993"],
    ["a 20-digit integer against a const", '{"batch":12345678901234567891}', "/batch", "12345678901234567891"],
    ["a fraction against integer", '{"count":1.0000000000000000001}', "/count", "1.0000000000000000001"],
  ])("%s: arguments_schema", async (_label, args, where, literal) => {
    const run = await gate(jsonl(call("call_1", args)));
    expect(run.verdicts).toEqual([verdict("call_1", "arguments_schema", notCompared(where, literal), "/arguments")]);
  });
  test("numbers the double stands for still pass", async () => {
    const run = await gate(jsonl(call("call_1", '{"limit":9007199254740991,"count":1.0,"region":"apac"}')));
    expect(run.verdicts).toEqual([verdict("call_1", "ok", OK_DETAIL)]);
  });
});

describe("item types the spec does not define", () => {
  test.each([
    ["a fullwidth colon", "openai\uff1ashell_call", '"openai\\uff1ashell_call"'],
    ["a zero-width space", "function_call\u200b", '"function_call\\u200b"'],
    ["another case", "Function_Call", '"Function_Call"'],
    ["a trailing space", "function_call ", '"function_call "'],
  ])("%s: namespaced, blocked", async (_label, type, quoted) => {
    const run = await gate(jsonl({ ...call("call_1", '{"region":"apac"}'), type }));
    expect(run.code).toBe(1);
    expect(run.verdicts).toEqual([{ ...verdict("call_1", "namespaced", unknownType(quoted), "/type"), type }]);
  });
  test("an unprefixed provider type still gets the origin's slug, and is an extension", async () => {
    const item = { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "apac" } };
    const extension = (type: string) => ({ line: 1, index: 0, type, reason: "namespaced", detail: `"${type}" is an extension item, never a portable call`, path: "/type", blocked: true, findings: [] });
    expect((await gate(jsonl(item))).verdicts).toEqual([extension("openai:web_search_call")]);
    expect((await gate(jsonl(item), ["--origin", "acme"])).verdicts).toEqual([extension("acme:web_search_call")]);
  });
});

/** Every hostile line above, then calls that pass: the journal both thread counts gate. */
function hostileJournal(): string {
  return [
    rawCall('"type":"openai:shell_call","type":"function_call","status":"completed"'),
    rawCall('"type":"function_call","status":"in_progress","status":"completed"'),
    `data: ${rawCall('"type":"function_call","status":"in_progress","status":"completed"')}`,
    "",
    JSON.stringify(call("call_2", '{"region":"global","region":"apac"}')),
    JSON.stringify(call("call_3", '{"limit":9007199254740993}')),
    JSON.stringify(call("call_4", '{"batch":12345678901234567891}')),
    JSON.stringify(call("call_5", '{"count":1.0000000000000000001}')),
    ...["openai\uff1ashell_call", "function_call\u200b", "Function_Call", "function_call "].map((type, i) => JSON.stringify({ ...call(`call_t${i}`, '{"region":"apac"}'), type })),
    JSON.stringify({ type: "web_search_call", id: "ws_1", status: "completed" }),
    JSON.stringify(call("call_6", '{"region":"apac","limit":9007199254740991}')),
  ].join("\n") + "\n";
}

/** The hostile journal, then passing calls until it is past the size from which gate uses two threads. */
function largeJournal(): string {
  const lines = [hostileJournal()];
  let bytes = lines[0].length;
  for (let i = 0; bytes <= WORKER_MIN_BYTES; i++) {
    const line = JSON.stringify(call(`call_pad${i}`, `{"region":"emea","limit":${i}}`)) + "\n";
    lines.push(line);
    bytes += line.length;
  }
  return lines.join("");
}

describe("one thread and two", () => {
  async function gateInThreads(journal: string, jobs: 1 | 2): Promise<{ text: string; threads: Set<number> }> {
    const io = { stdin: Readable.from([Buffer.from(journal)]), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
    const run = { text: "", threads: new Set<number>() };
    const options = { jobs, read: {}, normalize: {}, gate: { schema: schema as ToolSchema, omitSource: true }, format: "json" as const, colour: false, workerMinBytes: 0 };
    for await (const batch of gatedBatches(["-"], io, options)) {
      run.text += batch.text;
      run.threads.add(batch.threads);
    }
    return run;
  }

  test("give the same lines for every hostile item, the worker started at any size", async () => {
    const one = await gateInThreads(hostileJournal(), 1);
    const two = await gateInThreads(hostileJournal(), 2);
    expect(one.threads).toEqual(new Set([1]));
    expect(two.threads).toEqual(new Set([2]));
    expect(two.text).toBe(one.text);
    const reasons = one.text.trimEnd().split("\n").map((line) => (JSON.parse(line) as { reason: string }).reason);
    expect(reasons).toEqual(["error", "error", "error", "arguments_parse", "arguments_schema", "arguments_schema", "arguments_schema", "namespaced", "namespaced", "namespaced", "namespaced", "namespaced", "ok"]);
  }, 60_000);

  test("orbridge gate --jobs 1 and --jobs 2 write the same bytes on a journal past the threshold", async () => {
    const journal = largeJournal();
    expect(journal.length).toBeGreaterThan(WORKER_MIN_BYTES);
    const path = file(journal);
    const one = await runOrbridge(["gate", "--jobs", "1", "--schema", schemaFile, "--format", "json", path]);
    const two = await runOrbridge(["gate", "--jobs", "2", "--schema", schemaFile, "--format", "json", path]);
    expect(one.code).toBe(1);
    expect(two).toEqual(one);
  }, 60_000);
});

describe("the built command", () => {
  // Built apart from dist/, which other test files rebuild while this one runs;
  // inside node_modules, so that the build finds the dependencies.
  const build = join(process.cwd(), "node_modules/.cache/orbridge-gate-hostile-items-build");
  beforeAll(() => {
    rmSync(build, { recursive: true, force: true });
    const tsc = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json", "--outDir", build], { encoding: "utf8" });
    if (!existsSync(join(build, "src/cli/gate-worker.js"))) throw new Error(`the build failed: ${tsc.stdout}${tsc.stderr}`);
  }, 120_000);
  afterAll(() => rmSync(build, { recursive: true, force: true }));

  test("with its worker from the compiled files, writes what one thread writes", () => {
    const path = file(largeJournal());
    const run = (jobs: string) => spawnSync(process.execPath, [join(build, "src/cli/main.js"), "gate", "--jobs", jobs, "--schema", schemaFile, "--format", "json", path], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    const one = run("1");
    const two = run("2");
    expect(one.status).toBe(1);
    expect(one.stdout.split("\n", 3)[0]).toBe(JSON.stringify(errorLine(1, twice("line", "type", "/type"))));
    expect({ status: two.status, stdout: two.stdout, stderr: two.stderr }).toEqual({ status: one.status, stdout: one.stdout, stderr: one.stderr });
  }, 60_000);
});
