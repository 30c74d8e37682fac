// The last look before sending: the origin provider's items on the left, the
// items about to be replayed on the right. Items are lined up by call_id first
// (a call with a call, an output with an output), then by position; each pair is
// compared on what decides a replay.
//
// | difference        | when                                                                |
// |-------------------|---------------------------------------------------------------------|
// | type_changed      | the two types differ (above all `function_call` -> `openai:function_call`) |
// | call_id_mismatch  | the call_ids differ (the pair was lined up by position)             |
// | name_changed      | the function names differ                                           |
// | arguments_changed | the arguments differ, byte for byte                                 |
// | missing_in_replay | an origin item with nothing to pair with                            |
// | extra_in_replay   | a replay item with nothing to pair with                             |
//
// Both journals are read in step, one item from each at a time. Items with a
// call_id wait in maps keyed by it until their partner comes; items without one
// pair by position as they arrive. What is still unpaired at the end pairs by
// position among itself, in journal order; the rest is missing or extra.
import type { JournalItem } from "./models/journal-item.js";

export const DIFFERENCE_CODES = [
  /** The item's `type` differs; a call that became an extension item is never replayed as a call. */
  "type_changed",
  /** The call_ids differ: an output written for one will answer no call of the other. */
  "call_id_mismatch",
  /** The function name differs. */
  "name_changed",
  /** The arguments differ, byte for byte. */
  "arguments_changed",
  /** An origin item has no counterpart in the replay. */
  "missing_in_replay",
  /** A replay item has no counterpart in the origin. */
  "extra_in_replay",
] as const;
export type DifferenceCode = (typeof DIFFERENCE_CODES)[number];

/** Where an item sits in its journal. */
export interface ItemPlace {
  source?: string;
  line: number;
  index: number;
}

export interface Difference {
  code: DifferenceCode;
  detail: string;
  /** JSON Pointer into the items, to the field that differs ("" for the whole item). */
  path: string;
  origin?: ItemPlace;
  replay?: ItemPlace;
}

type Side = "origin" | "replay";

interface Entry {
  item: JournalItem;
  fields: Record<string, unknown>;
  /** Arrival order on its side. */
  seq: number;
}

/**
 * Lines up two journals given item by item. Feed each side in journal order (in
 * step, or one after the other); `finish` pairs what is left and returns every
 * difference found.
 */
export class JournalDiffer {
  private readonly differences: Difference[] = [];
  private readonly keyed = { origin: new Map<string, Entry>(), replay: new Map<string, Entry>() };
  private readonly unkeyed = { origin: [] as Entry[], replay: [] as Entry[] };
  private readonly keysSeen = { origin: new Set<string>(), replay: new Set<string>() };
  private readonly seq = { origin: 0, replay: 0 };
  /** Index of the next unkeyed entry of each side not yet paired (the arrays are consumed from the front). */
  private readonly head = { origin: 0, replay: 0 };

  pushOrigin(item: JournalItem): void {
    this.push("origin", item);
  }

  pushReplay(item: JournalItem): void {
    this.push("replay", item);
  }

  finish(): Difference[] {
    const left = this.leftovers("origin");
    const right = this.leftovers("replay");
    const paired = Math.min(left.length, right.length);
    for (let i = 0; i < paired; i++) this.compare(left[i], right[i]);
    for (const entry of left.slice(paired)) {
      this.differences.push({ code: "missing_in_replay", detail: `${describeItem(entry.fields)} has no counterpart in the replay`, path: "", origin: placeOf(entry.item) });
    }
    for (const entry of right.slice(paired)) {
      this.differences.push({ code: "extra_in_replay", detail: `${describeItem(entry.fields)} has no counterpart in the origin`, path: "", replay: placeOf(entry.item) });
    }
    return this.differences;
  }

  private push(side: Side, item: JournalItem): void {
    const other: Side = side === "origin" ? "replay" : "origin";
    const fields = fieldsOf(item.item);
    const entry: Entry = { item, fields, seq: this.seq[side]++ };
    const key = keyOf(fields);
    // A call_id seen twice on one side pairs by position: the key names one item only.
    if (key !== undefined && !this.keysSeen[side].has(key)) {
      this.keysSeen[side].add(key);
      const partner = this.keyed[other].get(key);
      if (partner) {
        this.keyed[other].delete(key);
        if (side === "origin") this.compare(entry, partner);
        else this.compare(partner, entry);
      } else {
        this.keyed[side].set(key, entry);
      }
      return;
    }
    const waiting = this.unkeyed[other];
    if (this.head[other] < waiting.length) {
      const partner = waiting[this.head[other]++];
      if (this.head[other] === waiting.length) {
        waiting.length = 0;
        this.head[other] = 0;
      }
      if (side === "origin") this.compare(entry, partner);
      else this.compare(partner, entry);
      return;
    }
    this.unkeyed[side].push(entry);
  }

  private leftovers(side: Side): Entry[] {
    return [...this.keyed[side].values(), ...this.unkeyed[side].slice(this.head[side])].sort((a, b) => a.seq - b.seq);
  }

  private compare(origin: Entry, replay: Entry): void {
    const at = { origin: placeOf(origin.item), replay: placeOf(replay.item) };
    const before = origin.fields;
    const after = replay.fields;
    if (before.type !== after.type) {
      this.differences.push({ code: "type_changed", detail: describeTypeChange(before.type, after.type), path: "/type", ...at });
    }
    if ((hasOwn(before, "call_id") || hasOwn(after, "call_id")) && before.call_id !== after.call_id) {
      this.differences.push({
        code: "call_id_mismatch",
        detail: `call_id ${show(before.call_id)} in the origin, ${show(after.call_id)} in the replay: an output written for one answers no call of the other`,
        path: "/call_id",
        ...at,
      });
    }
    if ((hasOwn(before, "name") || hasOwn(after, "name")) && before.name !== after.name) {
      this.differences.push({ code: "name_changed", detail: `name ${show(before.name)} in the origin, ${show(after.name)} in the replay`, path: "/name", ...at });
    }
    if ((hasOwn(before, "arguments") || hasOwn(after, "arguments")) && argumentsText(before.arguments) !== argumentsText(after.arguments)) {
      this.differences.push({ code: "arguments_changed", detail: `arguments ${show(before.arguments)} in the origin, ${show(after.arguments)} in the replay`, path: "/arguments", ...at });
    }
  }
}

/** Lines up two journals and returns every difference (see the top of this file). */
export function diffJournals(origin: Iterable<JournalItem>, replay: Iterable<JournalItem>): Difference[] {
  const differ = new JournalDiffer();
  const left = origin[Symbol.iterator]();
  const right = replay[Symbol.iterator]();
  let leftDone = false;
  let rightDone = false;
  while (!leftDone || !rightDone) {
    if (!leftDone) {
      const next = left.next();
      if (next.done) leftDone = true;
      else differ.pushOrigin(next.value);
    }
    if (!rightDone) {
      const next = right.next();
      if (next.done) rightDone = true;
      else differ.pushReplay(next.value);
    }
  }
  return differ.finish();
}

/** The same, for journals read as async iterables (files, streams). */
export async function diffJournalsAsync(origin: AsyncIterable<JournalItem> | Iterable<JournalItem>, replay: AsyncIterable<JournalItem> | Iterable<JournalItem>): Promise<Difference[]> {
  const differ = new JournalDiffer();
  const left = iteratorOf(origin);
  const right = iteratorOf(replay);
  let leftDone = false;
  let rightDone = false;
  while (!leftDone || !rightDone) {
    const [a, b] = await Promise.all([leftDone ? undefined : left.next(), rightDone ? undefined : right.next()]);
    if (a) {
      if (a.done) leftDone = true;
      else differ.pushOrigin(a.value);
    }
    if (b) {
      if (b.done) rightDone = true;
      else differ.pushReplay(b.value);
    }
  }
  return differ.finish();
}

function iteratorOf(items: AsyncIterable<JournalItem> | Iterable<JournalItem>): AsyncIterator<JournalItem> | Iterator<JournalItem> {
  return Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]();
}

/**
 * The key an item lines up by: its call_id, and whether it is a call or an
 * output, so a call that changed its type still finds its counterpart.
 */
function keyOf(fields: Record<string, unknown>): string | undefined {
  if (typeof fields.call_id !== "string" || fields.call_id === "") return undefined;
  const output = typeof fields.type === "string" && fields.type.endsWith("_output");
  return `${output ? "output" : "call"} ${fields.call_id}`;
}

function describeTypeChange(before: unknown, after: unknown): string {
  if (before === "function_call" && typeof after === "string" && after.includes(":")) {
    return `the function_call became the extension item "${after}": it is never replayed as a call, and its output would answer nothing`;
  }
  return `type ${show(before)} in the origin, ${show(after)} in the replay`;
}

function describeItem(fields: Record<string, unknown>): string {
  const type = typeof fields.type === "string" ? fields.type : typeof fields.role === "string" ? `${fields.role} message` : "an item without a type";
  return typeof fields.call_id === "string" ? `${type} ${JSON.stringify(fields.call_id)}` : type;
}

function argumentsText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === "string" ? value : `\u0000${JSON.stringify(value)}`;
}

function show(value: unknown): string {
  if (value === undefined) return "absent";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? text.slice(0, 80) + "…" : text;
}

function placeOf(item: JournalItem): ItemPlace {
  const { source, line, index } = item.provenance;
  return source === undefined ? { line, index } : { source, line, index };
}

function fieldsOf(item: unknown): Record<string, unknown> {
  return item !== null && typeof item === "object" && !Array.isArray(item) ? (item as Record<string, unknown>) : {};
}

function hasOwn(fields: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(fields, key);
}
