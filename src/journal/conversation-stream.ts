// Which line a conversation's JournalNormalizer may still answer: the first of
// the stream it may still be reassembling. A router that merges conversations
// back in journal order (gate/conversation-router.ts) waits for that line before
// it writes any later one; every lane built on a JournalNormalizer (the gate's,
// normalize's, convert's) follows its stream with this.
//
// | record pushed                                  | the stream held back from            |
// |------------------------------------------------|--------------------------------------|
// | of two kinds at once (detect.ts, `ambiguity`)  | unchanged: it is refused before the  |
// |                                                |   stream sees it                     |
// | a chunk or event, no stream open, or the other | this record                          |
// |   envelope's                                   |                                      |
// | a chunk or event that closed a response        | this record: what is left of the     |
// |                                                |   stream begins here at the earliest |
// | another chunk or event of the open stream      | unchanged                            |
// | any other record the normalizer read as one    | nothing: it ended the stream, and its|
// |   (its items came out at its line)             |   own items came out after           |
// | a line of another source                       | nothing: a new source ends the stream|
//
// Told from what goes in and what comes out, as StreamRecords decides it. A line
// the normalizer refuses (not JSON to it, a member named twice) leaves the stream
// held back as it was: at worst later lines wait longer, never too little.
import { ambiguity, detectRecord } from "./detect.js";
import type { NormalizedRecord } from "./normalize.js";

export interface StreamPlace {
  source?: string;
  line: number;
}

export class ConversationStream {
  private open: { from: StreamPlace; envelope: "chat" | "responses" } | undefined;
  private source: string | undefined;

  /** The first line whose records may still come out of the stream; undefined when no stream is open. */
  get from(): StreamPlace | undefined {
    return this.open?.from;
  }

  /** Before a line goes to the normalizer: a new source ends the open stream. */
  line(source: string): void {
    if (source !== this.source) {
      this.source = source;
      this.open = undefined;
    }
  }

  /** After a record went to the normalizer, with what it gave back. */
  follow(record: unknown, place: StreamPlace, normalized: readonly NormalizedRecord[]): void {
    const kind = detectRecord(record);
    if (ambiguity(record, kind) !== undefined) return;
    const envelope = kind === "chat_chunk" ? "chat" : kind === "responses_event" ? "responses" : undefined;
    if (envelope === undefined) {
      if (normalized.some((entry) => entry.kind === "items" && entry.line === place.line)) this.open = undefined;
      return;
    }
    const closed = normalized.some((entry) => entry.kind === "items" && (entry.recordKind === "chat_chunk" || entry.recordKind === "responses_event"));
    if (!this.open || this.open.envelope !== envelope || closed) this.open = { from: place, envelope };
  }

  /** The end of the conversation. */
  finish(): void {
    this.open = undefined;
  }
}
