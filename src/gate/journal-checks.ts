// Journal-wide checks: what no single item shows. Items arrive in journal order,
// one record at a time; state is kept per call_id and id only, so a journal of any
// length is checked in one pass.
//
// | finding                          | attached to                      | found when                                                |
// |----------------------------------|----------------------------------|-----------------------------------------------------------|
// | orphan_output                    | the output                       | no earlier function_call has its call_id, or the output names another tool than that call, or its call is of a choice of a completion that a request's replay did not take |
// | output_for_blocked_call          | the output                       | its call is blocked (a verdict not `ok`, or a finding), or an extension, or its call_id names two calls (which one it answers is not known) |
// | duplicate_call_id                | the later call, or later output, | a call_id already called, or already answered; a          |
// |                                  | or the item_reference            |   reference to a call already answered, or to its output; |
// |                                  |                                  |   a call_id another conversation of a stored log gave     |
// |                                  |                                  |   (calls-across-conversations.ts)                         |
// | duplicate_id                     | the later item                   | an item id already seen (item_reference excepted), or an  |
// |                                  |                                  |   item a reference brought back already                   |
// | blocked_reference                | the item_reference               | the item it names was blocked, two items gave its id, or  |
// |                                  |                                  | none in the journal                                       |
// | missing_output                   | the item that passes the call by | see "passing by" below; related_line is the call's line    |
// | incomplete_not_last              | the incomplete item              | more items of its response follow it in the record, or the response's own status is not incomplete |
// | missing_field                    | the call or output               | no non-empty string call_id (call, output) or name (call) |
// | tool_not_allowed                 | the call                         | the registry in force when it is pushed does not allow it |
// | reasoning_without_following_item | each reasoning of a run          | the next item that is not a reasoning is not an item a    |
// |                                  |                                  |   reasoning precedes                                      |
// | foreign_id                       | the item                         | a placeholder, Chat or call id, or an empty id            |
// | mixed_envelope                   | the item                         | a Chat structure, or another envelope's call, inside it   |
//
// A run of reasoning: Anthropic writes several thinking or redacted_thinking
// blocks in a row before the text or call they lead to (Bedrock its reasoning
// blocks alike), and an Open Responses output may hold reasoning after reasoning.
// Each one's following item is then the next, replayed with it, so the run is held
// whole and judged by the first item after it that is not a reasoning.
// MAX_HELD_REASONING bounds what is held: a longer run is released, each item of
// it with the finding, as no answer of a provider holds that many.
//
// Passing by: a call waits for its output while its turn lasts. The turn ends, and
// the calls still waiting are reported, at a message (an assistant message of the
// same response as the call, before any output, belongs to the turn), or at any
// other item that comes after an output (the model answered the outputs: a new
// turn). Another call or a reasoning before any output is the same turn (parallel
// calls, interleaved reasoning). Answers that are alternatives to one another
// (the choices of a chat.completion of n > 1, each a response of its own, a
// stream's later choices each a record of its own) are no turn of one another:
// the items of one pass no call of an earlier one by, which still waits for its
// output after them, as the request that goes on from its answer owes it one.
// A call still waiting at the end of the journal is
// normal: its output has not been written yet. A blocked call waits for nothing:
// no output may follow it (one that does is itself a finding), so its turn ending
// without one is what should happen, not a finding on the item that ends it.
//
// Lone surrogates: a call_id or id may hold half of a UTF-16 pair (JSON's \u
// escapes can write one, `"call_1\ud800"`). JavaScript and Python keep it; Go's
// encoding/json, and any writer of UTF-8, read it as U+FFFD. So `call_1\ud800`,
// `call_1\udc00` and `call_1\ufffd` are three call_ids here and one there: each
// call_id and id is remembered as a writer of UTF-8 writes it (writtenKey), so
// that a second of them is a duplicate there as here, and an output of one
// answers the first call of any. A call waits only for the output of its own
// call_id, as written: one of another spelling leaves it waiting.
//
// Memory: every call_id and id must be remembered to the end of the journal, so they
// are kept as 64-bit keyed fingerprints in a `FingerprintTable` (17 to 28 bytes a key
// instead of a string and a Map entry); only the calls waiting for their output keep
// their call_id as a string. Two different keys sharing a fingerprint (a chance under
// 1e-8 for a million keys, and one no journal can aim at: the key is a random seed)
// is taken for the same key. What that can do, check by check:
// - duplicate_id, duplicate_call_id on a call: a finding that should not be there.
// - an output: paired with the call of the same fingerprint. When the output's call_id
//   is not among the waiting calls, nothing confirms the pair; an orphan output can
//   then be taken for the answer of another call (a duplicate_call_id if that call
//   was answered, an output_for_blocked_call if it was blocked or an extension, and
//   no finding only if it was an ok call passed by unanswered, whose missing_output
//   is already in the journal). A call the table takes for a duplicate is not waited
//   for, so a missing_output for it is not reported; the call itself has a finding.
// Telling these apart exactly needs every call_id ever seen, the memory this saves.
//
// The caller keeps the tool registry current: it applies a record's request body
// (`ToolRegistry.addRequestBody`) before it gates the record's items and pushes
// them, so a request's tool_choice governs the calls of its own record and of
// every later record, until the next request body.
import type { Finding } from "../models/finding.js";
import type { AnswerStarts, JournalItem } from "../models/journal-item.js";
import { isPlainObject } from "../models/json-value.js";
import type { OtherConversations } from "./calls-across-conversations.js";
import { FingerprintTable, textFingerprint32 } from "./fingerprint-table.js";
import { LinePlaces, relatedLine } from "./line-places.js";
import { WaitingCalls } from "./waiting-calls.js";
import { describeItem, foreignIdReason, itemFields, itemKind, outputToolName, quoteValue, type ItemKind } from "./item-kind.js";
import { addMixedEnvelopeFindings } from "./mixed-envelope-findings.js";
import type { Verdict } from "./replay-gate.js";
import type { ToolRegistry } from "./tool-registry.js";

export { FINDING_CODES } from "../models/finding-codes.js";
export { type Finding, type FindingCode } from "../models/finding.js";

/**
 * An item with its verdict from `replayGate` (set by the caller on function_call
 * items) and, when the caller keeps the tools in force itself, why they refuse
 * the call's name (`null`: they allow it); without it the checker asks its registry.
 */
export type GatedItem = JournalItem & { verdict?: Verdict; notAllowed?: string | null };
/** A checked item: the item, its provenance, its verdict when it had one, and its findings. */
export type CheckedItem = GatedItem & { findings: Finding[] };

/** A per-item check run alongside the journal checks (a replay target's, for one). */
export interface ItemCheck {
  check(item: JournalItem): Finding[];
}

export interface JournalCheckOptions {
  /** The tools in force; without it, every name is allowed. */
  registry?: ToolRegistry;
  /** More checks; their findings come first on each item. */
  checks?: readonly ItemCheck[];
  /**
   * The call_ids of the other conversations of a stored log judged apart
   * (calls-across-conversations.ts): a call that gives one again is a duplicate.
   */
  otherConversations?: OtherConversations;
}

/**
 * What is kept of every call for the rest of the journal: its line, the line of its
 * first output, whether it was answered (or is of a choice not taken), its verdict's reason as an index into
 * `reasons` (an extension call counts as `namespaced`), and while it waits for its
 * output, its position among the waiting calls plus one.
 */
type CallColumn = "line" | "outputLine" | "answered" | "reason" | "waiting" | "name";
/** The `answered` column of a call with no output yet. */
const UNANSWERED = 0;
/** The `answered` column of a call of a choice a request's replay did not take (answerTaken): no output may answer it. */
const NOT_TAKEN = 2;
const CALL_COLUMNS = { line: "whole", outputLine: "whole", answered: "uint8", reason: "uint8", waiting: "whole", name: "uint32" } as const;

/** What blocks the outputs of a call whose call_id another conversation's call gave first: the output's sentence names it. */
const ACROSS_CONVERSATIONS = "duplicate_call_id of another conversation";

const NO_RESPONSE: ReadonlyMap<string, number> = new Map();
/** The answer starts of a record that says none. */
const NO_STARTS: readonly number[] = [];

/** Reasoning items held in a row, waiting for the item their run precedes; past it, each is released with the finding. */
export const MAX_HELD_REASONING = 1_000;

/** The `blocked` column of an item id: the item it names is blocked, or two items gave it. */
const BLOCKED_ID = 1;
const SHARED_ID = 2;

export class JournalChecker {
  private readonly registry: ToolRegistry | undefined;
  private readonly checks: readonly ItemCheck[];
  private readonly otherConversations: OtherConversations | undefined;
  private readonly calls = new FingerprintTable<CallColumn>(CALL_COLUMNS);
  /** The verdict reasons met so far, indexed by the calls' `reason` column (a handful: `GateReason` is a closed union). */
  private readonly reasons: string[] = [];
  /** Calls waiting for their output, in call order. */
  private readonly waiting = new WaitingCalls();
  private readonly movedWaiting = (callId: string, position: number): void => {
    const slot = this.calls.find(writtenKey(callId));
    if (slot >= 0) this.calls.set(slot, "waiting", position + 1);
  };
  /**
   * Each item id: its line; whether a reference to it is blocked (BLOCKED_ID,
   * SHARED_ID); whether a reference brought it back already; and, for a call or
   * an output, its call_id's entry in `calls` + 1.
   */
  private readonly ids = new FingerprintTable<"line" | "blocked" | "referenced" | "call">({ line: "whole", blocked: "uint8", referenced: "uint8", call: "uint32" });
  /** Where each remembered item stood: the `line` and `outputLine` columns hold places (line-places.ts). */
  private readonly places = new LinePlaces();
  /** An output came since the last item of another kind: the next such item starts a turn. */
  private afterOutputs = false;
  /** A run of reasoning items waiting to see the item that follows the run. */
  private held: CheckedItem[] = [];
  /**
   * The answers read so far of the last record's group of alternatives: its
   * items from its first answer, then those of each later answer a stream gave
   * after it. Kept by reference: a record is known to be a group's only when a
   * later answer comes.
   */
  private readonly answerGroup: Array<{ items: readonly GatedItem[]; from: number }> = [];
  /** While an answer after the first is checked: the call_ids of the answers before it, which its items pass none of by. */
  private alternatives: Set<string> | undefined;

  constructor(options: JournalCheckOptions = {}) {
    this.registry = options.registry;
    this.checks = options.checks ?? [];
    this.otherConversations = options.otherConversations;
  }

  /** The items of one record, in order, and where its answers that are alternatives begin; returns the items whose findings are final, in input order. */
  push(items: readonly GatedItem[], answers?: AnswerStarts): CheckedItem[] {
    const released: CheckedItem[] = [];
    const lastOfResponse = items.some((item) => item.provenance.response) ? lastIndexByResponse(items) : NO_RESPONSE;
    const later = answers?.later === true;
    // Emptied in place: every record passes here, and most are no group's.
    if (!later) this.answerGroup.length = 0;
    const starts = answers?.starts ?? NO_STARTS;
    this.answerGroup.push({ items, from: starts[0] ?? 0 });
    // A later answer of a stream: every answer read before it is an alternative.
    this.alternatives = later ? callIdsOf(this.answerGroup.slice(0, -1)) : undefined;
    let nextAnswer = 1;
    items.forEach((gated, index) => {
      if (nextAnswer < starts.length && starts[nextAnswer] === index) {
        this.alternatives = callIdsOf(this.answerGroup.slice(0, -1).concat({ items: items.slice(0, index), from: starts[0]! }));
        nextAnswer += 1;
      }
      const findings: Finding[] = [];
      for (const check of this.checks) findings.push(...check.check(gated));
      // Built field by field: an object spread costs several times more on this hot path.
      const checked: CheckedItem = gated.verdict ? { item: gated.item, provenance: gated.provenance, verdict: gated.verdict, findings } : { item: gated.item, provenance: gated.provenance, findings };
      const fields = itemFields(gated.item);
      const kind = itemKind(fields);
      if (this.held.length > 0 && kind !== "reasoning") {
        if (!precedesReasoningFollower(kind, fields)) this.releaseHeld(released, `${describeItem(kind, fields)}, not by the message or call it precedes`, gated.provenance.line);
        else released.push(...this.held);
        this.held = [];
      }
      this.checkItem(checked, fields, kind, gated.notAllowed);
      this.checkIncomplete(checked, fields, index, lastOfResponse);
      if (kind !== "reasoning") released.push(checked);
      else if (this.held.length < MAX_HELD_REASONING) this.held.push(checked);
      else {
        // Fail closed rather than hold without bound: what ends the run is not waited for.
        this.held.push(checked);
        for (const reasoning of this.held) reasoning.findings.push({ code: "reasoning_without_following_item", detail: `the reasoning is one of more than ${MAX_HELD_REASONING} in a row; the item they precede is not waited for` });
        released.push(...this.held);
        this.held = [];
      }
    });
    this.alternatives = undefined;
    return released;
  }

  /**
   * A request replayed one choice of a completion and not the others, whose
   * calls `callIds` are: the conversation went on without them, so they wait
   * for no output, as the calls of a completion of that one choice would not.
   * Their verdicts stand. An output given one of them from then on is an
   * orphan: the conversation that goes on holds no such call (a request that
   * replays the choice taken and answers another's call is refused by Chat as
   * a tool message that answers no call).
   */
  answerTaken(callIds: readonly string[]): void {
    for (const callId of callIds) {
      const slot = this.calls.find(writtenKey(callId));
      if (slot < 0) continue;
      if (this.calls.get(slot, "answered") === UNANSWERED) this.calls.set(slot, "answered", NOT_TAKEN);
      const waitingAt = this.calls.get(slot, "waiting");
      if (waitingAt === 0) continue;
      this.calls.set(slot, "waiting", 0);
      this.waiting.answer(waitingAt - 1, callId);
    }
  }

  /** The end of the journal: a run of reasoning still held has nothing after it. Calls still waiting are normal. */
  finish(): CheckedItem[] {
    const held = this.held;
    this.held = [];
    for (const reasoning of held) reasoning.findings.push({ code: "reasoning_without_following_item", detail: "the journal ends after the reasoning, without the item it precedes" });
    return held;
  }

  /** Releases the run of reasoning held, each with the finding: the run is followed by `followedBy`, on `line`. */
  private releaseHeld(released: CheckedItem[], followedBy: string, line: number): void {
    const last = this.held.length - 1;
    this.held.forEach((reasoning, position) => {
      const run = position === last ? "" : `reasoning, then by `;
      reasoning.findings.push({ code: "reasoning_without_following_item", detail: `the reasoning is followed by ${run}${followedBy}`, related_line: line });
      released.push(reasoning);
    });
  }

  private checkItem(checked: CheckedItem, fields: Record<string, unknown>, kind: ItemKind, notAllowed: string | null | undefined): void {
    const findings = checked.findings;
    addMixedEnvelopeFindings(fields, findings);
    const foreign = foreignIdReason(fields, kind);
    if (foreign) findings.push({ code: "foreign_id", detail: foreign, path: "/id" });
    let idSlot = -1;
    if (kind !== "item_reference" && typeof fields.id === "string" && fields.id !== "") {
      const slot = this.ids.add(writtenKey(fields.id));
      if (this.ids.added) {
        this.ids.set(slot, "line", this.placeOf(checked));
        idSlot = slot;
      } else {
        const { text, ...related } = this.places.describe(this.ids.get(slot, "line"), checked.provenance.source);
        findings.push({ code: "duplicate_id", detail: `the id ${quoteValue(fields.id)} was used by an earlier item, on ${text}`, path: "/id", ...related });
        // A reference to it may bring back either item.
        this.ids.set(slot, "blocked", SHARED_ID);
      }
    }
    this.checkKind(checked, fields, kind, notAllowed);
    // Known once the item's own checks ran: a reference to it later brings back what it was.
    if (idSlot >= 0 && (kind === "extension" || kind === "unknown" || blocks(checked))) this.ids.set(idSlot, "blocked", BLOCKED_ID);
    if (idSlot >= 0 && (kind === "function_call" || kind === "function_call_output")) {
      const callId = nonEmptyString(fields.call_id);
      const call = callId === undefined ? -1 : this.calls.find(writtenKey(callId));
      if (call >= 0) this.ids.set(idSlot, "call", call + 1);
    }
  }

  private checkKind(checked: CheckedItem, fields: Record<string, unknown>, kind: ItemKind, notAllowed: string | null | undefined): void {
    switch (kind) {
      case "function_call":
        this.passBy(checked, kind, fields);
        this.checkCall(checked, fields, notAllowed);
        return;
      case "function_call_output":
        this.checkOutput(checked, fields);
        return;
      case "extension":
        this.passBy(checked, kind, fields);
        // An extension call keeps its call_id (a custom tool's, a shell's, a
        // computer's…): an output for it is then an output for a blocked call, not
        // an orphan, nor the answer of another call of that call_id.
        if (typeof fields.type === "string" && !fields.type.endsWith("_output")) this.registerExtensionCall(checked, fields);
        return;
      case "item_reference":
        this.passBy(checked, kind, fields);
        this.checkReference(checked, fields);
        return;
      case "message":
      case "untyped_message":
      case "reasoning":
      case "compaction":
      case "unknown":
        this.passBy(checked, kind, fields);
        return;
      default:
        return assertNever(kind);
    }
  }

  private checkCall(checked: CheckedItem, fields: Record<string, unknown>, notAllowed: string | null | undefined): void {
    const findings = checked.findings;
    const callId = nonEmptyString(fields.call_id);
    const name = nonEmptyString(fields.name);
    if (callId === undefined) findings.push({ code: "missing_field", detail: `the call has ${describeMissing(fields.call_id)} call_id: no output can be paired with it`, path: "/call_id" });
    if (name === undefined) findings.push({ code: "missing_field", detail: `the call has ${describeMissing(fields.name)} name: no tool can be chosen for it`, path: "/name" });
    if (name !== undefined && (this.registry || notAllowed !== undefined)) {
      const refusal = notAllowed !== undefined ? notAllowed : this.registry!.notAllowedReason(name);
      if (refusal) findings.push({ code: "tool_not_allowed", detail: `"${name}" is not allowed: ${refusal}`, path: "/name" });
    }
    if (callId === undefined) return;
    const slot = this.calls.add(writtenKey(callId));
    if (!this.calls.added) {
      const { text, ...related } = this.places.describe(this.calls.get(slot, "line"), checked.provenance.source);
      findings.push({ code: "duplicate_call_id", detail: `the call_id ${quoteValue(callId)} was already used by the call of ${text}`, path: "/call_id", ...related });
      // Which of the two calls a later output answers is not known (a replayer pairs it with the nearest): none may get one.
      this.blockOutputs(slot);
      return;
    }
    const elsewhere = this.otherConversations?.claim(callId, writtenKey(callId), checked.provenance);
    if (elsewhere !== undefined) {
      const { text, ...related } = elsewhere;
      findings.push({ code: "duplicate_call_id", detail: `the call_id ${quoteValue(callId)} was already used by the call of ${text}, in another conversation of the stored log: a replayer of this one would run a call that one gave`, path: "/call_id", ...related });
    }
    const reason = checked.verdict?.reason ?? "unchecked";
    // What blocks the call, if anything: its verdict, else the first finding it already has (each finding blocks its item).
    const blockedBy = reason !== "ok" && reason !== "unchecked" ? reason : elsewhere !== undefined ? ACROSS_CONVERSATIONS : findings[0]?.code;
    this.newCall(slot, this.placeOf(checked), blockedBy ?? reason);
    if (name !== undefined) this.calls.set(slot, "name", textFingerprint32(name));
    if (blockedBy === undefined) this.calls.set(slot, "waiting", this.waiting.add(callId, name, checked.provenance) + 1);
  }

  private registerExtensionCall(checked: CheckedItem, fields: Record<string, unknown>): void {
    const callId = nonEmptyString(fields.call_id);
    if (callId === undefined) return;
    const slot = this.calls.add(writtenKey(callId));
    if (this.calls.added) {
      this.newCall(slot, this.placeOf(checked), "namespaced");
      const name = nonEmptyString(fields.name);
      if (name !== undefined) this.calls.set(slot, "name", textFingerprint32(name));
    } else this.blockOutputs(slot);
  }

  /** A call_id given to a second call: its outputs are blocked, for the first call's own reason when it has one. */
  private blockOutputs(slot: number): void {
    if (this.reasons[this.calls.get(slot, "reason")] === "ok") this.setReason(slot, "duplicate_call_id");
  }

  /**
   * An item_reference brings back the item it names, where the provider keeps it:
   * one the gate blocked, or one this journal does not hold (never judged here),
   * is not passed by a reference either.
   */
  private checkReference(checked: CheckedItem, fields: Record<string, unknown>): void {
    const id = nonEmptyString(fields.id);
    const slot = id === undefined ? -1 : this.ids.find(writtenKey(id));
    if (slot < 0) {
      checked.findings.push({ code: "blocked_reference", detail: `the reference names ${id === undefined ? "no item" : `the id ${quoteValue(id)}, which no earlier item of the journal has`}: what it brings back was never gated`, path: "/id" });
      return;
    }
    const mark = this.ids.get(slot, "blocked");
    const { text: line, ...related } = this.places.describe(this.ids.get(slot, "line"), checked.provenance.source);
    if (mark === BLOCKED_ID || mark === SHARED_ID) {
      const what = mark === SHARED_ID ? `one of the items that share the id ${quoteValue(id!)}, the first on ${line}: which one the provider keeps cannot be told` : `the item of ${line}, which is blocked`;
      checked.findings.push({ code: "blocked_reference", detail: `the reference brings back ${what}`, path: "/id", ...related });
      return;
    }
    // The item comes back where the reference stands: a second time, when a
    // reference brought it back already, or when its call was answered (a
    // call then runs again, an output answers its call twice).
    if (this.ids.get(slot, "referenced") === 1) {
      checked.findings.push({ code: "duplicate_id", detail: `the reference brings back the item of ${line}, which an earlier reference brought back already: it would come twice`, path: "/id", ...related });
      return;
    }
    this.ids.set(slot, "referenced", 1);
    const call = this.ids.get(slot, "call") - 1;
    if (call >= 0 && this.calls.get(call, "answered") === 1) {
      const { text: outputLine } = this.places.describe(this.calls.get(call, "outputLine"), checked.provenance.source);
      checked.findings.push({ code: "duplicate_call_id", detail: `the reference brings back the item of ${line}, whose call was answered on ${outputLine}: the call or its output would come twice`, path: "/id", ...related });
    }
  }

  /** The place of the item being checked, as the `line` columns keep it. */
  private placeOf(checked: CheckedItem): number {
    return this.places.place(checked.provenance.source, checked.provenance.line);
  }

  /** Fills the slot of a call_id just added; `place` is its item's (placeOf). */
  private newCall(slot: number, place: number, reason: string): void {
    this.calls.set(slot, "line", place);
    this.setReason(slot, reason);
  }

  /** Sets what blocks a call_id's outputs: a verdict reason, or a finding that blocks them all. */
  private setReason(slot: number, reason: string): void {
    let reasonIndex = this.reasons.indexOf(reason);
    if (reasonIndex < 0) reasonIndex = this.reasons.push(reason) - 1;
    // The column holds a byte: a reason past it must not wrap onto another, such as "ok".
    if (reasonIndex > 255) throw new Error(`more than 256 verdict reasons: ${reason}`);
    this.calls.set(slot, "reason", reasonIndex);
  }

  private checkOutput(checked: CheckedItem, fields: Record<string, unknown>): void {
    const findings = checked.findings;
    this.afterOutputs = true;
    const callId = nonEmptyString(fields.call_id);
    if (callId === undefined) {
      findings.push({ code: "missing_field", detail: `the output has ${describeMissing(fields.call_id)} call_id: it answers no call`, path: "/call_id" });
      return;
    }
    // A call_id still waiting confirms the pair exactly; any other is paired on its fingerprint alone (see the top of the file).
    const call = this.calls.find(writtenKey(callId));
    if (call < 0) {
      findings.push({ code: "orphan_output", detail: `no earlier function_call has the call_id ${quoteValue(callId)}`, path: "/call_id" });
      return;
    }
    // An output that names its tool (Gemini's functionResponse, a Chat tool message) names its call a second way: a reader that pairs by name answers another call.
    const named = outputToolName(fields);
    const callName = this.calls.get(call, "name");
    if (named !== undefined && callName !== 0 && textFingerprint32(named) !== callName) {
      const { text: callLine, ...related } = this.places.describe(this.calls.get(call, "line"), checked.provenance.source);
      findings.push({ code: "orphan_output", detail: `the output names the tool ${quoteValue(named)}, another than the call of ${callLine} its call_id ${quoteValue(callId)} names: which call it answers is not known`, path: "/call_id", ...related });
      return;
    }
    if (this.calls.get(call, "answered") === NOT_TAKEN) {
      const { text: callLine, ...related } = this.places.describe(this.calls.get(call, "line"), checked.provenance.source);
      findings.push({ code: "orphan_output", detail: `the call ${quoteValue(callId)} of ${callLine} is of a choice its conversation went on without (a request replayed another choice of its completion): no call of the conversation has the call_id`, path: "/call_id", ...related });
      return;
    }
    if (this.calls.get(call, "answered") === 1) {
      const { text: outputLine, ...related } = this.places.describe(this.calls.get(call, "outputLine"), checked.provenance.source);
      findings.push({ code: "duplicate_call_id", detail: `the call ${quoteValue(callId)} was already answered on ${outputLine}`, path: "/call_id", ...related });
      return;
    }
    this.calls.set(call, "outputLine", this.placeOf(checked));
    this.calls.set(call, "answered", 1);
    const waitingAt = this.calls.get(call, "waiting");
    if (waitingAt > 0) {
      this.calls.set(call, "waiting", 0);
      this.waiting.answer(waitingAt - 1, callId);
    }
    const reason = this.reasons[this.calls.get(call, "reason")]!;
    if (reason === "duplicate_call_id") {
      const { text: callLine, ...related } = this.places.describe(this.calls.get(call, "line"), checked.provenance.source);
      findings.push({ code: "output_for_blocked_call", detail: `its call_id ${quoteValue(callId)} names more than one call (the first on ${callLine}): which one it answers is not known, so none may get an output`, path: "/call_id", ...related });
    } else if (reason !== "ok") {
      const { text: callLine, ...related } = this.places.describe(this.calls.get(call, "line"), checked.provenance.source);
      const why = reason === "unchecked" ? "was not gated" : `is blocked (${reason})`;
      findings.push({ code: "output_for_blocked_call", detail: `its call ${quoteValue(callId)} on ${callLine} ${why}: only a completed, valid call may get an output`, path: "/call_id", ...related });
    }
  }

  /** Reports the waiting calls whose turn `checked` ends (see "Passing by" above). */
  private passBy(checked: CheckedItem, kind: ItemKind, fields: Record<string, unknown>): void {
    const isMessage = kind === "message" || kind === "untyped_message";
    const outputsCame = this.afterOutputs;
    this.afterOutputs = false;
    if (!(isMessage || outputsCame) || this.waiting.size === 0) return;
    // An assistant message of the calls' own response, before any output, is part of their turn.
    const mayJoinTurn = isMessage && fields.role === "assistant" && !outputsCame;
    for (const call of this.waiting.passBy(checked.provenance, mayJoinTurn, this.movedWaiting, this.alternatives)) {
      const slot = this.calls.find(writtenKey(call.callId));
      if (slot >= 0) this.calls.set(slot, "waiting", 0);
      const { text, ...related } = relatedLine(call.line, call.source === "" ? undefined : call.source, checked.provenance.source);
      checked.findings.push({
        code: "missing_output",
        detail: `the call ${quoteValue(call.callId)}${call.name ? ` (${call.name})` : ""} on ${text} has no function_call_output before this ${describeItem(kind, fields)}`,
        ...related,
      });
    }
  }

  private checkIncomplete(checked: CheckedItem, fields: Record<string, unknown>, index: number, lastOfResponse: ReadonlyMap<string, number>): void {
    const response = checked.provenance.response;
    if (fields.status !== "incomplete" || !response) return;
    const last = lastOfResponse.get(responseKey(checked)) ?? index;
    if (last > index) {
      checked.findings.push({ code: "incomplete_not_last", detail: `the item is incomplete, yet ${last - index} more item(s) of its response follow it`, path: "/status" });
    } else if (response.status !== "incomplete") {
      const status = response.status === undefined ? "no status" : `status ${quoteValue(response.status)}`;
      checked.findings.push({ code: "incomplete_not_last", detail: `the item is incomplete inside a response with ${status}`, path: "/status" });
    }
  }
}

/** Items a reasoning may precede: what a model outputs after it. */
function precedesReasoningFollower(kind: ItemKind, fields: Record<string, unknown>): boolean {
  switch (kind) {
    case "function_call":
    case "extension":
    case "item_reference":
      return true;
    case "message":
    case "untyped_message":
      return fields.role === "assistant";
    case "function_call_output":
    case "reasoning":
    case "compaction":
    case "unknown":
      return false;
    default:
      return assertNever(kind);
  }
}

/** The call_ids of the function calls of each answer, from where it begins among its record's items. */
function callIdsOf(answers: ReadonlyArray<{ items: readonly GatedItem[]; from: number }>): Set<string> {
  const callIds = new Set<string>();
  for (const { items, from } of answers) {
    for (let index = from; index < items.length; index++) {
      const item = items[index]!.item;
      if (isPlainObject(item) && item.type === "function_call" && typeof item.call_id === "string") callIds.add(item.call_id);
    }
  }
  return callIds;
}

function responseKey(item: JournalItem): string {
  return String(item.provenance.response?.id ?? "");
}

/** For each response of the record, the index of its last item. */
function lastIndexByResponse(items: readonly JournalItem[]): Map<string, number> {
  const last = new Map<string, number>();
  items.forEach((item, index) => {
    if (item.provenance.response) last.set(responseKey(item), index);
  });
  return last;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Half of a UTF-16 pair, alone: in `u` mode a whole pair is one code point and does not match. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const LONE_SURROGATES = /[\uD800-\uDFFF]/gu;

/** A call_id or id as a writer of UTF-8 writes it (see "Lone surrogates" above): each lone surrogate as U+FFFD. */
function writtenKey(text: string): string {
  return LONE_SURROGATE.test(text) ? text.replace(LONE_SURROGATES, "\uFFFD") : text;
}

function describeMissing(value: unknown): string {
  if (value === undefined) return "no";
  if (value === "") return "an empty";
  return `a non-string (${quoteValue(value)})`;
}

function assertNever(value: never): never {
  throw new Error(`unhandled item kind ${String(value)}`);
}

/** Whether an item is blocked once its own checks ran: a verdict that does not pass, or any finding. */
function blocks(checked: CheckedItem): boolean {
  const reason = checked.verdict?.reason;
  return checked.findings.length > 0 || (reason !== undefined && reason !== "ok" && reason !== "not_function_call");
}
