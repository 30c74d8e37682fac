// Routes the lines of a journal that interleaves conversations, by the key each
// record carries, to one pipeline ("lane") per conversation, and merges what the
// lanes give back into one output in journal order. A lane is any one-journal
// pipeline (the gate's, the normalizer's): it sees its conversation's lines alone,
// in order, so what it gives for them is what it gives for the conversation run
// on its own, whatever else the journal holds around them.
//
// | line                                   | goes to                                        |
// |----------------------------------------|------------------------------------------------|
// | not read (too long, not UTF-8)         | the caller's `keyless` output, on its own line |
// | JSON whitespace only                   | nowhere                                        |
// | not JSON, or no key at the pointer     | the caller's `keyless` output, on its own line |
// |   (conversation-key.ts)                |                                                |
// | a key whose text an earlier key of the | the same: "7" after 7, 7 after "7"             |
// |   other type gave (key-texts.ts)       |                                                |
// | any of the above but blank             | the same, and every stream open then is        |
// |                                        |   damaged from it (`damage`)                   |
// | any of them that may be a request      | the same, and every conversation, open or      |
// |   body (unreadable-request.ts)         |   opened later, allows no function until its   |
// |                                        |   next request body (`restrict`)               |
// | a record with a key                    | its conversation's lane, opened at its first   |
// |                                        |   line, closed at the end of the input         |
//
// Open conversations are bounded (`maxOpen`): opening one more first closes the
// one whose last line is the oldest, as the end of the input would, except that
// a stream it still has open is damaged (a later record of it could have changed
// its calls). A closed conversation is remembered as a 64-bit fingerprint of its
// key (FingerprintTable, about 20 bytes), the last CLOSED_REMEMBERED of them at
// least; a later line with that key opens it afresh, with no function allowed in
// it (what it called and allowed before is gone, so a call_id it uses again or a
// tool it defines again could not be checked), and the first output of the new
// lane carries a note that says so. A key closed longer ago than the tables
// remember is still known to a filter of fixed size, which may also take a key
// never closed for one that was (a few in a million): such a conversation is
// opened as one closed before, too. Memory therefore grows with the open
// conversations, and not with the journal.
//
// Order: every line gets a position, counted over every line of every source.
// An output goes at the position of the line it answers, raised when need be to
// the position of its conversation's previous output, so that each conversation's
// outputs keep the order its lane gave them (a lane may answer a line late: a
// stream is answered when it ends). Outputs wait in a heap and leave in position
// order once no lane can still give one at or before them: each lane says which
// of its lines it may still answer (`pending`). Since a position is a line of one
// conversation, two outputs share one only within a conversation, so the order
// of the whole output does not depend on how the conversations were interleaved.
//
// A line a stored log's reader gave (read-document.ts) carries the conversation
// that reader read it in (a trace, a stored completion): that is its key, a
// string, whatever the pointer finds. Without a pointer, the lines that carry
// no such key are one conversation together, as a journal gated whole is, and
// each goes to it as it is, its lane reading (or refusing) it.
//
// A line that names no conversation may still have been one of a conversation's:
// a chunk of the stream it has open (cut short, or without its key), or a request
// body that narrowed its tools (`"tool_choice":"none"` in a line cut short, or in
// a body that left out its key). Which one cannot be known, so every stream open
// then is damaged from that line, as a line its own reader could not read would
// damage it, and, when the line names a request's tools, no conversation may run
// a function until its next request body says what may. So too for a line whose
// key, or whose request's tools, a member named twice makes unclear: a reader
// that keeps the first value may read another conversation's key in it.
import { recordText } from "../journal/record-text.js";
import type { JournalLine } from "../journal/read.js";
import { conversationKeyOf, type ConversationKey } from "../journal/conversation-key.js";
import { readAsSeveralLines } from "../journal/unicode-line-ends.js";
import type { JsonPointer } from "../journal/json-pointer.js";
import { namesRequestTools } from "../journal/unreadable-request.js";
import { duplicateName } from "../models/duplicate-names.js";
import { ClosedKeys, type Reopened } from "./closed-keys.js";
import { KeyTexts } from "./key-texts.js";
import { MinHeap } from "./min-heap.js";

export type { ConversationKey } from "../journal/conversation-key.js";
export type { Reopened } from "./closed-keys.js";

/**
 * The conversations open at once when the caller does not say
 * (`--max-open-conversations`). An open conversation costs about 17 KB of
 * resident memory: its pipeline's state (8 KB, a third of it the checks' empty
 * tables), the verdicts of later lines waiting behind it when it holds its last
 * stream back, and the collector's room. 4096 of them keep a journal of a
 * million conversations at 186 MB; 10,000 took it to 281 MB.
 */
export const DEFAULT_MAX_OPEN_CONVERSATIONS = 4096;

/** Conversations closed early that are remembered at least, to say so when one comes back. */
const CLOSED_REMEMBERED = 1 << 18;

/** Where a line is: its source (absent for records handed over already parsed) and its number there. */
export interface LinePlace {
  source?: string;
  line: number;
}

/** One conversation's pipeline. It gets only that conversation's records, in journal order. */
export interface ConversationLane<Output> {
  /** A line of the conversation, with the record the router parsed from it (the lane may read the text itself). */
  pushLine(line: JournalLine, record: unknown): Output[];
  /** A record handed over already parsed (a library caller's object). */
  pushRecord(record: unknown, place: LinePlace): Output[];
  /** The end of the conversation: the end of the input, or its closing to keep within the bound. */
  finish(): Output[];
  /** Lines already pushed that may still get an output (an open stream, an item waiting for the next); none when every line pushed was answered. */
  pending(): readonly LinePlace[];
  /**
   * A line that named no conversation may have been a record of the stream this
   * one has open: the stream is damaged from that line. `detail`: why, when the
   * stream is damaged for another reason (its conversation closed early).
   */
  damage(line: number, detail?: string): void;
  /** No function may run until the conversation's next request body; `where` says why, as a sentence's subject. */
  restrict(where: string): void;
}

export interface ConversationRouterOptions<Output, Presented> {
  /** Where each record holds its conversation's key; without it, a line that carries no reader's key is of one conversation with every other such line. */
  pointer?: JsonPointer;
  /** Conversations open at once; opening one more closes the least recently seen. */
  maxOpen?: number;
  /**
   * A new lane, for a conversation's first line, or its first after being closed
   * early: then `reopened` says after which of its lines it was closed (none
   * when it may have been closed before, too long ago to be remembered); no
   * function may run in it. `restricted`: a line that named no conversation may
   * have narrowed this one's tools; no function may run until its first request
   * body (`restrict`).
   */
  openLane(key: ConversationKey | undefined, reopened?: Reopened, restricted?: string): ConversationLane<Output>;
  /** The output for a line that names no conversation. */
  keyless(place: LinePlace, detail: string): Output[];
  /** The line an output answers. */
  placeOf(output: Output): LinePlace;
  /**
   * What is kept of an output, with its conversation, while it waits for its turn
   * (a line written as text is a fraction of the record it comes from), and what
   * the router gives back.
   */
  present(routed: Routed<Output>): Presented;
}

/** An output with the conversation it belongs to; `note` on a conversation's first output after it was reopened. */
export interface Routed<Output> {
  output: Output;
  conversation?: ConversationKey;
  note?: string;
}

interface PlacedLine {
  source?: string;
  line: number;
  position: number;
}

interface Conversation<Output> {
  /** Undefined for the one conversation of the lines that carry no key, without a pointer. */
  key: ConversationKey | undefined;
  id: string;
  lane: ConversationLane<Output>;
  /** The lines pushed since the first one the lane may still answer, with their positions. */
  places: PlacedLine[];
  /** The position of the conversation's last output. */
  lastPosition: number;
  /** The position of the first line the lane may still answer; undefined when it answered all. */
  pending: number | undefined;
  lastLine: number;
  note: string | undefined;
  closed: boolean;
  /** The router's restrictions (`restrictAll`) and damages (`damageAll`) this conversation's lane has taken. */
  restrictions: number;
  damages: number;
  /** Neighbours in the order last seen, the least recently seen first. */
  older: Conversation<Output> | undefined;
  newer: Conversation<Output> | undefined;
}

interface Waiting<Presented> {
  presented: Presented;
  position: number;
  /** Order of arrival, which breaks ties between outputs of one position (one conversation's). */
  order: number;
}

interface Hold<Output> {
  position: number;
  conversation: Conversation<Output>;
}

export interface RouterCounts {
  /** Conversations opened, a conversation opened again after being closed early counting once. */
  conversations: number;
  /** Conversations opened again after being closed early. */
  reopened: number;
}

export class ConversationRouter<Output, Presented> {
  private readonly pointer: JsonPointer | undefined;
  /** The type each key's text was first met with: "7" and 7 may not both key a conversation. */
  private readonly keyTexts = new KeyTexts();
  private readonly maxOpen: number;
  private readonly options: ConversationRouterOptions<Output, Presented>;
  /** Open conversations by key id. */
  private readonly open = new Map<string, Conversation<Output>>();
  /** The open conversations in the order last seen, linked through `older` and `newer`: moving one costs no change to the map. */
  private oldest: Conversation<Output> | undefined;
  private latest: Conversation<Output> | undefined;
  private readonly closedEarly = new ClosedKeys(CLOSED_REMEMBERED);
  /**
   * Why no function may run in a conversation until its next request body, once
   * a line that names none may have narrowed one, and how many such lines came.
   * A conversation takes the restriction before its next line, or its end: so a
   * journal of such lines costs a step each, however many conversations are open.
   */
  private restricted: string | undefined;
  private restrictions = 0;
  /** The line of the last line that named no conversation, and how many came: each open stream is damaged from it, taken the same way. */
  private damagedBy = 0;
  private damages = 0;
  private readonly waiting = new MinHeap<Waiting<Presented>>((a, b) => a.position < b.position || (a.position === b.position && a.order < b.order));
  private readonly holds = new MinHeap<Hold<Output>>((a, b) => a.position < b.position);
  private position = 0;
  private order = 0;
  /** The position of the last output released: nothing is placed before it. */
  private released = 0;
  readonly counts: RouterCounts = { conversations: 0, reopened: 0 };

  constructor(options: ConversationRouterOptions<Output, Presented>) {
    const maxOpen = options.maxOpen ?? DEFAULT_MAX_OPEN_CONVERSATIONS;
    if (!Number.isSafeInteger(maxOpen) || maxOpen < 1) throw new RangeError(`the number of open conversations must be a whole number of at least 1, not ${maxOpen}`);
    this.options = options;
    this.pointer = options.pointer;
    this.maxOpen = maxOpen;
  }

  /** One line of the journal; returns the outputs that can now be written, in order. */
  pushLine(line: JournalLine): Presented[] {
    const position = (this.position += 1);
    const place: LinePlace = { source: line.source, line: line.line };
    if (line.conversation !== undefined) return this.pushKeyed(line, { key: line.conversation, id: "s" + line.conversation }, place, position);
    if (this.pointer === undefined) return this.pushKeyed(line, { key: undefined, id: "" }, place, position);
    if (line.error !== undefined) return this.keyless(place, position, line.error, line.mayBeRequest === true);
    if (isBlank(line.text)) return this.release();
    // To a reader that ends lines at a lone "\r", or where str.splitlines does, it is several records, each of which may name a conversation of its own.
    const split = readAsSeveralLines(line.text);
    if (split !== undefined) return this.keyless(place, position, split, namesRequestTools(line.text));
    let record: unknown;
    try {
      record = JSON.parse(line.text);
    } catch (error) {
      return this.keyless(place, position, `line is not JSON, so it names no conversation: ${(error as Error).message}`, namesRequestTools(line.text));
    }
    const key = conversationKeyOf(record, this.pointer, line.text);
    if ("error" in key) return this.keyless(place, position, key.error, namesRequestTools(line.text));
    const clash = this.keyTexts.clash(key.key);
    if (clash !== undefined) return this.keyless(place, position, `no conversation key at ${this.pointer.text}: ${clash}`, namesRequestTools(line.text));
    const conversation = this.conversationOf(key.key, key.id, place);
    conversation.places.push({ source: line.source, line: line.line, position });
    conversation.lastLine = line.line;
    this.place(conversation, conversation.lane.pushLine(line, record));
    this.settle(conversation);
    // Its own lane refuses the line; the others must not trust the key it gave.
    const namesTools = namesRequestTools(line.text);
    if ((namesTools || mayNameTwice(line.text, this.pointer)) && namesMemberTwice(line.text, record)) {
      this.damageAll(place, conversation);
      if (namesTools) this.restrictAll(place, conversation);
    }
    return this.release();
  }

  /** A line whose conversation is known without reading it: a stored log reader's, or any without a pointer. The lane reads it. */
  private pushKeyed(line: JournalLine, key: { key: ConversationKey | undefined; id: string }, place: LinePlace, position: number): Presented[] {
    // A stored log's key is a string: with --conversation, a record's number key may name it too.
    const clash = key.key === undefined || this.pointer === undefined ? undefined : this.keyTexts.clash(key.key);
    if (clash !== undefined) return this.keyless(place, position, `no conversation key: ${clash}`, namesRequestTools(line.text));
    const conversation = this.conversationOf(key.key, key.id, place);
    conversation.places.push({ source: line.source, line: line.line, position });
    conversation.lastLine = line.line;
    let record: unknown;
    try {
      record = line.error === undefined ? JSON.parse(line.text) : undefined;
    } catch {
      // The lane reports a line that is not JSON.
    }
    this.place(conversation, conversation.lane.pushLine(line, record));
    this.settle(conversation);
    return this.release();
  }

  /**
   * One record already parsed, at `place`; returns the outputs that can now be
   * written, in order. Its key is read from the JSON text it writes, as its lane
   * reads it (record-text.ts), so that no getter can give the key one answer and
   * the lane another.
   */
  pushRecord(given: unknown, place: LinePlace): Presented[] {
    const written = recordText(given);
    // A record that cannot be written as JSON may be any request body (the normalizer takes it for one).
    if (!written.ok) return this.keyless(place, (this.position += 1), written.message, true);
    const record: unknown = JSON.parse(written.text);
    const position = (this.position += 1);
    const key = this.pointer === undefined ? { key: undefined, id: "" } : conversationKeyOf(record, this.pointer);
    if ("error" in key) return this.keyless(place, position, key.error, namesRequestTools(written.text));
    const clash = key.key === undefined ? undefined : this.keyTexts.clash(key.key);
    if (clash !== undefined) return this.keyless(place, position, `no conversation key at ${this.pointer!.text}: ${clash}`, namesRequestTools(written.text));
    const conversation = this.conversationOf(key.key, key.id, place);
    conversation.places.push({ source: place.source, line: place.line, position });
    conversation.lastLine = place.line;
    this.place(conversation, conversation.lane.pushRecord(record, place));
    this.settle(conversation);
    return this.release();
  }

  /** The end of the input: every conversation still open ends, and every output left is released. */
  finish(): Presented[] {
    for (const conversation of this.open.values()) this.close(conversation, false);
    this.open.clear();
    this.oldest = undefined;
    this.latest = undefined;
    return this.release(Number.POSITIVE_INFINITY);
  }

  /** `mayBeRequest`: the line may be a request body of a conversation it does not name. */
  private keyless(place: LinePlace, position: number, detail: string, mayBeRequest: boolean): Presented[] {
    this.damageAll(place);
    if (mayBeRequest) {
      this.restrictAll(place);
      detail += "; it may be a request body (it names a request's tools, or was not read at all) of a conversation it does not name, so in none may a function run until its next request body";
    }
    for (const output of this.options.keyless(place, detail)) {
      this.waiting.push({ presented: this.options.present({ output }), position: Math.max(position, this.released), order: (this.order += 1) });
    }
    return this.release();
  }

  /** Every conversation but `except`, open now or opened later, allows no function until its next request body. */
  private restrictAll(place: LinePlace, except?: Conversation<Output>): void {
    this.restricted = `line ${place.line}, which may be a request body of any conversation and cannot be read as one,`;
    this.restrictions += 1;
    if (except !== undefined) except.restrictions = this.restrictions;
  }

  /** The stream every conversation but `except` has open is damaged from this line. */
  private damageAll(place: LinePlace, except?: Conversation<Output>): void {
    this.damagedBy = place.line;
    this.damages += 1;
    if (except !== undefined) except.damages = this.damages;
  }

  /** Gives the conversation's lane the damage and the restriction it has not taken yet. */
  private catchUp(conversation: Conversation<Output>): void {
    if (conversation.damages !== this.damages) {
      conversation.damages = this.damages;
      conversation.lane.damage(this.damagedBy);
    }
    if (conversation.restrictions === this.restrictions) return;
    conversation.restrictions = this.restrictions;
    conversation.lane.restrict(this.restricted!);
  }

  private conversationOf(key: ConversationKey | undefined, id: string, place: LinePlace): Conversation<Output> {
    const known = this.open.get(id);
    if (known) {
      this.catchUp(known);
      // Seen again: it becomes the most recently seen.
      if (known !== this.latest) {
        this.unlink(known);
        this.link(known);
      }
      return known;
    }
    if (this.open.size >= this.maxOpen) {
      const oldest = this.oldest!;
      this.unlink(oldest);
      this.open.delete(oldest.id);
      this.close(oldest, true);
    }
    const reopened = this.closedEarly.reopened(id);
    let note: string | undefined;
    if (reopened !== undefined) {
      this.counts.reopened += 1;
      const bound = this.whyClosedEarly();
      const closed =
        reopened.closedAfter === undefined
          ? `this conversation may have been closed before ${bound}, longer ago than its line is remembered`
          : `this conversation was closed after its line ${reopened.closedAfter} ${bound}`;
      note = `${closed}; from line ${place.line} it is gated afresh, without its earlier calls, tools and history, and no function may run in it`;
    } else {
      this.counts.conversations += 1;
    }
    const lane = this.options.openLane(key, reopened, this.restricted);
    const conversation: Conversation<Output> = { key, id, lane, places: [], lastPosition: 0, pending: undefined, lastLine: place.line, note, closed: false, restrictions: this.restrictions, damages: this.damages, older: undefined, newer: undefined };
    this.open.set(id, conversation);
    this.link(conversation);
    return conversation;
  }

  /** Why a conversation is closed before the end of the input, as the notes and details say it. */
  private whyClosedEarly(): string {
    return `to keep at most ${this.maxOpen} conversation${this.maxOpen === 1 ? "" : "s"} open`;
  }

  /** Makes `conversation` the most recently seen. */
  private link(conversation: Conversation<Output>): void {
    conversation.older = this.latest;
    conversation.newer = undefined;
    if (this.latest) this.latest.newer = conversation;
    else this.oldest = conversation;
    this.latest = conversation;
  }

  private unlink(conversation: Conversation<Output>): void {
    if (conversation.older) conversation.older.newer = conversation.newer;
    else this.oldest = conversation.newer;
    if (conversation.newer) conversation.newer.older = conversation.older;
    else this.latest = conversation.older;
    conversation.older = undefined;
    conversation.newer = undefined;
  }

  private close(conversation: Conversation<Output>, early: boolean): void {
    // A stream still open gives its calls at the end: after the damage and the restriction.
    this.catchUp(conversation);
    // Closed early, a stream still open may have more records to come, which would
    // have changed its calls: they are given as incomplete.
    if (early) conversation.lane.damage(conversation.lastLine, `the conversation was closed after line ${conversation.lastLine}, ${this.whyClosedEarly()}, while this stream was still open: a later record of it could have changed its calls, which are marked incomplete`);
    this.place(conversation, conversation.lane.finish());
    conversation.closed = true;
    conversation.pending = undefined;
    conversation.places = [];
    if (early) this.closedEarly.add(conversation.id, conversation.lastLine);
  }

  /** Gives each output of a lane its position, and puts it to wait for its turn. */
  private place(conversation: Conversation<Output>, outputs: readonly Output[]): void {
    for (const output of outputs) {
      const line = positionOf(conversation.places, this.options.placeOf(output));
      // A line the lane was not known to hold back (which its `pending` should have
      // said) is answered where the output can still go: its conversation's order is kept.
      const position = Math.max(line ?? this.position, conversation.lastPosition, this.released);
      conversation.lastPosition = position;
      const routed: Routed<Output> = { output, conversation: conversation.key };
      if (conversation.note !== undefined) {
        routed.note = conversation.note;
        conversation.note = undefined;
      }
      this.waiting.push({ presented: this.options.present(routed), position, order: (this.order += 1) });
    }
  }

  /** After a push: which of the conversation's lines its lane may still answer, and the lines it no longer needs to place. */
  private settle(conversation: Conversation<Output>): void {
    let pending: number | undefined;
    for (const place of conversation.lane.pending()) {
      // A place no longer among the lines kept is older than all of them.
      const position = positionOf(conversation.places, place) ?? conversation.places[0]?.position ?? this.position;
      if (pending === undefined || position < pending) pending = position;
    }
    if (pending === undefined) {
      if (conversation.places.length > 0) conversation.places = [];
    } else {
      let drop = 0;
      while (drop < conversation.places.length && conversation.places[drop].position < pending) drop += 1;
      if (drop > 0) conversation.places.splice(0, drop);
    }
    if (pending !== conversation.pending) {
      conversation.pending = pending;
      if (pending !== undefined) this.holds.push({ position: pending, conversation });
    }
  }

  /** The outputs placed before `bound`: by default, before every line still pending, and up to the last line read. */
  private release(bound = this.bound()): Presented[] {
    const out: Presented[] = [];
    for (let next = this.waiting.peek(); next !== undefined && next.position < bound; next = this.waiting.peek()) {
      this.waiting.pop();
      this.released = next.position;
      out.push(next.presented);
    }
    return out;
  }

  private bound(): number {
    for (let hold = this.holds.peek(); hold !== undefined; hold = this.holds.peek()) {
      // A pending position a conversation has since moved past (or closed on) holds nothing back.
      if (!hold.conversation.closed && hold.conversation.pending === hold.position) return Math.min(hold.position, this.position + 1);
      this.holds.pop();
    }
    return this.position + 1;
  }
}

/** The position of the line at `place` among a conversation's kept lines; the latest such line when a source was read twice. */
function positionOf(places: readonly PlacedLine[], place: LinePlace): number | undefined {
  for (let i = places.length - 1; i >= 0; i--) {
    const kept = places[i];
    if (kept.line === place.line && (place.source === undefined || kept.source === place.source)) return kept.position;
  }
  return undefined;
}

/** JSON whitespace only (RFC 8259): a line that holds no record, as the journal readers skip it. */
function isBlank(text: string): boolean {
  return text.length === 0 || /^[ \t\r\n]*$/.test(text);
}

/**
 * Whether a member on the key's path may be named twice in the text: a token of
 * the pointer written twice in quotes, or any `\u` escape, which could spell one
 * (as `\/` could spell a token's `/`). Most lines are not, and need no check for
 * names given twice here.
 */
function mayNameTwice(text: string, pointer: JsonPointer): boolean {
  if (text.includes("\\u")) return true;
  for (const token of pointer.tokens) {
    if (/["\\/\u0000-\u001f]/.test(token)) return true;
    const quoted = JSON.stringify(token);
    const first = text.indexOf(quoted);
    if (first !== -1 && text.indexOf(quoted, first + 1) !== -1) return true;
  }
  return false;
}

/** Whether an object of the record's text names a member twice; a text the check cannot explain counts as one. */
function namesMemberTwice(text: string, record: unknown): boolean {
  try {
    return duplicateName(text, record) !== undefined;
  } catch {
    return true;
  }
}
