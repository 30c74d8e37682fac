// What a stored log holds that no record carries is reported left_behind: the
// content of a span, observation or trace (an attribute no dialect reads, usage,
// a model's name, events, an error status, tags) at its own place, and its
// transport (ids, times, a page's cursors) once for each span or page.
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { PROCESSES_TRANSPORT_DETAIL, QUERY_TRANSPORT_DETAIL } from "../../../adapters/jaeger/index.js";
import { RESOURCE_TRANSPORT_DETAIL, SCOPE_TRANSPORT_DETAIL } from "../../../adapters/otlp/index.js";
import { runOrbridge } from "../../support/run-cli.js";

const SPAN_TRANSPORT = "the span's ids, name, times and the exporter's bookkeeping are transport of the trace: no item holds them";
const attribute = (key: string, value: Record<string, unknown>) => ({ key, value });
const text = (value: unknown) => ({ stringValue: typeof value === "string" ? value : JSON.stringify(value) });

const otlp = {
  resourceSpans: [
    {
      resource: { attributes: [attribute("service.name", text("shop"))] },
      scopeSpans: [
        {
          scope: { name: "genai" },
          spans: [
            {
              traceId: "t1",
              spanId: "s1",
              name: "chat gpt-4o",
              kind: 3,
              startTimeUnixNano: "1000",
              endTimeUnixNano: "2000",
              attributes: [
                attribute("gen_ai.operation.name", text("chat")),
                attribute("gen_ai.request.model", text("gpt-4o")),
                attribute("gen_ai.usage.input_tokens", { intValue: "12" }),
                attribute("gen_ai.input.messages", text([{ role: "user", parts: [{ type: "text", content: "Is the shop open?" }] }])),
                attribute("gen_ai.output.messages", text([{ role: "assistant", parts: [{ type: "text", content: "Until six." }], finish_reason: "stop" }])),
              ],
              events: [{ name: "gen_ai.choice", timeUnixNano: "2000" }],
              status: { code: 2, message: "rate limited" },
            },
            // A span with no message: accounted for by its fate, its fields not read one by one.
            { traceId: "t1", spanId: "s0", name: "HTTP POST", kind: 2, startTimeUnixNano: "900", attributes: [attribute("http.url", text("/chat"))], status: { code: 1 } },
          ],
        },
      ],
    },
  ],
};
const span = "/resourceSpans/0/scopeSpans/0/spans/0";

const langfuse = {
  trace: { id: "tr1", name: "support", timestamp: "2025-01-01T00:00:00Z", tags: ["beta"], userId: "u1", sessionId: null, input: "Is the shop open?", observations: ["ob1"] },
  observations: [
    {
      id: "ob1",
      traceId: "tr1",
      type: "GENERATION",
      name: "chat",
      startTime: "2025-01-01T00:00:00Z",
      endTime: "2025-01-01T00:00:01Z",
      level: "DEFAULT",
      model: "gpt-4o",
      usage: { input: 12, output: 3 },
      input: [{ role: "user", content: "Is the shop open?" }],
      output: { role: "assistant", content: "Until six." },
      metadata: { attributes: { "gen_ai.request.model": "gpt-4o" }, scope: { name: "langfuse" } },
    },
  ],
};

const jaeger = {
  data: [
    {
      traceID: "t1",
      spans: [
        {
          traceID: "t1",
          spanID: "s1",
          operationName: "openai.chat",
          references: [],
          startTime: 1,
          duration: 5,
          tags: [
            { key: "gen_ai.prompt.0.role", type: "string", value: "user" },
            { key: "gen_ai.prompt.0.content", type: "string", value: "Is the shop open?" },
            { key: "gen_ai.completion.0.role", type: "string", value: "assistant" },
            { key: "gen_ai.completion.0.content", type: "string", value: "Until six." },
            { key: "gen_ai.usage.prompt_tokens", type: "int64", value: 12 },
          ],
          logs: [{ timestamp: 3, fields: [{ key: "event", type: "string", value: "retry" }] }],
          processID: "p1",
          warnings: null,
        },
      ],
      processes: { p1: { serviceName: "shop", tags: [] } },
    },
  ],
};

const completion = { id: "chatcmpl-1", object: "chat.completion", created: 1, model: "gpt-4o", choices: [{ index: 0, message: { role: "assistant", content: "Until six." }, finish_reason: "stop" }] };
const page = { object: "list", data: [completion], first_id: "chatcmpl-1", last_id: "chatcmpl-1", has_more: false };

describe("otlp", () => {
  test("an LLM span's unread attributes, its events and its error status at their places, its transport once", () => {
    const reading = READERS.otlp.read(otlp);
    expect(reading.records.map((record) => record.record)).toEqual([
      { type: "message", role: "user", content: [{ type: "input_text", text: "Is the shop open?" }] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Until six." }] },
    ]);
    expect(reading.losses).toEqual([
      // Outside the span's place: the resource and the scope, each said once.
      { path: "/resourceSpans/0/resource", code: "left_behind", detail: RESOURCE_TRANSPORT_DETAIL },
      { path: "/resourceSpans/0/scopeSpans/0/scope", code: "left_behind", detail: SCOPE_TRANSPORT_DETAIL },
      { path: span, code: "left_behind", detail: SPAN_TRANSPORT, span: "s1" },
      { path: `${span}/attributes/1/value/stringValue`, code: "left_behind", detail: "the attribute gen_ai.request.model is in no item", span: "s1" },
      { path: `${span}/attributes/2/value/intValue`, code: "left_behind", detail: "the attribute gen_ai.usage.input_tokens is in no item", span: "s1" },
      { path: `${span}/events`, code: "left_behind", detail: "the span's field events is in no item", span: "s1" },
      { path: `${span}/status`, code: "left_behind", detail: "the span's field status is in no item", span: "s1" },
    ]);
  });
});

describe("langfuse", () => {
  test("the trace's own fields and the observation's model, usage and metadata at their places", () => {
    const reading = READERS.langfuse.read(langfuse);
    expect(reading.records.map((record) => record.record)).toEqual([
      { type: "message", role: "user", content: "Is the shop open?" },
      { type: "message", role: "assistant", content: "Until six." },
    ]);
    expect(reading.losses).toEqual([
      { path: "/trace", code: "left_behind", detail: "the trace's id, name, timestamp and Langfuse's bookkeeping are transport: no item holds them" },
      { path: "/trace/tags", code: "left_behind", detail: "the trace's field tags is in no item" },
      { path: "/trace/userId", code: "left_behind", detail: "the trace's field userId is in no item" },
      { path: "/trace/input", code: "left_behind", detail: "the trace's field input is in no item" },
      { path: "/trace/observations", code: "left_behind", detail: "the trace's field observations is in no item" },
      { path: "/observations/0", code: "left_behind", detail: SPAN_TRANSPORT, span: "ob1" },
      { path: "/observations/0/metadata/attributes/gen_ai.request.model", code: "left_behind", detail: "the attribute gen_ai.request.model is in no item", span: "ob1" },
      { path: "/observations/0/model", code: "left_behind", detail: "the span's field model is in no item", span: "ob1" },
      { path: "/observations/0/usage", code: "left_behind", detail: "the span's field usage is in no item", span: "ob1" },
      { path: "/observations/0/metadata/scope", code: "left_behind", detail: "the span's field metadata.scope is in no item", span: "ob1" },
    ]);
  });
});

describe("jaeger", () => {
  test("a tag no dialect reads and the span's logs at their places; the indexed messages' tags are read", () => {
    const reading = READERS.jaeger.read(jaeger);
    expect(reading.records.map((record) => record.record)).toEqual([
      { type: "message", role: "user", content: "Is the shop open?" },
      { type: "message", role: "assistant", content: "Until six." },
    ]);
    expect(reading.losses).toEqual([
      { path: "/data/0/processes", code: "left_behind", detail: PROCESSES_TRANSPORT_DETAIL },
      { path: "/data/0/spans/0", code: "left_behind", detail: SPAN_TRANSPORT, span: "s1" },
      { path: "/data/0/spans/0/tags/4/value", code: "left_behind", detail: "the attribute gen_ai.usage.prompt_tokens is in no item", span: "s1" },
      { path: "/data/0/spans/0/logs", code: "left_behind", detail: "the span's field logs is in no item", span: "s1" },
    ]);
  });
});

describe("openai-list", () => {
  test("a page's cursors are transport, said once for the page; the completion is the record, whole", () => {
    const reading = READERS["openai-list"].read(page);
    expect(reading.records).toEqual([{ record: completion, conversation: "chatcmpl-1", path: "/data/0" }]);
    expect(reading.losses).toEqual([{ path: "", code: "left_behind", detail: "a page's object, first_id, last_id and has_more, and the recorded request around it, are transport of the listing: no record holds them" }]);
  });
});

describe("a request or completion stored whole in an attribute", () => {
  test("its model, settings, usage and ids are each reported at their place in its JSON text", () => {
    const request = { messages: [{ role: "user", content: "Is the shop open?" }], model: "gpt-4o", temperature: 0.2 };
    const answer = { id: "chatcmpl-1", object: "chat.completion", model: "gpt-4o", choices: [{ index: 0, message: { role: "assistant", content: "Until six." }, finish_reason: "stop", logprobs: { content: [] } }], usage: { prompt_tokens: 3 } };
    const bare = { name: "chat", kind: 3, spanId: "s1", traceId: "t1", attributes: { "openinference.span.kind": "LLM", "input.value": JSON.stringify(request), "output.value": JSON.stringify(answer) } };
    const reading = READERS.otlp.read(bare);
    expect(reading.records.map((record) => record.record)).toEqual([
      { type: "message", role: "user", content: "Is the shop open?" },
      { type: "message", role: "assistant", content: "Until six." },
    ]);
    const input = "/attributes/input.value";
    const output = "/attributes/output.value";
    expect(reading.losses).toEqual([
      { path: input, code: "left_behind", detail: "model of the request is in no item (at /model in its JSON text)", span: "s1" },
      { path: input, code: "left_behind", detail: "temperature of the request is in no item (at /temperature in its JSON text)", span: "s1" },
      { path: output, code: "left_behind", detail: "logprobs of the choice is in no item (at /choices/0/logprobs in its JSON text)", span: "s1" },
      { path: output, code: "left_behind", detail: "id of the completion is in no item (at /id in its JSON text)", span: "s1" },
      { path: output, code: "left_behind", detail: "model of the completion is in no item (at /model in its JSON text)", span: "s1" },
      { path: output, code: "left_behind", detail: "usage of the completion is in no item (at /usage in its JSON text)", span: "s1" },
      { path: "", code: "left_behind", detail: SPAN_TRANSPORT, span: "s1" },
    ]);
  });
});

describe("on stderr", { timeout: 30_000 }, () => {
  test("each thing left behind is said once, at its first place, with how many more hold the same", async () => {
    const twoSpans = { ...jaeger, data: [{ ...jaeger.data[0]!, spans: [jaeger.data[0]!.spans[0]!, { ...jaeger.data[0]!.spans[0]!, spanID: "s2", startTime: 2 }] }] };
    // Read from JSONL, a document a line: the pointers start at the line's document.
    const run = await runOrbridge(["normalize", "--from", "jaeger", "-"], JSON.stringify(twoSpans));
    expect(run.stderr.split("\n").filter((line) => line.includes("left_behind"))).toEqual([
      `orbridge: -#/0/data/0/processes: left_behind: ${PROCESSES_TRANSPORT_DETAIL}`,
      `orbridge: -#/0/data/0/spans/0 (span s1) and 1 more: left_behind: ${SPAN_TRANSPORT}`,
      "orbridge: -#/0/data/0/spans/0/tags/4/value (span s1) and 1 more: left_behind: the attribute gen_ai.usage.prompt_tokens is in no item",
      "orbridge: -#/0/data/0/spans/0/logs (span s1) and 1 more: left_behind: the span's field logs is in no item",
    ]);
  });
});

describe("a Jaeger query answer", () => {
  test("its total, limit and offset are said once as transport, and errors it answered with are reported", () => {
    const answer = { ...jaeger, total: 0, limit: 0, offset: 0, errors: [{ code: 500, msg: "storage timed out" }] };
    const losses = READERS.jaeger.read(answer).losses.filter((loss) => !loss.path.startsWith("/data/"));
    expect(losses).toEqual([
      { path: "/total", code: "left_behind", detail: QUERY_TRANSPORT_DETAIL },
      { path: "/errors", code: "left_behind", detail: "the errors the query answered with are in no item" },
    ]);
  });
});
