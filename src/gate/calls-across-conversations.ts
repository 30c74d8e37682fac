// The call_ids of a stored log's conversations, kept across them. Each
// conversation (a trace, a stored completion) is judged apart, which is right
// for what depends on order (an output owed, a turn that ends); a call_id is
// another matter: a replayer of one conversation that meets a call another
// conversation already gave, and maybe already ran, runs it again. A call is
// therefore claimed for its conversation at its first sighting there, and a
// later conversation's call of that call_id is a duplicate, as it was when the
// whole log was one conversation.
//
// | call                                            | claimed |
// |-------------------------------------------------|---------|
// | its call_id is written in its record            | yes     |
// | its call_id is none of its record's strings: a  | no: two conversations' readers number their id-less calls alike (`legacy_1_get_weather`), and neither wrote it |
// |   reader or the normalizer made it for an       |         |
// |   id-less call                                  |         |
// | its record cannot be told (a stream assembled   | yes: it may have been written (fail closed) |
// |   from earlier lines, the end of the input)     |         |
// | given at the line being read, after a line of   | yes: a stream the earlier line began may    |
// |   its conversation that gave no item of its own |   end here, its call_id written there       |
//
// A call the history of a later conversation sends again with its output (a
// session whose second trace re-sends the first's call and result) is claimed
// again, and blocked: the readers give it as a call of that conversation, and
// telling it from a new call of the same call_id would take its output, which
// comes after the verdict. No recording here has that shape.
//
// Keys are call_ids as a writer of UTF-8 writes them (the checker's
// `writtenKey`), kept as fingerprints (fingerprint-table.ts): a collision takes
// two call_ids for one, a block that should not be, never a pass.
import type { Provenance } from "../models/journal-item.js";
import { isPlainObject } from "../models/json-value.js";
import { FingerprintTable } from "./fingerprint-table.js";
import { LinePlaces, type RelatedLine } from "./line-places.js";

/** What a conversation's checks ask of the others: see JournalCheckOptions. */
export interface OtherConversations {
  /**
   * Claims `key` (a call_id as written) for the call at `provenance`, whose
   * call_id as the item holds it is `callId`; returns where another
   * conversation's call gave it first, if one did.
   */
  claim(callId: string, key: string, provenance: Provenance): RelatedLine | undefined;
}

export class CallIdsAcrossConversations {
  private readonly calls = new FingerprintTable<"conversation" | "line">({ conversation: "uint32", line: "whole" });
  private readonly places = new LinePlaces();
  /** Each conversation's number, from 1, by its key's id. */
  private readonly numbers = new Map<string, number>();

  /** The claims of the conversation `id` (a key's id, as the router keeps it). */
  of(id: string): ConversationClaims {
    let number = this.numbers.get(id);
    if (number === undefined) {
      number = this.numbers.size + 1;
      this.numbers.set(id, number);
    }
    return new ConversationClaims(this, number);
  }

  /** Claims `key` for conversation `number`; the place of another conversation's earlier claim, if any. */
  claim(key: string, number: number, provenance: Provenance): RelatedLine | undefined {
    const slot = this.calls.add(key);
    if (this.calls.added) {
      this.calls.set(slot, "conversation", number);
      this.calls.set(slot, "line", this.places.place(provenance.source, provenance.line));
      return undefined;
    }
    if (this.calls.get(slot, "conversation") === number) return undefined;
    return this.places.describe(this.calls.get(slot, "line"), provenance.source);
  }
}

/** The line a conversation is reading, whose record tells which call_ids it wrote. */
interface ReadLine {
  source?: string;
  line: number;
  text: string;
  record: unknown;
  /** Whether the line is a stored log's (or the run reads stored logs, and every line is judged so): its calls are claimed. */
  stored: boolean;
  /**
   * Whether a line of the conversation before it gave back no item of its own:
   * a stream that line began (Chat chunks) may end at this one, which then gives
   * a call whose call_id an earlier line wrote and this one does not.
   */
  mayEndStream: boolean;
}

/** One conversation's side: which of its calls are claimed. */
export class ConversationClaims implements OtherConversations {
  private reading: ReadLine | undefined;
  /** Whether a line of a stored log came: a call whose line cannot be told is claimed from then on. */
  private stored = false;

  constructor(
    private readonly all: CallIdsAcrossConversations,
    private readonly number: number,
  ) {}

  /** The line being read, until the next: its calls are claimed if it is stored and their call_ids are its record's. */
  read(line: ReadLine): void {
    this.reading = line;
    if (line.stored) this.stored = true;
  }

  claim(callId: string, key: string, provenance: Provenance): RelatedLine | undefined {
    if (!this.stored) return undefined;
    const line = this.reading;
    if (line !== undefined && line.line === provenance.line && line.source === provenance.source && !line.mayEndStream && !(line.stored && writtenIn(line, callId))) return undefined;
    return this.all.claim(key, this.number, provenance);
  }
}

/** Whether `callId` is a string of the line's record (a member's value or name). */
function writtenIn(line: ReadLine, callId: string): boolean {
  // A stored log reader writes its records with JSON.stringify, which writes the call_id so.
  if (line.text.includes(JSON.stringify(callId))) return true;
  // Any other writer may have escaped it otherwise: the record's own strings say.
  const stack: unknown[] = [line.record];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === callId) return true;
    if (Array.isArray(value)) {
      for (const element of value) stack.push(element);
    } else if (isPlainObject(value)) {
      for (const [name, member] of Object.entries(value)) {
        if (name === callId) return true;
        stack.push(member);
      }
    }
  }
  return false;
}
