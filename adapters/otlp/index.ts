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
import { Attributes, readAttributes } from "../spans/attributes.js";
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
  if (typeof value.droppedAttributesCount === "number" && value.droppedAttributesCount > 0) {
    losses.push({ path: `${path}/droppedAttributesCount`, code: "truncated", detail: `the exporter dropped ${value.droppedAttributesCount} attributes of the span "${String(value.name)}" (an attribute limit): what they held is not in the document` });
  }
  const id = value.spanId ?? context.span_id;
  const trace = value.traceId ?? context.trace_id;
  const parentId = value.parentSpanId ?? parent.span_id;
  const attributes = readAttributes(value.attributes, `${path}/${pointerToken("attributes")}`);
  markCallsInEvents(value.events, `${path}/events`, attributes);
  return {
    // A span exported without its ids (a test fixture) is named by its place.
    id: id === undefined || id === null || id === "" ? `#${ordinal}` : idText(id),
    ...(parentId === undefined || parentId === null || parentId === "" ? {} : { parent: idText(parentId) }),
    trace: trace === undefined || trace === null || trace === "" ? "" : idText(trace),
    name: String(value.name),
    start: startTime(value.startTimeUnixNano ?? value.start_time, "ns"),
    path,
    attributes,
    fields: contentFields(value, path),
  };
}


/**
 * A span's fields beside its attributes that hold content: events and links
 * (OTel GenAI events carry messages in older conventions), and a status that
 * says the span failed. An unset or ok status, the ids, name, kind, times,
 * flags and the resource and scope around the span are transport.
 */
function contentFields(value: Record<string, unknown>, path: string): Attributes {
  const fields = new Attributes();
  for (const key of ["events", "links"]) {
    const list = value[key];
    if (Array.isArray(list) && list.length > 0) fields.set(key, { value: list, path: `${path}/${key}` });
  }
  if (failed(value.status)) fields.set("status", { value: value.status, path: `${path}/status` });
  return fields;
}

function failed(status: unknown): boolean {
  if (!isPlainObject(status)) return false;
  const code = status.code ?? status.status_code;
  const message = status.message ?? status.description;
  return code === 2 || (typeof code === "string" && /error/i.test(code)) || (typeof message === "string" && message !== "");
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
