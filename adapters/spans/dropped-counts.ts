// What a span says its exporter dropped, in each form an export writes it. An
// SDK drops what is past its limits (128 attributes, events or links by
// default) and says only how many: what they held is not in the document, so the
// span is a cut record, not a whole one with a field no item holds.
//
// | written as                                                        | by                        | cuts the span's calls |
// |-------------------------------------------------------------------|---------------------------|-----------------------|
// | `droppedAttributesCount` (`dropped_attributes_count`) on the span  | OTLP/JSON, Tempo          | yes: a call, its arguments or its status may be among them |
// | `droppedEventsCount` on the span, `droppedAttributesCount` on an event | OTLP/JSON, Tempo      | yes: GenAI events of older conventions carry the answer's messages |
// | the tags `otel.dropped_attributes_count`, `otel.dropped_events_count` | Jaeger's exporters and translators | yes, as above |
// | the log field `otel.event.dropped_attributes_count`               | Jaeger's translators      | yes, as an event's    |
// | `droppedLinksCount`, the tag `otel.dropped_links_count`           | all of them               | no: a link names another span and holds no message |
//
// A count of 0 (or its digits) says none was dropped; any other value may count some.
import { isPlainObject } from "../../src/models/json-value.js";
import type { Attributes } from "./attributes.js";

export type DroppedWhat = "attributes" | "events" | "links" | "attributes of an event";

export interface Dropped {
  what: DroppedWhat;
  count: unknown;
  path: string;
}

/** A count of dropped entries that says none: absent, 0, or the digits of 0; any other value may count some. */
export function saysNoneDropped(count: unknown): boolean {
  return count === undefined || count === null || count === 0 || (typeof count === "string" && /^\s*0+\s*$/.test(count));
}

/** Whether what was dropped may have held a call of the span's answer, or what it says of it (a status, an event with the messages). */
export function cutsCalls(dropped: Dropped): boolean {
  return dropped.what !== "links";
}

const SPAN_FIELDS: ReadonlyArray<[DroppedWhat, readonly string[]]> = [
  ["attributes", ["droppedAttributesCount", "dropped_attributes_count"]],
  ["events", ["droppedEventsCount", "dropped_events_count"]],
  ["links", ["droppedLinksCount", "dropped_links_count"]],
];

/** What an OTLP span (or an SDK span dict) says it dropped: its own counts, and each event's count of attributes. */
export function otlpDropped(span: Record<string, unknown>, path: string): Dropped[] {
  const found: Dropped[] = [];
  for (const [what, keys] of SPAN_FIELDS) {
    for (const key of keys) if (!saysNoneDropped(span[key])) found.push({ what, count: span[key], path: `${path}/${key}` });
  }
  if (Array.isArray(span.events)) {
    span.events.forEach((event, index) => {
      if (!isPlainObject(event)) return;
      for (const key of ["droppedAttributesCount", "dropped_attributes_count"]) {
        if (!saysNoneDropped(event[key])) found.push({ what: "attributes of an event", count: event[key], path: `${path}/events/${index}/${key}` });
      }
    });
  }
  return found;
}

/** What a Jaeger span's logs say their events dropped. */
export function jaegerLogsDropped(logs: unknown, path: string): Dropped[] {
  if (!Array.isArray(logs)) return [];
  const found: Dropped[] = [];
  logs.forEach((log, index) => {
    if (!isPlainObject(log) || !Array.isArray(log.fields)) return;
    log.fields.forEach((field, f) => {
      if (isPlainObject(field) && field.key === "otel.event.dropped_attributes_count" && !saysNoneDropped(field.value)) found.push({ what: "attributes of an event", count: field.value, path: `${path}/${index}/fields/${f}/value` });
    });
  });
  return found;
}

const DROPPED_TAGS: ReadonlyArray<[DroppedWhat, string]> = [
  ["attributes", "otel.dropped_attributes_count"],
  ["events", "otel.dropped_events_count"],
  ["links", "otel.dropped_links_count"],
];

/**
 * The counts a span writes as attributes (Jaeger's tags, and OTLP spans
 * translated from them), taken: each is said as the cut it is, not as an
 * attribute no item holds.
 */
export function taggedDropped(attributes: Attributes): Dropped[] {
  const found: Dropped[] = [];
  for (const [what, key] of DROPPED_TAGS) {
    const located = attributes.get(key);
    if (located !== undefined && !saysNoneDropped(located.value)) found.push({ what, count: located.value, path: located.path });
  }
  return found;
}

/** A dropped count as a loss says it: a number as it is, anything else as its JSON text. */
export function droppedCount(dropped: Dropped): string {
  return typeof dropped.count === "number" ? String(dropped.count) : JSON.stringify(dropped.count);
}

/** What the loss of a dropped count says, the same words for every reader. */
export function droppedDetail(dropped: Dropped, spanName: string): string {
  return `the exporter dropped ${droppedCount(dropped)} ${dropped.what} of the span ${JSON.stringify(spanName)} (a limit of its SDK): what they held is not in the document`;
}
