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

describe("JSON text in an attribute that two readers read apart", () => {
  test.each([
    [
      "names a member twice",
      '[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"delete_trees","name":"count_trees","arguments":{"row":"all"}}]}]',
      'gen_ai.output.messages: the JSON text has the name "name" twice in one object, at "/0/parts/0/name"; JSON.parse keeps the last value, other readers keep the first: not read',
    ],
    [
      "has two names that fold to one, as a Go reader keeps the last of arguments and Arguments",
      '[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"count_trees","arguments":{"row":4},"Arguments":{"row":"all"}}]}]',
      'gen_ai.output.messages: the JSON text has the names "arguments" and "Arguments" in one object, at "/0/parts/0": a reader that matches names regardless of case or width (Go\'s encoding/json does) takes them for one name and keeps the last value: not read',
    ],
  ])("that %s is not read: unreadable", (_, messages, detail) => {
    const reading = read([["gen_ai.output.messages", messages]]);
    expect(calls(reading)).toEqual([]);
    expect(reading.losses.filter((loss) => loss.code === "unreadable").map((loss) => loss.detail)).toEqual([detail]);
  });
});

describe("a call's arguments and its result in an attribute's messages", () => {
  test("are data, whose names that fold to one are read as written: the call is read, and the gate judges its arguments", () => {
    const messages = '[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"count_words","arguments":{"text":"a","Text":"b"}}]},{"role":"tool","parts":[{"type":"tool_call_response","id":"call_1","response":{"Any":2,"any":5}}]}]';
    const reading = read([["gen_ai.input.messages", messages]]);
    expect(reading.losses.filter((loss) => loss.code === "unreadable")).toEqual([]);
    expect(calls(reading)).toEqual([{ type: "function_call", call_id: "call_1", name: "count_words", arguments: '{"text":"a","Text":"b"}', status: "completed" }]);
  });
});

describe("the Vercel AI SDK's calls in an attribute with two names that fold to one", () => {
  test("are not read: unreadable, as a Go reader keeps the last of toolCallId and ToolCallId", () => {
    const spans = [{ traceID: "7a1c", spanID: "s1", operationName: "ai.generateText.doGenerate", references: [], startTime: 1771835343506978, duration: 1200, processID: "p1", tags: ([
      ["ai.operationId", "ai.generateText.doGenerate"],
      ["ai.prompt.messages", '[{"role":"user","content":[{"type":"text","text":"hi"}]}]'],
      ["ai.response.finishReason", "tool-calls"],
      ["ai.response.toolCalls", '[{"toolCallType":"function","toolCallId":"call_1","ToolCallId":"call_2","toolName":"count_trees","args":"{}"}]'],
    ] as Tag[]).map(tag) }];
    const reading = READERS.jaeger.read({ data: [{ traceID: "7a1c", spans, processes: { p1: { serviceName: "svc", tags: [] } } }] });
    expect(calls(reading)).toEqual([]);
    expect(reading.losses.filter((loss) => loss.code === "unreadable").map((loss) => loss.detail)).toEqual([
      'ai.response.toolCalls: the JSON text has the names "toolCallId" and "ToolCallId" in one object, at "/0": a reader that matches names regardless of case or width (Go\'s encoding/json does) takes them for one name and keeps the last value: not read',
    ]);
  });
});

describe("JSON text in an attribute that holds a number a double reads as another", () => {
  test("is not read, as the arguments made of it would not be the text's: unreadable", () => {
    const messages = '[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"set_level","arguments":{"level":1.0000000000000001}}]}]';
    const reading = read([["gen_ai.output.messages", messages]]);
    expect(calls(reading)).toEqual([]);
    expect(reading.losses.filter((loss) => loss.code === "unreadable").map((loss) => loss.detail)).toEqual(["gen_ai.output.messages: the JSON text holds the number 1.0000000000000001, which a double reads as another number: not read"]);
    expect(calls(read([["gen_ai.output.messages", messages.replace("1.0000000000000001", "1.0")]]))).toHaveLength(1);
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

describe("OTLP messages written as nested values (arrayValue and kvlistValue)", () => {
  // The GenAI messages as OTLP values all the way down, as some exporters write them: the call's parts are kvlists.
  const kv = (key: string, value: unknown) => ({ key, value });
  const text = (stringValue: string) => ({ stringValue });
  const kvlist = (...values: unknown[]) => ({ kvlistValue: { values } });
  const messages = (part: unknown[]) => ({ arrayValue: { values: [kvlist(kv("role", text("assistant")), kv("parts", { arrayValue: { values: [kvlist(...part)] } }))] } });
  const toolCall = (...fields: unknown[]) => [kv("type", text("tool_call")), kv("id", text("call_1")), ...fields];
  const otlp = (attribute: { key: string; value: unknown } & Record<string, unknown>) => {
    const span = { traceId: "7a1c", spanId: "s1", name: "chat", startTimeUnixNano: "1", attributes: [{ key: "gen_ai.operation.name", value: text("chat") }, attribute] };
    return READERS.otlp.read({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] });
  };
  // Where the tool_call part's kvlist stands in the document.
  const partAt = "/resourceSpans/0/scopeSpans/0/spans/0/attributes/1/value/arrayValue/values/0/kvlistValue/values/1/value/arrayValue/values/0/kvlistValue";
  const unreadable = (reading: ReturnType<typeof otlp>) => reading.losses.filter((loss) => loss.code === "unreadable").map((loss) => loss.detail);

  test("read as the call they hold", () => {
    const reading = otlp(kv("gen_ai.output.messages", messages(toolCall(kv("name", text("get_weather")), kv("arguments", kvlist(kv("city", text("Paris")), kv("days", { intValue: "3" }), kv("max", { doubleValue: "1.5" })))))));
    expect(calls(reading)).toEqual([{ type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris","days":3,"max":1.5}', status: "completed" }]);
  });

  test.each([
    ["a key named twice in a kvlist (the first reader runs delete_all)", toolCall(kv("name", text("delete_all")), kv("name", text("get_weather")), kv("arguments", kvlist(kv("city", text("Paris"))))), `names the key "name" twice in one kvlistValue (first at ${partAt}/values/2)`],
    ["an argument named twice", toolCall(kv("name", text("get_weather")), kv("arguments", kvlist(kv("city", text("London")), kv("city", text("Paris"))))), `names the key "city" twice in one kvlistValue (first at ${partAt}/values/3/value/kvlistValue/values/0)`],
    ["an intValue no double holds, inside the arguments", toolCall(kv("name", text("get_weather")), kv("arguments", kvlist(kv("account", { intValue: "12345678901234567890" })))), 'holds the intValue "12345678901234567890" inside a value, which a double does not hold exactly'],
    ["an intValue that is no decimal integer", toolCall(kv("name", text("get_weather")), kv("arguments", kvlist(kv("days", { intValue: "0x10" })))), 'holds the intValue "0x10", which is no decimal integer'],
    ["a doubleValue that is no JSON number", toolCall(kv("name", text("get_weather")), kv("arguments", kvlist(kv("max", { doubleValue: "NaN" })))), 'holds the doubleValue "NaN", which is no JSON number'],
    ["a doubleValue a double reads as another number", toolCall(kv("name", text("get_weather")), kv("arguments", kvlist(kv("max", { doubleValue: "1.0000000000000001" })))), "holds the doubleValue 1.0000000000000001 inside a value, which a double reads as another number"],
    ["a nested value of two kinds", toolCall(kv("name", { stringValue: "get_weather", intValue: "7" }), kv("arguments", kvlist())), "holds stringValue and intValue at once"],
  ])("%s: the span is not read, unreadable", (_, part, detail) => {
    const reading = otlp(kv("gen_ai.output.messages", messages(part)));
    expect(calls(reading)).toEqual([]);
    expect(unreadable(reading)).toEqual([`the attribute gen_ai.output.messages ${detail}: two readers see two spans, so the span is not read`]);
  });

  test("a doubleValue that proto3 JSON writes as NaN or Infinity, at the top of an attribute, is its text: the span is read", () => {
    const span = { traceId: "7a1c", spanId: "s1", name: "chat", startTimeUnixNano: "1", attributes: [{ key: "gen_ai.operation.name", value: text("chat") }, { key: "gen_ai.request.temperature", value: { doubleValue: "NaN" } }, { key: "gen_ai.request.top_p", value: { doubleValue: "-Infinity" } }, kv("gen_ai.output.messages", messages(toolCall(kv("name", text("get_weather")), kv("arguments", kvlist(kv("city", text("Paris")))))))] };
    expect(calls(READERS.otlp.read({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] }))).toHaveLength(1);
  });

  test("an intValue written as a JSON number past 2^53, whose digits the document's reading lost: the span is not read", () => {
    const reading = otlp(kv("gen_ai.output.messages", messages(toolCall(kv("name", text("get_weather")), kv("arguments", kvlist(kv("account", { intValue: 12345678901234567890 })))))));
    expect(calls(reading)).toEqual([]);
    expect(unreadable(reading)).toEqual(["the attribute gen_ai.output.messages holds the intValue 12345678901234567000 written as a JSON number, which a double does not hold exactly: two readers see two spans, so the span is not read"]);
  });

  test("a key __proto__ in a kvlist is a member like any other, so a schema that allows no other member refuses it", () => {
    const reading = otlp(kv("gen_ai.output.messages", messages(toolCall(kv("name", text("get_weather")), kv("arguments", kvlist(kv("__proto__", kvlist(kv("city", text("London")))), kv("city", text("Paris"))))))));
    expect(calls(reading)).toEqual([{ type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"__proto__":{"city":"London"},"city":"Paris"}', status: "completed" }]);
  });

  test("an attribute that is a Jaeger tag (a type beside it) and holds an OTLP value is not read: unreadable", () => {
    const json = JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "get_weather", arguments: '{"city":"London"}' }] }]);
    const reading = otlp({ key: "gen_ai.output.messages", type: "STRING", value: text(json) });
    expect(calls(reading)).toEqual([]);
    expect(unreadable(reading)).toEqual(['the attribute gen_ai.output.messages is written as a Jaeger tag (type "STRING") holding an OTLP value: two readers see two spans, so the span is not read']);
  });
});

describe("two spans of one trace that give one id", () => {
  // Two versions of one observation, as Langfuse upserts it, or a forged one beside it: a reader that keeps one of them sees one call.
  const generation = (location: string) => ({ id: "g1", traceId: "T", type: "GENERATION", name: "call_llm", startTime: "2025-08-28T07:32:30.306Z", input: [{ role: "user", content: "weather?" }], output: { role: "assistant", content: "", tool_calls: [{ id: `call_${location}`, type: "function", function: { name: "get_weather", arguments: JSON.stringify({ city: location }) } }] } });

  test("neither is read: each is unreadable, naming the other", () => {
    const reading = READERS.langfuse.read({ trace: { id: "T" }, observations: [generation("Paris"), generation("London")] });
    expect(calls(reading)).toEqual([]);
    expect(reading.losses.filter((loss) => loss.code === "unreadable").map((loss) => loss.detail)).toEqual([
      'the span id "g1" is also the id of the span at /observations/1: two readers see two spans, so the span is not read',
      'the span id "g1" is also the id of the span at /observations/0: two readers see two spans, so the span is not read',
    ]);
  });

  const span = (trace: string, city: string) => ({ traceId: trace, spanId: "s1", name: "chat", startTimeUnixNano: "1", attributes: [{ key: "gen_ai.operation.name", value: { stringValue: "chat" } }, { key: "gen_ai.output.messages", value: { stringValue: JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: `call_${city}`, name: "get_weather", arguments: JSON.stringify({ city }) }] }]) } }] });

  test("of OTLP spans too; spans of two traces may share an id", () => {
    const one = READERS.otlp.read({ resourceSpans: [{ scopeSpans: [{ spans: [span("t1", "Paris"), span("t1", "London")] }] }] });
    expect(calls(one)).toEqual([]);
    const two = READERS.otlp.read({ resourceSpans: [{ scopeSpans: [{ spans: [span("t1", "Paris"), span("t2", "London")] }] }] });
    expect(calls(two).map((call) => (call as { call_id?: string }).call_id)).toEqual(["call_Paris", "call_London"]);
  });

  test("hex ids are one id whatever the case of their letters, as a collector decodes them", () => {
    const hex = (trace: string, id: string, city: string) => ({ ...span(trace, city), spanId: id });
    const sameSpan = READERS.otlp.read({ resourceSpans: [{ scopeSpans: [{ spans: [hex("6f1c0a5e", "aaaa0001", "Paris"), hex("6f1c0a5e", "AAAA0001", "London")] }] }] });
    expect(calls(sameSpan)).toEqual([]);
    const sameTrace = READERS.otlp.read({ resourceSpans: [{ scopeSpans: [{ spans: [hex("6f1c0a5e", "aaaa0001", "Paris"), hex("6F1C0A5E", "aaaa0001", "London")] }] }] });
    expect(calls(sameTrace)).toEqual([]);
    const dicts = READERS.otlp.read([hex("0x6f1c0a5e", "0xaaaa0001", "Paris"), hex("0x6f1c0a5e", "0xAAAA0001", "London")].map(({ traceId, spanId, ...rest }) => ({ ...rest, context: { trace_id: traceId, span_id: spanId } })));
    expect(calls(dicts)).toEqual([]);
    const jaegerSpan = (id: string, namespace: string) => ({ traceID: "7a1c", spanID: id, operationName: "openai.chat", references: [], startTime: 1771835343506978, duration: 1200, processID: "p1", tags: [["llm.request.type", "chat"], ["gen_ai.prompt.0.role", "user"], ["gen_ai.prompt.0.content", "Which releases run?"], ["gen_ai.completion.0.role", "assistant"], ["gen_ai.completion.0.finish_reason", "tool_calls"], ["gen_ai.completion.0.tool_calls.0.id", `call_${namespace}`], ["gen_ai.completion.0.tool_calls.0.name", "list_releases"], ["gen_ai.completion.0.tool_calls.0.arguments", JSON.stringify({ namespace })]].map((one) => tag(one as Tag)) });
    expect(calls(READERS.jaeger.read({ data: [{ traceID: "7a1c", spans: [jaegerSpan("aaaa0001", "cider"), jaegerSpan("AAAA0001", "kube")], processes: { p1: { serviceName: "svc", tags: [] } } }] }))).toEqual([]);
  });
});

describe("GenAI events beside the span's attributes", () => {
  const call = (city: string) => JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "get_weather", arguments: JSON.stringify({ city }) }] }]);
  const span = (events: unknown[]) => ({ traceId: "7a1c", spanId: "s1", name: "chat", startTimeUnixNano: "1", attributes: [{ key: "gen_ai.operation.name", value: { stringValue: "chat" } }, { key: "gen_ai.output.messages", value: { stringValue: call("Paris") } }], events });
  const otlp = (events: unknown[]) => READERS.otlp.read({ resourceSpans: [{ scopeSpans: [{ spans: [span(events)] }] }] });

  test("an event that holds a tool call (older conventions' gen_ai.choice), which orbridge does not read: the span is not read", () => {
    const choice = { name: "gen_ai.choice", timeUnixNano: "2", attributes: [{ key: "gen_ai.event.content", value: { stringValue: JSON.stringify({ index: 0, finish_reason: "tool_calls", message: { role: "assistant", tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"London"}' } }] } }) } }] };
    const reading = otlp([choice]);
    expect(calls(reading)).toEqual([]);
    expect(reading.losses.filter((loss) => loss.code === "unreadable").map((loss) => loss.detail)).toEqual(["the span's event gen_ai.choice holds a tool call, which is not read beside the span's attributes: two readers see two spans, so the span is not read"]);
  });

  test("a Jaeger log of such an event, and an event named by its attributes with an Anthropic tool_use: the span is not read", () => {
    const content = JSON.stringify({ index: 0, message: { role: "assistant", tool_calls: [{ id: "call_1", type: "function", function: { name: "list_releases", arguments: '{"namespace":"kube-system"}' } }] } });
    const tags: Tag[] = [["llm.request.type", "chat"], ["gen_ai.prompt.0.role", "user"], ["gen_ai.prompt.0.content", "Which releases run?"], ["gen_ai.completion.0.role", "assistant"], ["gen_ai.completion.0.finish_reason", "tool_calls"], ["gen_ai.completion.0.tool_calls.0.id", "call_1"], ["gen_ai.completion.0.tool_calls.0.name", "list_releases"], ["gen_ai.completion.0.tool_calls.0.arguments", '{"namespace":"cider"}']];
    const jaeger = (logs: unknown[]) => READERS.jaeger.read({ data: [{ traceID: "7a1c", spans: [{ traceID: "7a1c", spanID: "s1", operationName: "openai.chat", references: [], startTime: 1771835343506978, duration: 1200, processID: "p1", tags: tags.map(tag), logs }], processes: { p1: { serviceName: "svc", tags: [] } } }] });
    expect(calls(jaeger([]))).toHaveLength(1);
    expect(calls(jaeger([{ timestamp: 1771835343506999, fields: [{ key: "event", type: "string", value: "gen_ai.choice" }, { key: "gen_ai.event.content", type: "string", value: content }] }]))).toEqual([]);
    const toolUse = { attributes: [{ key: "event.name", value: { stringValue: "gen_ai.assistant.message" } }, { key: "gen_ai.event.content", value: { stringValue: JSON.stringify({ content: [{ type: "tool_use", id: "call_1", name: "get_weather", input: { city: "London" } }] }) } }] };
    expect(calls(otlp([toolUse]))).toEqual([]);
  });

  test("an event with a Vercel tool-call part, or a name spelled with escapes of ASCII letters: the span is not read", () => {
    const vercel = { name: "gen_ai.assistant.message", attributes: [{ key: "gen_ai.event.content", value: { stringValue: JSON.stringify({ content: [{ type: "tool-call", toolCallId: "call_1", toolName: "get_weather", input: { city: "London" } }] }) } }] };
    expect(calls(otlp([vercel]))).toEqual([]);
    const escaped = { name: "gen_ai.choice", attributes: [{ key: "gen_ai.event.content", value: { stringValue: '{"message":{"\\u0074ool_calls":[]}}' } }] };
    expect(calls(otlp([escaped]))).toEqual([]);
    const accented = { name: "gen_ai.user.message", attributes: [{ key: "gen_ai.event.content", value: { stringValue: '{"content":"caf\\u00e9?"}' } }] };
    expect(calls(otlp([accented]))).toHaveLength(1);
  });

  test("an event that holds no call (an exception, a prompt) leaves the span read", () => {
    const reading = otlp([{ name: "exception", attributes: [{ key: "exception.message", value: { stringValue: "tool_calls failed" } }] }, { name: "gen_ai.user.message", attributes: [{ key: "gen_ai.event.content", value: { stringValue: '{"content":"weather?"}' } }] }]);
    expect(calls(reading)).toHaveLength(1);
  });
});
