// Records, items and schemas a library caller builds in code are judged as the
// JSON text they write, which is what a replayer sends: an object cannot show
// the gate one thing and the replayer another, and what JSON cannot write is
// refused, never read as something looser.
import { Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { diffJournals, diffJournalsAsync, gateJournal, JournalGate, normalizeJournal, readLines, replayGate, SchemaCache, ToolRegistry } from "../src/index.js";

const strict = { type: "object", additionalProperties: false, required: ["region"], properties: { region: { type: "string", enum: ["apac"] } } };
const call = (fields: Record<string, unknown> = {}) => ({ type: "function_call", call_id: "call_1", name: "get_report", status: "completed", arguments: '{"region":"apac"}', ...fields });

async function verdicts(records: unknown[], registry = ToolRegistry.fromToolsFile([{ type: "function", name: "get_report", parameters: strict }], "tools")) {
  const out: Array<{ line: number; reason: string; blocked: boolean }> = [];
  for await (const record of gateJournal(records, { registry })) out.push({ line: record.line, reason: record.reason, blocked: record.blocked });
  return out;
}

describe("an item built in code, to replayGate", () => {
  test("a getter is read once: a status that says completed to the first read and in_progress after is judged completed, as its JSON text says", () => {
    let reads = 0;
    const item = { ...call(), get status() { return reads++ === 0 ? "completed" : "in_progress"; } };
    expect(replayGate(item, strict).reason).toBe("ok");
    expect(reads).toBe(1);
  });

  test("arguments that change after the first read are judged as first read, once", () => {
    let reads = 0;
    const item = { ...call(), get arguments() { return reads++ === 0 ? '{"region":"global"}' : '{"region":"apac"}'; } };
    expect(replayGate(item, strict).reason).toBe("arguments_schema");
    expect(reads).toBe(1);
  });

  test("a member JSON text leaves out is not there: a type that is not enumerable, or inherited", () => {
    const hidden = call();
    Object.defineProperty(hidden, "type", { value: "function_call", enumerable: false });
    const inherited = Object.create({ status: "completed" }) as Record<string, unknown>;
    Object.assign(inherited, call(), { status: undefined });
    expect([replayGate(hidden, strict).reason, replayGate(inherited, strict).reason]).toEqual(["namespaced", "status"]);
  });

  test("a toJSON speaks for the item, as it does to the replayer", () => {
    const item = { ...call(), toJSON: () => call({ arguments: '{"region":"global"}' }) };
    expect(replayGate(item, strict).reason).toBe("arguments_schema");
  });

  test("an item that cannot be written as JSON is blocked, saying why", () => {
    const cyclic: Record<string, unknown> = call();
    cyclic.self = cyclic;
    const big = call({ extra: 10n });
    expect([replayGate(cyclic, strict), replayGate(big, strict)].map((verdict) => [verdict.reason, verdict.detail.startsWith("the record cannot be written as JSON: ")])).toEqual([
      ["namespaced", true],
      ["namespaced", true],
    ]);
  });

  test("a toJSON that throws a stack overflow once does not get the live item judged", async () => {
    let thrown = false;
    const item = {
      ...call(),
      toJSON() {
        if (!thrown) {
          thrown = true;
          throw new RangeError("Maximum call stack size exceeded");
        }
        return call({ status: "in_progress" });
      },
    };
    expect(replayGate(item, strict).reason).toBe("namespaced");
    thrown = false;
    expect(await verdicts([item])).toEqual([{ line: 1, reason: "error", blocked: true }]);
  });

  test("an assertFormats that is not a boolean is a TypeError, not format checks turned off", () => {
    const dated = { type: "object", properties: { d: { type: "string", format: "date" } } };
    expect(replayGate(call({ arguments: '{"d":"tomorrow"}' }), dated, { assertFormats: true }).reason).toBe("arguments_schema");
    expect(() => replayGate(call(), dated, { assertFormats: "true" as unknown as boolean })).toThrow(TypeError);
    expect(() => new SchemaCache(undefined, { assertFormats: 1 as unknown as boolean })).toThrow(TypeError);
  });
});

describe("a schema built in code", () => {
  const strictAs = {
    "a Map": new Map(Object.entries(strict)),
    "a String object": new String(JSON.stringify(strict)),
    "an object made from the schema": Object.create(strict) as object,
    "a schema with a getter": Object.defineProperty({ ...strict }, "additionalProperties", { get: () => false, enumerable: true }),
    "a schema with a member not enumerable": Object.defineProperty({ type: "object", required: ["region"] }, "properties", { value: strict.properties, enumerable: false }),
    "a NaN bound": { type: "object", properties: { n: { type: "number", maximum: Number.NaN } } },
    "an Infinity bound": { type: "object", properties: { n: { type: "number", minimum: -Infinity } } },
    "an array with a hole": { type: "object", required: ["region", , "x"] },
  };

  test.each(Object.entries(strictAs))("%s is refused: the call is blocked, never judged by a looser reading", (_name, schema) => {
    const verdict = replayGate(call({ arguments: '{"region":"global","n":-5}' }), schema as never);
    expect(verdict.reason).toBe("arguments_schema");
    expect(verdict.detail).toMatch(/^tool schema is refused: /);
  });

  test("the same schema as plain data is judged as usual", () => {
    expect([replayGate(call(), structuredClone(strict)).reason, replayGate(call({ arguments: '{"region":"global"}' }), structuredClone(strict)).reason]).toEqual(["ok", "arguments_schema"]);
  });

  test("a Proxy that shows a bound to the compiler and hides it after is judged by the schema compiled: a number past a double blocks", () => {
    let written = false;
    const bound = new Proxy({ type: "number", maximum: 9007199254740992 }, {
      getOwnPropertyDescriptor: (target, key) => (key === "maximum" && written ? undefined : Reflect.getOwnPropertyDescriptor(target, key)),
      get: (target, key) => {
        written ||= key === "maximum" && new Error().stack!.includes("JSON.stringify");
        return Reflect.get(target, key);
      },
    });
    expect(replayGate(call({ arguments: '{"n":9007199254740993}' }), { type: "object", properties: { n: bound } }).reason).toBe("arguments_schema");
  });

  test("a Proxy that hides a property from the first reads and shows it to the compiler has its name's folded twin blocked", () => {
    let reads = 0;
    const properties = new Proxy({ region: { type: "string", enum: ["apac"] } }, {
      ownKeys: (target) => (reads++ === 0 ? [] : Reflect.ownKeys(target)),
    });
    expect(replayGate(call({ arguments: '{"region":"apac","Region":"global"}' }), { type: "object", properties }).reason).toBe("arguments_parse");
  });

  test("in a tools array it blocks the calls of its tool", async () => {
    const registry = ToolRegistry.fromToolsFile([{ type: "function", name: "get_report", parameters: new Map(Object.entries(strict)) }], "tools");
    expect(await verdicts([call({ arguments: '{"region":"global","x":1}' })], registry)).toEqual([{ line: 1, reason: "arguments_schema", blocked: true }]);
  });
});

describe("records built in code, to gateJournal", () => {
  test("a name that answers one tool to the first reads and another after is judged as its JSON text writes it", async () => {
    let reads = 0;
    const record = { ...call({ arguments: '{"region":"global"}' }), get name() { return reads++ < 3 ? "lookup" : "get_report"; } };
    const registry = ToolRegistry.fromToolsFile([{ type: "function", name: "lookup", parameters: {} }, { type: "function", name: "get_report", parameters: strict }], "tools");
    const [verdict] = await verdicts([record], registry);
    expect(verdict).toEqual({ line: 1, reason: "ok", blocked: false });
    expect(reads).toBe(1);
  });

  test("a record that holds itself, or a shared subtree whose text passes the bound, is an error on its line, and the next record is gated, allowed no function since the record may have been a request body", async () => {
    const cyclic: Record<string, unknown> = call();
    cyclic.self = cyclic;
    let shared: Record<string, unknown> = { leaf: 1 };
    for (let level = 0; level < 30; level += 1) shared = { a: shared, b: shared };
    expect(await verdicts([cyclic, call({ extra: shared }), call({ call_id: "call_2" })])).toEqual([
      { line: 1, reason: "error", blocked: true },
      { line: 2, reason: "error", blocked: true },
      { line: 3, reason: "ok", blocked: true },
    ]);
  });

  test("a hole in a response's output is the null its JSON text writes, blocked as on the command line, not a crash", async () => {
    const output: unknown[] = [];
    output[1] = call();
    const response = { id: "resp_1", object: "response", status: "completed", output };
    expect(await verdicts([response, call({ call_id: "call_2" })])).toEqual([
      { line: 1, reason: "namespaced", blocked: true },
      { line: 1, reason: "ok", blocked: false },
      { line: 2, reason: "ok", blocked: false },
    ]);
  });
});

describe("lines and records, to gateJournal and normalizeJournal", () => {
  const wrapped = { source: "svc", line: 7, text: JSON.stringify(call({ arguments: '{"region":"global"}' })) };

  test("a record with the members of a line (source, line, text) is a record, blocked as the command line blocks it, and its text is not judged in its place", async () => {
    expect(await verdicts([wrapped])).toEqual([{ line: 1, reason: "namespaced", blocked: true }]);
    const normalized: unknown[] = [];
    for await (const record of normalizeJournal([wrapped])) normalized.push(record.kind === "error" ? { error: record.line } : record.items);
    expect(normalized).toEqual([{ error: 1 }]);
  });

  test("a line readLines could not read, which may have been a request body, allows no function after it, as on the command line", async () => {
    const body = Buffer.concat([Buffer.from('{"model":"m","tools":[{"type":"function","name":"get_report","parameters":{}}],"tool_choice":"none","input":"hi '), Buffer.from([0x81]), Buffer.from('"}\n')]);
    const lines = readLines("journal.jsonl", Readable.from([body, Buffer.from(`${JSON.stringify(call())}\n`)]));
    const out: Array<{ line: number; reason: string; blocked: boolean; findings: string[] }> = [];
    for await (const record of gateJournal(lines, { registry: ToolRegistry.fromToolsFile([{ type: "function", name: "get_report", parameters: strict }], "tools") })) {
      out.push({ line: record.line, reason: record.reason, blocked: record.blocked, findings: record.findings.map((finding) => finding.code) });
    }
    expect(out).toEqual([
      { line: 1, reason: "error", blocked: true, findings: [] },
      { line: 2, reason: "ok", blocked: true, findings: ["tool_not_allowed"] },
    ]);
  });

  test("the lines readLines gave are lines, wherever they come in the input", async () => {
    const lines: unknown[] = [];
    for await (const line of readLines("a.jsonl", Readable.from([`${JSON.stringify(call())}\n`]))) lines.push(line);
    expect(await verdicts([...lines, call({ call_id: "call_2" })])).toEqual([
      { line: 1, reason: "ok", blocked: false },
      { line: 2, reason: "ok", blocked: false },
    ]);
  });
});

describe("items built in code, to JournalGate", () => {
  const registry = () => ToolRegistry.fromToolsFile([{ type: "function", name: "get_report", parameters: strict }], "tools");
  const provenance = (line: number) => ({ line, index: 0, envelope: "responses" as const });

  test("a toJSON speaks for each item, as it does to the replayer: the output answers the call its text names, and a call is judged by its text's arguments", () => {
    const gate = new JournalGate({ registry: registry() });
    const output = { type: "function_call_output", call_id: "call_ok", output: "done", toJSON: () => ({ type: "function_call_output", call_id: "call_bad", output: "done" }) };
    const sneaky = { ...call({ call_id: "call_x" }), toJSON: () => call({ call_id: "call_x", arguments: '{"region":"global"}' }) };
    const records = [
      ...gate.push({ line: 1, items: [{ item: call({ call_id: "call_ok" }), provenance: provenance(1) }] }),
      ...gate.push({ line: 2, items: [{ item: call({ call_id: "call_bad", arguments: '{"region":"global"}' }), provenance: provenance(2) }] }),
      ...gate.push({ line: 3, items: [{ item: output as never, provenance: provenance(3) }] }),
      ...gate.push({ line: 4, items: [{ item: sneaky as never, provenance: provenance(4) }] }),
      ...gate.finish(),
    ];
    expect(records.map((record) => [record.line, record.call_id, record.reason, record.blocked, record.findings.map((finding) => finding.code)])).toEqual([
      [1, "call_ok", "ok", false, []],
      [2, "call_bad", "arguments_schema", true, []],
      [3, "call_bad", "not_function_call", true, ["output_for_blocked_call"]],
      [4, "call_x", "arguments_schema", true, ["missing_output"]],
    ]);
  });

  test("a record that cannot be written as JSON is an error on its line", () => {
    const gate = new JournalGate({ registry: registry() });
    const item: Record<string, unknown> = call();
    item.self = item;
    const [record] = gate.push({ line: 7, items: [{ item: item as never, provenance: provenance(7) }] });
    expect(record).toMatchObject({ line: 7, reason: "error", blocked: true });
    expect(record!.detail).toContain("cannot be written as JSON");
  });
});

describe("a tools file as text", () => {
  test("a name given twice, or a bound a double reads as another number, throws as gate --tools refuses it", () => {
    const twice = '[{"type":"function","name":"get_report","parameters":{"type":"object","additionalProperties":false,"additionalProperties":true}}]';
    const inexact = '[{"type":"function","name":"get_report","parameters":{"type":"number","maximum":0.29999999999999999}}]';
    expect(() => ToolRegistry.fromToolsText(twice, "tools.json")).toThrow(/additionalProperties/);
    expect(() => ToolRegistry.fromToolsText(inexact, "tools.json")).toThrow(/0\.29999999999999999/);
    expect(ToolRegistry.fromToolsText(JSON.stringify([{ type: "function", name: "get_report", parameters: strict }]), "tools.json").names()).toEqual(["get_report"]);
  });
});

describe("journal items built in code, to diffJournals", () => {
  const place = (line: number) => ({ line, index: 0, envelope: "responses" as const });
  test("an item that holds itself, or a shared subtree past the bound, is a TypeError that names its line, not a hang", async () => {
    const cyclic: Record<string, unknown> = call();
    cyclic.self = cyclic;
    let shared: Record<string, unknown> = { leaf: 1 };
    for (let level = 0; level < 30; level += 1) shared = { a: shared, b: shared };
    expect(() => diffJournals([{ item: call() as never, provenance: place(1) }], [{ item: cyclic as never, provenance: place(7) }])).toThrow(/^the replay item of line 7: the record cannot be written as JSON: /);
    await expect(diffJournalsAsync([{ item: call({ extra: shared }) as never, provenance: place(2) }], [])).rejects.toThrow(/^the origin item of line 2: .*10,000,000 JSON values/);
  });

  test("a raw item where a journal item is expected is a TypeError that says what was expected", () => {
    expect(() => diffJournals([call() as never], [])).toThrow(/where a journal item \(\{ item, provenance \}, as normalizeJournal gives them\) was expected/);
  });

  test("a getter is read once: the item is compared as its JSON text writes it", () => {
    let reads = 0;
    const changing = { ...call(), get arguments() { return reads++ === 0 ? '{"region":"apac"}' : '{"region":"global"}'; } };
    expect(diffJournals([{ item: call() as never, provenance: place(1) }], [{ item: changing as never, provenance: place(1) }])).toEqual([]);
    expect(reads).toBe(1);
  });
});
