// The calls a recorded request allowed, from its tool choice in each provider's
// form; a form orbridge does not read allows none.
import { describe, expect, it } from "vitest";
import { allowedCalls } from "../../../adapters/spans/allowed-calls.js";
import { READERS } from "../../../adapters/index.js";

const names = (value: unknown, gemini = false) => {
  const allowed = allowedCalls({ value, path: "/c", ...(gemini ? { gemini } : {}) });
  return allowed.every ? "every" : [...allowed.names];
};

describe("a request's tool choice", () => {
  it("allows every tool when it lets the model choose or requires a call", () => {
    for (const value of ["auto", "required", "any", { type: "auto" }, { type: "any" }]) expect(names(value)).toBe("every");
  });

  it("allows none when it says none, in a string or an object", () => {
    expect(names("none")).toEqual([]);
    expect(names({ type: "none" })).toEqual([]);
  });

  it("allows the one tool it names, in the Chat, Responses and Anthropic forms", () => {
    expect(names({ type: "function", function: { name: "lookup" } })).toEqual(["lookup"]);
    expect(names({ type: "function", name: "lookup" })).toEqual(["lookup"]);
    expect(names({ type: "tool", name: "lookup" })).toEqual(["lookup"]);
  });

  it("allows the functions an allowed_tools list names, in the Chat and Responses forms", () => {
    expect(names({ type: "allowed_tools", allowed_tools: { mode: "auto", tools: [{ type: "function", function: { name: "a" } }, { type: "function", function: { name: "b" } }] } })).toEqual(["a", "b"]);
    expect(names({ type: "allowed_tools", mode: "required", tools: [{ type: "function", name: "a" }] })).toEqual(["a"]);
  });

  it("in Gemini's function calling config: NONE allows none, a list its names, else every tool", () => {
    expect(names({ functionCallingConfig: { mode: "NONE", allowedFunctionNames: ["a"] } }, true)).toEqual([]);
    expect(names({ function_calling_config: { mode: "ANY", allowed_function_names: ["a"] } }, true)).toEqual(["a"]);
    expect(names({ functionCallingConfig: { mode: "AUTO" } }, true)).toBe("every");
    expect(names({}, true)).toBe("every");
  });

  it("that says it two ways (a name in both forms, two lists, Gemini's two spellings) allows no tool", () => {
    expect(names({ type: "function", function: { name: "a" }, name: "b" })).toEqual([]);
    expect(names({ type: "function", function: { name: "a" }, name: "a" })).toEqual(["a"]);
    expect(names({ type: "allowed_tools", allowed_tools: { tools: [{ type: "function", function: { name: "a" } }] }, tools: [{ type: "function", name: "b" }] })).toEqual([]);
    expect(names({ function_calling_config: { mode: "NONE" }, functionCallingConfig: { mode: "AUTO" } }, true)).toEqual([]);
    expect(names({ functionCallingConfig: { mode: "ANY", allowed_function_names: ["a"], allowedFunctionNames: ["b"] } }, true)).toEqual([]);
  });

  it("of a form orbridge does not read allows no tool, and says why", () => {
    for (const value of [42, "sometimes", { type: "function" }, { type: "allowed_tools", tools: "a" }, { type: "maybe" }]) expect(names(value)).toEqual([]);
    expect(names({ functionCallingConfig: { mode: "SOMETIMES" } }, true)).toEqual([]);
    // Whatever names it lists: protobuf's JSON reads 3 as NONE, and a mode of no name may forbid them all.
    expect(names({ function_calling_config: { mode: 3, allowed_function_names: ["a"] } }, true)).toEqual([]);
    expect(names({ function_calling_config: { mode: "SOMETIMES", allowed_function_names: ["a"] } }, true)).toEqual([]);
    expect(names({ functionCallingConfig: { mode: null, allowedFunctionNames: ["a"] } }, true)).toEqual([]);
    expect(names({ functionCallingConfig: { mode: "any", allowedFunctionNames: ["a"] } }, true)).toEqual(["a"]);
    const allowed = allowedCalls({ value: "sometimes", path: "/c" });
    expect(allowed.every ? "" : allowed.said).toBe('the request\'s tool choice "sometimes" is of no form orbridge reads, so it allows no tool');
  });
});

/** A Langfuse trace of one generation: the request `input`, a response object whose output is calls of `lookup` with `callIds`. */
const generationOf = (input: unknown, callIds: readonly string[], attributes?: Record<string, string>) => ({
  trace: { id: "tr1" },
  observations: [
    {
      id: "o1",
      traceId: "tr1",
      type: "GENERATION",
      startTime: "2026-01-01T00:00:00.000Z",
      input: JSON.stringify(input),
      output: JSON.stringify({ object: "response", id: "resp_1", status: "completed", output: callIds.map((callId) => ({ type: "function_call", call_id: callId, name: "lookup", arguments: "{}", status: "completed" })) }),
      ...(attributes ? { metadata: { attributes } } : {}),
    },
  ],
});

describe("a stored call whose request did not allow its answer's call", () => {
  const generation = (input: unknown) => generationOf(input, ["call_1"]);
  const read = (input: unknown) => READERS.langfuse.read(generation(input));
  const calls = (reading: ReturnType<typeof read>) => reading.records.filter(({ record }) => (record as { type: string }).type === "function_call");

  it("is not read, and is reported a conflict at the answer, naming the request's place", () => {
    for (const [input, toolChoice] of [[[{ role: "user", content: "go" }], "none"], [[{ role: "user", content: "go" }], { type: "function", name: "other" }], ["go", "none"]] as const) {
      const reading = read({ model: "gpt-4.1", input, tool_choice: toolChoice });
      expect(calls(reading)).toEqual([]);
      expect(reading.losses.filter((loss) => loss.code === "conflict").map(({ path, detail }) => [path, detail.split(" (")[0]])).toEqual([["/observations/0/output", 'the call of "lookup" answers a request that did not allow it']]);
      expect(reading.messages.read).toBe(reading.messages.emitted + reading.messages.repeated + reading.messages.reported);
    }
  });

  it("is not read when the request says its choice twice, allowing other calls: tool_choice beside a legacy function_call, or an input.value beside the input", () => {
    const reading = read({ messages: [{ role: "user", content: "go" }], tool_choice: "auto", function_call: "none" });
    expect(calls(reading)).toEqual([]);
    const agreeing = read({ messages: [{ role: "user", content: "go" }], tool_choice: "auto", function_call: "auto" });
    expect(calls(agreeing)).toHaveLength(1);
  });

  it("is not read when the instrumentation's own attribute forbids it: Vercel's ai.prompt.toolChoice, OpenInference's llm.invocation_parameters", () => {
    for (const attributes of [{ "ai.prompt.toolChoice": '{"type":"none"}' }, { "ai.prompt.toolChoice": '{"type":"tool","toolName":"other"}' }, { "llm.invocation_parameters": '{"tool_choice":"none"}' }, { "llm.invocation_parameters": '{"function_call":{"name":"other"}}' }]) {
      const document = generation({ messages: [{ role: "user", content: "go" }] });
      (document.observations[0] as Record<string, unknown>).metadata = { attributes };
      expect(calls(READERS.langfuse.read(document))).toEqual([]);
    }
    const allowed = generation({ messages: [{ role: "user", content: "go" }] });
    (allowed.observations[0] as Record<string, unknown>).metadata = { attributes: { "ai.prompt.toolChoice": '{"type":"auto"}' } };
    expect(calls(READERS.langfuse.read(allowed))).toHaveLength(1);
  });

  it("is not read when the request writes a limit under a name only a reader folding case or width reads: Tool_choice in the body or in llm.invocation_parameters, a Gemini config's ToolConfig", () => {
    for (const body of [{ messages: [{ role: "user", content: "go" }], Tool_choice: "none" }, { messages: [{ role: "user", content: "go" }], Parallel_tool_calls: false }, { input: [{ role: "user", content: "go" }], model: "m", TOOL_CHOICE: "none" }, { contents: [{ role: "user", parts: [{ text: "go" }] }], config: { ToolConfig: { functionCallingConfig: { mode: "NONE" } } } }]) {
      expect(calls(read(body))).toEqual([]);
    }
    const document = generation({ messages: [{ role: "user", content: "go" }] });
    (document.observations[0] as Record<string, unknown>).metadata = { attributes: { "llm.invocation_parameters": '{"Tool_choice":"none"}' } };
    const reading = READERS.langfuse.read(document);
    expect(calls(reading)).toEqual([]);
    expect(reading.losses.filter((loss) => loss.code === "conflict").map(({ detail }) => detail.split(", at ")[0])).toEqual([
      'the call of "lookup" answers a request that did not allow it (the request writes "/Tool_choice", which only a reader that matches names regardless of case or width (Go\'s encoding/json does) reads as one of its limits, so it allows no tool',
    ]);
  });

  it("is read when the request allowed it, or said nothing of tools", () => {
    expect(calls(read({ messages: [{ role: "user", content: "go" }], tool_choice: { type: "function", function: { name: "lookup" } } }))).toHaveLength(1);
    expect(calls(read({ messages: [{ role: "user", content: "go" }] }))).toHaveLength(1);
  });
});

describe("a stored answer whose request let it make one call", () => {
  const twoCalls = (input: unknown, attributes?: Record<string, string>) => generationOf(input, ["call_1", "call_2"], attributes);
  const callIds = (document: unknown) =>
    READERS.langfuse
      .read(document)
      .records.filter(({ record }) => (record as { type: string }).type === "function_call")
      .map(({ record }) => (record as { call_id: string }).call_id);
  const go = [{ role: "user", content: "go" }];

  it("reads its first call only, and reports each later one a conflict naming the flag and its place", () => {
    const reading = READERS.langfuse.read(twoCalls({ model: "gpt-4.1", input: go, parallel_tool_calls: false }));
    expect(reading.records.filter(({ record }) => (record as { type: string }).type === "function_call").map(({ record }) => (record as { call_id: string }).call_id)).toEqual(["call_1"]);
    expect(reading.losses.filter((loss) => loss.code === "conflict").map(({ path, detail }) => [path, detail])).toEqual([
      ["/observations/0/output", 'the call of "lookup" is call 2 of an answer whose request let it make one (parallel_tool_calls false, at /observations/0/input): not read'],
    ]);
    expect(reading.messages.read).toBe(reading.messages.emitted + reading.messages.repeated + reading.messages.reported);
  });

  it("says so in the request body, in Anthropic's tool_choice, in OpenInference's llm.invocation_parameters, or with a flag that is no boolean", () => {
    expect(callIds(twoCalls({ messages: go, tool_choice: { type: "auto", disable_parallel_tool_use: true } }))).toEqual(["call_1"]);
    expect(callIds(twoCalls({ messages: go }, { "llm.invocation_parameters": '{"parallel_tool_calls": false}' }))).toEqual(["call_1"]);
    expect(callIds(twoCalls({ messages: go }, { "llm.invocation_parameters": '{"tool_choice": {"type": "auto", "disable_parallel_tool_use": true}}' }))).toEqual(["call_1"]);
    expect(callIds(twoCalls({ messages: go, parallel_tool_calls: "false" }))).toEqual(["call_1"]);
    expect(callIds(twoCalls({ messages: go, parallel_tool_calls: 0 }))).toEqual(["call_1"]);
  });

  it("reads every call when the request allows several or says nothing of it", () => {
    expect(callIds(twoCalls({ messages: go, parallel_tool_calls: true }))).toEqual(["call_1", "call_2"]);
    expect(callIds(twoCalls({ messages: go, tool_choice: { type: "auto", disable_parallel_tool_use: false } }))).toEqual(["call_1", "call_2"]);
    expect(callIds(twoCalls({ messages: go }))).toEqual(["call_1", "call_2"]);
  });
});

describe("a stored call to a function its OpenLLMetry span does not list", () => {
  const tag = (key: string, value: string) => ({ key, type: "string", value });
  const trace = (functions: Array<[string, string]>) => ({
    data: [
      {
        traceID: "abc",
        processes: { p1: { serviceName: "agent", tags: [] } },
        spans: [
          {
            traceID: "abc",
            spanID: "s1",
            operationName: "openai.chat",
            references: [],
            startTime: 1,
            duration: 5,
            processID: "p1",
            tags: [
              tag("llm.request.type", "chat"),
              ...functions.map(([key, value]) => tag(`llm.request.functions.${key}`, value)),
              tag("gen_ai.prompt.0.role", "user"),
              tag("gen_ai.prompt.0.content", "tidy up"),
              tag("gen_ai.completion.0.role", "assistant"),
              tag("gen_ai.completion.0.finish_reason", "tool_calls"),
              tag("gen_ai.completion.0.tool_calls.0.id", "call_1"),
              tag("gen_ai.completion.0.tool_calls.0.name", "delete_file"),
              tag("gen_ai.completion.0.tool_calls.0.arguments", '{"path":"/tmp/a"}'),
            ],
          },
        ],
      },
    ],
  });
  const read = (functions: Array<[string, string]>) => READERS.jaeger.read(trace(functions));
  const calls = (reading: ReturnType<typeof read>) => reading.records.filter(({ record }) => (record as { type: string }).type === "function_call");

  it("is not read, and is reported a conflict naming the functions the request offered", () => {
    const reading = read([
      ["0.name", "list_releases"],
      ["0.parameters", '{"type":"object"}'],
      ["1.name", "get_status"],
    ]);
    expect(calls(reading)).toEqual([]);
    expect(reading.losses.filter((loss) => loss.code === "conflict").map(({ detail }) => detail)).toEqual([
      'the call of "delete_file" answers a request that did not allow it (the request\'s tools offer "list_releases", "get_status" alone, at /data/0/spans/0/tags/1/value): not read',
    ]);
  });

  it("is not read when a function of the list gives no name", () => {
    expect(calls(read([["0.name", "delete_file"], ["1.description", "removes a release"]]))).toEqual([]);
  });

  it("is read when the list names its function, or when the span lists none", () => {
    expect(calls(read([["0.name", "delete_file"]]))).toHaveLength(1);
    expect(calls(read([]))).toHaveLength(1);
  });
});
