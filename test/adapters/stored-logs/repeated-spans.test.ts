// A span exported again as it was (a collector that retried a delivery, two
// overlapping exports joined) is read once, as its first copy; the others are
// accounted for as repeats. Every copy was taken for a second version of the
// span: none was read, each was unreadable, and the gate blocked the whole
// export. Copies of one id that say different things are still not read.
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { GET_WEATHER, gateVerdicts } from "../../support/span-documents.js";

const output = (city: string) => JSON.stringify([{ role: "assistant", parts: [{ type: "tool_call", id: "call_1", name: "get_weather", arguments: JSON.stringify({ city }) }] }]);
const chat = (city: string) => ({ traceId: "7a1c", spanId: "s1", name: "chat", startTimeUnixNano: "1", attributes: [{ key: "gen_ai.operation.name", value: { stringValue: "chat" } }, { key: "gen_ai.input.messages", value: { stringValue: JSON.stringify([{ role: "user", content: "Weather in Paris?" }]) } }, { key: "gen_ai.output.messages", value: { stringValue: output(city) } }] });
const batches = (...spans: unknown[]) => ({ resourceSpans: spans.map((span) => ({ scopeSpans: [{ spans: [span] }] })) });
const calls = (document: unknown) => READERS.otlp.read(document).records.map(({ record }) => record as Record<string, unknown>).filter((record) => record.type === "function_call");

describe("a span exported twice as it was", () => {
  const document = batches(chat("Paris"), chat("Paris"));

  test("is read once, the second copy a repeat", () => {
    const reading = READERS.otlp.read(document);
    expect(calls(document)).toEqual([{ type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}', status: "completed" }]);
    expect(reading.units).toEqual([
      { path: "/resourceSpans/1/scopeSpans/0/spans/0", span: "s1", fate: "repeat" },
      { path: "/resourceSpans/0/scopeSpans/0/spans/0", span: "s1", fate: "llm_call" },
    ]);
    expect(reading.losses.filter((loss) => loss.code === "unreadable")).toEqual([]);
  });

  test("and gated", async () => {
    expect(await gateVerdicts(document, [GET_WEATHER])).toEqual({ code: 0, verdicts: [["not_function_call", false], ["ok", false]] });
  });

  test("of a Langfuse download too", () => {
    const observation = { id: "g1", traceId: "T", type: "GENERATION", startTime: "2025-08-28T07:32:30.306Z", input: [{ role: "user", content: "weather?" }], output: { role: "assistant", content: "", tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] } };
    const reading = READERS.langfuse.read({ trace: { id: "T" }, observations: [observation, { ...observation }] });
    expect(reading.records.filter(({ record }) => (record as { type: string }).type === "function_call")).toHaveLength(1);
    expect(reading.units.map(({ fate }) => fate)).toEqual(["repeat", "llm_call"]);
  });
});

test("three copies of which one says another call: none is read, each unreadable", () => {
  const reading = READERS.otlp.read(batches(chat("Paris"), chat("Paris"), chat("London")));
  expect(calls(batches(chat("Paris"), chat("Paris"), chat("London")))).toEqual([]);
  expect(reading.losses.filter((loss) => loss.code === "unreadable").map(({ path }) => path)).toEqual(["/resourceSpans/0/scopeSpans/0/spans/0", "/resourceSpans/1/scopeSpans/0/spans/0", "/resourceSpans/2/scopeSpans/0/spans/0"]);
});

test("two copies whose attribute was written first with values that differ, one a call, are not repeats: the call is unreadable", () => {
  // The map of each copy holds the value written last, alike; a reader that keeps the first sees the call in the second copy only.
  const attribute = (key: string, stringValue: string) => ({ key, value: { stringValue } });
  const call = JSON.stringify({ role: "assistant", tool_calls: [{ id: "call_a", type: "function", function: { name: "delete_file", arguments: '{"path":"old.txt"}' } }] });
  const span = (first: string) => ({ traceId: "7a1c", spanId: "s1", name: "chat gpt-4o", startTimeUnixNano: "1", attributes: [attribute("gen_ai.system", "openai"), attribute("gen_ai.completion", first), attribute("gen_ai.completion", "Done.")] });
  const reading = READERS.otlp.read(batches(span("Thinking."), span(call)));
  expect(reading.units.map(({ fate }) => fate)).toEqual(["other", "other"]);
  expect(reading.losses.filter((loss) => loss.code === "unreadable").map(({ path }) => path)).toEqual(["/resourceSpans/1/scopeSpans/0/spans/0/attributes/1/value/stringValue"]);
});

test("two copies of which one says its exporter dropped attributes are not repeats: neither is read", () => {
  const reading = READERS.otlp.read(batches(chat("Paris"), { ...chat("Paris"), droppedAttributesCount: 2 }));
  expect(calls(batches(chat("Paris"), { ...chat("Paris"), droppedAttributesCount: 2 }))).toEqual([]);
  expect(reading.units.map(({ fate }) => fate)).toEqual(["llm_call", "llm_call"]);
  expect(reading.losses.filter((loss) => loss.code === "unreadable").map(({ path }) => path)).toEqual(["/resourceSpans/0/scopeSpans/0/spans/0", "/resourceSpans/1/scopeSpans/0/spans/0"]);
});
