// What one line of the journal is, for the count of records by kind and
// envelope: every line read falls in exactly one row, so the rows add up to the
// lines read. The normalizer and the gate read the line on their own; this reads
// it only to name it.
import { detectEnvelopeRecord, type RecordKind } from "../../journal/detect.js";
import type { JournalLine } from "../../journal/read.js";
import { isSseFraming } from "../../journal/sse.js";

export type LineClass =
  | { kind: "blank" }
  | { kind: "unreadable" }
  | { kind: "not_json" }
  | { kind: "sse_framing" }
  | { kind: "record"; recordKind: RecordKind; envelope: string };

/** The blank line of JSON's grammar: spaces, tabs and line endings only. */
const BLANK = /^[ \t\r\n]*$/;

export function classifyLine(line: JournalLine): LineClass {
  if (line.error !== undefined) return { kind: "unreadable" };
  if (BLANK.test(line.text)) return { kind: "blank" };
  if (isSseFraming(line.text)) return { kind: "sse_framing" };
  let record: unknown;
  try {
    record = JSON.parse(line.text);
  } catch {
    return { kind: "not_json" };
  }
  const detected = detectEnvelopeRecord(record);
  return { kind: "record", recordKind: detected.kind, envelope: detected.envelope ?? envelopeOfKind(detected.kind) };
}

/** The envelope a kind of the two built-in envelopes is written in. */
function envelopeOfKind(kind: RecordKind): string {
  switch (kind) {
    case "chat_chunk":
    case "chat_completion":
    case "chat_request":
    case "chat_message":
      return "chat";
    case "response":
    case "responses_event":
    case "responses_request":
    case "responses_item":
      return "responses";
    case "exchange":
      return "exchange";
    case "envelope_message":
    case "envelope_request":
    case "envelope_response":
    case "envelope_event":
    case "unknown":
      return "-";
    default: {
      const unhandled: never = kind;
      return unhandled;
    }
  }
}

/** The row a line is counted in: "chat_message (chat)", "blank line"… */
export function lineClassKey(lineClass: LineClass): string {
  switch (lineClass.kind) {
    case "blank":
      return "blank line";
    case "unreadable":
      return "line not read";
    case "not_json":
      return "not JSON";
    case "sse_framing":
      return "SSE framing";
    case "record":
      return `${lineClass.recordKind} (${lineClass.envelope})`;
    default: {
      const unhandled: never = lineClass;
      return unhandled;
    }
  }
}
