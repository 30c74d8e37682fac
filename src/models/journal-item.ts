// An item of a normalized journal, with where it came from. Chat and Open
// Responses records never share an item array before this step: each record is
// converted to canonical items first, and each item remembers its record.
import type { CanonicalItem } from "./open-responses.js";

/** The canonical form, Chat Completions, and the envelopes of the registry (adapters/index.ts). */
export type Envelope = "chat" | "responses" | "anthropic" | "gemini" | "bedrock";

export interface Provenance {
  /** The input file, or "-" for stdin. */
  source?: string;
  /** 1-based input line of the record the item came from (for SSE, the line its event started on). */
  line: number;
  /** Position of the item among the items of its record. */
  index: number;
  /** The envelope the record was written in. */
  envelope: Envelope;
  /** Set when the item is part of a response object (or a reassembled stream): its id and status. */
  response?: { id?: string; status?: string };
}

/**
 * Where the answers of a record that are alternatives to one another begin
 * among its items (the choices of a chat.completion of n > 1, the candidates
 * of a Gemini response): one answer's items are no turn after another's. A
 * stream gives each later choice as a record of its own, which `later` marks:
 * its items are all one more answer to the record before.
 */
export interface AnswerStarts {
  starts: number[];
  later?: boolean;
}

export interface JournalItem {
  /** The canonical item; kept as the record had it when it is not a valid portable item. */
  item: CanonicalItem | Record<string, unknown>;
  provenance: Provenance;
}
