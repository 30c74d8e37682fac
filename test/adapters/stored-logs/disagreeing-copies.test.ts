// A stored log that records one call twice, in ways that disagree: two dialects
// in one span, a wrapper span around the call, a tool span that ran it with
// other arguments or under another name, a later request whose history says
// otherwise. A replayer that reads the other copy would run another call than
// the one judged, so the call is not read and each copy is reported `conflict`
// (which `gate` turns into a blocked line). Copies that agree change nothing.
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";

type Tag = [string, string];
const tags = (list: Tag[]) => list.map(([key, value]) => ({ key, type: "string", value }));

interface JaegerSpan {
  id: string;
  parent?: string;
  name: string;
  start: number;
  tags: Tag[];
}

function jaeger(spans: JaegerSpan[]) {
  return READERS.jaeger.read({
    data: [
      {
        traceID: "7a1c",
        spans: spans.map((span) => ({ traceID: "7a1c", spanID: span.id, operationName: span.name, references: span.parent ? [{ refType: "CHILD_OF", traceID: "7a1c", spanID: span.parent }] : [], startTime: span.start, duration: 100, processID: "p1", tags: tags(span.tags) })),
        processes: { p1: { serviceName: "svc", tags: [] } },
      },
    ],
  });
}

const prompt: Tag[] = [
  ["llm.request.type", "chat"],
  ["gen_ai.prompt.0.role", "user"],
  ["gen_ai.prompt.0.content", "Which releases run in cider?"],
];
const indexedCall = (args: string, name = "list_releases"): Tag[] => [
  ["gen_ai.completion.0.role", "assistant"],
  ["gen_ai.completion.0.finish_reason", "tool_calls"],
  ["gen_ai.completion.0.tool_calls.0.id", "call_1"],
  ["gen_ai.completion.0.tool_calls.0.name", name],
  ["gen_ai.completion.0.tool_calls.0.arguments", args],
];
const genAiOutput = (args: string): Tag => ["gen_ai.output.messages", JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "list_releases", arguments: JSON.parse(args) }] }])];
const openInferenceCall = (args: string): Tag[] => [
  ["llm.output_messages.0.message.role", "assistant"],
  ["llm.output_messages.0.message.tool_calls.0.tool_call.id", "call_1"],
  ["llm.output_messages.0.message.tool_calls.0.tool_call.function.name", "list_releases"],
  ["llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments", args],
];
const vercelCalls = (args: string): Tag => ["ai.response.toolCalls", JSON.stringify([{ toolCallType: "function", toolCallId: "call_1", toolName: "list_releases", args }])];

type Reading = ReturnType<typeof jaeger>;
const calls = (reading: Reading) => reading.records.map(({ record }) => record as Record<string, unknown>).filter((record) => record.type === "function_call");
const conflicts = (reading: Reading) => reading.losses.filter((loss) => loss.code === "conflict").map(({ path, detail }) => [path, detail]);

const GOOD = '{"namespace":"cider"}';
const EVIL = '{"namespace":"kube-system"}';

describe("two dialects in one span", () => {
  // Which of the two is read first is the order of the sources (read-spans.ts); the other is the copy.
  const dialects: Array<[string, (args: string) => Tag[], "indexed" | "other"]> = [
    ["GenAI messages", (args) => [genAiOutput(args)], "other"],
    ["OpenInference flattened messages", openInferenceCall, "indexed"],
    ["Vercel's tool calls", (args) => [vercelCalls(args)], "other"],
  ];
  for (const [dialect, other, first] of dialects) {
    test(`indexed gen_ai.completion beside ${dialect} that hold the call otherwise: the call is not read`, () => {
      const reading = jaeger([{ id: "s1", name: "openai.chat", start: 1, tags: [...prompt, ...indexedCall(GOOD), ...other(EVIL)] }]);
      expect(calls(reading)).toEqual([]);
      expect(conflicts(reading)).toHaveLength(2);
      expect(reading.messages.read).toBe(reading.messages.emitted + reading.messages.repeated + reading.messages.reported);
    });

    test(`indexed gen_ai.completion beside ${dialect} that hold the same call: read once, the copy still reported left behind`, () => {
      const spaced = '{ "namespace": "cider" }';
      const reading = jaeger([{ id: "s1", name: "openai.chat", start: 1, tags: [...prompt, ...indexedCall(GOOD), ...other(spaced)] }]);
      expect(calls(reading)).toEqual([{ type: "function_call", call_id: "call_1", name: "list_releases", arguments: first === "indexed" || dialect === "GenAI messages" ? GOOD : spaced, status: "completed" }]);
      expect(conflicts(reading)).toEqual([]);
      const copy = first === "indexed" ? other(GOOD) : indexedCall(GOOD);
      const copyKeys = copy.map(([key]) => `the attribute ${key} is in no item`);
      expect(reading.losses.filter((loss) => loss.code === "left_behind" && copyKeys.includes(loss.detail))).toHaveLength(copyKeys.length);
    });
  }

  test("a copy of the answer whose call is an earlier span's: the answer's own call is not read, the earlier one is", () => {
    const first: JaegerSpan = { id: "s1", name: "openai.chat", start: 1, tags: [...prompt, ...indexedCall(GOOD)] };
    const secondCall: Tag[] = [
      ["gen_ai.completion.0.role", "assistant"],
      ["gen_ai.completion.0.tool_calls.0.id", "call_2"],
      ["gen_ai.completion.0.tool_calls.0.name", "list_releases"],
      ["gen_ai.completion.0.tool_calls.0.arguments", EVIL],
    ];
    const second: JaegerSpan = { id: "s2", name: "openai.chat", start: 2, tags: [...prompt, ...secondCall, ...openInferenceCall(GOOD)] };
    const reading = jaeger([first, second]);
    expect(calls(reading).map((call) => call.call_id)).toEqual(["call_1"]);
    expect(conflicts(reading)).toHaveLength(2);
  });

  test("a copy that says the answer was cut at the length limit: the call it calls complete is not read", () => {
    const cut = JSON.stringify({ object: "chat.completion", choices: [{ index: 0, finish_reason: "length", message: { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "list_releases", arguments: GOOD } }] } }] });
    const reading = jaeger([{ id: "s1", name: "openai.chat", start: 1, tags: [...prompt, ...indexedCall(GOOD), ["output.value", cut]] }]);
    expect(calls(reading)).toEqual([]);
    expect(conflicts(reading).map(([, detail]) => detail)).toContain('output.value, beside gen_ai.completion.N in the same span, records the call "call_1" as incomplete, where it is completed: two readers would run two calls, so none is read');
  });

  test("a copy that says the answer was cut, of a call that has no id in either copy: the call is not read", () => {
    const noId = (finish: string) => JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", name: "list_releases", arguments: GOOD }], finish_reason: finish }]);
    const cut = JSON.stringify({ content: { role: "model", parts: [{ function_call: { name: "list_releases", args: JSON.parse(GOOD) } }] }, finish_reason: "MAX_TOKENS" });
    const reading = jaeger([{ id: "s1", name: "chat", start: 1, tags: [["gen_ai.operation.name", "chat"], ["gen_ai.input.messages", JSON.stringify([{ role: "user", parts: [{ type: "text", content: "Which releases run in cider?" }] }])], ["gen_ai.output.messages", noId("tool_call")], ["gcp.vertex.agent.llm_response", cut]] }]);
    expect(calls(reading)).toEqual([]);
    expect(conflicts(reading).map(([, detail]) => detail)).toContain(`gcp.vertex.agent.llm_response, beside gen_ai.output.messages in the same span, records the call of "list_releases" with ${GOOD} as incomplete, where it is completed: two readers would run two calls, so none is read`);
  });

  test("a copy whose JSON text names a member twice is unreadable, as the span's own would be", () => {
    const twice = '{"object":"chat.completion","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"list_releases","arguments":"{}","arguments":"{}"}}]}}]}';
    const reading = jaeger([{ id: "s1", name: "openai.chat", start: 1, tags: [...prompt, ...indexedCall(GOOD), ["output.value", twice]] }]);
    expect(reading.losses.filter((loss) => loss.code === "unreadable").map((loss) => loss.path)).toEqual(["/data/0/spans/0/tags/8/value"]);
  });

  test("a copy that holds the call's real id, where the dialect read gave it none: the same call, read once", () => {
    const noId: Tag[] = [
      ["gen_ai.completion.0.role", "assistant"],
      ["gen_ai.completion.0.tool_calls.0.name", "list_releases"],
      ["gen_ai.completion.0.tool_calls.0.arguments", GOOD],
    ];
    const reading = jaeger([{ id: "s1", name: "openai.chat", start: 1, tags: [...prompt, ...noId, ...openInferenceCall(GOOD)] }]);
    expect(calls(reading)).toHaveLength(1);
    expect(conflicts(reading)).toEqual([]);
  });

  test("a float a dialect stored parsed (1.0 read as 1) is the same number as the other dialect's text", () => {
    const parsedFloat: Tag = ["gen_ai.output.messages", '[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"list_releases","arguments":{"namespace":"cider","replicas":2.0}}]}]'];
    const reading = jaeger([{ id: "s1", name: "openai.chat", start: 1, tags: [...prompt, ...indexedCall('{"namespace": "cider", "replicas": 2.0}'), parsedFloat] }]);
    expect(calls(reading)).toHaveLength(1);
    expect(conflicts(reading)).toEqual([]);
  });

  test("the first dialect read is the one that holds the call, and a copy that holds a call it lacks is a conflict of its own", () => {
    const reading = jaeger([{ id: "s1", name: "openai.chat", start: 1, tags: [...prompt, ["gen_ai.completion.0.role", "assistant"], ["gen_ai.completion.0.content", "None run there."], ...openInferenceCall(EVIL)] }]);
    expect(calls(reading)).toEqual([]);
    expect(conflicts(reading)).toEqual([["/data/0/spans/0/tags/5/value", 'llm.output_messages.N, beside gen_ai.completion.N in the same span, records a call "call_1" of "list_releases" with {"namespace":"kube-system"} that the answer it copies does not hold: two readers would run two calls, so none is read']]);
  });
});

describe("a wrapper span around the call", () => {
  const wrapper = (args: string): JaegerSpan => ({ id: "w1", name: "call_llm", start: 1, tags: [["gcp.vertex.agent.llm_response", JSON.stringify({ content: { role: "model", parts: [{ function_call: { id: "call_1", name: "list_releases", args: JSON.parse(args) } }] } })]] });
  const inner: JaegerSpan = { id: "s1", parent: "w1", name: "openai.chat", start: 2, tags: [...prompt, ...indexedCall(GOOD)] };

  test("that holds the call with other arguments: the call is not read, the wrapper's copy named", () => {
    const reading = jaeger([wrapper(EVIL), inner]);
    expect(calls(reading)).toEqual([]);
    expect(conflicts(reading).map(([path]) => path)).toEqual(["/data/0/spans/1/tags/3/value", "/data/0/spans/0/tags/0/value"]);
  });

  test("that holds the same call: read once", () => {
    const reading = jaeger([wrapper(GOOD), inner]);
    expect(calls(reading)).toHaveLength(1);
    expect(conflicts(reading)).toEqual([]);
  });
});

describe("a wrapper span whose recorded request did not allow the call", () => {
  test("the inner call's answer is not read, nor the same call in a later request's history", () => {
    const request = { contents: [{ role: "user", parts: [{ text: "Which releases run in cider?" }] }], config: { tool_config: { function_calling_config: { mode: "NONE" } } } };
    const wrapper: JaegerSpan = { id: "w1", name: "call_llm", start: 1, tags: [["gcp.vertex.agent.llm_request", JSON.stringify(request)]] };
    const inner: JaegerSpan = { id: "s1", parent: "w1", name: "openai.chat", start: 2, tags: [...prompt, ...indexedCall(GOOD)] };
    const later: JaegerSpan = { id: "s2", name: "openai.chat", start: 3, tags: [...prompt, ["gen_ai.prompt.1.role", "assistant"], ["gen_ai.prompt.1.tool_calls.0.id", "call_1"], ["gen_ai.prompt.1.tool_calls.0.name", "list_releases"], ["gen_ai.prompt.1.tool_calls.0.arguments", GOOD], ["gen_ai.completion.0.role", "assistant"], ["gen_ai.completion.0.content", "Done."]] };
    const reading = jaeger([wrapper, inner, later]);
    expect(calls(reading)).toEqual([]);
    expect(conflicts(reading).map(([, detail]) => detail.split(" (")[0])).toEqual([
      'the call of "list_releases" answers a request that did not allow it',
      'a later request\'s history holds the call "call_1", which its own request did not allow: two readers would run two calls, so none is read',
    ]);
    expect(reading.messages.read).toBe(reading.messages.emitted + reading.messages.repeated + reading.messages.reported);
  });
});

describe("a tool span", () => {
  const llm: JaegerSpan = { id: "s1", name: "openai.chat", start: 1, tags: [...prompt, ...indexedCall(GOOD)] };
  const tool = (extra: Tag[]): JaegerSpan => ({ id: "t1", name: "execute_tool list_releases", start: 2, tags: [["gen_ai.operation.name", "execute_tool"], ["gen_ai.tool.call.id", "call_1"], ["gen_ai.tool.call.result", '["cider-press"]'], ...extra] });

  for (const [what, extra] of [
    ["ran the call with other arguments", [["gen_ai.tool.name", "list_releases"], ["gen_ai.tool.call.arguments", EVIL]]],
    ["ran the call under another tool's name", [["gen_ai.tool.name", "delete_releases"]]],
    ["ran it with ADK's other arguments", [["gcp.vertex.agent.tool_call_args", EVIL]]],
  ] as Array<[string, Tag[]]>) {
    test(`that ${what}: the call is not read, its result kept with no call`, () => {
      const reading = jaeger([llm, tool(extra)]);
      expect(calls(reading)).toEqual([]);
      expect(reading.records.map(({ record }) => (record as { type: string }).type)).toEqual(["message", "function_call_output"]);
      expect(conflicts(reading)).toHaveLength(2);
    });
  }

  for (const [what, extra] of [
    ["records no result, but ran the call with other arguments", [["gen_ai.tool.call.arguments", EVIL]]],
    ["says the arguments twice, the second otherwise", [["gen_ai.tool.call.arguments", GOOD], ["input.value", EVIL]]],
    ["says the tool's name twice, the second another tool's", [["gen_ai.tool.name", "list_releases"], ["tool.name", "delete_releases"]]],
  ] as Array<[string, Tag[]]>) {
    test(`that ${what}: the call is not read`, () => {
      const run: JaegerSpan = { id: "t1", name: "execute_tool list_releases", start: 2, tags: [["gen_ai.operation.name", "execute_tool"], ["gen_ai.tool.call.id", "call_1"], ...extra] };
      const reading = jaeger([llm, run]);
      expect(calls(reading)).toEqual([]);
      expect(conflicts(reading).length).toBeGreaterThanOrEqual(2);
    });
  }

  test("of Google ADK, which writes an empty llm_request and llm_response on it, is a tool run: its arguments are compared, and a run that agrees is read as one", () => {
    const adk = (args: string): JaegerSpan => ({ id: "t1", parent: "w1", name: "execute_tool list_releases", start: 3, tags: [["gen_ai.operation.name", "execute_tool"], ["gen_ai.tool.name", "list_releases"], ["gen_ai.tool.call.id", "call_1"], ["gcp.vertex.agent.tool_call_args", args], ["gcp.vertex.agent.tool_response", '{"releases": []}'], ["gcp.vertex.agent.llm_request", "{}"], ["gcp.vertex.agent.llm_response", "{}"]] });
    const callLlm: JaegerSpan = { id: "w1", name: "call_llm", start: 1, tags: [["gen_ai.operation.name", "call_llm"], ["gcp.vertex.agent.llm_request", JSON.stringify({ contents: [{ role: "user", parts: [{ text: "Which releases run in cider?" }] }] })], ["gcp.vertex.agent.llm_response", JSON.stringify({ content: { role: "model", parts: [{ function_call: { id: "call_1", name: "list_releases", args: { namespace: "cider" } } }] } })]] };
    const agreeing = jaeger([callLlm, adk(GOOD)]);
    expect(agreeing.units.map((unit) => unit.fate)).toEqual(["llm_call", "tool"]);
    expect(calls(agreeing)).toHaveLength(1);
    expect(conflicts(agreeing)).toEqual([]);
    expect(calls(jaeger([callLlm, adk(EVIL)]))).toEqual([]);
  });

  test("that starts before the span that holds its call, and ran it with other arguments: the call is not read", () => {
    const early: JaegerSpan = { id: "t1", name: "execute_tool list_releases", start: 0, tags: [["gen_ai.operation.name", "execute_tool"], ["gen_ai.tool.call.id", "call_1"], ["gen_ai.tool.name", "list_releases"], ["gen_ai.tool.call.arguments", EVIL]] };
    const reading = jaeger([early, llm]);
    expect(calls(reading)).toEqual([]);
    expect(conflicts(reading).map(([, detail]) => detail)).toContain(`the tool span ran the call "call_1" with the arguments ${EVIL}, where the call says "list_releases" with ${GOOD}: two readers would run two calls, so none is read`);
    const agreeing = { ...early, tags: early.tags.map(([key, value]): Tag => [key, key === "gen_ai.tool.call.arguments" ? GOOD : value]) };
    expect(calls(jaeger([agreeing, llm]))).toHaveLength(1);
  });

  test("whose call id is written as an integer (an OTLP intValue) is the call of those digits: its other arguments are seen", () => {
    const attribute = (key: string, value: object) => ({ key, value });
    const chat = { traceId: "7a1c", spanId: "s1", name: "chat", startTimeUnixNano: "1", attributes: [attribute("gen_ai.operation.name", { stringValue: "chat" }), attribute("gen_ai.output.messages", { stringValue: JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "123", name: "list_releases", arguments: GOOD }] }]) })] };
    const run = { traceId: "7a1c", spanId: "t1", name: "execute_tool", startTimeUnixNano: "2", attributes: [attribute("gen_ai.operation.name", { stringValue: "execute_tool" }), attribute("gen_ai.tool.name", { stringValue: "list_releases" }), attribute("gen_ai.tool.call.id", { intValue: "123" }), attribute("gen_ai.tool.call.arguments", { stringValue: EVIL })] };
    const reading = READERS.otlp.read({ resourceSpans: [{ scopeSpans: [{ spans: [chat, run] }] }] });
    expect(calls(reading)).toEqual([]);
    expect(conflicts(reading)).toHaveLength(2);
  });

  test("that ran the call as it is written, member order and spacing aside: its result", () => {
    const reading = jaeger([llm, tool([["gen_ai.tool.name", "list_releases"], ["gen_ai.tool.call.arguments", '{ "namespace" : "cider" }']])]);
    expect(calls(reading)).toHaveLength(1);
    expect(conflicts(reading)).toEqual([]);
  });
});

describe("a later request whose history holds the call otherwise", () => {
  test("the call is not read, in either order", () => {
    for (const [first, second] of [
      [GOOD, EVIL],
      [EVIL, GOOD],
    ]) {
      const history: Tag[] = [
        ...prompt,
        ["gen_ai.prompt.1.role", "assistant"],
        ["gen_ai.prompt.1.tool_calls.0.id", "call_1"],
        ["gen_ai.prompt.1.tool_calls.0.name", "list_releases"],
        ["gen_ai.prompt.1.tool_calls.0.arguments", second],
        ["gen_ai.completion.0.role", "assistant"],
        ["gen_ai.completion.0.content", "Done."],
      ];
      const reading = jaeger([
        { id: "s1", name: "openai.chat", start: 1, tags: [...prompt, ...indexedCall(first)] },
        { id: "s2", name: "openai.chat", start: 2, tags: history },
      ]);
      expect(calls(reading)).toEqual([]);
      expect(conflicts(reading)).toHaveLength(2);
    }
  });
});

describe("a Langfuse observation", () => {
  const generation = (metadata: Record<string, unknown>) => ({
    id: "o1",
    traceId: "tr1",
    type: "GENERATION",
    startTime: "2026-01-01T00:00:00.000Z",
    input: [{ role: "user", content: "Which releases run in cider?" }],
    output: { role: "assistant", content: "", tool_calls: [{ id: "call_1", type: "function", function: { name: "list_releases", arguments: GOOD } }] },
    metadata,
  });
  const download = (observations: unknown[]) => READERS.langfuse.read({ trace: { id: "tr1" }, observations });

  test("whose attributes hold the call otherwise than its output: the call is not read", () => {
    const reading = download([generation({ attributes: { "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "list_releases", arguments: { namespace: "kube-system" } }] }]) } })]);
    expect(calls(reading)).toEqual([]);
    expect(conflicts(reading)).toHaveLength(2);
  });

  test("a SPAN around the generation whose attributes hold the call otherwise (the Vercel AI SDK's ai.generateText): the call is not read", () => {
    const wrapper = (args: string) => ({ id: "p1", traceId: "tr1", type: "SPAN", name: "ai.generateText", startTime: "2025-12-31T23:59:59.000Z", metadata: { attributes: { "ai.response.toolCalls": JSON.stringify([{ toolCallId: "call_1", toolName: "list_releases", input: args }]) } } });
    const inner = { ...generation({}), parentObservationId: "p1" };
    const reading = download([wrapper(EVIL), inner]);
    expect(calls(reading)).toEqual([]);
    expect(conflicts(reading)).toHaveLength(2);
    expect(calls(download([wrapper(GOOD), inner]))).toHaveLength(1);
  });

  test("a TOOL named after another tool than the call's, whose output names no tool: the call is not read", () => {
    const tool = (name: string) => ({ id: "o2", traceId: "tr1", type: "TOOL", name, startTime: "2026-01-01T00:00:01.000Z", output: { type: "tool", tool_call_id: "call_1", content: '["cider-press"]' } });
    const reading = download([generation({}), tool("delete_releases")]);
    expect(calls(reading)).toEqual([]);
    expect(conflicts(reading).map(([, detail]) => detail)).toContain(`the tool span ran the call "call_1" as the tool "delete_releases", where the call says "list_releases" with ${GOOD}: two readers would run two calls, so none is read`);
    expect(calls(download([generation({}), tool("list_releases")]))).toHaveLength(1);
  });

  test("a TOOL whose input names a member twice: the call is not read, whichever value a reader keeps", () => {
    const reading = download([generation({}), { id: "o2", traceId: "tr1", type: "TOOL", name: "list_releases", startTime: "2026-01-01T00:00:01.000Z", input: '{"namespace":"kube-system","namespace":"cider"}', output: '["cider-press"]', metadata: { attributes: { "gen_ai.tool.call.id": "call_1" } } }]);
    expect(calls(reading)).toEqual([]);
    expect(conflicts(reading).map(([path]) => path)).toEqual(["/observations/0/output/tool_calls/0", "/observations/1/input"]);
  });

  test("a TOOL whose input, stored as an object, is other arguments: the call is not read", () => {
    const reading = download([generation({}), { id: "o2", traceId: "tr1", type: "TOOL", name: "list_releases", startTime: "2026-01-01T00:00:01.000Z", input: { namespace: "kube-system" }, output: '["cider-press"]', metadata: { attributes: { "gen_ai.tool.call.id": "call_1" } } }]);
    expect(calls(reading)).toEqual([]);
    expect(conflicts(reading).map(([path]) => path)).toEqual(["/observations/0/output/tool_calls/0", "/observations/1/input"]);
  });
});
