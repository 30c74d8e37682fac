// Span attributes written to mislead: a flattened key that names `__proto__`, an
// index of billions, an attribute written twice with two values, JSON text that
// names a member twice. None reaches a prototype or hangs the reader, and a call
// two readers would read apart is not read, said as `unreadable` (which `gate`
// turns into a blocked line).
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";

type Tag = [string, string];
const tag = ([key, value]: Tag) => ({ key, type: "string", value });
const call: Tag[] = [
  ["gen_ai.completion.0.role", "assistant"],
  ["gen_ai.completion.0.finish_reason", "tool_calls"],
  ["gen_ai.completion.0.tool_calls.0.id", "call_1"],
  ["gen_ai.completion.0.tool_calls.0.name", "list_releases"],
  ["gen_ai.completion.0.tool_calls.0.arguments", '{"namespace":"cider"}'],
];

function read(tags: Tag[]) {
  const spans = [{ traceID: "7a1c", spanID: "s1", operationName: "openai.chat", references: [], startTime: 1771835343506978, duration: 1200, processID: "p1", tags: [["llm.request.type", "chat"], ["gen_ai.prompt.0.role", "user"], ["gen_ai.prompt.0.content", "Which releases run?"], ...tags].map((one) => tag(one as Tag)) }];
  return READERS.jaeger.read({ data: [{ traceID: "7a1c", spans, processes: { p1: { serviceName: "svc", tags: [] } } }] });
}

const calls = (reading: ReturnType<typeof read>) => reading.records.map((record) => record.record as { type: string }).filter((record) => record.type === "function_call");

describe("flattened message attributes", () => {
  test("a key through __proto__ is a member of the message, never the prototype of every object", () => {
    const reading = read([...call, ["gen_ai.completion.0.__proto__.status", "completed"], ["gen_ai.prompt.0.__proto__", "x"]]);
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain("status");
    expect(({} as { status?: unknown }).status).toBeUndefined();
    expect(calls(reading)).toEqual([{ type: "function_call", call_id: "call_1", name: "list_releases", arguments: '{"namespace":"cider"}', status: "completed" }]);
    expect(reading.losses.filter((loss) => loss.detail.startsWith("__proto__ of the message"))).toHaveLength(2);
  });

  test("an index of billions is not read, and is reported; the messages at the indexes before it are", () => {
    const reading = read([...call, ["gen_ai.prompt.4000000000.role", "user"], ["gen_ai.completion.0.tool_calls.4000000000.name", "drop_all"]]);
    expect(calls(reading)).toHaveLength(1);
    expect(reading.losses.filter((loss) => loss.code === "left_behind" && loss.detail.includes("4000000000")).map((loss) => loss.detail)).toEqual([
      "the attribute gen_ai.prompt.4000000000.role is in no item",
      "the attribute gen_ai.completion.0.tool_calls.4000000000.name is in no item",
    ]);
  });
});

describe("an attribute written twice", () => {
  test("with another value: the span is not read, unreadable at the second place", () => {
    const reading = read([...call, ["gen_ai.completion.0.tool_calls.0.name", "delete_release"]]);
    expect(calls(reading)).toEqual([]);
    expect(reading.losses.filter((loss) => loss.code === "unreadable")).toEqual([
      {
        path: "/data/0/spans/0/tags/8/value",
        code: "unreadable",
        detail: "the attribute gen_ai.completion.0.tool_calls.0.name is written again with another value (first at /data/0/spans/0/tags/6/value): two readers see two spans, so the span is not read",
        span: "s1",
      },
    ]);
  });

  test("with the same value: read as once", () => {
    expect(calls(read([...call, ["gen_ai.completion.0.tool_calls.0.name", "list_releases"]]))).toHaveLength(1);
  });
});

describe("JSON text in an attribute", () => {
  test("that names a member twice is not read: unreadable", () => {
    const messages = '[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"delete_trees","name":"count_trees","arguments":{"row":"all"}}]}]';
    const reading = read([["gen_ai.output.messages", messages]]);
    expect(calls(reading)).toEqual([]);
    expect(reading.losses.filter((loss) => loss.code === "unreadable").map((loss) => loss.detail)).toEqual([
      'gen_ai.output.messages: the JSON text has the name "name" twice in one object, at "/0/parts/0/name"; JSON.parse keeps the last value, other readers keep the first: not read',
    ]);
  });
});

describe("an OTLP attribute value", () => {
  test("that holds two kinds of value at once is not read: unreadable", () => {
    const messages = '[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"count_trees","arguments":{"row":"a"}}]}]';
    const span = { traceId: "7a1c", spanId: "s1", name: "chat", startTimeUnixNano: "1", attributes: [{ key: "gen_ai.operation.name", value: { stringValue: "chat" } }, { key: "gen_ai.output.messages", value: { stringValue: messages, arrayValue: { values: [{ stringValue: "other" }] } } }] };
    const reading = READERS.otlp.read({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] });
    expect(reading.records.map((record) => (record.record as { type: string }).type)).not.toContain("function_call");
    expect(reading.losses.filter((loss) => loss.code === "unreadable").map((loss) => loss.detail)).toEqual(["the attribute gen_ai.output.messages holds stringValue and arrayValue at once: two readers see two spans, so the span is not read"]);
  });
});

describe("an OTLP array of JSON texts as the messages", () => {
  const span = (values: string[]) => ({ traceId: "7a1c", spanId: "s1", name: "chat", startTimeUnixNano: "1", attributes: [{ key: "gen_ai.operation.name", value: { stringValue: "chat" } }, { key: "gen_ai.output.messages", value: { arrayValue: { values: values.map((stringValue) => ({ stringValue })) } } }] });
  const otlp = (values: string[]) => READERS.otlp.read({ resourceSpans: [{ scopeSpans: [{ spans: [span(values)] }] }] });
  const toolCall = (id: string, row: string) => ({ role: "assistant", parts: [{ type: "tool_call", id, name: "count_trees", arguments: { row } }] });

  test("each text a message, or an array of them: their calls are read, in order, to be gated", () => {
    const reading = otlp([JSON.stringify(toolCall("call_1", "a")), JSON.stringify([toolCall("call_2", "b")])]);
    expect(reading.records.map(({ record }) => record)).toEqual([
      { type: "function_call", call_id: "call_1", name: "count_trees", arguments: '{"row":"a"}', status: "completed" },
      { type: "function_call", call_id: "call_2", name: "count_trees", arguments: '{"row":"b"}', status: "completed" },
    ]);
  });

  test("a text that names a member twice: not read, unreadable", () => {
    const reading = otlp([JSON.stringify(toolCall("call_1", "a")), '{"role":"assistant","role":"user","parts":[]}']);
    expect(reading.records).toEqual([]);
    expect(reading.losses.filter((loss) => loss.code === "unreadable")).toHaveLength(1);
  });
});
