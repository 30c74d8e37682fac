// OpenTelemetry spans as they are exported, read as conversations (read-only):
//
// | document                                                        | form                 |
// |-----------------------------------------------------------------|----------------------|
// | `{resourceSpans: [{scopeSpans: [{spans}]}]}`                     | OTLP/JSON            |
// | `{trace: {resourceSpans}}`                                      | Grafana Tempo        |
// | `{batches: [{instrumentationLibrarySpans \| scopeSpans: [{spans}]}]}` | Tempo's older form |
// | `{name, attributes: [{key, value}]…}`, or an array of them      | bare spans           |
// | `{spans: [{context, parent, attributes: {…}}]}`                 | SDK span dicts (any-agent's AgentTrace) |
// | an array of any of these (a JSONL file's documents)             |                      |
import { isPlainObject } from "../../src/models/json-value.js";
import { pointerToken } from "../../src/models/json-pointer.js";
import { Attributes, readAttributes, type Located } from "../spans/attributes.js";
import { otlpDropped } from "../spans/dropped-counts.js";
import { markCallsInEvents } from "../spans/event-calls.js";
import { idText } from "../spans/span-ids.js";
import { readSpans, type Span } from "../spans/read-spans.js";
import { startTime } from "../spans/start-time.js";
import type { ReaderLoss, StoredLogReader } from "../stored-log/reading.js";

function isBareSpan(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && typeof value.name === "string" && (Array.isArray(value.attributes) || isPlainObject(value.attributes)) && (value.kind !== undefined || value.spanId !== undefined || value.context !== undefined || value.status !== undefined);
}

function resourceSpans(value: Record<string, unknown>): unknown[] | undefined {
  if (Array.isArray(value.resourceSpans)) return value.resourceSpans;
  if (Array.isArray(value.batches)) return value.batches;
  return undefined;
}

function recogniseOne(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  if (resourceSpans(value)) return true;
  if (isPlainObject(value.trace) && Array.isArray(value.trace.resourceSpans)) return true;
  if (Array.isArray(value.spans) && value.spans.length > 0 && value.spans.every(isBareSpan)) return true;
  return isBareSpan(value);
}

/** Said once for each resource and each scope of an OTLP export: the same words for every one, so that a summary counts them as one. */
export const RESOURCE_TRANSPORT_DETAIL = "the resource the spans were exported from (service, host, SDK) is transport of the trace: no item holds it";
export const SCOPE_TRANSPORT_DETAIL = "the instrumentation scope the spans were recorded under is transport of the trace: no item holds it";

function collect(value: unknown, path: string, spans: Span[], losses: ReaderLoss[], inexact: string[]): void {
  if (Array.isArray(value)) return value.forEach((entry, index) => collect(entry, `${path}/${index}`, spans, losses, inexact));
  if (!isPlainObject(value)) return;
  if (isPlainObject(value.trace) && Array.isArray(value.trace.resourceSpans)) return collect(value.trace, `${path}/trace`, spans, losses, inexact);
  const resources = resourceSpans(value);
  if (resources) {
    const field = Array.isArray(value.resourceSpans) ? "resourceSpans" : "batches";
    resources.forEach((resource, r) => {
      if (!isPlainObject(resource)) return;
      const scopesField = Array.isArray(resource.scopeSpans) ? "scopeSpans" : "instrumentationLibrarySpans";
      const scopes = resource[scopesField];
      if (!Array.isArray(scopes)) return;
      // Outside every span's own place: said once for each, or no report would cover them.
      if (isPlainObject(resource.resource)) losses.push({ path: `${path}/${field}/${r}/resource`, code: "left_behind", detail: RESOURCE_TRANSPORT_DETAIL });
      scopes.forEach((scope, s) => {
        if (!isPlainObject(scope) || !Array.isArray(scope.spans)) return;
        const scopeKey = isPlainObject(scope.scope) ? "scope" : isPlainObject(scope.instrumentationLibrary) ? "instrumentationLibrary" : undefined;
        if (scopeKey !== undefined) losses.push({ path: `${path}/${field}/${r}/${scopesField}/${s}/${scopeKey}`, code: "left_behind", detail: SCOPE_TRANSPORT_DETAIL });
        scope.spans.forEach((span, index) => collect(span, `${path}/${field}/${r}/${scopesField}/${s}/spans/${index}`, spans, losses, inexact));
      });
    });
    return;
  }
  if (Array.isArray(value.spans)) return value.spans.forEach((span, index) => collect(span, `${path}/spans/${index}`, spans, losses, inexact));
  if (isBareSpan(value)) spans.push(toSpan(value, path, spans.length, losses, inexact));
}

function toSpan(value: Record<string, unknown>, path: string, ordinal: number, losses: ReaderLoss[], inexact: string[]): Span {
  const context = isPlainObject(value.context) ? value.context : {};
  const parent = isPlainObject(value.parent) ? value.parent : {};
  for (const [field, id] of [["context/trace_id", context.trace_id], ["context/span_id", context.span_id], ["parent/span_id", parent.span_id]] as const) {
    if (typeof id === "number" && !Number.isSafeInteger(id)) inexact.push(`${path}/${field}`);
  }
  const id = value.spanId ?? context.span_id;
  const trace = value.traceId ?? context.trace_id;
  const parentId = value.parentSpanId ?? parent.span_id;
  const attributes = readAttributes(value.attributes, `${path}/${pointerToken("attributes")}`);
  markCallsInEvents(value.events, `${path}/events`, attributes);
  // A span exported without its ids (a test fixture) is named by its place.
  const spanId = id === undefined || id === null || id === "" ? `#${ordinal}` : idText(id);
  return {
    id: spanId,
    ...(parentId === undefined || parentId === null || parentId === "" ? {} : { parent: idText(parentId) }),
    trace: trace === undefined || trace === null || trace === "" ? "" : idText(trace),
    name: String(value.name),
    start: startTime(value.startTimeUnixNano ?? value.start_time, "ns"),
    path,
    attributes,
    fields: contentFields(value, path, spanId, losses),
    dropped: otlpDropped(value, path),
  };
}


/**
 * A span's fields beside its attributes that hold content: events and links
 * (OTel GenAI events carry messages in older conventions), and a status that
 * says the span failed. An unset or ok status, the ids, name, kind, times,
 * flags and the resource and scope around the span are transport.
 */
function contentFields(value: Record<string, unknown>, path: string, span: string, losses: ReaderLoss[]): Attributes {
  const fields = new Attributes();
  for (const key of ["events", "links"]) {
    const list = value[key];
    if (Array.isArray(list) && list.length > 0) fields.set(key, { value: list, path: `${path}/${key}` });
  }
  // The failure is kept as the span's status, however it was written: a call in its answer is then not one to run.
  const failure = statusFailure(value, path);
  if (failure !== undefined) fields.set("status", failure);
  if (failure?.unknown === true) losses.push({ path: failure.path, code: "form_changed", detail: `the span's status ${JSON.stringify(failure.value)} is of no form orbridge reads: it may say the span failed, so it is read as a failure, and a call in its answer is incomplete`, span });
  return fields;
}

/**
 * Where a span says it failed, in each form exporters write its status: the
 * OTLP object (`{code: 2}`, `{code: "STATUS_CODE_ERROR"}`, proto3 JSON's
 * `{code: "2"}`), an SDK dict's (`{status_code: "ERROR", description}`), a
 * status written bare (`"status": "ERROR"`) or as fields of the span itself
 * (`status_code`, `statusCode`). A status with a message says what went wrong.
 * A code of no form orbridge reads may mean a failure: `unknown`, and taken as one.
 */
function statusFailure(span: Record<string, unknown>, path: string): (Located & { unknown: boolean }) | undefined {
  const written: Array<{ code: unknown; message?: unknown; at: Located }> = [];
  const status = span.status;
  if (isPlainObject(status)) written.push({ code: status.code ?? status.status_code ?? status.statusCode, message: status.message ?? status.description, at: { value: status, path: `${path}/status` } });
  else if (status !== undefined && status !== null) written.push({ code: status, at: { value: status, path: `${path}/status` } });
  for (const field of ["status_code", "statusCode"]) {
    if (span[field] !== undefined && span[field] !== null) written.push({ code: span[field], message: span.status_message ?? span.statusMessage, at: { value: span[field], path: `${path}/${field}` } });
  }
  const failures = written.map((one) => ({ ...one, said: codeSays(one.code) })).filter(({ said, message }) => said !== "ok" || (typeof message === "string" && message !== ""));
  const failure = failures.find(({ said }) => said !== "unknown") ?? failures[0];
  return failure === undefined ? undefined : { ...failure.at, unknown: failure.said === "unknown" };
}

const OK_CODES = new Set(["0", "1", "UNSET", "OK", "STATUS_CODE_UNSET", "STATUS_CODE_OK"]);
const ERROR_CODES = new Set(["2", "ERROR", "STATUS_CODE_ERROR"]);

/** What an OTel status code says, written as the enum's number (or its text), its name or its short name, in any case. */
function codeSays(code: unknown): "ok" | "error" | "unknown" {
  if (code === undefined || code === null) return "ok";
  const text = typeof code === "number" || typeof code === "string" ? String(code).trim().toUpperCase() : undefined;
  if (text === undefined) return "unknown";
  if (OK_CODES.has(text)) return "ok";
  return ERROR_CODES.has(text) || /ERROR/.test(text) ? "error" : "unknown";
}

export const otlp: StoredLogReader = {
  name: "otlp",
  recognise: (document) => (Array.isArray(document) ? document.length > 0 && document.every(recogniseOne) : recogniseOne(document)),
  read(document) {
    const spans: Span[] = [];
    const losses: ReaderLoss[] = [];
    const inexact: string[] = [];
    collect(document, "", spans, losses, inexact);
    // SDK span dicts write 128-bit trace ids and 64-bit span ids as JSON numbers: said once for the document.
    if (inexact.length > 0) {
      losses.unshift({ path: inexact[0], code: "inexact_number", detail: `${inexact.length} span and trace ids are written as JSON numbers wider than a double holds (this one and those of the same fields after it): read rounded, so they group and link spans but are not their exact values` });
    }
    const reading = readSpans(spans);
    return { ...reading, losses: [...losses, ...reading.losses] };
  },
};
