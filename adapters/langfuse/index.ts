// Langfuse's exports, read as conversations (read-only): a trace download,
// `{trace: {id, …}, observations: [{id, type, parentObservationId, startTime, input, output, metadata}]}`,
// or the observation rows of a blob storage export (JSONL or Parquet, snake_case:
// `{id, trace_id, type, parent_observation_id, start_time, input, output, metadata}`),
// grouped by trace.
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

const OBSERVATION_TYPES = new Set(["SPAN", "GENERATION", "EVENT", "TOOL", "AGENT", "CHAIN", "RETRIEVER", "EVALUATOR", "EMBEDDING", "GUARDRAIL"]);

function isDownload(value: unknown): value is { trace: Record<string, unknown>; observations: unknown[] } {
  return isPlainObject(value) && isPlainObject(value.trace) && Array.isArray(value.observations);
}

/** One observation row of an export, in either spelling. */
function isObservationRow(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && typeof value.id === "string" && typeof (value.trace_id ?? value.traceId) === "string" && typeof value.type === "string" && OBSERVATION_TYPES.has(value.type) && (value.start_time ?? value.startTime) !== undefined;
}

function recogniseOne(value: unknown): boolean {
  return isDownload(value) || isObservationRow(value);
}

function collect(document: unknown, path: string, spans: Span[]): void {
  if (Array.isArray(document)) return document.forEach((entry, index) => collect(entry, `${path}/${index}`, spans));
  if (isObservationRow(document)) return observationSpan(document, path, String(document.trace_id ?? document.traceId), spans);
  if (!isDownload(document)) return;
  const trace = String(document.trace.id ?? "");
  document.observations.forEach((observation, index) => {
    if (isPlainObject(observation)) observationSpan(observation, `${path}/observations/${index}`, trace, spans);
  });
}

function observationSpan(observation: Record<string, unknown>, at: string, trace: string, spans: Span[]): void {
  // Metadata stored as JSON text: its attributes can be pointed at only as far as the text.
  const metadata = parsedValue(observation.metadata);
  // An export may hold the attributes as JSON text of their own.
  const attributes = isPlainObject(metadata.value) ? parsedValue(metadata.value.attributes) : undefined;
  const located = readAttributes(attributes?.value, `${at}/metadata/attributes`);
  if (metadata.parsed || attributes?.parsed) for (const entry of located.values()) entry.path = metadata.parsed ? `${at}/metadata` : `${at}/metadata/attributes`;
  spans.push({
    id: String(observation.id),
    ...(typeof (observation.parentObservationId ?? observation.parent_observation_id) === "string" ? { parent: String(observation.parentObservationId ?? observation.parent_observation_id) } : {}),
    trace: String(observation.traceId ?? observation.trace_id ?? trace),
    name: String(observation.name ?? ""),
    start: startTime(observation.startTime ?? observation.start_time, "ns"),
    path: at,
    attributes: located,
    type: String(observation.type ?? ""),
    input: { value: observation.input, path: `${at}/input` },
    output: { value: observation.output, path: `${at}/output` },
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
