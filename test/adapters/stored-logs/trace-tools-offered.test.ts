// The tools a recorded request offered the model limit the calls of its answer
// that are read, as its tool choice does: a call of a tool it did not offer is
// not read (`conflict`), as the gate blocks the same call in a recorded exchange.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { offeredCalls } from "../../../adapters/spans/allowed-calls.js";
import type { Reading } from "../../../adapters/stored-log/reading.js";
import { runOrbridge } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

const offers = (value: unknown) => {
  const allowed = offeredCalls({ value, path: "/tools" });
  return allowed.every ? "every" : [...allowed.names];
};

describe("the tools a request offered", () => {
  it("offer the functions they define, in the Chat, Responses, Anthropic and Gemini forms", () => {
    expect(offers([{ type: "function", function: { name: "a", parameters: {} } }])).toEqual(["a"]);
    expect(offers([{ type: "function", name: "a", parameters: {} }])).toEqual(["a"]);
    expect(offers([{ name: "a", input_schema: {} }])).toEqual(["a"]);
    expect(offers([{ function_declarations: [{ name: "a" }, { name: "b" }] }, { googleSearch: {} }])).toEqual(["a", "b"]);
    expect(offers([{ functionDeclarations: [{ name: "a" }] }])).toEqual(["a"]);
  });

  it("offer no function for a tool of another type, and none at all when empty", () => {
    expect(offers([{ type: "web_search" }, { code_execution: {} }])).toEqual([]);
    expect(offers([])).toEqual([]);
    const empty = offeredCalls({ value: [], path: "/tools" });
    expect(empty.every ? "" : empty.said).toBe("the request offered no tool (its tools are empty)");
  });

  it("that cannot be read, or define a function two ways, offer none, and say why", () => {
    for (const value of ["get_weather", { type: "function" }, [42], [{ type: "function" }], [{ type: "function", function: { name: "a" }, name: "b" }], [{ function_declarations: [{ name: "a" }], functionDeclarations: [{ name: "b" }] }], [{ mystery: true }]]) {
      expect(offers(value)).toEqual([]);
    }
    const unread = offeredCalls({ value: [42], path: "/tools" });
    expect(unread.every ? "" : unread.said).toBe("the request's tools [42] are of no form orbridge reads, so they offer no tool");
  });
});

const text = (key: string, value: string) => ({ key, value: { stringValue: value } });
const WEATHER = { type: "function", function: { name: "get_weather", parameters: {} } };

/** An OpenInference LLM span whose answer calls `called`, with the attributes given beside. */
function openInferenceSpan(called: string, attributes: unknown[]) {
  return {
    name: "ChatCompletion",
    traceId: "aa",
    spanId: "01",
    startTimeUnixNano: "5",
    attributes: [
      text("openinference.span.kind", "LLM"),
      ...attributes,
      text("llm.input_messages.0.message.role", "user"),
      text("llm.input_messages.0.message.content", "weather?"),
      text("llm.output_messages.0.message.role", "assistant"),
      text("llm.output_messages.0.message.tool_calls.0.tool_call.id", "call_1"),
      text("llm.output_messages.0.message.tool_calls.0.tool_call.function.name", called),
      text("llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments", called === "get_weather" ? '{"city":"Paris"}' : '{"path":"/tmp/x"}'),
    ],
  };
}

const calls = (reading: Reading) => reading.records.map(({ record }) => record as { type: string; name?: string }).filter((record) => record.type === "function_call").map((call) => call.name);
const conflicts = (reading: Reading) => reading.losses.filter((loss) => loss.code === "conflict").map(({ path, detail }) => [path, detail]);

describe("a span whose request offered tools", () => {
  const OFFERED_BY = [
    ["OpenInference's llm.tools.N.tool.json_schema", [text("llm.tools.0.tool.json_schema", JSON.stringify(WEATHER))], "/attributes/1/value/stringValue"],
    ["the request body in input.value", [text("input.value", JSON.stringify({ messages: [{ role: "user", content: "weather?" }], model: "m", tools: [WEATHER] }))], "/attributes/1/value/stringValue, /tools in its JSON text"],
    ["Vercel's ai.prompt.tools, one JSON text a tool", [{ key: "ai.prompt.tools", value: { arrayValue: { values: [{ stringValue: JSON.stringify({ type: "function", name: "get_weather", parameters: {} }) }] } } }], "/attributes/1/value/arrayValue"],
    ["OTel GenAI's gen_ai.tool.definitions", [text("gen_ai.tool.definitions", JSON.stringify([{ type: "function", name: "get_weather", parameters: {} }]))], "/attributes/1/value/stringValue"],
  ] as const;

  for (const [where, attributes, path] of OFFERED_BY) {
    it(`does not read a call of a tool it did not offer: ${where}`, () => {
      const reading = READERS.otlp.read(openInferenceSpan("delete_file", [...attributes]));
      expect(calls(reading)).toEqual([]);
      expect(conflicts(reading)).toEqual([["/attributes/4/value/stringValue", `the call of "delete_file" answers a request that did not allow it (the request's tools offer "get_weather" alone, at ${path}): not read`]]);
      expect(reading.messages).toEqual({ read: 2, emitted: 1, repeated: 0, reported: 1 });
    });

    it(`reads a call of a tool it offered: ${where}`, () => {
      const reading = READERS.otlp.read(openInferenceSpan("get_weather", [...attributes]));
      expect(calls(reading)).toEqual(["get_weather"]);
      expect(conflicts(reading)).toEqual([]);
    });
  }

  it("that offered an empty list: no call is read", () => {
    const reading = READERS.otlp.read(openInferenceSpan("get_weather", [text("gen_ai.tool.definitions", "[]")]));
    expect(calls(reading)).toEqual([]);
    expect(conflicts(reading)).toEqual([["/attributes/4/value/stringValue", 'the call of "get_weather" answers a request that did not allow it (the request offered no tool (its tools are empty), at /attributes/1/value/stringValue): not read']]);
  });

  it("whose tools cannot be read: no call is read, and the reason is said", () => {
    const reading = READERS.otlp.read(openInferenceSpan("get_weather", [text("llm.tools.0.tool.json_schema", '{"type": "function", "function": {"name": "get_wea')]));
    expect(calls(reading)).toEqual([]);
    expect(conflicts(reading).map(([, detail]) => detail)).toEqual([
      'the call of "get_weather" answers a request that did not allow it (the request\'s tools cannot be read (llm.tools.0.tool.json_schema is JSON text that does not parse, or names a member twice), so they offer no tool, at /attributes/1/value/stringValue): not read',
    ]);
  });

  it("in a request body whose JSON text is cut short: no call is read", () => {
    const reading = READERS.otlp.read(openInferenceSpan("get_weather", [text("input.value", '{"messages": [{"role": "user", "content": "weather?"}], "tools": [{"type": "func')]));
    expect(calls(reading)).toEqual([]);
    expect(conflicts(reading).map(([, detail]) => detail)).toEqual([
      'the call of "get_weather" answers a request that did not allow it (the request\'s tools cannot be read (the request body holding them is JSON text that does not parse, or names a member twice), so they offer no tool, at /attributes/1/value/stringValue): not read',
    ]);
  });

  it("with both tools and legacy functions: a function of either may be called", () => {
    const body = { messages: [{ role: "user", content: "weather?" }], tools: [{ type: "function", function: { name: "list_files" } }], functions: [{ name: "get_weather", parameters: {} }] };
    expect(calls(READERS.otlp.read(openInferenceSpan("get_weather", [text("input.value", JSON.stringify(body))])))).toEqual(["get_weather"]);
    expect(calls(READERS.otlp.read(openInferenceSpan("delete_file", [text("input.value", JSON.stringify(body))])))).toEqual([]);
  });

  it("in a Langfuse generation's input: a call of another tool is not read", () => {
    const reading = READERS.langfuse.read({
      trace: { id: "t1", name: "x" },
      observations: [
        {
          id: "o1",
          type: "GENERATION",
          name: "gen",
          startTime: "2025-01-01T00:00:00.000Z",
          input: { messages: [{ role: "user", content: "hi" }], tools: [WEATHER] },
          output: { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "delete_file", arguments: '{"path":"/tmp/x"}' } }] },
        },
      ],
    });
    expect(calls(reading)).toEqual([]);
    expect(conflicts(reading)).toEqual([["/observations/0/output/tool_calls/0", 'the call of "delete_file" answers a request that did not allow it (the request\'s tools offer "get_weather" alone, at /observations/0/input/tools): not read']]);
  });

  it("in a wrapper's request (ADK's call_llm): holds for the call inside it", () => {
    const wrapper = { name: "call_llm", traceId: "aa", spanId: "0a", startTimeUnixNano: "5", attributes: [text("gen_ai.operation.name", "call_llm"), text("gcp.vertex.agent.llm_request", JSON.stringify({ model: "m", contents: [{ role: "user", parts: [{ text: "weather?" }] }], config: { tools: [{ function_declarations: [{ name: "get_weather" }] }] } }))] };
    const inner = { ...openInferenceSpan("delete_file", []), parentSpanId: "0a", startTimeUnixNano: "6" };
    const reading = READERS.otlp.read([inner, wrapper]);
    expect(calls(reading)).toEqual([]);
    expect(conflicts(reading)).toEqual([["/0/attributes/3/value/stringValue", 'the call of "delete_file" answers a request that did not allow it (the request\'s tools offer "get_weather" alone, at /1/attributes/1/value/stringValue, /config/tools in its JSON text): not read']]);
  });
});

describe("the gate on a span whose request did not offer the tool called", () => {
  it("blocks the call, as it blocks it in the same exchange recorded as {request, response}", async () => {
    const folder = scratchFolder("tools-offered");
    const trace = join(folder, "span.json");
    writeFileSync(trace, JSON.stringify(openInferenceSpan("delete_file", [text("llm.tools.0.tool.json_schema", JSON.stringify(WEATHER))])));
    const exchange = join(folder, "exchange.jsonl");
    writeFileSync(exchange, `${JSON.stringify({ request: { model: "m", messages: [{ role: "user", content: "weather?" }], tools: [WEATHER] }, response: { id: "chatcmpl-1", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "delete_file", arguments: '{"path":"/tmp/x"}' } }] } }] } })}\n`);
    const fromTrace = await runOrbridge(["gate", trace]);
    expect(fromTrace.code).toBe(1);
    expect(fromTrace.stdout).not.toMatch(/function_call call_1 +pass/);
    expect(fromTrace.stdout).toMatch(/BLOCKED error: conflict: .*the call of "delete_file" answers a request that did not allow it/);
    const fromExchange = await runOrbridge(["gate", exchange]);
    expect(fromExchange.code).toBe(1);
    expect(fromExchange.stdout).toMatch(/function_call call_1 +BLOCKED .*\n +tool_not_allowed: "delete_file" is not allowed/);
  });
});
