// Rewrites a journal toward a replay target (`normalize --for`), item by item,
// and reorders what the target needs in another order; every change is reported.
// What each target holds and how it is checked is in targets.ts.
//
// Reordering keeps a buffer of the current turn only: it opens at a call and
// closes when every call of it is answered, or when an item comes that ends the
// turn (a message other than the turn's own assistant text, or anything after an
// output while calls still wait). A turn longer than `maxTurnItems` is released as
// it is; `gate --for` then reports what stayed out of order.
//
// An output whose call has not come yet is held, with every item after it, until
// the call comes: the output is then written after its call (reported), and the
// items held before the call go on in their order. When the call does not come
// within `maxTurnItems` items, or before the end, the held items are released as
// they came and the output is reported as one the target rejects.
//
// A target's profile (handed over in the options) adds its rules: call ids
// rewritten to its grammar (target-ids.ts), an output given the function name of
// its call where the target's results name it (the call may be on an earlier
// line: conversation-calls.ts), opaque reasoning of another family
// removed (its text kept where the target reads text), empty text removed where
// refused, and the images of a tool result, where tool results hold text only,
// moved into a user message written after the turn's results.
import { describeValue } from "../models/json-value.js";
import { ConversationCalls } from "../journal/conversation-calls.js";
import type { JournalItem } from "../models/journal-item.js";
import { pointerToken } from "../models/json-pointer.js";
import { OPENAI_ITEM_TYPES } from "../models/provider-item-types.js";
import { foreignIdReason, itemFields, itemKind, type ItemKind } from "./item-kind.js";
import { PORTABLE_CALL_IDS, TargetIdRewrites, type IdGrammar } from "./target-ids.js";
import { describePart, emptyTexts, MEDIA_PARTS, partType, reasoningFamily } from "./target-profile-checks.js";
import { assertTarget } from "./target-names.js";
import type { TargetProfile } from "../models/target-profile.js";
import {
  assertNever,
  DEFAULT_MAX_TURN_ITEMS,
  MESSAGE_ROLES,
  OPENAI_ID_PREFIXES,
  placeOf,
  profileFor,
  rejectionOf,
  type RewriteOptions,
  type Rewritten,
  type Target,
  type TargetChange,
  type TargetChangeCode,
} from "./targets.js";

/** `moved`: what the target needs elsewhere (the images of a tool result, as a user message after the turn's results). */
type Outcome = { item: JournalItem | undefined; changes: TargetChange[]; moved?: JournalItem };

/** Rewrites one item for the target, before any reordering. `ids`: the journal's call-id rewrites, when the target has an id grammar. */
function rewriteItem(journalItem: JournalItem, target: Target, options: RewriteOptions, ids?: TargetIdRewrites, calls?: ConversationCalls): Outcome {
  const fields = itemFields(journalItem.item);
  const kind = itemKind(fields);
  const changes: TargetChange[] = [];
  const change = (path: string, code: TargetChangeCode, detail: string) => changes.push({ ...placeOf(journalItem), path, code, detail });
  const remove = (why: string): Outcome => {
    change("", "unsupported_item", why);
    return { item: undefined, changes };
  };
  const rejection = rejectionOf(target, kind, fields, options);
  let rewritten: Record<string, unknown> | undefined;
  let moved: JournalItem | undefined;
  const edit = () => (rewritten ??= { ...fields });
  switch (target) {
    case "open-responses": {
      if (kind === "untyped_message" && MESSAGE_ROLES.has(String(fields.role))) {
        edit().type = "message";
        change("/type", "form_changed", 'the message gets `type: "message"`, which Open Responses requires');
      } else if (rejection) return remove(rejection);
      const foreign = foreignIdReason(fields, kind);
      if (foreign) {
        delete edit().id;
        change("/id", "foreign_id_removed", `${foreign}; removed`);
      }
      break;
    }
    case "openai-responses": {
      if (kind === "extension" && typeof fields.type === "string" && fields.type.startsWith("openai:") && OPENAI_ITEM_TYPES.has(fields.type.slice(7))) {
        edit().type = fields.type.slice(7);
        change("/type", "form_changed", `"${fields.type}" is written as OpenAI's own "${fields.type.slice(7)}"`);
        break;
      }
      if (rejection) return remove(rejection);
      const prefix = OPENAI_ID_PREFIXES[kind];
      const foreign = foreignIdReason(fields, kind) ?? (prefix && typeof fields.id === "string" && !fields.id.startsWith(prefix) ? `${JSON.stringify(fields.id)} does not begin with "${prefix}"` : undefined);
      if (foreign) {
        delete edit().id;
        change("/id", "foreign_id_removed", `${foreign}; removed`);
      }
      break;
    }
    case "chat-completions":
      if (rejection) return remove(rejection);
      break;
    case "strict":
      // An unfinished call keeps what says so: without a status it would read as a call that ran.
      if (kind === "function_call" && Object.hasOwn(fields, "status") && fields.status !== "completed") {
        change("/status", "unsupported_field", `kept: the call is ${describeValue(fields.status)}, and without a status it would read as a call that ran; strict input items carry no status, so the target refuses it`);
      } else if (Object.hasOwn(fields, "status")) {
        delete edit().status;
        change("/status", "unsupported_field", "strict input items carry no status");
      }
      break;
    case "adjacent":
      break;
    case "anthropic":
    case "gemini":
    case "bedrock":
    case "deepseek":
    case "mistral": {
      if (!rejection) break;
      // Opaque reasoning of another family is never sent; its text goes where the target reads text.
      const keepsText = kind === "reasoning" && reasoningFamily(fields) !== undefined && profileFor(target, options).reasoning.text === "read" && hasSummaryText(fields);
      if (!keepsText) return remove(rejection);
      delete edit().encrypted_content;
      delete edit().provenance;
      change("/encrypted_content", "unsupported_field", `${rejection}: removed, its text kept`);
      break;
    }
    default:
      return assertNever(target);
  }
  if (options.profile !== undefined) {
    const profile = options.profile;
    if ((kind === "message" || kind === "untyped_message") && !profile.content.emptyText.accepted) {
      const blank = profile.content.emptyText.blank === true;
      const empty = emptyTexts((rewritten ?? fields).content, blank);
      const what = blank ? "empty or blank text" : "empty text";
      if (empty.includes("/content")) return remove(`${what}, which ${profile.name} refuses`);
      if (empty.length > 0) {
        const content = ((rewritten ?? fields).content as unknown[]).filter((_part, index) => !empty.includes(`/content/${index}/text`));
        edit().content = content;
        for (const path of empty) change(path.replace(/\/text$/, ""), "unsupported_field", `an ${what} part, which ${profile.name} refuses: removed`);
        if (content.length === 0) return remove(`only ${what}, which ${profile.name} refuses`);
      }
    }
    const isMedia = (part: unknown) => MEDIA_PARTS.has(partType(part) ?? "");
    const mediaRefused = profile.content.media?.accepted === false;
    if ((kind === "message" || kind === "untyped_message") && mediaRefused && Array.isArray((rewritten ?? fields).content)) {
      const parts = (rewritten ?? fields).content as unknown[];
      if (parts.some(isMedia)) {
        const kept = parts.filter((part) => !isMedia(part));
        parts.forEach((part, index) => {
          if (isMedia(part)) change(`/content/${index}`, "unsupported_field", `${describePart(partType(part))} in a message, which ${profile.name} refuses: removed`);
        });
        if (kept.length === 0) return remove(`only parts ${profile.name} refuses`);
        edit().content = kept;
      }
    }
    if (kind === "function_call_output" && !profile.content.toolResultParts.accepted && Array.isArray(fields.output)) {
      const parts = fields.output as unknown[];
      if (parts.some(isMedia)) {
        const kept = parts.filter((part) => !isMedia(part));
        edit().output = kept.length > 0 ? kept : "";
        parts.forEach((part, index) => {
          if (!isMedia(part)) return;
          // A target that takes them in no message gets them nowhere.
          if (mediaRefused) change(`/output/${index}`, "unsupported_field", `${describePart(partType(part))} in a tool result, which ${profile.name} refuses in any message: removed`);
          else change(`/output/${index}`, "form_changed", `${describePart(partType(part))} in a tool result, which ${profile.name} refuses: moved into a user message after the turn's tool results`);
        });
        if (!mediaRefused) moved = { item: { type: "message", role: "user", content: parts.filter(isMedia) }, provenance: journalItem.provenance };
      }
    }
    if (calls !== undefined && profile.toolResultNames !== undefined && typeof fields.call_id === "string") {
      const field = profile.toolResultNames.field;
      if (kind === "function_call" && typeof fields.name === "string") calls.call(fields.call_id, fields.name, journalItem.provenance.line);
      const call = kind === "function_call_output" && !Object.hasOwn(fields, field) ? calls.nameOf(fields.call_id) : undefined;
      if (call !== undefined) {
        edit()[field] = call.name;
        change(`/${pointerToken(field)}`, "synthesized", `${profile.toolResultNames.rule}: the output gets the name of its call on line ${call.line}, ${JSON.stringify(call.name)}`);
      }
    }
  }
  // An empty call_id names no call: rewritten, it would become an id that pairs a call and an output the journal never paired.
  if ((kind === "function_call" || kind === "function_call_output") && ids !== undefined && typeof fields.call_id === "string" && fields.call_id !== "") {
    const written = ids.toTarget(fields.call_id);
    if (written.rewritten) {
      edit().call_id = written.id;
      const why = written.clashesWith === undefined ? `does not match ${ids.source}` : `is what ${JSON.stringify(written.clashesWith)} was written as`;
      change("/call_id", "id_rewritten", `call_id ${JSON.stringify(fields.call_id)} ${why}: written as ${JSON.stringify(written.id)}, the call and its output alike`);
    }
  }
  return { item: rewritten ? { item: rewritten, provenance: journalItem.provenance } : journalItem, changes, ...(moved ? { moved } : {}) };
}

function hasSummaryText(fields: Record<string, unknown>): boolean {
  return Array.isArray(fields.summary) && fields.summary.some((part: unknown) => part !== null && typeof part === "object" && typeof (part as { text?: unknown }).text === "string" && (part as { text: string }).text !== "");
}

interface TurnEntry {
  item: JournalItem;
  seq: number;
}

interface TurnCall {
  entry: TurnEntry;
  /** Items of the turn that came after the previous call and before this one. */
  before: TurnEntry[];
  output?: TurnEntry;
}

interface Turn {
  /** Chat: the turn's assistant text, written before its calls. */
  text: TurnEntry[];
  calls: TurnCall[];
  byCallId: Map<string, TurnCall>;
  /** Items after the last call (adjacent), kept after its output. */
  after: TurnEntry[];
  outputs: TurnEntry[];
  /** What the turn's results could not hold (their images), written after them. */
  moved: TurnEntry[];
  waiting: number;
  size: number;
}

/**
 * Rewrites a journal toward a target, record by record. `push` returns the items
 * it can release (a turn being reordered is held back) and every change made.
 */
export class TargetRewriter {
  private readonly target: Target;
  private readonly maxTurnItems: number;
  private readonly reorders: boolean;
  private readonly options: RewriteOptions;
  /** Call ids rewritten toward the profile's grammar, when it has one. */
  private readonly ids: TargetIdRewrites | undefined;
  /** The names of the calls met so far, when the target's tool results name their call. */
  private readonly callNames: ConversationCalls | undefined;
  /** Chat and its dialects: a turn's text, then its calls, then their outputs. */
  private readonly chatLike: boolean;
  private turn: Turn | undefined;
  private seq = 0;
  /** Every call_id met so far: an output whose call is not among them came before it. */
  private readonly calls: Set<string>;
  /** Items held since an output whose call has not come yet, and those outputs by call_id. */
  private hold: { entries: TurnEntry[]; early: Map<string, TurnEntry[]>; waiting: Set<TurnEntry> } | undefined;

  constructor(target: Target, options: RewriteOptions = {}) {
    assertTarget(target);
    this.target = target;
    this.maxTurnItems = options.maxTurnItems ?? DEFAULT_MAX_TURN_ITEMS;
    this.chatLike = target === "chat-completions" || target === "deepseek" || target === "mistral";
    this.reorders = this.chatLike || target === "adjacent";
    this.options = options;
    this.calls = options.seenCalls ?? new Set();
    const grammar = callIdGrammar(target, options.profile);
    this.ids = grammar === undefined ? undefined : (options.ids ?? new TargetIdRewrites(grammar));
    this.callNames = options.profile?.toolResultNames === undefined ? undefined : (options.calls ?? new ConversationCalls());
  }

  /** Every call id rewritten so far: what `restore-ids` undoes. */
  idMap(): Array<{ original: string; rewritten: string }> {
    return this.ids?.map() ?? [];
  }

  push(items: readonly JournalItem[]): Rewritten {
    const out: Rewritten = { items: [], changes: [] };
    for (const journalItem of items) {
      const { item, changes, moved } = rewriteItem(journalItem, this.target, this.options, this.ids, this.callNames);
      out.changes.push(...changes);
      if (item === undefined) continue;
      if (!this.reorders) {
        out.items.push(item);
        if (moved) out.items.push(moved);
        continue;
      }
      const entry = { item, seq: this.seq++ };
      this.accept(entry, out);
      if (!moved) continue;
      // Still in an open turn, the images wait for its last result; otherwise they follow at once.
      const movedEntry = { item: moved, seq: this.seq++ };
      if (this.turn?.outputs.includes(entry)) this.turn.moved.push(movedEntry);
      else this.accept(movedEntry, out);
    }
    return out;
  }

  /** The end of the journal: held items as they came, then the open turn as far as it got. */
  finish(): Rewritten {
    const out: Rewritten = { items: [], changes: [] };
    this.releaseHold(out);
    this.flush(out);
    return out;
  }

  /** Holds an output that came before its call, and what follows it, until the call comes. */
  private accept(entry: TurnEntry, out: Rewritten): void {
    const fields = itemFields(entry.item.item);
    const kind = itemKind(fields);
    const callId = typeof fields.call_id === "string" && fields.call_id !== "" ? fields.call_id : undefined;
    if (kind === "function_call" && callId !== undefined) this.calls.add(callId);
    const early = kind === "function_call_output" && callId !== undefined && !this.calls.has(callId);
    if (!this.hold) {
      if (!early) {
        this.place(entry, out);
        return;
      }
      this.hold = { entries: [], early: new Map(), waiting: new Set() };
    }
    const hold = this.hold;
    if (early) {
      hold.early.set(callId!, [...(hold.early.get(callId!) ?? []), entry]);
      hold.waiting.add(entry);
    }
    const answers = kind === "function_call" && callId !== undefined ? hold.early.get(callId) : undefined;
    if (answers) {
      // The call its outputs waited for: they follow it, with a place of their own in the order.
      hold.early.delete(callId!);
      for (const answer of answers) hold.waiting.delete(answer);
      hold.entries = hold.entries.filter((held) => !answers.includes(held));
      hold.entries.push(entry);
      for (const answer of answers) {
        out.changes.push({ ...placeOf(answer.item), path: "", code: "reordered", detail: `the output came before its call (line ${entry.item.provenance.line}, item ${entry.item.provenance.index}): moved after it` });
        hold.entries.push({ item: answer.item, seq: this.seq++ });
      }
    } else {
      hold.entries.push(entry);
    }
    if (hold.waiting.size === 0 || hold.entries.length > this.maxTurnItems) this.releaseHold(out);
  }

  /** Places the held items in their order; an output still waiting for its call stays where it came, reported. */
  private releaseHold(out: Rewritten): void {
    const hold = this.hold;
    this.hold = undefined;
    if (!hold) return;
    hold.entries.forEach((entry, position) => {
      if (hold.waiting.has(entry)) {
        const after = hold.entries.length - position - 1;
        out.changes.push({ ...placeOf(entry.item), path: "", code: "orphan_output", detail: `its call comes neither before it nor in the ${after} item${after === 1 ? "" : "s"} held after it: left where it is; the target rejects an output without its call` });
      }
      this.place(entry, out);
    });
  }

  private place(entry: TurnEntry, out: Rewritten): void {
    const fields = itemFields(entry.item.item);
    const kind = itemKind(fields);
    const turn = this.turn;
    const callId = typeof fields.call_id === "string" && fields.call_id !== "" ? fields.call_id : undefined;
    if (!turn) {
      if (kind === "function_call" && callId !== undefined) this.open(entry, callId);
      else out.items.push(entry.item);
      return;
    }
    const answered = turn.outputs.length > 0;
    const call = callId === undefined ? undefined : turn.byCallId.get(callId);
    if (kind === "function_call" && callId !== undefined && !call) {
      this.addCall(turn, entry, callId);
    } else if (kind === "function_call_output" && call && !call.output) {
      call.output = entry;
      turn.outputs.push(entry);
      turn.waiting -= 1;
      turn.size += 1;
      if (turn.waiting === 0) this.flush(out);
      return;
    } else if (!answered && this.belongsToTurn(kind, fields)) {
      turn.size += 1;
      if (this.chatLike) turn.text.push(entry);
      else turn.after.push(entry);
    } else {
      this.flush(out);
      if (kind === "function_call" && callId !== undefined) this.open(entry, callId);
      else out.items.push(entry.item);
      return;
    }
    if (turn.size > this.maxTurnItems) this.flush(out);
  }

  /** Items that may sit inside a turn before its outputs: the model's own output. */
  private belongsToTurn(kind: ItemKind, fields: Record<string, unknown>): boolean {
    if (kind === "message" || kind === "untyped_message") return fields.role === "assistant";
    // Reasoning a Chat dialect takes goes into the turn's message, with its text.
    if (kind === "reasoning" && this.chatLike) return this.options.reasoningField !== undefined || this.target === "deepseek";
    // Chat holds nothing else between calls; for adjacent, a reasoning or a
    // provider item between calls stays in front of the call after it.
    return this.target === "adjacent" && (kind === "reasoning" || kind === "extension" || kind === "item_reference");
  }

  private open(entry: TurnEntry, callId: string): void {
    this.turn = { text: [], calls: [], byCallId: new Map(), after: [], outputs: [], moved: [], waiting: 0, size: 0 };
    this.addCall(this.turn, entry, callId);
  }

  private addCall(turn: Turn, entry: TurnEntry, callId: string): void {
    const call: TurnCall = { entry, before: turn.after, output: undefined };
    turn.after = [];
    turn.calls.push(call);
    turn.byCallId.set(callId, call);
    turn.waiting += 1;
    turn.size += 1;
  }

  private flush(out: Rewritten): void {
    const turn = this.turn;
    this.turn = undefined;
    if (!turn) return;
    const order: TurnEntry[] = [];
    if (this.chatLike) {
      order.push(...turn.text);
      for (const call of turn.calls) order.push(...call.before, call.entry);
      order.push(...turn.after, ...turn.outputs);
    } else {
      for (const call of turn.calls) {
        order.push(...call.before, call.entry);
        if (call.output) order.push(call.output);
      }
      order.push(...turn.after);
    }
    this.reportMoves(order, out);
    // What the results could not hold comes after them, a move already reported.
    for (const entry of [...order, ...turn.moved]) out.items.push(entry.item);
  }

  /** Reports each item written ahead of an item that came before it. */
  private reportMoves(order: readonly TurnEntry[], out: Rewritten): void {
    // Walking backwards: the earliest-arrived item written after each position.
    const earliestAfter: Array<TurnEntry | undefined> = new Array(order.length);
    let earliest: TurnEntry | undefined;
    for (let i = order.length - 1; i >= 0; i--) {
      earliestAfter[i] = earliest;
      if (!earliest || order[i].seq < earliest.seq) earliest = order[i];
    }
    order.forEach((entry, i) => {
      const overtaken = earliestAfter[i];
      if (!overtaken || overtaken.seq > entry.seq) return;
      out.changes.push({ ...placeOf(entry.item), path: "", code: "reordered", detail: `${this.moveReason(entry)} (now ahead of line ${overtaken.item.provenance.line}, item ${overtaken.item.provenance.index})` });
    });
  }

  private moveReason(entry: TurnEntry): string {
    const kind = itemKind(itemFields(entry.item.item));
    if (this.target === "adjacent") return kind === "function_call_output" ? "moved directly after its call" : "moved to follow the previous call's output";
    if (kind === "function_call") return "moved up to join the other calls of its turn";
    return "moved before the turn's calls: Chat keeps a turn's text and calls in one assistant message";
  }
}

/** Rewrites a whole journal at once (for small journals and tests; `TargetRewriter` streams). */
export function rewriteForTarget(items: Iterable<JournalItem>, target: Target, options: RewriteOptions = {}): Rewritten {
  const rewriter = new TargetRewriter(target, options);
  const all: Rewritten = { items: [], changes: [] };
  for (const item of items) {
    const part = rewriter.push([item]);
    all.items.push(...part.items);
    all.changes.push(...part.changes);
  }
  const last = rewriter.finish();
  all.items.push(...last.items);
  all.changes.push(...last.changes);
  return all;
}

/** The grammar call ids are rewritten to: the profile's, or, for the portable core, Open Responses' own limit. */
export function callIdGrammar(target: Target, profile: TargetProfile | undefined): string | IdGrammar | undefined {
  return profile?.callIds?.pattern ?? (target === "open-responses" ? PORTABLE_CALL_IDS : undefined);
}
