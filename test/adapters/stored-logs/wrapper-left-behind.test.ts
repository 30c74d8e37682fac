// An LLM span around another that records the same call (ADK's call_llm around
// openai.chat, Vercel's ai.generateText around doGenerate) is not read again,
// but it holds more than the inner call: ADK's tool declarations and config,
// the provider's response id. What it holds is reported left_behind, at its
// place, with its transport once, like any span whose call was read.
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";

const SPAN_TRANSPORT = "the span's ids, name, times and the exporter's bookkeeping are transport of the trace: no item holds them";
const request = { model: "gpt-4.1-mini", config: { tools: [{ function_declarations: [{ name: "helm_list", description: "List releases" }] }] }, contents: [{ role: "user", parts: [{ text: "Which releases?" }] }] };

const spans = {
  spans: [
    {
      name: "call_llm",
      context: { trace_id: "t1", span_id: "outer" },
      parent: null,
      start_time: 1000,
      attributes: { "gen_ai.operation.name": "call_llm", "gcp.vertex.agent.llm_request": JSON.stringify(request), "gen_ai.response.id": "resp_1" },
    },
    {
      name: "openai.chat",
      context: { trace_id: "t1", span_id: "inner" },
      parent: { span_id: "outer" },
      start_time: 1001,
      attributes: { "gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "Which releases?", "gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.content": "All of them." },
    },
  ],
};

describe("a wrapper span", () => {
  test("is a wrapper, read once through the call inside it, and what it holds is reported left_behind", () => {
    const reading = READERS.otlp.read(spans);
    expect(reading.units).toEqual([
      { path: "/spans/0", span: "outer", fate: "wrapper" },
      { path: "/spans/1", span: "inner", fate: "llm_call" },
    ]);
    expect(reading.records.map((record) => record.record)).toEqual([
      { type: "message", role: "user", content: "Which releases?" },
      { type: "message", role: "assistant", content: "All of them." },
    ]);
    expect(reading.losses).toEqual([
      { path: "/spans/0", code: "left_behind", detail: SPAN_TRANSPORT, span: "outer" },
      { path: "/spans/0/attributes/gcp.vertex.agent.llm_request", code: "left_behind", detail: "the attribute gcp.vertex.agent.llm_request is in no item", span: "outer" },
      { path: "/spans/0/attributes/gen_ai.response.id", code: "left_behind", detail: "the attribute gen_ai.response.id is in no item", span: "outer" },
      { path: "/spans/1", code: "left_behind", detail: SPAN_TRANSPORT, span: "inner" },
    ]);
  });
});
