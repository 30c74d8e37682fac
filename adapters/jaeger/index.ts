// Jaeger query-API JSON, read as conversations (read-only):
// `{data: [{traceID, spans: [{spanID, operationName, references, startTime (µs), tags: [{key, type, value}]}], processes}]}`.
// A span's parent is its `CHILD_OF` reference; an array of such documents (JSONL) is read as one.
import { isPlainObject } from "../../src/models/json-value.js";
import { Attributes, readAttributes } from "../spans/attributes.js";
import { readSpans, type Span } from "../spans/read-spans.js";
import { startTime } from "../spans/start-time.js";
import type { StoredLogReader } from "../stored-log/reading.js";

function recogniseOne(value: unknown): boolean {
  return isPlainObject(value) && Array.isArray(value.data) && value.data.length > 0 && value.data.every((trace) => isPlainObject(trace) && typeof trace.traceID === "string" && Array.isArray(trace.spans));
}

function collect(document: unknown, path: string, spans: Span[]): void {
  if (Array.isArray(document)) return document.forEach((entry, index) => collect(entry, `${path}/${index}`, spans));
  if (!isPlainObject(document) || !Array.isArray(document.data)) return;
  document.data.forEach((trace, t) => {
    if (!isPlainObject(trace) || !Array.isArray(trace.spans)) return;
    trace.spans.forEach((span, index) => {
      if (!isPlainObject(span)) return;
      const at = `${path}/data/${t}/spans/${index}`;
      const references = Array.isArray(span.references) ? span.references : [];
      const parent = references.find((reference) => isPlainObject(reference) && reference.refType === "CHILD_OF") as Record<string, unknown> | undefined;
      spans.push({
        id: String(span.spanID),
        ...(parent && typeof parent.spanID === "string" ? { parent: parent.spanID } : {}),
        trace: String(span.traceID ?? trace.traceID),
        name: String(span.operationName ?? ""),
        start: startTime(span.startTime, "us"),
        path: at,
        attributes: readAttributes(span.tags, `${at}/tags`),
        fields: contentFields(span, at),
      });
    });
  });
}

export const jaeger: StoredLogReader = {
  name: "jaeger",
  recognise: (document) => (Array.isArray(document) ? document.length > 0 && document.every(recogniseOne) : recogniseOne(document)),
  read(document) {
    const spans: Span[] = [];
    collect(document, "", spans);
    return readSpans(spans);
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
