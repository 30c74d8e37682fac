// A Langfuse trace download, read as one conversation (read-only):
// `{trace: {id, …}, observations: [{id, type, parentObservationId, startTime, input, output, metadata}]}`.
//
// | field                  | read as                                                        |
// |------------------------|----------------------------------------------------------------|
// | `observations[]`       | spans: GENERATION an LLM call, TOOL a tool execution           |
// | `input`, `output`      | the instrumentation's messages, parsed when stored as JSON text (once or twice) |
// | `metadata.attributes`  | the OTel span attributes (read when `input`/`output` are empty) |
// | `trace.input/output`, `trace.observations` | repeats of the root observation and summaries: not read |
import { isPlainObject } from "../../src/models/json-value.js";
import { parsedValue, readAttributes } from "../spans/attributes.js";
import { readSpans, type Span } from "../spans/read-spans.js";
import { startTime } from "../spans/start-time.js";
import type { StoredLogReader } from "../stored-log/reading.js";

function recogniseOne(value: unknown): boolean {
  return isPlainObject(value) && isPlainObject(value.trace) && Array.isArray(value.observations);
}

function collect(document: unknown, path: string, spans: Span[]): void {
  if (Array.isArray(document)) return document.forEach((entry, index) => collect(entry, `${path}/${index}`, spans));
  if (!recogniseOne(document)) return;
  const download = document as { trace: Record<string, unknown>; observations: unknown[] };
  const trace = String(download.trace.id ?? "");
  download.observations.forEach((observation, index) => {
    if (!isPlainObject(observation)) return;
    const at = `${path}/observations/${index}`;
    // Metadata stored as JSON text: its attributes can be pointed at only as far as the text.
    const metadata = parsedValue(observation.metadata);
    const attributes = isPlainObject(metadata.value) ? metadata.value.attributes : undefined;
    const located = readAttributes(attributes, `${at}/metadata/attributes`);
    if (metadata.parsed) for (const entry of located.values()) entry.path = `${at}/metadata`;
    spans.push({
      id: String(observation.id),
      ...(typeof observation.parentObservationId === "string" ? { parent: observation.parentObservationId } : {}),
      trace: String(observation.traceId ?? trace),
      name: String(observation.name ?? ""),
      start: startTime(observation.startTime, "ns"),
      path: at,
      attributes: located,
      type: String(observation.type ?? ""),
      input: { value: observation.input, path: `${at}/input` },
      output: { value: observation.output, path: `${at}/output` },
    });
  });
}

export const langfuse: StoredLogReader = {
  name: "langfuse",
  recognise: (document) => (Array.isArray(document) ? document.length > 0 && document.every(recogniseOne) : recogniseOne(document)),
  read(document) {
    const spans: Span[] = [];
    collect(document, "", spans);
    return readSpans(spans);
  },
};
