// A span whose exporter dropped attributes or events is a cut record: what was
// dropped may have been a call, its arguments, the span's status or the event
// that holds the answer. Its calls are incomplete, which the gate blocks, and the
// count is said as a cut (`truncated`), never as an attribute left behind: the
// same in a Jaeger export, a Tempo export and OTLP/JSON. Dropped links hold no
// message: said, and the calls stand.
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { gateVerdicts, LIST_FILES } from "../../support/span-documents.js";

const ANSWER = [
  ["gen_ai.operation.name", "chat"],
  ["gen_ai.prompt.0.role", "user"],
  ["gen_ai.prompt.0.content", "what is here?"],
  ["gen_ai.completion.0.role", "assistant"],
  ["gen_ai.completion.0.finish_reason", "tool_calls"],
  ["gen_ai.completion.0.tool_calls.0.id", "call_1"],
  ["gen_ai.completion.0.tool_calls.0.name", "list_files"],
  ["gen_ai.completion.0.tool_calls.0.arguments", '{"dir":"src"}'],
] as const;

/** A Jaeger export of one chat span, with these tags (and logs) beside its answer. */
function jaeger(tags: Array<{ key: string; type: string; value: unknown }>, logs?: unknown[]): unknown {
  const span = { traceID: "t1", spanID: "s1", operationName: "openai.chat", references: [], startTime: 1, tags: [...ANSWER.map(([key, value]) => ({ key, type: "string", value })), ...tags], ...(logs ? { logs } : {}) };
  return { data: [{ traceID: "t1", spans: [span] }] };
}

/** An OTLP/JSON span of the same answer, with these fields of its own; in a Tempo export when `tempo`. */
function otlpSpan(fields: Record<string, unknown>): Record<string, unknown> {
  return { traceId: "t1", spanId: "s1", name: "openai.chat", startTimeUnixNano: "1000", attributes: ANSWER.map(([key, value]) => ({ key, value: { stringValue: value } })), ...fields };
}
const otlp = (fields: Record<string, unknown>) => ({ resourceSpans: [{ scopeSpans: [{ spans: [otlpSpan(fields)] }] }] });
const tempo = (fields: Record<string, unknown>) => ({ batches: [{ instrumentationLibrarySpans: [{ spans: [otlpSpan(fields)] }] }] });

function reading(reader: "jaeger" | "otlp", document: unknown) {
  const { records, losses } = READERS[reader].read(document);
  return {
    calls: records.map(({ record }) => record as Record<string, unknown>).filter((record) => record.type === "function_call").map(({ name, status }) => ({ name, status })),
    cuts: losses.filter((loss) => loss.code === "truncated").map(({ path, detail }) => ({ path, detail })),
    countsLeftBehind: losses.filter((loss) => loss.code === "left_behind" && /dropped/.test(loss.path + loss.detail)),
  };
}

const cutCall = (path: string, said: string) => ({ path, detail: `the call of "list_files" is in the answer of a span whose exporter dropped ${said}, which may have held it otherwise, its arguments or the span's status: it is incomplete` });
const spanCut = (path: string, said: string) => ({ path, detail: `the exporter dropped ${said} of the span "openai.chat" (a limit of its SDK): what they held is not in the document` });

describe("a Jaeger span whose tags say the exporter dropped entries", () => {
  test("attributes: its call is incomplete, and the tag is said as a cut, not left behind", () => {
    const at = "/data/0/spans/0/tags/8/value";
    expect(reading("jaeger", jaeger([{ key: "otel.dropped_attributes_count", type: "int64", value: 3 }]))).toEqual({
      calls: [{ name: "list_files", status: "incomplete" }],
      cuts: [spanCut(at, "3 attributes"), cutCall(at, "attributes (3)")],
      countsLeftBehind: [],
    });
  });

  test("events, or attributes of an event (a log field): its call is incomplete", () => {
    const events = jaeger([{ key: "otel.dropped_events_count", type: "int64", value: 2 }]);
    expect(reading("jaeger", events).calls).toEqual([{ name: "list_files", status: "incomplete" }]);
    expect(reading("jaeger", events).cuts).toEqual([spanCut("/data/0/spans/0/tags/8/value", "2 events"), cutCall("/data/0/spans/0/tags/8/value", "events (2)")]);
    const log = jaeger([], [{ timestamp: 2, fields: [{ key: "event", type: "string", value: "gen_ai.choice" }, { key: "otel.event.dropped_attributes_count", type: "int64", value: 1 }] }]);
    expect(reading("jaeger", log).calls).toEqual([{ name: "list_files", status: "incomplete" }]);
    expect(reading("jaeger", log).cuts).toEqual([spanCut("/data/0/spans/0/logs/0/fields/1/value", "1 attributes of an event"), cutCall("/data/0/spans/0/logs/0/fields/1/value", "attributes of an event (1)")]);
  });

  test("links: said as a cut, and the call stands, as no link holds a message", () => {
    expect(reading("jaeger", jaeger([{ key: "otel.dropped_links_count", type: "int64", value: 2 }]))).toEqual({
      calls: [{ name: "list_files", status: "completed" }],
      cuts: [spanCut("/data/0/spans/0/tags/8/value", "2 links")],
      countsLeftBehind: [],
    });
  });

  test("a count of 0 drops nothing: the call is completed", () => {
    for (const value of [0, "0"]) expect(reading("jaeger", jaeger([{ key: "otel.dropped_attributes_count", type: "int64", value }]))).toEqual({ calls: [{ name: "list_files", status: "completed" }], cuts: [], countsLeftBehind: [] });
  });

  test("the gate blocks the call, though its arguments would pass", async () => {
    expect(await gateVerdicts(jaeger([{ key: "otel.dropped_attributes_count", type: "int64", value: 3 }]), [LIST_FILES])).toEqual({ code: 1, verdicts: [["not_function_call", false], ["status", true]] });
  });
});

describe("an OTLP span whose fields say the exporter dropped entries, in OTLP/JSON and in Tempo's export alike", () => {
  const base = "/resourceSpans/0/scopeSpans/0/spans/0";
  for (const [what, key, count, said] of [
    ["attributes", "droppedAttributesCount", 3, "3 attributes"],
    ["attributes, counted as proto3 JSON's text", "droppedAttributesCount", "3", '"3" attributes'],
    ["attributes, in the proto field's own name", "dropped_attributes_count", 3, "3 attributes"],
    ["events", "droppedEventsCount", 1, "1 events"],
  ] as const) {
    test(`${what}: its call is incomplete`, () => {
      const counted = typeof count === "number" ? String(count) : JSON.stringify(count);
      const kind = said.split(" ").slice(1).join(" ");
      expect(reading("otlp", otlp({ [key]: count }))).toEqual({ calls: [{ name: "list_files", status: "incomplete" }], cuts: [spanCut(`${base}/${key}`, said), cutCall(`${base}/${key}`, `${kind} (${counted})`)], countsLeftBehind: [] });
      const tempoBase = "/batches/0/instrumentationLibrarySpans/0/spans/0";
      expect(reading("otlp", tempo({ [key]: count }))).toEqual({ calls: [{ name: "list_files", status: "incomplete" }], cuts: [spanCut(`${tempoBase}/${key}`, said), cutCall(`${tempoBase}/${key}`, `${kind} (${counted})`)], countsLeftBehind: [] });
    });
  }

  test("an event that dropped attributes: its call is incomplete", () => {
    const document = otlp({ events: [{ name: "gen_ai.choice", timeUnixNano: "2000", attributes: [], droppedAttributesCount: 4 }] });
    expect(reading("otlp", document).calls).toEqual([{ name: "list_files", status: "incomplete" }]);
    expect(reading("otlp", document).cuts).toEqual([spanCut(`${base}/events/0/droppedAttributesCount`, "4 attributes of an event"), cutCall(`${base}/events/0/droppedAttributesCount`, "attributes of an event (4)")]);
  });

  test("links: said as a cut, and the call stands", () => {
    expect(reading("otlp", otlp({ droppedLinksCount: 5 }))).toEqual({ calls: [{ name: "list_files", status: "completed" }], cuts: [spanCut(`${base}/droppedLinksCount`, "5 links")], countsLeftBehind: [] });
  });

  test("counts of 0 drop nothing", () => {
    expect(reading("otlp", otlp({ droppedAttributesCount: 0, droppedEventsCount: 0, droppedLinksCount: 0 }))).toEqual({ calls: [{ name: "list_files", status: "completed" }], cuts: [], countsLeftBehind: [] });
  });
});

describe("a wrapper span that dropped attributes (ADK's call_llm around openai.chat)", () => {
  // The wrapper may have lost its copy of the call, saying another one, or its status: the call inside it does not pass as complete.
  const document = (wrapperTags: Array<{ key: string; type: string; value: unknown }>) => {
    const wrapper = { traceID: "t1", spanID: "w1", operationName: "call_llm", references: [], startTime: 1, tags: [{ key: "gen_ai.operation.name", type: "string", value: "call_llm" }, ...wrapperTags] };
    const inner = { traceID: "t1", spanID: "s1", operationName: "openai.chat", references: [{ refType: "CHILD_OF", traceID: "t1", spanID: "w1" }], startTime: 2, tags: ANSWER.map(([key, value]) => ({ key, type: "string", value })) };
    return { data: [{ traceID: "t1", spans: [wrapper, inner] }] };
  };

  test("the call of the span inside it is incomplete, said at the wrapper's count", () => {
    const at = "/data/0/spans/0/tags/1/value";
    expect(reading("jaeger", document([{ key: "otel.dropped_attributes_count", type: "int64", value: 2 }]))).toEqual({
      calls: [{ name: "list_files", status: "incomplete" }],
      cuts: [
        { path: at, detail: 'the exporter dropped 2 attributes of the span "call_llm" (a limit of its SDK): what they held is not in the document' },
        { path: at, detail: 'the call of "list_files" is in the answer of a span inside the span "call_llm", whose exporter dropped attributes (2), which may have held its copy of the call or its status: it is incomplete' },
      ],
      countsLeftBehind: [],
    });
  });

  test("a wrapper that dropped only links leaves the call completed", () => {
    expect(reading("jaeger", document([{ key: "otel.dropped_links_count", type: "int64", value: 2 }])).calls).toEqual([{ name: "list_files", status: "completed" }]);
  });
});

test("a tool span that dropped attributes is said as a cut, not as an attribute left behind", () => {
  const tool = { traceID: "t1", spanID: "x1", operationName: "execute_tool list_files", references: [], startTime: 5, tags: [{ key: "gen_ai.operation.name", type: "string", value: "execute_tool" }, { key: "gen_ai.tool.call.id", type: "string", value: "call_1" }, { key: "gen_ai.tool.call.result", type: "string", value: "a.txt" }, { key: "otel.dropped_attributes_count", type: "int64", value: 1 }] };
  const document = jaeger([]) as { data: Array<{ spans: unknown[] }> };
  document.data[0]!.spans.push(tool);
  expect(reading("jaeger", document)).toEqual({
    calls: [{ name: "list_files", status: "completed" }],
    cuts: [{ path: "/data/0/spans/1/tags/3/value", detail: 'the exporter dropped 1 attributes of the span "execute_tool list_files" (a limit of its SDK): what they held is not in the document' }],
    countsLeftBehind: [],
  });
});
