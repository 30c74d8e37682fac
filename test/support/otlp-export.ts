// An OTLP trace export of one GenAI chat span, with the messages given, as the
// stored-log reader takes it.

/** The export's JSON text; `input` and `output` are the span's `gen_ai.input.messages` and `gen_ai.output.messages`, left out when undefined. */
export function chatSpanExport(messages: { input?: unknown[]; output?: unknown[] }): string {
  const attribute = (key: string, value: unknown[] | undefined) => (value === undefined ? [] : [{ key, value: { stringValue: JSON.stringify(value) } }]);
  const span = {
    traceId: "6f1c0a5e2b7d4c19a8e3f0b2c4d6e8fa",
    spanId: "b0913e7cd82d72b3",
    name: "chat gpt",
    kind: 3,
    startTimeUnixNano: "1765964260555000000",
    attributes: [{ key: "gen_ai.operation.name", value: { stringValue: "chat" } }, ...attribute("gen_ai.input.messages", messages.input), ...attribute("gen_ai.output.messages", messages.output)],
  };
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: "x" }, spans: [span] }] }] });
}
