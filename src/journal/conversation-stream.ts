// Which line a conversation's JournalNormalizer may still answer: the first of
// the stream it may still be reassembling. A router that merges conversations
// back in journal order (gate/conversation-router.ts) waits for that line before
// it writes any later one; every lane built on a JournalNormalizer (the gate's,
// normalize's, convert's) follows its stream with this.
//
// It is read from what the normalizer gives back for each line, not from what
// the line holds, so that it follows whatever the normalizer takes for a stream
// (any registered envelope's, events that continue the stream open):
//
// | what the normalizer gave back for line L        | the stream holds back from       |
// |-------------------------------------------------|----------------------------------|
// | items at L: a record outside any stream, or a   | nothing: whatever was open ended |
// |   response that opened and closed at L          |   before them, or closed at L    |
// | only an error at L (a line refused, a stream    | what it held back before: the    |
// |   record its assembler rejects)                 |   stream, if any, is still open  |
// | nothing at L, and responses of earlier lines    | L: they closed, and L began what |
// |                                                 |   comes next                     |
// | nothing at all                                  | L if nothing was held back, else |
// |                                                 |   as before                      |
// | a line of another source (before it is read)    | nothing: a new source ends it    |
//
// At worst a line is held back longer than it needed, never too little: a line
// of items at L is always given after what the stream closed before it.
import type { NormalizedRecord } from "./normalize.js";

export interface StreamPlace {
  source?: string;
  line: number;
}

export class ConversationStream {
  private held: StreamPlace | undefined;
  private source: string | undefined;

  /** The first line whose records may still come out of the stream; undefined when none can. */
  get from(): StreamPlace | undefined {
    return this.held;
  }

  /** Before a line goes to the normalizer: a new source ends the open stream. */
  line(source: string): void {
    if (source !== this.source) {
      this.source = source;
      this.held = undefined;
    }
  }

  /** After the record at `place` went to the normalizer, with what it gave back. */
  follow(place: StreamPlace, normalized: readonly NormalizedRecord[]): void {
    let itemsHere = false;
    let errorHere = false;
    let earlier = false;
    for (const entry of normalized) {
      if (entry.line === place.line && entry.source === place.source) {
        if (entry.kind === "items") itemsHere = true;
        else errorHere = true;
      } else if (entry.kind === "items") earlier = true;
    }
    if (itemsHere) this.held = undefined;
    else if (errorHere) return;
    else if (earlier || this.held === undefined) this.held = place;
  }

  /** The end of the conversation. */
  finish(): void {
    this.held = undefined;
  }
}
