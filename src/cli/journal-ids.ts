// The ids a journal gave so far, kept as the gate keeps them, for `orbridge
// convert`: the gate blocks a call whose item id an earlier item gave
// (duplicate_id) or whose call_id an earlier call gave (duplicate_call_id),
// on any earlier line. Chat, Anthropic, Gemini and Bedrock have no item ids,
// and the target's gate sees a call_id twice only where both holders are
// written with it: a first holder left out (unfinished, refused by a limit…),
// an extension item the target drops, or a call_id the target writes no id
// for (Gemini's own `gemini_call_…`, which its reader makes again from the
// call's rank among the calls without id since the last request, its name and
// its arguments) leaves the later call passing there. Such a later call is
// what this memory finds, so that it is left out, or its response written
// incomplete, as a call the gate blocks for what its own record says is.
//
// | the gate's reading                   | kept here as                                       |
// |--------------------------------------|----------------------------------------------------|
// | a request that replays the conversation so far | its leading items not judged (ConversationSoFar, as normalize tells them) |
// | an item id (item_reference excepted) | a fingerprint, with the line that gave it first    |
// | a call_id of a call or extension call | a fingerprint, with its first line and how the target shows it: |
// |                                      |   as it is, or made again from rank, name and arguments |
//
// Memory: a fingerprint table a key (fingerprint-table.ts) and the
// conversation so far, bounded as normalize bounds it. Each record's items are
// judged once, where its conversion has them; what is found is said by each
// call's callKey, as the steps after make the items again. A record written as
// it came (already in the target's envelope) is not read: the target's gate
// reads it as the source's did.
import { FingerprintTable, textFingerprint32 } from "../gate/fingerprint-table.js";
import { ConversationSoFar } from "../journal/conversation-so-far.js";
import { isPlainObject } from "../journal/detect.js";
import type { CanonicalItem } from "../models/open-responses.js";
import { callKey, type RepeatedId, type RepeatedKeys } from "../journal/unfinished-calls.js";

/** The first holder of a call_id was written with it. */
const SHOWN = 1;

const NONE: RepeatedKeys = new Map();

export class JournalIds {
  private readonly itemIds = new FingerprintTable<"line">({ line: "whole" });
  /** `made`: for a call_id the target drops, the fingerprint of the rank, name and arguments its reader makes one from (0: none). */
  private readonly callIds = new FingerprintTable<"line" | "shown" | "made">({ line: "whole", shown: "uint8", made: "uint32" });
  private readonly conversation = new ConversationSoFar();
  /** Calls written without their call_id since the last request body written: the rank a reader counts them by. */
  private idless = 0;

  /** `dropsCallId`: a call_id the target's writer leaves out (written without an id), which its reader makes again. */
  constructor(private readonly dropsCallId: (callId: string) => boolean = () => false) {}

  /**
   * The calls among one record's items that repeat an id an earlier record, or
   * an item before them, gave, where the target would not show it twice; their
   * ids kept for the records after. `carriesHistory`: the items are a
   * request's, which may replay the conversation so far; those it replays are
   * not new. `lineOf`: the line of an item. `givesItemIds`: the record is Open
   * Responses, whose item ids are its own; every other envelope has none, and
   * the ids its converter makes up here are not those the gate reads.
   */
  judge(items: readonly unknown[], lineOf: (index: number) => number, { carriesHistory = false, givesItemIds = true } = {}): RepeatedKeys {
    const replayed = carriesHistory ? this.conversation.repeatedPrefix(items.length, items as CanonicalItem[]) : 0;
    if (carriesHistory) this.conversation.restart();
    this.conversation.extend(items as CanonicalItem[]);
    let found: Map<string, RepeatedId> | undefined;
    const seen = new Map<string, number>();
    let rank = carriesHistory ? 0 : this.idless;
    items.forEach((item, index) => {
      if (!isPlainObject(item)) return;
      const pair = item.type === "function_call" ? callKey(item, 0) : undefined;
      const occurrence = pair === undefined ? 0 : (seen.get(pair) ?? 0);
      if (pair !== undefined) seen.set(pair, occurrence + 1);
      const made = this.madeId(item, rank);
      if (made !== 0) rank += 1;
      if (index < replayed) return;
      const repeated = this.judgeItem(item, lineOf(index), givesItemIds, made);
      if (repeated !== undefined) (found ??= new Map()).set(callKey(item, occurrence), repeated);
    });
    return found ?? NONE;
  }

  /**
   * The items written: a call among them shows its call_id to the target's
   * reader, or, where the target drops it, the rank, name and arguments the
   * reader makes one from. `restarts`: they are a request body's, whose
   * reader counts ranks from its first call again.
   */
  written(items: readonly unknown[], restarts = false): void {
    if (restarts) this.idless = 0;
    for (const item of items) {
      if (!isPlainObject(item) || item.type !== "function_call" || typeof item.call_id !== "string") continue;
      const made = this.madeId(item, this.idless);
      if (made !== 0) this.idless += 1;
      const slot = this.callIds.find(item.call_id);
      if (slot < 0 || this.callIds.get(slot, "shown") === SHOWN || this.callIds.get(slot, "made") !== 0) continue;
      if (made === 0) this.callIds.set(slot, "shown", SHOWN);
      else this.callIds.set(slot, "made", made);
    }
  }

  /** For a call the target writes without its call_id, the fingerprint of what its reader makes one from at `rank`; else 0. */
  private madeId(item: Record<string, unknown>, rank: number): number {
    if (item.type !== "function_call" || typeof item.call_id !== "string" || !this.dropsCallId(item.call_id)) return 0;
    return textFingerprint32(`${rank}\u0000${String(item.name)}\u0000${String(item.arguments)}`);
  }

  /** What the gate's journal checks find of one new item (journal-checks.ts), for a call; its ids kept either way. */
  private judgeItem(item: Record<string, unknown>, line: number, givesItemIds: boolean, made: number): RepeatedId | undefined {
    const byId = givesItemIds ? this.repeatedItemId(item, line) : undefined;
    const byCallId = this.repeatedCallId(item, line, made);
    return item.type === "function_call" ? (byId ?? byCallId) : undefined;
  }

  private repeatedItemId(item: Record<string, unknown>, line: number): RepeatedId | undefined {
    if (typeof item.id !== "string" || item.id === "" || isReference(item)) return undefined;
    const slot = this.itemIds.add(item.id);
    if (this.itemIds.added) {
      this.itemIds.set(slot, "line", line);
      return undefined;
    }
    const first = this.itemIds.get(slot, "line");
    return { field: "id", why: `has the id ${JSON.stringify(item.id)} an item of line ${first} gave, which the gate refuses (duplicate_id)`, cannot: (target) => `${target} has no item ids, so that id cannot go with it` };
  }

  /** `made`: what the target's reader makes this call's call_id from, where the target drops it. */
  private repeatedCallId(item: Record<string, unknown>, line: number, made: number): RepeatedId | undefined {
    if (!givesCallId(item) || typeof item.call_id !== "string" || item.call_id === "") return undefined;
    const slot = this.callIds.add(item.call_id);
    if (this.callIds.added) {
      this.callIds.set(slot, "line", line);
      return undefined;
    }
    // The target's gate sees the call_id twice where both holders are written with it, or made again alike.
    if (this.callIds.get(slot, "shown") === SHOWN) return undefined;
    if (made !== 0 && this.callIds.get(slot, "made") === made) return undefined;
    const first = this.callIds.get(slot, "line");
    return { field: "call_id", why: `gives the call_id an item of line ${first} gave, which the gate refuses (duplicate_call_id)`, cannot: (target) => `${target} is written that item without its call_id, or not at all, so this call would read there as the first to give it` };
  }
}

/** An item the gate keeps a call_id of: a function_call, or an extension item that is no output (a custom tool's call, a shell's…). */
function givesCallId(item: Record<string, unknown>): boolean {
  if (item.type === "function_call") return true;
  return typeof item.type === "string" && item.type.includes(":") && !item.type.endsWith("_output");
}

/** An item_reference, written with its type or, as the gate reads one, as an id alone. */
function isReference(item: Record<string, unknown>): boolean {
  if (item.type === "item_reference") return true;
  return (item.type === undefined || item.type === null) && typeof item.role !== "string" && Object.keys(item).length <= 2;
}
