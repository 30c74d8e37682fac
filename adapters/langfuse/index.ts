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
// | `trace.input/output`, `trace.observations` | repeats of the root observation and summaries: not read, each reported left_behind |
// | the trace's other fields | tags, user, session, metadata: each reported left_behind; its id, name and times: transport, said once |
// | an observation's other fields | model, usage, cost, a level other than DEFAULT, metadata members beside `attributes`: each one no reading takes reported left_behind; ids, times, project: transport, said once for an observation that was read |
// | a call in an observation read as no LLM call (an EVENT, a CHAIN, a SPAN) | a copy: it must be a call of the trace as read (spans/compare-unread-calls.ts); one no LLM call holds is `unreadable`, one that says another call under its id a `conflict`, and neither is read |
import { isPlainObject } from "../../src/models/json-value.js";
import { pointerToken } from "../../src/models/json-pointer.js";
import { Attributes, parsedValue, readAttributes, type Located } from "../spans/attributes.js";
import { readSpans, type Span } from "../spans/read-spans.js";
import { startTime } from "../spans/start-time.js";
import type { ReaderLoss, StoredLogReader } from "../stored-log/reading.js";

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

/** A trace's own bookkeeping. */
const TRACE_TRANSPORT = new Set(["id", "name", "timestamp", "projectId", "createdAt", "updatedAt", "htmlPath", "environment", "public", "bookmarked"]);

/** Said once for each trace of a download: the same words for every trace, so that a summary counts them as one. */
export const TRACE_TRANSPORT_DETAIL = "the trace's id, name, timestamp and Langfuse's bookkeeping are transport: no item holds them";

/**
 * What a download's trace holds beside its observations, which no item holds:
 * its transport, once, and each field of content (its input and output repeat
 * the root observation's, its observations list summarizes them, its tags,
 * user, session and metadata are its own) at its place.
 */
function traceFields(document: unknown, path: string): ReaderLoss[] {
  if (Array.isArray(document)) return document.flatMap((entry, index) => traceFields(entry, `${path}/${index}`));
  if (!isDownload(document)) return [];
  const losses: ReaderLoss[] = [{ path: `${path}/trace`, code: "left_behind", detail: TRACE_TRANSPORT_DETAIL }];
  for (const [key, value] of Object.entries(document.trace)) {
    if (TRACE_TRANSPORT.has(key) || value === null || value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    losses.push({ path: `${path}/trace/${pointerToken(key)}`, code: "left_behind", detail: `the trace's field ${key} is in no item` });
  }
  return losses;
}

function observationSpan(observation: Record<string, unknown>, at: string, trace: string, spans: Span[]): void {
  // Metadata stored as JSON text: its attributes can be pointed at only as far as the text.
  const metadata = parsedValue(observation.metadata);
  // An export may hold the attributes as JSON text of their own.
  const attributes = isPlainObject(metadata.value) ? parsedValue(metadata.value.attributes) : undefined;
  const located = readAttributes(attributes?.value, `${at}/metadata/attributes`);
  if (metadata.parsed || attributes?.parsed) for (const entry of located.values()) entry.path = metadata.parsed ? `${at}/metadata` : `${at}/metadata/attributes`;
  const input = { value: observation.input, path: `${at}/input` };
  const output = { value: observation.output, path: `${at}/output` };
  spans.push({
    id: String(observation.id),
    ...(typeof (observation.parentObservationId ?? observation.parent_observation_id) === "string" ? { parent: String(observation.parentObservationId ?? observation.parent_observation_id) } : {}),
    trace: String(observation.traceId ?? observation.trace_id ?? trace),
    name: String(observation.name ?? ""),
    start: startTime(observation.startTime ?? observation.start_time, "ns"),
    path: at,
    attributes: located,
    type: String(observation.type ?? ""),
    input,
    output,
    fields: contentFields(observation, at, input, output, metadata),
  });
}

/** An observation's bookkeeping: ids, type, name, times, project and environment. */
const TRANSPORT = new Set(["id", "traceId", "trace_id", "projectId", "project_id", "type", "name", "startTime", "start_time", "endTime", "end_time", "completionStartTime", "completion_start_time", "parentObservationId", "parent_observation_id", "createdAt", "created_at", "updatedAt", "updated_at", "latency", "timeToFirstToken", "time_to_first_token", "environment"]);

/**
 * Every other field of an observation holds content (input, output, model and
 * its parameters, usage and cost, a level other than DEFAULT, a status
 * message); metadata is content member by member, its `attributes` read as the
 * span's attributes.
 */
function contentFields(observation: Record<string, unknown>, at: string, input: Located, output: Located, metadata: { value: unknown; parsed: boolean }): Attributes {
  const fields = new Attributes();
  for (const [key, value] of Object.entries(observation)) {
    if (TRANSPORT.has(key) || value === null || value === undefined) continue;
    if (key === "input") fields.set(key, input);
    else if (key === "output") fields.set(key, output);
    else if (key === "level" && value === "DEFAULT") continue;
    else if (key === "metadata" && isPlainObject(metadata.value)) {
      for (const [member, inner] of Object.entries(metadata.value)) {
        if (member !== "attributes") fields.set(`metadata.${member}`, { value: inner, path: metadata.parsed ? `${at}/metadata` : `${at}/metadata/${pointerToken(member)}` });
      }
    } else fields.set(key, { value, path: `${at}/${pointerToken(key)}` });
  }
  return fields;
}

export const langfuse: StoredLogReader = {
  name: "langfuse",
  recognise: (document) => (Array.isArray(document) ? document.length > 0 && document.every(recogniseOne) : recogniseOne(document)),
  read(document) {
    const spans: Span[] = [];
    collect(document, "", spans);
    const reading = readSpans(spans);
    return { ...reading, losses: [...traceFields(document, ""), ...reading.losses] };
  },
};
