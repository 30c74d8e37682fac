// What a stored-log reader gives back: the records of the journal it holds, each
// with its conversation and where in the document it came from, the losses of the
// reading, and what became of every unit of the document (span, observation,
// page, recorded exchange), so that a caller can check each was accounted for.
//
// Readers are read-only: a stored log is a place journals are kept, not an
// envelope orbridge writes.

export const READER_LOSS_CODES = [
  /** A message part of a type no dialect defines: kept as an extension item. */
  "unknown_part",
  /** A value the instrumentation cut short, or JSON text that no longer parses. */
  "truncated",
  /** An id the source lacks, made deterministically from what it holds. */
  "synthesized",
  /** A value written in another form (arguments stored parsed, written as JSON text). */
  "form_changed",
  /** A message or value of no dialect the reader knows: not read. */
  "unreadable",
  /**
   * A call its own log contradicts: recorded twice in ways that disagree
   * (another name or arguments under one call id, a tool span that ran it
   * otherwise, a second dialect or a wrapper that says otherwise), or in the
   * answer to a request whose tool choice did not allow it. It is not read.
   */
  "conflict",
  /** A page that says more follow, with the next page absent. */
  "page_missing",
  /** A tool result with no call to pair it with. */
  "unmatched_result",
  /** A message that looks like a result but holds something else (a tool definition). */
  "not_a_result",
  /** An order the source does not state, taken as its API's default. */
  "order_assumed",
  /** A number a double cannot hold exactly (a 128-bit trace id written as a JSON number): read rounded. */
  "inexact_number",
  /**
   * A field of the document that no record holds: content (an attribute no
   * dialect reads, usage, a model's name, an error status) at its own place;
   * transport (a span's ids and times, a page's cursors) once for its span or page.
   */
  "left_behind",
] as const;
export type ReaderLossCode = (typeof READER_LOSS_CODES)[number];

/** A loss of a reading: `path` is a JSON Pointer into the whole document. */
export interface ReaderLoss {
  path: string;
  code: ReaderLossCode;
  detail: string;
  /** The span or observation it belongs to, when there is one. */
  span?: string;
}

/** One record of the journal a stored log holds. */
export interface StoredRecord {
  record: unknown;
  /** The conversation key: a trace id, a completion or response id. */
  conversation: string;
  /** JSON Pointer into the document to what the record was read from. */
  path: string;
  span?: string;
}

export const UNIT_FATES = [
  /** An LLM call whose messages were read. */
  "llm_call",
  /** An LLM span around an inner one that records the same call: not read again. */
  "wrapper",
  /** A tool execution whose result was read. */
  "tool",
  /** A span with no message of a conversation (HTTP, agent, chain plumbing). */
  "other",
  /** A span exported again as it was (a delivery retried, overlapping exports joined): its first copy is read. */
  "repeat",
  /** A page of stored objects that was read. */
  "page",
  /** A recorded exchange that is no stored data (a POST that created it, a DELETE, a 404). */
  "not_stored",
] as const;
export type UnitFate = (typeof UNIT_FATES)[number];

/** What became of one unit of the document. */
export interface UnitAccount {
  path: string;
  fate: UnitFate;
  span?: string;
}

/** How the messages of the LLM calls fared: every one read is emitted, a repeat of an emitted one, or reported. */
export interface MessageCounts {
  read: number;
  emitted: number;
  repeated: number;
  reported: number;
}

export interface Reading {
  records: StoredRecord[];
  losses: ReaderLoss[];
  units: UnitAccount[];
  messages: MessageCounts;
}

export interface StoredLogReader {
  name: string;
  /** Whether a whole document (or the array of a JSONL file's documents) is of this store, by its shape alone. */
  recognise(document: unknown): boolean;
  read(document: unknown): Reading;
}

export function emptyCounts(): MessageCounts {
  return { read: 0, emitted: 0, repeated: 0, reported: 0 };
}
