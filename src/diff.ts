// The last look before sending: the origin provider's items on the left, the
// items about to be replayed on the right, lined up, and each pair compared on
// what decides a replay.
//
// | difference        | when                                                                |
// |-------------------|---------------------------------------------------------------------|
// | type_changed      | the two types differ (above all `function_call` -> `openai:function_call`) |
// | call_id_mismatch  | the call_ids differ (the pair was lined up otherwise)               |
// | name_changed      | the function names differ, or their namespaces (a namespace's function is another tool) |
// | arguments_changed | the arguments differ as JSON values (`{"a":1}` and `{"a": 1}` do not) |
// | status_changed    | a call's status differs; left out on one side, only when the other is not `completed` |
// | output_changed    | an output says something else to the model (a text and one text part saying it are the same) |
// | missing_in_replay | an origin item with nothing to pair with                            |
// | extra_in_replay   | a replay item with nothing to pair with                             |
//
// How the items are lined up, each step over what the steps before left:
//
// | step     | pairs                                                                       |
// |----------|-----------------------------------------------------------------------------|
// | call_id  | a call with the call of its call_id, an output with the output (the k-th   |
// |          |   of a repeated call_id with the k-th), wherever they stand                  |
// | item id  | items of the same `id`                                                      |
// | content  | between the pairs above that keep their order on both sides, items that say |
// |          |   the same (every field but `id`, arguments as JSON values), along a longest common subsequence |
// | kind     | between those, items of the same type (and role), the same way             |
// | position | between those, items left on both sides, one with one: a changed item      |
// So one item dropped or added is one difference, not a shift of every pair after
// it. The content and kind steps are bounded (align-sequences.ts): a stretch too
// large to align is paired by position, and a note says where.
import { recordText } from "./journal/record-text.js";
import { describeValue, parseJsonText } from "./models/json-value.js";
import { jsonEqual } from "./models/json-equal.js";
import { inexactNumber } from "./gate/exact-arguments.js";
import { createHash } from "node:crypto";
import { alignSequences, longestIncreasing, type Stretch } from "./align-sequences.js";
import { jsonTextMeaning } from "./models/json-meaning.js";
import { writeJson } from "./write-json.js";
import type { JournalItem } from "./models/journal-item.js";

export const DIFFERENCE_CODES = [
  /** The item's `type` differs; a call that became an extension item is never replayed as a call. */
  "type_changed",
  /** The call_ids differ: an output written for one will answer no call of the other. */
  "call_id_mismatch",
  /** The function differs: its name, or its namespace (a namespace's function is another tool than the top-level one of its name). */
  "name_changed",
  /** The arguments differ as JSON values. */
  "arguments_changed",
  /** A call's status differs: only a completed call runs. */
  "status_changed",
  /** An output says something else to the model. */
  "output_changed",
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

/** A stretch of the two journals lined up by position, being too large to align: its differences may be false. */
export interface DiffNote {
  detail: string;
  origin: ItemPlace;
  replay: ItemPlace;
}

export interface DiffOptions {
  /** The largest stretch the content and kind steps align, in pairs of items (origin items × replay items). */
  maxAlignCells?: number;
}

/** About 4 million pairs: a table of 8 MB, and a fraction of a second. */
export const MAX_ALIGN_CELLS = 4_000_000;

/** A field of an item as the comparison needs it: a key equal for equal values (of any kind), and how to show it. */
interface Field {
  present: boolean;
  key: string;
  shown: string;
  /** The value, when it is a string. */
  text?: string;
  /** Why the value cannot be compared as its record wrote it: then it equals no other. */
  notAsWritten?: string;
}

/** What is kept of an item: no more than the comparison and the messages need. */
interface Entry {
  place: ItemPlace;
  type: Field;
  callId: Field;
  name: Field;
  /** A call's namespace; null counts as none, as the gate reads it. */
  namespace: Field;
  arguments: Field;
  /** A call's status; absent for every other item. */
  status: Field | undefined;
  /** An output's output by what it says; absent for every other item. */
  output: Field | undefined;
  /** The call_id pairing key: a call and an output of one call_id are kept apart. */
  callKey: string | undefined;
  id: string | undefined;
  content: string;
  kind: string;
  description: string;
}

type Side = "origin" | "replay";

/**
 * Lines up two journals given item by item. Feed each side in journal order (in
 * step, or one after the other); `finish` lines them up and returns every
 * difference found, and leaves in `notes` the stretches it paired by position.
 */
export class JournalDiffer {
  private readonly entries: Record<Side, Entry[]> = { origin: [], replay: [] };
  private readonly maxAlignCells: number;
  readonly notes: DiffNote[] = [];

  constructor(options: DiffOptions = {}) {
    this.maxAlignCells = options.maxAlignCells ?? MAX_ALIGN_CELLS;
  }

  /**
   * `notAsWritten`, for an item whose arguments text is not the text its record
   * wrote (made from an object holding a number a double does not stand for):
   * why, as a sentence. Such arguments are never taken for the same as any.
   */
  pushOrigin(item: JournalItem, notAsWritten?: string): void {
    this.entries.origin.push(entryOf(item, notAsWritten));
  }

  pushReplay(item: JournalItem, notAsWritten?: string): void {
    this.entries.replay.push(entryOf(item, notAsWritten));
  }

  finish(): Difference[] {
    const { origin, replay } = this.entries;
    const pairOfOrigin = new Int32Array(origin.length).fill(-1);
    const pairOfReplay = new Int32Array(replay.length).fill(-1);
    const pair = (o: number, r: number) => {
      pairOfOrigin[o] = r;
      pairOfReplay[r] = o;
    };
    pairByKey(origin, replay, pairOfOrigin, pairOfReplay, (entry) => entry.callKey, pair);
    pairByKey(origin, replay, pairOfOrigin, pairOfReplay, (entry) => entry.id, pair);
    for (const gap of gapsBetween(frameOf(pairOfOrigin), pairOfOrigin, pairOfReplay)) this.alignGap(gap.origin, gap.replay, pair);

    const ordered: Array<{ at: [number, number]; differences: Difference[] }> = [];
    let lastPairedOrigin = -0.5;
    for (let r = 0; r < replay.length; r++) {
      const o = pairOfReplay[r];
      if (o >= 0) {
        lastPairedOrigin = o;
        ordered.push({ at: [o, r], differences: compare(origin[o], replay[r]) });
      } else {
        const entry = replay[r];
        ordered.push({ at: [lastPairedOrigin + 0.5, r], differences: [{ code: "extra_in_replay", detail: `${entry.description} has no counterpart in the origin`, path: "", replay: entry.place }] });
      }
    }
    for (let o = 0; o < origin.length; o++) {
      if (pairOfOrigin[o] >= 0) continue;
      const entry = origin[o];
      ordered.push({ at: [o, -1], differences: [{ code: "missing_in_replay", detail: `${entry.description} has no counterpart in the replay`, path: "", origin: entry.place }] });
    }
    ordered.sort((x, y) => x.at[0] - y.at[0] || x.at[1] - y.at[1]);
    return ordered.flatMap(({ differences }) => differences);
  }

  /** Steps content, kind and position over one gap between the pairs that keep their order. */
  private alignGap(origin: readonly number[], replay: readonly number[], pair: (o: number, r: number) => void): void {
    if (origin.length === 0 || replay.length === 0) return;
    const entries = this.entries;
    const contents = new Interner();
    const byContent = alignSequences(
      origin.map((o) => contents.number(entries.origin[o].content)),
      replay.map((r) => contents.number(entries.replay[r].content)),
      this.maxAlignCells,
    );
    for (const [i, j] of byContent.pairs) pair(origin[i], replay[j]);
    for (const between of stretchesBetween(byContent.pairs, origin.length, replay.length)) {
      const subOrigin = origin.slice(between.aFrom, between.aTo);
      const subReplay = replay.slice(between.bFrom, between.bTo);
      const kinds = new Interner();
      const byKind = alignSequences(
        subOrigin.map((o) => kinds.number(entries.origin[o].kind)),
        subReplay.map((r) => kinds.number(entries.replay[r].kind)),
        this.maxAlignCells,
      );
      for (const [i, j] of byKind.pairs) pair(subOrigin[i], subReplay[j]);
      for (const stretch of byKind.tooLarge) {
        this.notes.push({
          detail: `${stretch.aTo - stretch.aFrom} origin items and ${stretch.bTo - stretch.bFrom} replay items, too many to align (more than ${this.maxAlignCells} pairs) and with no item found once on each side, were lined up by position: differences there may come from the lining up`,
          origin: entries.origin[subOrigin[stretch.aFrom]].place,
          replay: entries.replay[subReplay[stretch.bFrom]].place,
        });
      }
      // What is left between two lined-up items, on both sides, is one item changed into another.
      for (const rest of stretchesBetween(byKind.pairs, subOrigin.length, subReplay.length)) {
        const count = Math.min(rest.aTo - rest.aFrom, rest.bTo - rest.bFrom);
        for (let k = 0; k < count; k++) pair(subOrigin[rest.aFrom + k], subReplay[rest.bFrom + k]);
      }
    }
  }
}

/** Lines up two journals and returns every difference (see the top of this file). */
export function diffJournals(origin: Iterable<JournalItem>, replay: Iterable<JournalItem>, options: DiffOptions = {}): Difference[] {
  const differ = new JournalDiffer(options);
  for (const item of origin) differ.pushOrigin(asWritten(item, "origin"));
  for (const item of replay) differ.pushReplay(asWritten(item, "replay"));
  return differ.finish();
}

/**
 * A journal item a library caller handed over, its item read as the JSON text
 * it writes (record-text.ts): what a getter, a cycle or a shared subtree would
 * make of the comparison is settled once, or refused with a TypeError that says
 * what was expected.
 */
function asWritten(entry: JournalItem, side: Side): JournalItem {
  if (entry === null || typeof entry !== "object" || entry.provenance === null || typeof entry.provenance !== "object" || typeof entry.provenance.line !== "number") {
    throw new TypeError(`the ${side} journal holds ${describeValue(entry)} where a journal item ({ item, provenance }, as normalizeJournal gives them) was expected`);
  }
  const written = recordText(entry.item);
  if (!written.ok && !written.deep) throw new TypeError(`the ${side} item of line ${entry.provenance.line}: ${written.message}`);
  return written.ok ? { ...entry, item: JSON.parse(written.text) as JournalItem["item"] } : entry;
}

/** The same, for journals read as async iterables (files, streams), both read at once. */
export async function diffJournalsAsync(
  origin: AsyncIterable<JournalItem> | Iterable<JournalItem>,
  replay: AsyncIterable<JournalItem> | Iterable<JournalItem>,
  options: DiffOptions = {},
): Promise<Difference[]> {
  const differ = new JournalDiffer(options);
  await Promise.all([feed(origin, (item) => differ.pushOrigin(asWritten(item, "origin"))), feed(replay, (item) => differ.pushReplay(asWritten(item, "replay")))]);
  return differ.finish();
}

async function feed(items: AsyncIterable<JournalItem> | Iterable<JournalItem>, push: (item: JournalItem) => void): Promise<void> {
  for await (const item of items) push(item);
}

/** Pairs the k-th item of each key on one side with the k-th of that key on the other, among items not yet paired. */
function pairByKey(
  origin: readonly Entry[],
  replay: readonly Entry[],
  pairOfOrigin: Int32Array,
  pairOfReplay: Int32Array,
  keyOf: (entry: Entry) => string | undefined,
  pair: (o: number, r: number) => void,
): void {
  const waiting = new Map<string, number[]>();
  origin.forEach((entry, o) => {
    const key = keyOf(entry);
    if (key === undefined || pairOfOrigin[o] >= 0) return;
    const list = waiting.get(key);
    if (list) list.push(o);
    else waiting.set(key, [o]);
  });
  const taken = new Map<string, number>();
  replay.forEach((entry, r) => {
    const key = keyOf(entry);
    if (key === undefined || pairOfReplay[r] >= 0) return;
    const list = waiting.get(key);
    const next = taken.get(key) ?? 0;
    if (!list || next >= list.length) return;
    taken.set(key, next + 1);
    pair(list[next], r);
  });
}

/** The pairs that keep their order on both sides, as many as can: the frame the other items are lined up within. */
function frameOf(pairOfOrigin: Int32Array): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  pairOfOrigin.forEach((r, o) => {
    if (r >= 0) pairs.push([o, r]);
  });
  return longestIncreasing(pairs);
}

/** Items not yet paired between two consecutive frame pairs, on each side. */
function gapsBetween(frame: ReadonlyArray<[number, number]>, pairOfOrigin: Int32Array, pairOfReplay: Int32Array): Array<{ origin: number[]; replay: number[] }> {
  const gaps: Array<{ origin: number[]; replay: number[] }> = [];
  let fromO = 0;
  let fromR = 0;
  for (const [o, r] of [...frame, [pairOfOrigin.length, pairOfReplay.length] as [number, number]]) {
    const gap = { origin: [] as number[], replay: [] as number[] };
    for (let i = fromO; i < o; i++) if (pairOfOrigin[i] < 0) gap.origin.push(i);
    for (let j = fromR; j < r; j++) if (pairOfReplay[j] < 0) gap.replay.push(j);
    gaps.push(gap);
    fromO = o + 1;
    fromR = r + 1;
  }
  return gaps;
}

/** The stretches between consecutive pairs (and before the first, after the last). */
function stretchesBetween(pairs: ReadonlyArray<[number, number]>, aLength: number, bLength: number): Stretch[] {
  const stretches: Stretch[] = [];
  let aFrom = 0;
  let bFrom = 0;
  for (const [i, j] of [...pairs, [aLength, bLength] as [number, number]]) {
    if (i > aFrom || j > bFrom) stretches.push({ aFrom, aTo: i, bFrom, bTo: j });
    aFrom = i + 1;
    bFrom = j + 1;
  }
  return stretches;
}

/** Numbers for keys, equal for equal keys. */
class Interner {
  private readonly numbers = new Map<string, number>();
  number(key: string): number {
    let number = this.numbers.get(key);
    if (number === undefined) {
      number = this.numbers.size;
      this.numbers.set(key, number);
    }
    return number;
  }
}

function compare(origin: Entry, replay: Entry): Difference[] {
  const at = { origin: origin.place, replay: replay.place };
  const differences: Difference[] = [];
  if (origin.type.key !== replay.type.key) {
    differences.push({ code: "type_changed", detail: describeTypeChange(origin.type, replay.type), path: "/type", ...at });
  }
  if ((origin.callId.present || replay.callId.present) && origin.callId.key !== replay.callId.key) {
    differences.push({
      code: "call_id_mismatch",
      detail: `call_id ${origin.callId.shown} in the origin, ${replay.callId.shown} in the replay: an output written for one answers no call of the other`,
      path: "/call_id",
      ...at,
    });
  }
  const nameChanged = (origin.name.present || replay.name.present) && origin.name.key !== replay.name.key;
  const namespaceChanged = origin.namespace.key !== replay.namespace.key;
  if (nameChanged || namespaceChanged) {
    differences.push({ code: "name_changed", detail: describeFunctionChange(origin, replay), path: nameChanged ? "/name" : "/namespace", ...at });
  }
  if ((origin.arguments.present || replay.arguments.present) && origin.arguments.key !== replay.arguments.key) {
    differences.push({ code: "arguments_changed", detail: describeArguments(origin.arguments, replay.arguments), path: "/arguments", ...at });
  }
  // Compared only between two calls, or two outputs: a changed type already says the rest.
  if (origin.status !== undefined && replay.status !== undefined && statusChanged(origin.status, replay.status)) {
    differences.push({ code: "status_changed", detail: `status ${origin.status.shown} in the origin, ${replay.status.shown} in the replay: only a completed call runs`, path: "/status", ...at });
  }
  if (origin.output !== undefined && replay.output !== undefined && origin.output.key !== replay.output.key) {
    differences.push({ code: "output_changed", detail: `output ${origin.output.shown} in the origin, ${replay.output.shown} in the replay: the model is told something else`, path: "/output", ...at });
  }
  return differences;
}

/** Arguments not as their record wrote them are each a key of their own. */
let notAsWrittenKeys = 0;

function entryOf(item: JournalItem, notAsWritten?: string): Entry {
  const fields = fieldsOf(item.item);
  const doubt = notAsWritten ?? parsedArgumentsDoubt(fields);
  const argumentsField: Field = doubt === undefined ? argumentsFieldOf(fields) : { present: true, key: `not as written ${notAsWrittenKeys++}`, shown: show(fields.arguments), notAsWritten: doubt };
  const callId = typeof fields.call_id === "string" && fields.call_id !== "" ? fields.call_id : undefined;
  const output = typeof fields.type === "string" && fields.type.endsWith("_output");
  // What the item says, whatever id it goes by: every other field, its arguments by their meaning.
  const said: Record<string, unknown> = { ...fields };
  delete said.id;
  if (argumentsField.present) said.arguments = argumentsField.key;
  const role = typeof fields.role === "string" ? fields.role : undefined;
  return {
    place: placeOf(item),
    type: fieldOf(fields, "type"),
    callId: fieldOf(fields, "call_id"),
    name: fieldOf(fields, "name"),
    namespace: namespaceFieldOf(fields),
    arguments: argumentsField,
    status: fields.type === "function_call" ? fieldOf(fields, "status") : undefined,
    output: typeof fields.type === "string" && fields.type.endsWith("_output") && !fields.type.includes(":") ? outputFieldOf(fields) : undefined,
    callKey: callId === undefined ? undefined : `${output ? "output" : "call"} ${callId}`,
    id: typeof fields.id === "string" && fields.id !== "" ? fields.id : undefined,
    content: digest(writeJson(said, true)),
    kind: `${typeof fields.type === "string" ? fields.type : writeJson(fields.type ?? null, true)} ${role ?? ""}`,
    description: describeItem(fields),
  };
}

function fieldOf(fields: Record<string, unknown>, name: string): Field {
  const value = fields[name];
  const present = Object.hasOwn(fields, name);
  if (typeof value === "string") return { present, key: `string ${value}`, shown: show(value), text: value };
  if (value === undefined) return { present, key: "absent", shown: show(value) };
  if (value === null || typeof value !== "object") return { present, key: `${typeof value} ${String(value)}`, shown: show(value) };
  return { present, key: `value ${digest(writeJson(value, true))}`, shown: show(value) };
}

/**
 * A namespace as it decides which tool runs: a call with a null namespace is a
 * call to the top-level function, as one without, so the two are one key.
 */
function namespaceFieldOf(fields: Record<string, unknown>): Field {
  if (fields.namespace === null) return { present: false, key: "absent", shown: show(undefined) };
  return fieldOf(fields, "namespace");
}

/**
 * Arguments by their meaning: a JSON text by its canonical writing (member
 * order and spacing aside), a text that is not JSON or names a member twice as
 * written, and a value that is not a string (never right) apart from any text.
 * A string's `text` is what it is compared as, to show where two differ.
 */
function argumentsFieldOf(fields: Record<string, unknown>): Field {
  const value = fields.arguments;
  const present = Object.hasOwn(fields, "arguments");
  if (typeof value === "string") {
    const meaning = jsonTextMeaning(value);
    return meaning === undefined ? { present, key: `bytes ${value}`, shown: show(value), text: value } : { present, key: `text ${meaning}`, shown: show(value), text: meaning };
  }
  if (value === undefined) return { present, key: "absent", shown: show(value) };
  return { present, key: `value ${digest(writeJson(value, true))}`, shown: show(value) };
}

/**
 * Why a call's `parsed_arguments` cannot be taken for its arguments text, or
 * undefined when it has none (null counts as none, as the gate reads it) or
 * they agree. The OpenAI SDKs' parse helpers give a call its arguments once
 * more, read, and a runner built on them runs that value: two calls with one
 * arguments text and other parsed_arguments run other arguments.
 */
function parsedArgumentsDoubt(fields: Record<string, unknown>): string | undefined {
  const parsed = fields.parsed_arguments;
  if (parsed === undefined || parsed === null) return undefined;
  const text = fields.arguments;
  const read = typeof text === "string" ? parseJsonText(text) : undefined;
  if (read === undefined || !read.ok || !jsonEqual(parsed, read.value)) return "parsed_arguments holds other arguments than the arguments text";
  // Equal as doubles says nothing of a number the text writes past a double (9007199254740993).
  if (inexactNumber(text as string) !== undefined) return "parsed_arguments cannot be shown to hold the arguments text, which writes a number a double does not stand for";
  return undefined;
}

/**
 * Two calls' statuses differ, by what a replay tells: a replayed item may leave
 * its status out (input items need none), which says nothing new of a call that
 * completed; of any other it hides that the call never finished.
 */
function statusChanged(origin: Field, replay: Field): boolean {
  if (origin.key === replay.key) return false;
  if (!origin.present) return replay.text !== "completed";
  if (!replay.present) return origin.text !== "completed";
  return true;
}

/**
 * An output by what it tells the model: a text, or parts. A text and a list of
 * one text part that holds it say the same (one envelope writes a result as a
 * string, another as parts); any other list is compared whole, canonically.
 */
function outputFieldOf(fields: Record<string, unknown>): Field {
  const value = fields.output;
  const present = Object.hasOwn(fields, "output");
  const text = typeof value === "string" ? value : onlyText(value);
  if (text !== undefined) return { present, key: `text ${text}`, shown: show(value), text };
  return fieldOf(fields, "output");
}

const TEXT_PARTS: ReadonlySet<unknown> = new Set(["input_text", "output_text", "text"]);

/** The text of a list of one text part with nothing else said (no annotation, no other member); otherwise undefined. */
function onlyText(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length !== 1) return undefined;
  const part = fieldsOf(value[0]);
  if (!TEXT_PARTS.has(part.type) || typeof part.text !== "string") return undefined;
  for (const key of Object.keys(part)) {
    if (key === "type" || key === "text") continue;
    const member = part[key];
    if (!(Array.isArray(member) && member.length === 0)) return undefined;
  }
  return part.text;
}

/** The arguments of a pair that differ: from a little before the first character that differs, when both are text. */
function describeArguments(origin: Field, replay: Field): string {
  const doubts = [origin.notAsWritten && `in the origin, ${origin.notAsWritten}`, replay.notAsWritten && `in the replay, ${replay.notAsWritten}`].filter(Boolean);
  if (doubts.length > 0) return `${doubts.join("; ")}: the arguments cannot be compared as written`;
  if (origin.text === undefined || replay.text === undefined) return `arguments ${origin.shown} in the origin, ${replay.shown} in the replay`;
  const before = origin.text;
  const after = replay.text;
  let first = 0;
  while (first < before.length && first < after.length && before.charCodeAt(first) === after.charCodeAt(first)) first += 1;
  if (first < ARGUMENTS_CONTEXT) return `arguments ${origin.shown} in the origin, ${replay.shown} in the replay`;
  const from = first - ARGUMENTS_CONTEXT;
  const excerpt = (text: string) => "…" + show(text.slice(from));
  return `arguments differ at character ${first} of their JSON, spacing and member order aside: ${excerpt(before)} in the origin, ${excerpt(after)} in the replay`;
}

/** Characters shown before the first that differs. */
const ARGUMENTS_CONTEXT = 20;

function digest(text: string): string {
  return createHash("sha256").update(text).digest("base64");
}

function describeTypeChange(before: Field, after: Field): string {
  if (before.text === "function_call" && after.text !== undefined && after.text.includes(":")) {
    return `the function_call became the extension item "${after.text}": it is never replayed as a call, and its output would answer nothing`;
  }
  return `type ${before.shown} in the origin, ${after.shown} in the replay`;
}

/**
 * Names alone when no side has a namespace, so that the common case reads as
 * before; else each side's function with its namespace, and, where the names
 * are the same, why that is still another tool.
 */
function describeFunctionChange(origin: Entry, replay: Entry): string {
  if (!origin.namespace.present && !replay.namespace.present) return `name ${origin.name.shown} in the origin, ${replay.name.shown} in the replay`;
  const functionOf = (entry: Entry) => (entry.namespace.present ? `${entry.name.shown} of namespace ${entry.namespace.shown}` : `${entry.name.shown} with no namespace`);
  const sides = `name ${functionOf(origin)} in the origin, ${functionOf(replay)} in the replay`;
  if (origin.name.key !== replay.name.key) return sides;
  const why = origin.namespace.present && replay.namespace.present ? "the function of one namespace is another tool than that of another" : "a namespace's function is another tool than the top-level function of its name";
  return `${sides}: ${why}`;
}

function describeItem(fields: Record<string, unknown>): string {
  const type = typeof fields.type === "string" ? fields.type : typeof fields.role === "string" ? `${fields.role} message` : "an item without a type";
  return typeof fields.call_id === "string" ? `${type} ${JSON.stringify(fields.call_id)}` : type;
}

const SHOWN_LENGTH = 80;

function show(value: unknown): string {
  if (value === undefined) return "absent";
  // A string's first characters are all its writing starts with; a value is written only as far as shown.
  const text = typeof value === "string" ? JSON.stringify(value.length > SHOWN_LENGTH + 20 ? value.slice(0, SHOWN_LENGTH + 20) : value) : writeJson(value, false, SHOWN_LENGTH + 20);
  return text.length > SHOWN_LENGTH ? text.slice(0, SHOWN_LENGTH) + "…" : text;
}

function placeOf(item: JournalItem): ItemPlace {
  const { source, line, index } = item.provenance;
  return source === undefined ? { line, index } : { source, line, index };
}

function fieldsOf(item: unknown): Record<string, unknown> {
  return item !== null && typeof item === "object" && !Array.isArray(item) ? (item as Record<string, unknown>) : {};
}
