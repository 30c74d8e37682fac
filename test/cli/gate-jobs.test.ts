// `gate --jobs 2` must write what `--jobs 1` writes, byte for byte: the same
// verdicts, findings and counts, in the same order. Each journal here is gated
// both ways; the two-thread run is made to start its worker at any size.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { PassThrough, Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { gatedBatches, WORKER_MIN_BYTES, type GateJobsOptions } from "../../src/cli/gate-jobs.js";
import { CROSSING_DEPTH, deeperThan, flatten, fromCrossing, restoreShelved, shelveDeepValues, toCrossing } from "../../src/cli/deep-values.js";
import { ToolRegistry } from "../../src/gate/tool-registry.js";
import { TARGETS, type Target } from "../../src/gate/targets.js";
import { profileOf } from "../../adapters/profiles.js";
import type { ToolSchema } from "../../src/gate/schema.js";
import { writeJournal, toolsFileContent } from "../bench/generate.js";
import { runOrbridge } from "../support/run-cli.js";
import { chatSpanExport } from "../support/otlp-export.js";
import { scratchFolder } from "../support/scratch.js";
import { call, jsonl, salesSchema } from "../hostile/support.js";

const folder = scratchFolder("orbridge-gate-jobs-");
const salesTools = JSON.parse(readFileSync("golden/examples/sales-tools.json", "utf8")) as unknown;

interface Setup {
  schema?: ToolSchema;
  tools?: unknown;
  target?: Target;
  format?: "text" | "json";
  colour?: boolean;
  maxLineBytes?: number;
  /** How stdin is cut into chunks, in bytes. */
  chunkBytes?: number;
  /** A stored log's messages that cannot be read are error lines, as `gate` reads them. */
  unreadableAsErrors?: boolean;
}

interface Run {
  text: string;
  counts: { lines: number; items: number; errors: number; blocked: number };
  threads: Set<number>;
}

async function gate(sources: string[], stdin: Buffer, setup: Setup, jobs: 1 | 2): Promise<Run> {
  const size = setup.chunkBytes ?? 65_536;
  const pieces: Buffer[] = [];
  for (let at = 0; at < stdin.length; at += size) pieces.push(stdin.subarray(at, at + size));
  const io = { stdin: Readable.from(pieces), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
  const options: GateJobsOptions = {
    jobs,
    read: { ...(setup.maxLineBytes === undefined ? {} : { maxLineBytes: setup.maxLineBytes }), ...(setup.unreadableAsErrors ? { unreadableAsErrors: true } : {}) },
    normalize: {},
    gate: { schema: setup.schema, registry: setup.tools === undefined ? undefined : ToolRegistry.fromToolsFile(setup.tools, "tools"), target: setup.target, targetOptions: { profile: setup.target === undefined ? undefined : profileOf(setup.target) }, omitSource: sources.length === 1 },
    format: setup.format ?? "json",
    colour: setup.colour ?? false,
    workerMinBytes: 0,
  };
  const run: Run = { text: "", counts: { lines: 0, items: 0, errors: 0, blocked: 0 }, threads: new Set() };
  for await (const batch of gatedBatches(sources, io, options)) {
    run.text += batch.text;
    run.counts.lines += batch.lines;
    run.counts.items += batch.items;
    run.counts.errors += batch.errors;
    run.counts.blocked += batch.blocked;
    run.threads.add(batch.threads);
  }
  return run;
}

/** Gates the journal in one thread and in two, and expects the same output. */
async function expectSameBothWays(journal: string | Buffer, setup: Setup = {}, sources = ["-"]): Promise<Run> {
  const stdin = Buffer.isBuffer(journal) ? journal : Buffer.from(journal, "utf8");
  const one = await gate(sources, stdin, setup, 1);
  const two = await gate(sources, stdin, setup, 2);
  expect(one.threads).toEqual(new Set([1]));
  expect(two.threads).toEqual(new Set([2]));
  expect(two.text).toBe(one.text);
  expect(two.counts).toEqual(one.counts);
  return one;
}

describe("the journals shipped with the project", () => {
  for (const name of readdirSync("golden/examples").filter((file) => file.endsWith(".jsonl"))) {
    test(`${name}, with the sales tools`, async () => {
      const run = await expectSameBothWays(readFileSync(join("golden/examples", name)), { tools: salesTools });
      expect(run.counts.items).toBeGreaterThan(0);
    });
  }
  test("sales-report.jsonl as text, coloured, cut into 7-byte chunks", async () => {
    const run = await expectSameBothWays(readFileSync("golden/examples/sales-report.jsonl"), { schema: salesSchema, format: "text", colour: true, chunkBytes: 7 });
    expect(run.text).toContain("\x1b[31mBLOCKED\x1b[39m");
  });
  for (const name of readdirSync("golden/streams").filter((entry) => !entry.endsWith(".md"))) {
    test(`the stream ${name}`, async () => {
      const file = readdirSync(join("golden/streams", name)).find((entry) => entry === "stream.sse" || entry === "chunks.jsonl")!;
      await expectSameBothWays(readFileSync(join("golden/streams", name, file)), { schema: true, chunkBytes: 333 });
    });
  }
});

describe("each replay target (items go whole)", () => {
  for (const target of TARGETS) {
    test(target, async () => {
      await expectSameBothWays(readFileSync("golden/examples/mixed.jsonl"), { tools: salesTools, target });
    });
  }
});

describe("lines and records written to break the gate", () => {
  const hostile = Buffer.concat([
    Buffer.from("\ufeff" + jsonl(call("call_1", '{"region":"emea"}'))),
    Buffer.from("not json\r\n{\"type\":\n\n  \n"),
    Buffer.from([0x7b, 0x22, 0x74, 0xff, 0x22, 0x7d, 0x0a]),
    Buffer.from(
      jsonl(
        JSON.stringify({ role: "x".repeat(300) }),
        { type: 42, call_id: "call_n" },
        [1, 2],
        null,
        "\"just text\"",
        { id: "msg_ref" },
        { role: "user", content: "typeless" },
        { type: "function_call", id: "call_bad", call_id: "call_bad", name: "get_latest_sales_report", status: "completed", arguments: { region: "apac" } },
        { type: "function_call", call_id: "", name: "", status: "in_progress", arguments: "{" },
        { type: "message", role: "tool", content: [{ type: "image_url", image_url: "x" }, "part", null, { type: "input_text", text: "y" }], tool_calls: [], tool_call_id: "t" },
        { type: "openai:function_call", call_id: "call_ext", status: "completed" },
        { type: "function_call_output", call_id: "call_ext", output: "x" },
        { type: "function_call_output", call_id: "call_none", output: [{ type: "input_text", text: "orphan" }] },
        '{"type":"function_call","__proto__":{"status":"completed"},"call_id":"call_proto","name":"get_latest_sales_report","arguments":"{\\"region\\":\\"apac\\"}"}',
        { model: "m", input: [call("call_2", '{"region":"apac"}')], tools: [{ type: "function", name: "get_latest_sales_report", parameters: { type: "object", properties: { __proto__: { type: "string" } } } }] },
        { model: "m", input: "hi", tools: "not tools" },
        { model: "m", messages: [{ role: "user", content: "go" }], tools: [{ type: "function", function: { name: "lookup", parameters: { type: "object", required: ["q"] } } }], tool_choice: { type: "function", function: { name: "lookup" } } },
        { type: "function_call", id: "fc_3", call_id: "call_3", name: "get_latest_sales_report", status: "completed", arguments: '{"region":"apac"}' },
        { type: "reasoning", id: "rs_1", summary: [] },
        { type: "function_call_output", call_id: "call_1", output: "done" },
      ),
    ),
    Buffer.from("x".repeat(2_000) + "\n"),
    Buffer.from(JSON.stringify(call("call_last", '{"region":"amer"}'))),
  ]);
  test("a tool call that gives no item blocks its line, in one thread and in two", async () => {
    const untyped = { role: "assistant", content: null, tool_calls: [{ id: "call_u", type: "Function", function: { name: "get_latest_sales_report", arguments: '{"region":"mars"}' } }] };
    const run = await expectSameBothWays(jsonl(untyped, call("call_ok", '{"region":"apac"}')), { schema: salesSchema });
    expect(run.counts).toEqual({ lines: 2, items: 1, errors: 1, blocked: 1 });
    expect(JSON.parse(run.text.split("\n")[0])).toMatchObject({
      line: 1,
      reason: "error",
      blocked: true,
      detail: 'not checked, since it gave no item: a tool call whose type is "Function" is not read: only a "function" or a "custom" call is, by its type (at /tool_calls/0)',
    });
  });

  test("a stored log's message that cannot be read is an error line saying why, in one thread and in two", async () => {
    const log = join(folder, "wizard.json");
    writeFileSync(log, chatSpanExport({ output: [{ role: "wizard", parts: [{ type: "tool_call", id: "c4", name: "list_releases", arguments: {} }] }] }));
    const run = await expectSameBothWays(Buffer.alloc(0), { schema: true, unreadableAsErrors: true }, [log]);
    expect(run.text.trimEnd().split("\n").map((line) => JSON.parse(line) as unknown)).toEqual([
      {
        line: 1,
        index: 0,
        reason: "error",
        detail: `not read: ${log}#/0/resourceSpans/0/scopeSpans/0/spans/0/attributes/1/value/stringValue: a message of role "wizard": of no dialect orbridge reads, not read (at /0 in its JSON text), and a call in it would go unjudged`,
        blocked: true,
        findings: [],
      },
    ]);
  });

  test("request bodies whose tools cannot all be read narrow alike in one thread and in two", async () => {
    const readFile = { type: "function", name: "read_file", parameters: { type: "object" } };
    const run = await expectSameBothWays(
      jsonl(
        { model: "m", input: "go", tools: [readFile, { type: "function", name: "delete_file" }, { type: "function" }], tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "read_file" }] } },
        call("call_1", "{}", "delete_file"),
        { model: "m", input: [], tools: [{ type: "function", name: "read_file", parameters: "loose" }] },
        call("call_2", "{}", "read_file"),
        { model: "m", messages: "lost", tool_choice: "none" },
        call("call_3", "{}", "delete_file"),
      ),
      { chunkBytes: 50 },
    );
    expect(run.counts).toEqual({ lines: 6, items: 5, errors: 2, blocked: 6 });
  });

  test("a stored chat.completion's own tool_choice, tools and parallel_tool_calls narrow alike in one thread and in two", async () => {
    const toolCall = (n: number) => ({ id: `call_${n}`, type: "function", function: { name: "get_latest_sales_report", arguments: '{"region":"apac"}' } });
    const completion = (fields: Record<string, unknown>, calls: unknown[]) => ({
      id: "chatcmpl_1",
      object: "chat.completion",
      created: 1,
      model: "gpt-4o",
      ...fields,
      choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: calls }, finish_reason: "tool_calls" }],
    });
    const run = await expectSameBothWays(
      jsonl(
        completion({ tool_choice: "none" }, [toolCall(1)]),
        completion({ tool_choice: { type: "function", function: { name: "delete_file" } } }, [toolCall(2)]),
        completion({ tools: [{ type: "function", function: { name: "delete_file" } }] }, [toolCall(3)]),
        completion({ parallel_tool_calls: false }, [toolCall(4), toolCall(5)]),
        { request: { model: "gpt-4o", messages: [{ role: "user", content: "apac?" }] }, response: completion({ tool_choice: "none" }, [toolCall(6)]) },
        completion({ tool_choice: "auto" }, [toolCall(7)]),
      ),
      { tools: salesTools },
    );
    const gated = run.text.trimEnd().split("\n").map((line) => JSON.parse(line) as { line: number; type: string; blocked: boolean; findings: Array<{ code: string }> });
    expect(gated.filter(({ type }) => type === "function_call").map(({ line, blocked, findings }) => [line, blocked, findings.map((finding) => finding.code)])).toEqual([
      [1, true, ["tool_not_allowed"]],
      [2, true, ["tool_not_allowed"]],
      [3, true, ["tool_not_allowed"]],
      [4, false, []],
      [4, true, ["tool_not_allowed"]],
      [5, true, ["tool_not_allowed"]],
      // The response of line 6 answers the last request, line 5's, which offered no tool.
      [6, true, ["tool_not_allowed"]],
    ]);
  });

  describe("two tool schemas whose JSON text is the same, one holding a number past the largest double", { timeout: 30_000 }, () => {
    // `1e400` reads as Infinity, which JSON.stringify writes as null: the schema that holds it is refused, the other is not.
    const body = (first: string, second: string) => `{"model":"m","input":"go","tools":[{"type":"function","name":"first","parameters":${first}},{"type":"function","name":"second","parameters":${second}}]}\n`;
    const verdicts = (run: Run) => run.text.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>).filter((record) => record.type === "function_call").map((record) => [record.name, record.reason, record.detail]);
    const refused = (at: string, value: string) => `tool schema is refused: the value at ${at} is ${value}, which JSON cannot write`;

    test("a default of null, then one of 1e400: the second's call is blocked in two threads as in one", async () => {
      const run = await expectSameBothWays(body('{"type":"object","properties":{"n":{"type":"number","default":null}}}', '{"type":"object","properties":{"n":{"type":"number","default":1e400}}}') + jsonl(call("call_1", '{"n":5}', "first"), call("call_2", '{"n":5}', "second")));
      expect(verdicts(run)).toEqual([
        ["first", "ok", "completed call with arguments valid for its schema"],
        ["second", "arguments_schema", refused("/properties/n/default", "Infinity")],
      ]);
    });

    test("the refused one first: the other's call still passes", async () => {
      const run = await expectSameBothWays(body('{"type":"object","properties":{"n":{"const":1e400}}}', '{"type":"object","properties":{"n":{"const":null}}}') + jsonl(call("call_1", '{"n":null}', "first"), call("call_2", '{"n":null}', "second")));
      expect(verdicts(run)).toEqual([
        ["first", "arguments_schema", refused("/properties/n/const", "Infinity")],
        ["second", "ok", "completed call with arguments valid for its schema"],
      ]);
    });

    test("-1e400 and 1e400: each refusal names its own number", async () => {
      const run = await expectSameBothWays(body('{"type":"object","properties":{"n":{"maximum":-1e400}}}', '{"type":"object","properties":{"n":{"maximum":1e400}}}') + jsonl(call("call_1", '{"n":5}', "first"), call("call_2", '{"n":5}', "second")));
      expect(verdicts(run).map(([, , detail]) => detail)).toEqual([refused("/properties/n/maximum", "-Infinity"), refused("/properties/n/maximum", "Infinity")]);
    });
  });

  test("one source, in chunks of every size", async () => {
    for (const chunkBytes of [1, 5, 64, 4096]) await expectSameBothWays(hostile, { schema: salesSchema, chunkBytes, maxLineBytes: 1_000 });
  }, 60_000);
  test("with tools from the journal's request bodies", async () => {
    const run = await expectSameBothWays(hostile, { tools: salesTools, chunkBytes: 97 });
    expect(run.counts.errors).toBeGreaterThan(3);
  });
  test("two files and the same file twice, the first without its last newline", async () => {
    const first = join(folder, "first.jsonl");
    const second = join(folder, "second.jsonl");
    writeFileSync(first, jsonl(call("call_a", '{"region":"apac"}')) + JSON.stringify(call("call_b", "{}")));
    writeFileSync(second, hostile);
    await expectSameBothWays(Buffer.alloc(0), { schema: salesSchema }, [first, second]);
    await expectSameBothWays(Buffer.alloc(0), { tools: salesTools }, [second, second, first]);
    await expectSameBothWays(Buffer.from(jsonl(call("call_c", "{}"))), { schema: salesSchema }, [first, "-", first]);
  }, 60_000);
  test("a file of long lines, which this thread splits, between files of short lines, which the worker splits, and the reverse", async () => {
    const long = join(folder, "long.jsonl");
    const short = join(folder, "short.jsonl");
    // Request bodies of over 512 bytes a line, then their calls; and loose calls of about 150.
    const body = (n: number) => ({ model: "m", input: [{ type: "message", role: "user", content: `sales report ${n} `.repeat(80) }], tools: [{ type: "function", name: "get_latest_sales_report", parameters: salesSchema }] });
    writeFileSync(long, Array.from({ length: 40 }, (_, n) => jsonl(body(n)) + jsonl(call(`call_l${n}`, n % 3 === 0 ? '{"region":"global"}' : '{"region":"apac"}'))).join("") + JSON.stringify(body(40)));
    writeFileSync(short, Array.from({ length: 60 }, (_, n) => jsonl(call(`call_s${n}`, n % 4 === 0 ? "{" : '{"region":"emea"}'))).join(""));
    for (const sources of [[short, long, short], [long, short, long]]) {
      const run = await expectSameBothWays(Buffer.alloc(0), { tools: salesTools, chunkBytes: 4_096 }, sources);
      expect(run.counts.blocked).toBeGreaterThan(20);
    }
  }, 60_000);
});

/** Values nested `depth` deep, written as JSON text. */
const deepArray = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
const deepSchema = (depth: number) => '{"items":'.repeat(depth) + "{}" + "}".repeat(depth);

/** Lines holding values too deep for a thread's serializer where the gate reads them, and where it does not. */
function deepLines(depth: number): string {
  return [
    `{"model":"m","input":[],"tools":[{"type":"function","name":"deep_${depth}","parameters":${deepSchema(depth)}}]}`,
    JSON.stringify(call(`call_d${depth}`, "[]", `deep_${depth}`)),
    `{"untyped":${deepObject(depth)}}`,
    `{"type":"function_call","id":"fc_a${depth}","call_id":"call_a${depth}","name":"get_latest_sales_report","status":"completed","arguments":${deepArray(depth)}}`,
    `{"type":"message","role":"user","content":[{"type":${deepArray(depth)}}]}`,
    `{"role":"assistant","content":null,"tool_calls":[{"id":"call_t${depth}","type":"function","function":{"name":"lookup","arguments":${deepObject(depth)}}}]}`,
    `{"type":"function_call","id":"fc_f${depth}","call_id":"call_f${depth}","name":"lookup","status":"completed","arguments":"{}","function":${deepObject(depth)}}`,
    JSON.stringify(call(`call_after${depth}`, '{"region":"apac"}')),
  ].join("\n") + "\n";
}

describe("values nested deeper than a thread's serializer takes", () => {
  // 900 levels are past what crosses between the threads as it is (CROSSING_DEPTH)
  // and within what the gate reads (MAX_RECORD_DEPTH).
  test("900 deep, with the tools of the journal's request bodies", async () => {
    const run = await expectSameBothWays(deepLines(900), { chunkBytes: 4096 });
    expect(run.counts).toEqual({ lines: 8, items: 7, errors: 0, blocked: 6 });
  }, 60_000);
  // 6,000 levels are past what the main thread's serializer takes (about 1,900
  // objects); 100,000 are past what any recursion does. Each line that deep is
  // an error on its line, and the request body among them allows no function after it.
  for (const depth of [6_000, 100_000]) {
    test(`${depth} deep, with the tools of the journal's request bodies`, async () => {
      const run = await expectSameBothWays(deepLines(depth), { chunkBytes: 4096 });
      expect(run.counts).toEqual({ lines: 8, items: 2, errors: 6, blocked: 8 });
    }, 60_000);
    test(`${depth} deep in a schema of the tools file`, async () => {
      const tools = JSON.parse(`[{"type":"function","name":"lookup","parameters":${deepSchema(depth)}}]`) as unknown;
      const run = await expectSameBothWays(jsonl(call("call_1", "{}", "lookup"), call("call_2", "[]", "lookup")), { tools });
      expect(run.counts).toEqual({ lines: 2, items: 2, errors: 0, blocked: 2 });
    }, 60_000);
  }
  // Between about 4,100 and 16,500 levels JSON.stringify writes an item in a
  // worker's default stack but not in the main thread's: a request that replays
  // such an item was taken for new in one thread and for a repeat in two. Both
  // requests are now past MAX_RECORD_DEPTH.
  for (const depth of [4_100, 8_000]) {
    test(`${depth} deep in the history a request replays: the same records`, async () => {
      const message = `{"type":"message","role":"user","content":[{"type":"input_text","text":"hi","extra":${deepObject(depth)}}]}`;
      const run = await expectSameBothWays(
        jsonl(`{"model":"m","input":[${message}]}`, `{"model":"m","input":[${message},{"type":"message","role":"user","content":"next"}]}`, call("call_1", '{"region":"apac"}')),
        { schema: salesSchema },
      );
      expect(run.counts.lines).toBe(3);
    }, 60_000);
  }
  test("900 deep, with one schema for every call", async () => {
    await expectSameBothWays(deepLines(900), { schema: salesSchema });
  }, 60_000);
  test("900 deep, items going whole for a replay target", async () => {
    await expectSameBothWays(deepLines(900), { tools: salesTools, target: "chat-completions" });
  }, 60_000);
});

describe("records nested past the depth the gate reads (MAX_RECORD_DEPTH)", () => {
  const toolUse = (depth: number) => `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"lookup","input":{"q":${deepObject(depth - 4)}}}]}`;
  // JSON.stringify of the input ran out of stack about 4,100 levels down, a few
  // levels sooner or later with the frames below it: near there one thread gave
  // the call and the other an error, and below it the call passed in both.
  test("an Anthropic tool_use whose input nests 2,000 deep is an error on its line, in one thread and in two", async () => {
    const run = await expectSameBothWays(jsonl(toolUse(2_000), call("call_2", "{}", "lookup")), { schema: true });
    expect(run.text.split("\n").slice(0, 1).map((line) => JSON.parse(line) as unknown)).toEqual([
      { line: 1, index: 0, reason: "error", detail: "not read: the record nests 2,000 levels deep, at /content/0/input/q/a/a/…, deeper than orbridge follows", blocked: true, findings: [] },
    ]);
  }, 60_000);
  // Read on, its line was written with JSON.stringify of the call_id, which ran out of stack: the run stopped with an internal error.
  test("a call whose call_id nests 6,000 deep is an error on its line", async () => {
    const run = await expectSameBothWays(jsonl(`{"type":"function_call","call_id":${deepArray(6_000)},"name":"lookup","status":"completed","arguments":"{}"}`), { schema: true });
    expect(run.text).toEqual(`${JSON.stringify({ line: 1, index: 0, reason: "error", detail: "not read: the record nests 6,001 levels deep, at /call_id/0/0/0/0/0/…, deeper than orbridge follows", blocked: true, findings: [] })}\n`);
  }, 60_000);
  test("one of 1,000 levels is read: its call passes", async () => {
    const run = await expectSameBothWays(jsonl(toolUse(1_000)), { schema: true });
    expect(run.text.split("\n").slice(0, 1).map((line) => JSON.parse(line) as unknown)).toEqual([
      { line: 1, index: 0, type: "function_call", call_id: "toolu_1", name: "lookup", reason: "ok", detail: "completed call with arguments valid for its schema", blocked: false, findings: [] },
    ]);
  }, 60_000);
  test("SSE data of 1,001 levels is an error on its line", async () => {
    const event = `{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","id":"fc_1","call_id":"call_1","name":"lookup","status":"completed","arguments":"{}","extra":${deepArray(999)}}}`;
    const run = await expectSameBothWays(`event: response.output_item.done\ndata: ${event}\n\n`, { schema: true });
    expect(run.text.split("\n").slice(0, 1).map((line) => JSON.parse(line) as unknown)).toEqual([
      { line: 1, index: 0, reason: "error", detail: "not read: the record nests 1,001 levels deep, at /item/extra/0/0/0/0/…, deeper than orbridge follows", blocked: true, findings: [] },
    ]);
  }, 60_000);
});

describe("a value as it crosses between the threads (deep-values)", () => {
  const deep = JSON.parse(`{"x":${deepObject(50_000)},"__proto__":{"polluted":true},"list":[1,"two",null,true]}`) as Record<string, unknown>;

  test("a shallow value crosses as it is", () => {
    const value = { type: "function_call", arguments: "{}" };
    expect(toCrossing(value)).toEqual({ value });
  });
  test("a deep value crosses flat and comes back equal, its own __proto__ key kept as a key", () => {
    const crossing = toCrossing(deep);
    expect("flat" in crossing).toBe(true);
    const back = fromCrossing(structuredClone(crossing)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(["x", "__proto__", "list"]);
    expect(back.list).toEqual([1, "two", null, true]);
    expect(deeperThan(back.x, 49_999)).toBe(true);
    expect(deeperThan(back.x, 50_000)).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  test("only the deep values of an array are shelved, and put back in their places", () => {
    const values: unknown[] = [1, deep, "x", { shallow: [1] }, deep];
    const shelved = structuredClone(shelveDeepValues(values));
    expect(values).toEqual([1, null, "x", { shallow: [1] }, null]);
    expect(shelved.map(({ at }) => at)).toEqual([1, 4]);
    restoreShelved(values, shelved);
    expect(Object.keys(values[4] as object)).toEqual(["x", "__proto__", "list"]);
  });
  test("a shared container stays shared, and a cycle is no trouble", () => {
    const shared = { leaf: 1 };
    const cyclic: Record<string, unknown> = { left: shared, right: shared };
    cyclic.self = cyclic;
    expect(deeperThan(cyclic, CROSSING_DEPTH)).toBe(true);
    const back = fromCrossing({ flat: flatten(cyclic) }) as Record<string, unknown>;
    expect(back.left).toBe(back.right);
    expect(back.self).toBe(back);
  });
});

describe("a generated journal of every kind of record", () => {
  test("2,000 lines with 20 tools", async () => {
    const path = join(folder, "generated.jsonl");
    await writeJournal(path, 2_000);
    const run = await expectSameBothWays(readFileSync(path), { tools: JSON.parse(toolsFileContent()), chunkBytes: 10_000 });
    expect(run.counts.blocked).toBeGreaterThan(0);
    expect(run.counts.items).toBeGreaterThan(1_500);
  }, 60_000);
});

/** A generated journal over the threshold, with the bench's tools: written once, for the tests below. */
let largeJournal: Promise<{ path: string; tools: string }> | undefined;
function large(): Promise<{ path: string; tools: string }> {
  largeJournal ??= (async () => {
    const path = join(folder, "large.jsonl");
    await writeJournal(path, 6_000);
    const tools = join(folder, "tools.json");
    writeFileSync(tools, toolsFileContent());
    return { path, tools };
  })();
  return largeJournal;
}

describe("when a second thread is used", () => {
  test("from 4 MiB of journal on, whatever the source; below it, or with one job, never", async () => {
    const whole = readFileSync((await large()).path);
    const small = whole.subarray(0, whole.indexOf(0x0a, WORKER_MIN_BYTES - 100_000) + 1);
    const threadsFor = async (stdin: Buffer, jobs: number) => {
      const io = { stdin: Readable.from([stdin]), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
      const seen = new Set<number>();
      for await (const batch of gatedBatches(["-"], io, { jobs, read: {}, normalize: {}, gate: { schema: true, omitSource: true }, format: "json", colour: false })) seen.add(batch.threads);
      return [...seen];
    };
    expect(whole.length).toBeGreaterThan(WORKER_MIN_BYTES);
    expect(await threadsFor(whole, 2)).toEqual([2]);
    expect(await threadsFor(whole, 8)).toEqual([2]);
    expect(await threadsFor(whole, 1)).toEqual([1]);
    expect(await threadsFor(small, 2)).toEqual([1]);
  }, 60_000);
});

describe("the built command", () => {
  // Built apart from dist/, which another test file rebuilds while this one runs;
  // inside node_modules, so that the build finds the dependencies.
  const build = join(process.cwd(), "node_modules/.cache/orbridge-gate-jobs-build");
  beforeAll(() => {
    rmSync(build, { recursive: true, force: true });
    const tsc = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json", "--outDir", build], { encoding: "utf8" });
    if (!existsSync(join(build, "src/cli/gate-worker.js"))) throw new Error(`the build failed: ${tsc.stdout}${tsc.stderr}`);
  }, 120_000);
  afterAll(() => rmSync(build, { recursive: true, force: true }));

  test("starts its worker from the compiled files and writes what one thread writes", async () => {
    const { path, tools } = await large();
    const run = (jobs: string) => spawnSync(process.execPath, [join(build, "src/cli/main.js"), "gate", "--jobs", jobs, "--tools", tools, "--format", "json", path], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    const one = run("1");
    const two = run("2");
    expect(one.status).toBe(1);
    expect({ status: two.status, stdout: two.stdout, stderr: two.stderr }).toEqual({ status: one.status, stdout: one.stdout, stderr: one.stderr });
  }, 60_000);
  test("a journal over the threshold with values nested 100,000 deep: one verdict per line with 1 and 2 jobs", async () => {
    const { path, tools } = await large();
    const deep = join(folder, "large-deep.jsonl");
    writeFileSync(deep, Buffer.concat([readFileSync(path), Buffer.from(deepLines(6_000) + deepLines(100_000))]));
    const run = (jobs: string) => spawnSync(process.execPath, [join(build, "src/cli/main.js"), "gate", "--jobs", jobs, "--tools", tools, "--format", "json", deep], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    const one = run("1");
    const two = run("2");
    expect(one.status).toBe(1);
    expect(one.stderr).toMatch(/^read \d+ lines: \d+ items, 12 errors; \d+ blocked\n(  (blocked by|findings): .*\n)*$/);
    expect({ status: two.status, stdout: two.stdout, stderr: two.stderr }).toEqual({ status: one.status, stdout: one.stdout, stderr: one.stderr });
  }, 120_000);
});

describe("orbridge gate --jobs", () => {
  test("a journal over the threshold gives the same output with 1 and 2 jobs", async () => {
    const { path, tools } = await large();
    const one = await runOrbridge(["gate", "--jobs", "1", "--tools", tools, "--format", "json", path]);
    const two = await runOrbridge(["gate", "--jobs", "2", "--tools", tools, "--format", "json", path]);
    expect(one.code).toBe(1);
    expect(two).toEqual(one);
  }, 60_000);
  test.each(["0", "-1", "two", "1.5", ""])("--jobs %j is a usage error", async (value) => {
    const run = await runOrbridge(["gate", "--jobs", value, "--schema", "golden/examples/sales-report.schema.json", "golden/examples/sales-report.jsonl"]);
    expect(run).toEqual({ code: 2, stdout: "", stderr: `orbridge gate: --jobs must be a positive whole number of threads (got "${value}")\n` });
  });
});

describe("an input that fails partway", () => {
  // What one thread writes before the failure, two write too: the lines of every chunk read, then the failure.
  const journal = Array.from({ length: 4_000 }, (_, i) => jsonl(call(`call_${i}`, i % 3 === 0 ? '{"region":"global"}' : '{"region":"apac"}'))).join("");
  const whole = gzipSync(Buffer.from(journal), { level: 1 });
  const cut = join(folder, "cut.jsonl.gz");
  writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));

  async function gateUntilFailure(jobs: 1 | 2, workerMinBytes: number): Promise<{ text: string; failure: string }> {
    const io = { stdin: Readable.from([]), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
    const options: GateJobsOptions = { jobs, read: {}, normalize: {}, gate: { schema: salesSchema, omitSource: true }, format: "json", colour: false, workerMinBytes };
    let text = "";
    try {
      for await (const batch of gatedBatches([cut], io, options)) text += batch.text;
    } catch (error) {
      return { text, failure: (error as Error).message };
    }
    return { text, failure: "none" };
  }

  test.each([
    ["while read ahead, before a worker starts", 1 << 24],
    ["after the worker started", 0],
  ])("%s: two threads write what one writes, and fail alike", async (_, workerMinBytes) => {
    const one = await gateUntilFailure(1, workerMinBytes);
    const two = await gateUntilFailure(2, workerMinBytes);
    expect(one.failure).toMatch(/^cannot read .*cut\.jsonl\.gz: /);
    // The lines read before the cut are gated and written, alike; zlib's last output before the failure comes or not with timing, so one may hold a chunk's lines more.
    expect(two.failure).toBe(one.failure);
    expect(one.text.trimEnd().split("\n").length).toBeGreaterThan(1_000);
    expect(two.text.trimEnd().split("\n").length).toBeGreaterThan(1_000);
    expect(one.text.startsWith(two.text) || two.text.startsWith(one.text)).toBe(true);
  });
});

describe("a worker that fails", () => {
  // The journal says when the stand-in worker fails (test/support/failing-gate-worker.mjs).
  const workerModule = new URL("../support/failing-gate-worker.mjs", import.meta.url);
  async function gateWithFailingWorker(pieces: string[]): Promise<number> {
    const io = { stdin: Readable.from(pieces.map((piece) => Buffer.from(piece))), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
    let batches = 0;
    // A stack deeper than this thread's, so that the stand-in can send a value this thread cannot read.
    const options: GateJobsOptions = { jobs: 2, read: {}, normalize: {}, gate: { schema: true, omitSource: true }, format: "json", colour: false, workerMinBytes: 0, workerModule, workerStackMb: 4 };
    for await (const batch of gatedBatches(["-"], io, options)) batches += batch.threads === 2 ? 1 : 0;
    return batches;
  }

  test("with an error: the gate fails with it, and never ends the journal as if it were whole", async () => {
    await expect(gateWithFailingWorker([jsonl(call("call_1", "{}")), "THROW\n", jsonl(call("call_2", "{}"))])).rejects.toThrow("the gate's worker thread failed: the normalizer broke");
  });

  test("with an answer this thread cannot read: the gate fails, saying so, rather than wait for it", async () => {
    const pieces = [jsonl(call("call_1", "{}")), "UNREADABLE\n", jsonl(call("call_2", "{}")), jsonl(call("call_3", "{}"))];
    await expect(gateWithFailingWorker(pieces)).rejects.toThrow("an answer of the gate's worker thread could not be read");
  });

  test("by exiting: the gate fails, saying so", async () => {
    await expect(gateWithFailingWorker([jsonl(call("call_1", "{}")), "EXIT\n"])).rejects.toThrow("the gate's worker thread stopped (exit code 3) before the journal's end");
  });
});
