// Jaeger query-API JSON, read as conversations (read-only):
// `{data: [{traceID, spans: [{spanID, operationName, references, startTime (µs), tags: [{key, type, value}]}], processes}]}`.
// A span's parent is its `CHILD_OF` reference; an array of such documents (JSONL) is read as one.
import { isPlainObject } from "../../src/models/json-value.js";
import { Attributes, readAttributes } from "../spans/attributes.js";
import { jaegerLogsDropped } from "../spans/dropped-counts.js";
import { markCallsInEvents } from "../spans/event-calls.js";
import { idText } from "../spans/span-ids.js";
import { readSpans, type Span } from "../spans/read-spans.js";
import { startTime } from "../spans/start-time.js";
import type { ReaderLoss, StoredLogReader } from "../stored-log/reading.js";

/** Said once for each trace and each query answer, outside every span's own place. */
export const PROCESSES_TRANSPORT_DETAIL = "the processes the spans were recorded in (service names and their tags) are transport of the trace: no item holds them";
export const QUERY_TRANSPORT_DETAIL = "the query's total, limit and offset are transport of the answer: no item holds them";

function recogniseOne(value: unknown): boolean {
  return isPlainObject(value) && Array.isArray(value.data) && value.data.length > 0 && value.data.every((trace) => isPlainObject(trace) && typeof trace.traceID === "string" && Array.isArray(trace.spans));
}

function collect(document: unknown, path: string, spans: Span[], losses: ReaderLoss[]): void {
  if (Array.isArray(document)) return document.forEach((entry, index) => collect(entry, `${path}/${index}`, spans, losses));
  if (!isPlainObject(document) || !Array.isArray(document.data)) return;
  const bookkeeping = ["total", "limit", "offset"].find((key) => document[key] !== undefined && document[key] !== null);
  if (bookkeeping !== undefined) losses.push({ path: `${path}/${bookkeeping}`, code: "left_behind", detail: QUERY_TRANSPORT_DETAIL });
  if (Array.isArray(document.errors) ? document.errors.length > 0 : document.errors !== undefined && document.errors !== null) {
    losses.push({ path: `${path}/errors`, code: "left_behind", detail: "the errors the query answered with are in no item" });
  }
  document.data.forEach((trace, t) => {
    if (!isPlainObject(trace) || !Array.isArray(trace.spans)) return;
    if (isPlainObject(trace.processes) && Object.keys(trace.processes).length > 0) losses.push({ path: `${path}/data/${t}/processes`, code: "left_behind", detail: PROCESSES_TRANSPORT_DETAIL });
    trace.spans.forEach((span, index) => {
      if (!isPlainObject(span)) return;
      const at = `${path}/data/${t}/spans/${index}`;
      const references = Array.isArray(span.references) ? span.references : [];
      const parent = references.find((reference) => isPlainObject(reference) && reference.refType === "CHILD_OF") as Record<string, unknown> | undefined;
      const attributes = readAttributes(span.tags, `${at}/tags`);
      markCallsInEvents(span.logs, `${at}/logs`, attributes);
      spans.push({
        id: idText(span.spanID),
        ...(parent && typeof parent.spanID === "string" ? { parent: idText(parent.spanID) } : {}),
        trace: idText(span.traceID ?? trace.traceID),
        name: String(span.operationName ?? ""),
        start: startTime(span.startTime, "us"),
        path: at,
        attributes,
        fields: contentFields(span, at),
        dropped: jaegerLogsDropped(span.logs, `${at}/logs`),
      });
    });
  });
}

export const jaeger: StoredLogReader = {
  name: "jaeger",
  recognise: (document) => (Array.isArray(document) ? document.length > 0 && document.every(recogniseOne) : recogniseOne(document)),
  read(document) {
    const spans: Span[] = [];
    const losses: ReaderLoss[] = [];
    collect(document, "", spans, losses);
    const reading = readSpans(spans);
    return { ...reading, losses: [...losses, ...reading.losses] };
  },
};

/** A span's logs and warnings hold content (events, errors); its ids, references, times, flags and process are transport. */
function contentFields(span: Record<string, unknown>, at: string): Attributes {
  const fields = new Attributes();
  for (const key of ["logs", "warnings"]) {
    const list = span[key];
    if (Array.isArray(list) && list.length > 0) fields.set(key, { value: list, path: `${at}/${key}` });
  }
  return fields;
}
