// Records cross between the gate's threads as flat arrays of views. Gating what
// arrives must give what gating the records themselves gives, and the schema
// table on each side must stay bounded without losing a schema an item needs.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { PreparedGate, type PreparedRecord } from "../../src/gate/gate-journal.js";
import type { ToolSchema } from "../../src/gate/schema.js";
import { replayGate } from "../../src/gate/replay-gate.js";
import { RecordDecoder, RecordEncoder, VIEW_FIELDS, type TransferredRecord } from "../../src/gate/transfer-records.js";
import type { Provenance } from "../../src/models/journal-item.js";

const SOURCES = ["a.jsonl", "-"];

/** Encodes each batch, copies it as a thread would (structured clone), and decodes it. */
function across(batches: readonly PreparedRecord[][], options: { wholeItems?: boolean; schemaLimit?: number } = {}) {
  const encoder = new RecordEncoder(SOURCES, options.wholeItems ?? false, options.schemaLimit);
  const decoder = new RecordDecoder(SOURCES);
  return batches.map((batch) => {
    for (const record of batch) encoder.add(record);
    const transfer = structuredClone(encoder.take());
    return { transfer, records: decoder.decode(transfer) };
  });
}

function gateAll(records: readonly PreparedRecord[]) {
  const gate = new PreparedGate();
  return [...records.flatMap((record) => gate.push(record)), ...gate.finish()];
}

const provenance = (line: number, index: number, response?: Provenance["response"]): Provenance => ({ source: "a.jsonl", line, index, envelope: "responses", ...(response ? { response } : {}) });

describe("a record after the crossing", () => {
  test("keeps only what the gate reads of an item with a string type", () => {
    const item = { type: "function_call", id: "fc_1", call_id: "call_1", name: "f", status: "completed", arguments: "{}", extra: { big: "x".repeat(100) }, content: [{ type: "image_url", image_url: "u" }, "text"] };
    const [{ records }] = across([[{ source: "a.jsonl", line: 3, items: [{ item, provenance: provenance(3, 0), schema: true, notAllowed: null }] }]]);
    expect(records).toEqual([
      {
        kind: "items",
        source: "a.jsonl",
        line: 3,
        items: [
          {
            item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "f", status: "completed", arguments: "{}", content: [{ type: "image_url" }, { type: undefined }] },
            provenance: provenance(3, 0),
            schema: true,
            notAllowed: null,
          },
        ],
      },
    ] satisfies TransferredRecord[]);
  });
  test("keeps a record's error lines and request errors in their places", () => {
    const encoder = new RecordEncoder(SOURCES, false);
    encoder.addError("-", 1, "line is not JSON");
    encoder.add({ source: "-", line: 2, recordError: "line 2: tools is not an array", items: [] });
    encoder.addError(undefined, 3, "no source");
    expect(new RecordDecoder(SOURCES).decode(structuredClone(encoder.take()))).toEqual([
      { kind: "error", source: "-", line: 1, detail: "line is not JSON" },
      { kind: "items", source: "-", line: 2, recordError: "line 2: tools is not an array", items: [] },
      { kind: "error", line: 3, detail: "no source" },
    ]);
  });
  test("keeps the calls of the choices a replay did not continue, with or without a request error, and the gate then waits for no output of theirs", () => {
    const call = (callId: string) => ({ type: "function_call", call_id: callId, name: "f", status: "completed", arguments: "{}" });
    const records: PreparedRecord[] = [
      { source: "-", line: 1, items: [{ item: call("call_a"), provenance: provenance(1, 0) }, { item: call("call_b"), provenance: provenance(1, 1) }] },
      { source: "-", line: 2, recordError: "line 2: tools is not an array", callsOfOtherAnswers: ["call_a"], items: [] },
      { source: "-", line: 3, callsOfOtherAnswers: ["call_b"], items: [{ item: { type: "message", role: "user", content: "next" }, provenance: provenance(3, 0) }] },
    ];
    const [{ records: crossed }] = across([records]);
    expect(crossed.map((record) => (record.kind === "items" ? [record.line, record.recordError, record.callsOfOtherAnswers] : record))).toEqual([
      [1, undefined, undefined],
      [2, "line 2: tools is not an array", ["call_a"]],
      [3, undefined, ["call_b"]],
    ]);
    const gated = gateAll(crossed.map((record) => record as PreparedRecord));
    expect(gated).toEqual(gateAll(records));
    expect(gated.flatMap((record) => record.findings)).toEqual([]);
  });

  test("sends items whole when asked, and items without a string type always", () => {
    const typed = { type: "message", role: "user", content: "hi", extra: 1 };
    const untyped = { id: "msg_1" };
    const [{ records }] = across([[{ line: 1, items: [{ item: typed, provenance: provenance(1, 0) }] }, { line: 2, items: [{ item: untyped, provenance: provenance(2, 0) }] }]], { wholeItems: true });
    expect(records.flatMap((record) => (record.kind === "items" ? record.items.map((entry) => entry.item) : []))).toEqual([typed, untyped]);
    const [{ records: cut }] = across([[{ line: 2, items: [{ item: untyped, provenance: provenance(2, 0) }] }]]);
    expect(cut[0].kind === "items" && cut[0].items[0].item).toEqual(untyped);
  });

  test("sends whole an item whose Gemini parts or content parts hold a call by member, and the checks block it as they do before the crossing", () => {
    const geminiCall = { type: "message", role: "model", parts: [{ functionCall: { name: "f", args: { region: "global" } } }] };
    const bedrockCall = { type: "message", role: "assistant", content: [{ toolUse: { toolUseId: "tu1", name: "f", input: { region: "global" } } }] };
    const records: PreparedRecord[] = [
      { source: "a.jsonl", line: 1, items: [{ item: geminiCall, provenance: provenance(1, 0) }] },
      { source: "a.jsonl", line: 2, items: [{ item: bedrockCall, provenance: provenance(2, 0) }] },
    ];
    const [{ records: crossed }] = across([records]);
    expect(crossed.flatMap((record) => (record.kind === "items" ? record.items.map((entry) => entry.item) : []))).toEqual([geminiCall, bedrockCall]);
    const direct = gateAll(records);
    expect(direct.map((record) => [record.line, record.blocked, record.findings.map((finding) => finding.code)])).toEqual([
      [1, true, ["mixed_envelope"]],
      [2, true, ["mixed_envelope"]],
    ]);
    expect(gateAll(crossed.filter((record) => record.kind === "items"))).toEqual(direct);
  });
});

describe("what the verdict reads of an item", () => {
  // Calls that take each branch of replayGate, each with a field a careless view would leave behind.
  const calls = [
    { type: "function_call", id: "fc_1", call_id: "call_1", name: "f", status: "completed", arguments: '{"region":"apac"}', parsed_arguments: { region: "global" } },
    { type: "function_call", id: "fc_2", call_id: "call_2", name: "f", status: "completed", arguments: '{"id":9007199254740993}', parsed_arguments: { id: 9007199254740992 } },
    { type: "function_call", id: "fc_3", call_id: "call_3", name: "lookup", namespace: "crm", status: "completed", arguments: "{}" },
    { type: "function_call", id: "fc_4", call_id: "call_4", name: "f", status: "in_progress", arguments: "{" },
  ];

  test("is every field of it the crossing keeps", () => {
    const read = new Set<string>();
    const watched = (item: object) =>
      new Proxy(item, {
        get: (target, key, receiver) => (read.add(String(key)), Reflect.get(target, key, receiver)),
        has: (target, key) => (read.add(String(key)), Reflect.has(target, key)),
      });
    for (const call of calls) {
      replayGate(watched(call), { type: "object" });
      replayGate(watched(call), undefined);
    }
    expect([...read].filter((key) => !(VIEW_FIELDS as readonly string[]).includes(key))).toEqual([]);
  });

  test("is the same after the crossing, with and without a schema", () => {
    for (const schema of [{ type: "object" }, undefined]) {
      const records: PreparedRecord[] = calls.map((item, index) => ({ source: "a.jsonl", line: index + 1, items: [{ item, provenance: provenance(index + 1, 0), ...(schema ? { schema } : {}), notAllowed: null }] }));
      const direct = gateAll(records);
      expect(direct.map((record) => record.reason)).toEqual(schema ? ["arguments_parse", "arguments_parse", "ok", "status"] : ["arguments_parse", "arguments_parse", "unknown_tool", "status"]);
      const [{ records: crossed }] = across([records]);
      expect(gateAll(crossed.filter((record) => record.kind === "items"))).toEqual(direct);
    }
  });
});

describe("the schema table", () => {
  const schemas: ToolSchema[] = ["a", "b", "c"].map((name) => ({ type: "object", required: [name] }));
  const callTo = (line: number, schema: ToolSchema): PreparedRecord => ({
    line,
    items: [{ item: { type: "function_call", call_id: `call_${line}`, name: "f", status: "completed", arguments: "{}" }, provenance: provenance(line, 0), schema }],
  });
  test("sends each schema once while both sides remember it, and again once forgotten", () => {
    // Limit 2: a, b, a (known), c (b forgotten), b (sent again, a forgotten).
    const batches = across([[callTo(1, schemas[0]), callTo(2, schemas[1])], [callTo(3, structuredClone(schemas[0]))], [callTo(4, schemas[2]), callTo(5, schemas[1])]], { schemaLimit: 2 });
    expect(batches.map(({ transfer }) => ({ sent: transfer.schemas.map(([, schema]) => schema), forget: transfer.forget }))).toEqual([
      { sent: [schemas[0], schemas[1]], forget: [] },
      { sent: [], forget: [] },
      { sent: [schemas[2], schemas[1]], forget: [1, 0] },
    ]);
    const received = batches.flatMap(({ records }) => records.map((record) => (record.kind === "items" ? record.items[0].schema : undefined)));
    expect(received).toEqual([schemas[0], schemas[1], schemas[0], schemas[2], schemas[1]]);
  });
  test("an item that refers to a schema never sent is refused, not gated without it", () => {
    const encoder = new RecordEncoder(SOURCES, false);
    encoder.add(callTo(1, schemas[0]));
    const transfer = encoder.take();
    expect(() => new RecordDecoder(SOURCES).decode({ ...transfer, schemas: [] })).toThrow("an item refers to a tool schema that was not sent");
  });
});

describe("gating after the crossing", () => {
  const text = fc.constantFrom("call_1", "call_2", "fc_1", "msg_1", "", "__fake_id__", "chatcmpl-1");
  const field = fc.oneof(text, fc.anything({ maxDepth: 1 }));
  const item = fc.oneof(
    fc.record(
      {
        type: fc.oneof(fc.constantFrom("function_call", "function_call_output", "message", "reasoning", "item_reference", "openai:function_call", "compaction", "other"), field),
        id: field,
        call_id: text,
        name: fc.oneof(fc.constantFrom("f", "g"), field),
        role: fc.oneof(fc.constantFrom("user", "assistant", "tool"), field),
        status: fc.oneof(fc.constantFrom("completed", "incomplete", "in_progress"), field),
        arguments: fc.oneof(fc.constantFrom("{}", '{"q":"x"}', "{", ""), field),
        content: fc.oneof(fc.array(fc.oneof(fc.record({ type: fc.constantFrom("image_url", "input_text", "file") }), field), { maxLength: 3 }), field),
        tool_calls: field,
        function: field,
        output: field,
      },
      { requiredKeys: [] },
    ),
    fc.anything({ maxDepth: 2 }),
  );
  const response = fc.option(fc.record({ id: fc.option(fc.constantFrom("resp_1", "resp_2"), { nil: undefined }), status: fc.option(fc.constantFrom("completed", "incomplete"), { nil: undefined }) }), { nil: undefined });
  const schema = fc.option(fc.constantFrom<ToolSchema>(true, false, { type: "object", required: ["q"] }, { type: "object", properties: { q: { pattern: "^x$" } } }), { nil: undefined });
  const notAllowed = fc.option(fc.oneof(fc.constant(null), fc.constant("tool_choice of line 1 allows only \"g\"")), { nil: undefined });
  const records = fc.array(
    fc.record({ items: fc.array(fc.record({ item, response, schema, notAllowed }), { maxLength: 4 }), recordError: fc.option(fc.constant("line 1: tools is not an array"), { nil: undefined }) }),
    { maxLength: 12 },
  );

  test("gives the same verdicts and findings as gating the records themselves", () => {
    fc.assert(
      fc.property(records, fc.integer({ min: 1, max: 5 }), (generated, perBatch) => {
        const prepared: PreparedRecord[] = generated.map((record, line) => ({
          source: "a.jsonl",
          line: line + 1,
          ...(record.recordError ? { recordError: record.recordError } : {}),
          items: record.items.map((entry, index) => ({
            item: entry.item as PreparedRecord["items"][number]["item"],
            provenance: provenance(line + 1, index, entry.response),
            ...(entry.schema !== undefined ? { schema: entry.schema } : {}),
            ...(entry.notAllowed !== undefined ? { notAllowed: entry.notAllowed } : {}),
          })),
        }));
        const batches: PreparedRecord[][] = [];
        for (let at = 0; at < prepared.length; at += perBatch) batches.push(prepared.slice(at, at + perBatch));
        const crossed = across(batches, { schemaLimit: 2 }).flatMap(({ records: decoded }) => decoded.filter((record) => record.kind === "items"));
        expect(gateAll(crossed)).toEqual(gateAll(prepared));
      }),
      { numRuns: 300 },
    );
  });
});
