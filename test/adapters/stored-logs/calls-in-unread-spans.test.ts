// A span read as no LLM call and no tool run is accounted for by its fate and
// not read. A tool call it holds all the same (in a GenAI event of the older
// conventions, or in a GenAI attribute no dialect reads) is said unreadable,
// which the gate blocks, where it was dropped with no loss and the gate passed
// a journal that had lost it.
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { DELETE_FILE, gateVerdicts, lossesOf, records } from "../../support/span-documents.js";

const toolCalls = [{ id: "call_a", type: "function", function: { name: "delete_file", arguments: '{"path":"old.txt"}' } }];

/** An SDK span dict of a chat span that says not what it is (no operation name), with these attributes and fields. */
function unnamedSpan(attributes: Record<string, unknown>, fields: Record<string, unknown> = {}): { spans: unknown[] } {
  return { spans: [{ name: "chat gpt-4o", context: { trace_id: "t1", span_id: "s1" }, parent: null, start_time: 1, attributes: { "gen_ai.system": "openai", ...attributes }, ...fields }] };
}

describe("a call in a GenAI event of a span read as no LLM call", () => {
  const document = unnamedSpan({}, { events: [{ name: "gen_ai.choice", attributes: { "gen_ai.system": "openai", index: 0, finish_reason: "tool_calls", message: JSON.stringify({ tool_calls: toolCalls }) } }] });

  test("is unreadable, the span still other", () => {
    expect(records("otlp", document)).toEqual([]);
    expect(lossesOf("otlp", document, "unreadable")).toEqual([
      { path: "/spans/0/events/0", code: "unreadable", detail: "the span's event gen_ai.choice holds a tool call, and the span is read as no LLM call: not read", span: "s1" },
    ]);
    const reading = READERS.otlp.read(document);
    expect(reading.units).toEqual([{ path: "/spans/0", span: "s1", fate: "other" }]);
    expect(reading.messages).toEqual({ read: 0, emitted: 0, repeated: 0, reported: 1 });
  });

  test("the gate blocks it as a line of its own", async () => {
    expect(await gateVerdicts(document, [DELETE_FILE])).toEqual({ code: 1, verdicts: [["error", true]] });
  });
});

describe("a call in a GenAI attribute no dialect reads", () => {
  const document = unnamedSpan({ "gen_ai.completion": JSON.stringify({ role: "assistant", tool_calls: toolCalls }) });

  test("is unreadable at the attribute", () => {
    expect(lossesOf("otlp", document, "unreadable")).toEqual([
      { path: "/spans/0/attributes/gen_ai.completion", code: "unreadable", detail: "the attribute gen_ai.completion holds a tool call in no form a dialect reads, and the span is read as no LLM call: not read", span: "s1" },
    ]);
  });

  test("a request's history that repeats an earlier answer's call, on a generation that failed before it answered, says nothing", () => {
    const failed = unnamedSpan({ "ai.prompt": JSON.stringify({ messages: [{ role: "user", content: "Delete old.txt" }, { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_a", toolName: "delete_file", input: { path: "old.txt" } }] }] }) }, { status: { status_code: "ERROR" } });
    expect(lossesOf("otlp", failed, "unreadable")).toEqual([]);
  });

  test("a span of other content, or that names its tools only, says nothing", () => {
    const plumbing = unnamedSpan({ "gen_ai.completion": "Paris is sunny.", "gen_ai.tool.definitions": JSON.stringify([{ type: "function", name: "delete_file", tool_call_id: "x" }]), "http.url": "https://example.com/tool_calls" });
    expect(lossesOf("otlp", plumbing, "unreadable")).toEqual([]);
  });
});

describe("a GenAI attribute written twice, its first value a call", () => {
  // OTLP attributes as a list, where a name may come again: the map keeps the last value, a reader that keeps the first sees the call.
  const attribute = (key: string, stringValue: string) => ({ key, value: { stringValue } });
  const span = (...attributes: unknown[]) => ({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: "t1", spanId: "s1", name: "chat gpt-4o", startTimeUnixNano: "1", attributes: [attribute("gen_ai.system", "openai"), ...attributes] }] }] }] });
  const call = JSON.stringify({ role: "assistant", tool_calls: toolCalls });
  const document = span(attribute("gen_ai.completion", call), attribute("gen_ai.completion", "Done."));

  test("is unreadable at its first value", () => {
    expect(lossesOf("otlp", document, "unreadable")).toEqual([
      {
        path: "/resourceSpans/0/scopeSpans/0/spans/0/attributes/1/value/stringValue",
        code: "unreadable",
        detail: "the attribute gen_ai.completion holds a tool call in no form a dialect reads where it is first written, and is written again with another value; the span is read as no LLM call: not read",
        span: "s1",
      },
    ]);
  });

  test("the gate blocks it as a line of its own", async () => {
    expect(await gateVerdicts(document, [DELETE_FILE])).toEqual({ code: 1, verdicts: [["error", true]] });
  });

  test("written twice with values of other content, it says nothing", () => {
    expect(lossesOf("otlp", span(attribute("gen_ai.completion", "Paris is sunny."), attribute("gen_ai.completion", "Done.")), "unreadable")).toEqual([]);
  });
});
