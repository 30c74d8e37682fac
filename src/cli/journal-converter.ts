// The records of one source converted in input order, for `orbridge convert`:
// loose records wait in a run until the record that ends it (then are written
// together, calls rejoined with their message), streams of another envelope
// come back whole from StreamRecords, and a request body's limits that the
// target cannot write are carried to the records after it (own-limit-calls.ts).
// Each whole record is converted by convert-record.ts.
import { chat, ENVELOPE_NAMES, ENVELOPES, isAdapterName, journalEnvelopes, type AdapterName, type CallCounts, type ItemOrigin, type JournalEnvelopes, type ReasoningField } from "../../adapters/index.js";
import { convertAssembledResponse } from "../journal/convert-assembled-response.js";
import { detectEnvelopeRecord, isPlainObject, type RecordKind } from "../journal/detect.js";
import { deepestPath, isStackOverflow, tooDeepDetail, tooDeepItemsDetail } from "../journal/deep-field.js";
import { ConversationCalls } from "../journal/conversation-calls.js";
import { nameResults } from "../journal/name-results.js";
import { inexactTextLosses, restoreJoinedTexts, restoreObjectTexts } from "../journal/inexact-texts.js";
import type { JournalLine } from "../journal/read.js";
import { StreamRecords, type JournalRecord } from "../journal/stream-records.js";
import { profileOf } from "../../adapters/profiles.js";
import { RecordRewrite } from "./record-rewrite.js";
import { type StreamLoss } from "../models/assembled-response.js";
import { type ChatMessage } from "../models/chat-completions.js";
import type { Envelope } from "../models/journal-item.js";
import type { Converted, Loss } from "../models/loss.js";
import { type CanonicalItem } from "../models/open-responses.js";
import { setAsideUnfinishedCalls, type RepeatedKeys } from "../journal/unfinished-calls.js";
import { JournalIds } from "./journal-ids.js";
import { leaveOutDisallowedLooseCalls, type RequestLimits } from "../journal/own-limit-calls.js";
import { visibleInLine } from "../models/quote-visible.js";
import { RUN_HARD_LIMIT, RUN_SOFT_LIMIT, RunCalls } from "./run-bound.js";
import { convertRecord, envelopeRecords, notConverted, REQUEST_KINDS, type CallsBefore, type Emitted, type Fields, type Pending } from "./convert-record.js";
import { namedResults, rewrittenAndNamed, type ResultNames } from "./named-results.js";
import { WRITTEN_AS } from "./written-as.js";

/**
 * The records of one source, converted in input order. Loose records wait in a
 * run until the record that ends it; streams of the other envelope are
 * reassembled by StreamRecords and come back as whole responses.
 */
export class JournalConverter {
  /** Whether the last record was of a stream in the target's envelope, written through as it came. */
  private passingStream = false;
  /** The stream record written through last, while a stream is passing: what a later one of its stream is read with on a JSON line. */
  private lastPassed: { envelope?: AdapterName; record: unknown } | undefined;
  /** The calls of the loose message on the line before, when it was one of a registered envelope (Emitted.calls). */
  private callsBefore: CallsBefore | undefined;
  /** What the last request body allows the responses after it, where the target lost it: it holds until the next request body, as at the gate. */
  private requestLimits: RequestLimits | undefined;
  /** An unreadable line after no stream record, until the next record says whether a stream written through starts there. */
  private heldError: Emitted | undefined;
  /** The loose records that wait in a run; a run holds one kind. */
  private readonly looseKinds: ReadonlySet<RecordKind>;
  private readonly records: StreamRecords;
  private run: Pending[] = [];
  private runKind: RecordKind | undefined;
  private readonly runCalls = new RunCalls();
  /** Calls given a synthesized call_id so far: a journal's loose messages pair across turns, as `normalize` pairs them. */
  private readonly callCounts: Required<CallCounts> = chat.callCounts();
  /** The registry's envelopes for this journal: a Gemini result on a later line than its call answers it, as `normalize` pairs them. */
  private readonly envelopes: JournalEnvelopes = journalEnvelopes();
  /** The journal's calls, when the target's results name their call and no rewrite names them: a result on a later line than its call gets its name. */
  private readonly names: ResultNames | undefined;
  /** The ids the journal gave so far, toward a target that cannot write every one (journal-ids.ts). */
  private readonly ids: JournalIds | undefined;

  constructor(
    private readonly target: Envelope,
    /** The Chat field that takes the model's reasoning, when one was asked for. */
    private readonly reasoningField?: ReasoningField,
    /** `--for`: each record's items rewritten toward a replay target. */
    private readonly rewrite?: RecordRewrite,
  ) {
    // A rewrite names results itself only toward a target of an envelope whose results name their call.
    const named = rewrite?.namesResults ? undefined : profileOf(target)?.toolResultNames;
    this.names = named === undefined ? undefined : { calls: new ConversationCalls(), field: named.field, rule: named.rule };
    this.ids = target === "responses" ? undefined : new JournalIds(isAdapterName(target) ? (callId) => ENVELOPES[target].dropsCallId?.(callId) ?? false : undefined);
    this.looseKinds = new Set<RecordKind>(target === "responses" ? ["chat_message"] : target === "chat" ? ["responses_item"] : ["chat_message", "responses_item"]);
    // A stream in the target envelope stays a stream: only the others are reassembled.
    this.records = new StreamRecords({ reassemble: ENVELOPE_NAMES.filter((name) => name !== target), wholeRecords: true, envelopes: this.envelopes });
  }

  push(line: JournalLine): Emitted[] {
    return this.convert(this.records.push(line));
  }

  /** End of the source: the SSE event and the stream still open, then the run. */
  finish(): Emitted[] {
    const out = this.convert(this.records.finish());
    if (this.heldError) out.push(this.heldError);
    this.heldError = undefined;
    out.push(...this.flushRun());
    return out;
  }

  private convert(records: JournalRecord[]): Emitted[] {
    const out: Emitted[] = [];
    for (const entry of records) {
      // An unreadable line no stream record came before waits for the next record:
      // if a stream written through starts there, the lost line may have been its
      // first, and the mark goes after that record, inside the stream it opens.
      let markAfter: string | undefined;
      if (this.heldError && entry.kind !== "error") {
        if (entry.kind === "plain" && PASSED_STREAM_KINDS.has(entry.recordKind)) markAfter = unreadMark(this.heldError.line, this.heldError.errors[0]!.detail);
        out.push(this.heldError);
        this.heldError = undefined;
      }
      // What a loose message's calls were is for the record right after it alone.
      const callsBefore = this.callsBefore;
      this.callsBefore = undefined;
      if (entry.kind === "plain" && this.looseKinds.has(entry.recordKind)) {
        // A user, system or developer message starts a new turn: no call of
        // the run so far reaches past it, so the run can be written.
        if (startsTurn(entry.record) || entry.recordKind !== this.runKind) out.push(...this.flushRun());
        else if (this.run.length >= RUN_SOFT_LIMIT && this.runCalls.settledBefore(entry.record, this.runKind === "chat_message" && this.target === "responses")) out.push(...this.flushRun());
        else if (this.run.length >= RUN_HARD_LIMIT) out.push(...this.flushRun(entry.line));
        this.runKind = entry.recordKind;
        this.run.push({ line: entry.line, record: entry.record });
        this.runCalls.add(entry.record);
        this.passingStream = false;
        continue;
      }
      out.push(...this.flushRun());
      const followsPassed = this.passingStream ? this.lastPassed : undefined;
      if (entry.kind !== "error") this.passingStream = entry.kind === "plain" && PASSED_STREAM_KINDS.has(entry.recordKind);
      this.lastPassed = entry.kind === "plain" && this.passingStream ? { envelope: entry.envelope, record: entry.record } : undefined;
      switch (entry.kind) {
        case "plain": {
          const emitted = convertRecord(entry.record, entry.recordKind, this.target, entry.line, this.envelopes, this.reasoningField, entry.envelope, this.rewrite, this.names, callsBefore, this.requestLimits, this.ids);
          this.callsBefore = emitted.calls;
          if (REQUEST_KINDS.has(entry.recordKind)) this.requestLimits = emitted.limits;
          // A stream in the target's envelope cannot leave out a call such a limit refuses as it passes: while one holds, it is rebuilt whole.
          if (REQUEST_KINDS.has(entry.recordKind) && isAdapterName(this.target)) this.records.reassembled(this.target, this.requestLimits !== undefined);
          if (entry.recordKind === "envelope_event" && followsPassed !== undefined && followsPassed.envelope === entry.envelope) {
            const loss = readsAloneOnALine(entry.record, entry.recordKind, followsPassed.record);
            if (loss !== undefined) emitted.losses.push({ line: entry.line, ...loss });
          }
          if ((entry.inexact !== undefined || entry.numberTexts !== undefined) && this.target !== "responses") {
            const made = firstStepValues(entry.record, entry.recordKind, entry.envelope, this.rewrite ? undefined : this.target);
            emitted.losses.push(...restoreJoinedTexts({ written: emitted.records, made, source: entry.record, texts: entry.numberTexts, inexact: entry.inexact }).map((loss) => ({ ...loss, line: entry.line })));
          }
          if (entry.inexact !== undefined) emitted.losses.push(...inexactTextLosses(emitted.records, entry.inexact, entry.record).map((loss) => ({ ...loss, line: entry.line })));
          if (entry.numberTexts !== undefined) emitted.losses.push(...restoreObjectTexts(emitted.records, entry.numberTexts, entry.record).map((loss) => ({ ...loss, line: entry.line })));
          if (markAfter !== undefined) emitted.marks = [markAfter];
          // A record in a stream written through that is not converted (an error the API sent in it): without
          // it the stream would read as whole, and its calls as finished, so a mark stands in its place.
          else if (followsPassed !== undefined && emitted.converted === 0 && emitted.errors.length > 0 && !PASSED_STREAM_KINDS.has(entry.recordKind)) emitted.marks = [unreadMark(entry.line, emitted.errors[0]!.detail, "was not converted")];
          out.push(emitted);
          break;
        }
        case "error": {
          const failed = notConverted(entry.line, entry.detail);
          if (this.heldError) out.push(this.heldError);
          this.heldError = undefined;
          // Written without the line, the stream would read as whole, and its calls as finished.
          if (this.passingStream) {
            failed.marks = [unreadMark(entry.line, entry.detail)];
            out.push(failed);
          } else this.heldError = failed;
          break;
        }
        case "rejected":
          out.push(notConverted(entry.line, `not reassembled: ${entry.reason}`));
          break;
        case "response": {
          const streamed = convertStreamed(entry, this.target, this.envelopes, this.reasoningField, this.requestLimits, this.ids);
          if (entry.envelope === this.target && streamed.converted > 0) {
            streamed.losses.push({ line: entry.response.line, path: "", code: "form_changed", detail: `the stream on lines ${entry.response.line}-${entry.response.lastLine} is written as one whole response: a request body before it limits the calls of the responses after it in a way ${WRITTEN_AS[this.target as AdapterName]} cannot write, and only a whole response can have a call that limit refuses left out` });
          }
          if (entry.inexact !== undefined || entry.numberTexts !== undefined) {
            streamed.losses.push(...restoreJoinedTexts({ written: streamed.records, made: entry.response.items, source: undefined, texts: entry.numberTexts, inexact: entry.inexact }).map((loss) => ({ ...loss, line: entry.response.line })));
          }
          if (entry.inexact !== undefined) streamed.losses.push(...inexactTextLosses(streamed.records, entry.inexact, undefined).map((loss) => ({ ...loss, line: entry.response.line })));
          if (entry.numberTexts !== undefined) streamed.losses.push(...restoreObjectTexts(streamed.records, entry.numberTexts, undefined).map((loss) => ({ ...loss, line: entry.response.line })));
          if (this.names) nameResults({ items: entry.response.items, calls: this.names.calls, field: this.names.field, lineOf: () => entry.response.line });
          // A stream is rebuilt and written by the journal layer: its items do not pass the rewrite, and the report says so.
          if (this.rewrite && streamed.converted > 0) streamed.losses.push({ line: entry.response.line, path: "", code: "target_rejects", detail: `a streamed response is written as it was rebuilt, not rewritten for ${this.rewrite.target}: check it with gate --for` });
          out.push(streamed);
          break;
        }
        case "unassembled": {
          const left = unassembled(entry);
          if (followsPassed !== undefined && left.errors.length > 0) left.marks = [unreadMark(entry.line, left.errors[0]!.detail, "was not converted")];
          out.push(left);
          break;
        }
        default: {
          const unknownEntry: never = entry;
          throw new TypeError(`journal record ${JSON.stringify(unknownEntry)} is not converted`);
        }
      }
    }
    return out;
  }

  /** `cutAt`: the line of the next record, when the run is written before it only to bound memory (run-bound.ts). */
  private flushRun(cutAt?: number): Emitted[] {
    if (this.run.length === 0) return [];
    const pending = this.run;
    this.run = [];
    this.runCalls.clear();
    const kind = this.runKind!;
    this.runKind = undefined;
    const emitted = isAdapterName(this.target) ? convertRunToEnvelope(pending, kind, this.target, this.envelopes, this.callCounts, this.rewrite, this.names, this.requestLimits, this.ids) : convertRun(pending, this.target, this.callCounts, this.reasoningField, this.rewrite, this.ids);
    if (cutAt !== undefined) {
      emitted.losses.push({ line: cutAt, path: "", code: "form_changed", detail: `the ${pending.length} records from line ${pending[0]!.line} hold no user turn past their first record, and no place where each call so far had its output and the next record was no output: they are written before this record, to hold memory to a bound, and what this record would have been folded with there (calls of one message, an output moved after its call) is written apart` });
    }
    return [emitted];
  }
}

/** A response reassembled from a stream, as the other envelope's whole record; each input record is counted with it. */
function convertStreamed(entry: Extract<JournalRecord, { kind: "response" }>, target: Envelope, writers: JournalEnvelopes, reasoningField?: ReasoningField, requestLimits?: RequestLimits, ids?: JournalIds): Emitted {
  const { response, records } = entry;
  try {
    const repeats = ids?.judge(response.items, (index) => response.itemLines?.[index] ?? response.lastLine, { givesItemIds: entry.envelope === "responses" });
    const converted = convertAssembledResponse({ ...entry, target, writers, ...(reasoningField ? { reasoningField } : {}), ...(requestLimits ? { requestLimits } : {}), ...(repeats ? { repeats } : {}) });
    ids?.written(converted.written ?? response.items);
    // A stream whose records stand on lines of their own is one response, written in its first line's wrapper.
    const contiguous = response.lastLine - response.line + 1 === records;
    const runLines = contiguous ? Array.from({ length: records }, (_, offset) => response.line + offset) : undefined;
    return { line: response.line, lastLine: response.lastLine, records: [converted.value], losses: converted.losses, errors: [], converted: records, ...(runLines ? { runLines } : {}) };
  } catch (error) {
    const step = `the response streamed on lines ${response.line}-${response.lastLine} was not converted`;
    return notConverted(response.line, isStackOverflow(error) ? tooDeepItemsDetail(response.items, step) : `${step}: ${(error as Error).message}`, records);
  }
}

/**
 * The Open Responses values a record's conversion goes through (its request
 * body, response object, items), where a JSON text made of an object of the
 * record may be found before a later step joins it to other text. The
 * registry's own converters: the journal's keep what its records carry to the
 * next, which a second reading would change. A record, or part of an
 * exchange, already in the envelope `passedIn` is written as it is, through no
 * such values.
 */
function firstStepValues(record: unknown, kind: RecordKind, envelope?: AdapterName, passedIn?: Envelope): unknown[] {
  if (envelope !== undefined && envelope === passedIn) return [];
  try {
    switch (kind) {
      case "envelope_request":
        return [ENVELOPES[envelope!].requestToBody(record).value];
      case "envelope_response":
        return [ENVELOPES[envelope!].responseToResource(record).value];
      case "envelope_message":
        return ENVELOPES[envelope!].messagesToItems({ messages: [record] }).value;
      case "exchange":
        return (["request", "response"] as const).flatMap((part) => {
          const { kind: partKind, envelope: partEnvelope } = detectEnvelopeRecord((record as Fields)[part]);
          return firstStepValues((record as Fields)[part], partKind, partEnvelope, passedIn);
        });
      default:
        // Chat and Open Responses records write arguments and results as text: nothing of them is made into text.
        return [];
    }
  } catch {
    // A record its converters cannot read was reported as not converted.
    return [];
  }
}

/** Stream records that went into no response: counted with the stream after one, an error before any. */
function unassembled(entry: Extract<JournalRecord, { kind: "unassembled" }>): Emitted {
  // A trailing usage chunk, or an event this project does not know, went with the stream.
  if (entry.afterResponse) return { line: entry.line, records: [], losses: [], errors: [], converted: entry.records };
  return notConverted(entry.line, `${entry.detail}: nothing to convert`, entry.records);
}

function startsTurn(record: unknown): boolean {
  return isPlainObject(record) && (record.role === "user" || record.role === "system" || record.role === "developer");
}

/**
 * A run of loose messages (to items) or items (to messages), each loss sent back
 * to its own line. `counts`: the journal's calls given a synthesized call_id so
 * far, so that two runs never give two calls one synthesized call_id.
 */
function convertRun(run: readonly Pending[], target: Envelope, counts: Required<CallCounts>, reasoningField?: ReasoningField, rewrite?: RecordRewrite, ids?: JournalIds, judged?: RepeatedKeys): Emitted {
  let converted: Converted<unknown[]>;
  // What the run's items repeat of the journal, judged once: a run converted again line by line asks again.
  let repeats = judged;
  let rewritten: StreamLoss[] = [];
  // Which lines each record comes from, while no rewrite has changed the items the run gave.
  let recordLines: number[][] | undefined;
  try {
    if (target === "responses") {
      const origins = new Map<CanonicalItem, ItemOrigin>();
      converted = chat.messages.toItems({ messages: run.map((pending) => pending.record as ChatMessage), callCounts: counts, origins });
      const lines = converted.value.map((item) => origins.get(item as CanonicalItem)?.message);
      if (lines.every((index) => index !== undefined)) recordLines = lines.map((index) => [run[index!]!.line]);
      if (rewrite) {
        recordLines = undefined;
        const items = rewrittenMessages(converted.value as CanonicalItem[], rewrite, undefined, origins, run);
        converted = { value: items.items, losses: converted.losses };
        rewritten = items.losses;
      }
    } else {
      let items = run.map((pending) => pending.record as CanonicalItem);
      if (rewrite) {
        const result = rewrite.items(items, "responses", (index) => run[index]!.line, () => "");
        items = result.items;
        rewritten = result.losses;
      }
      const sources: number[][] = [];
      repeats ??= ids?.judge(items, (index) => run[index]?.line ?? run[0]!.line);
      const aside = setAsideUnfinishedCalls(items, WRITTEN_AS.chat, (index) => `/${index}`, true, true, repeats);
      ids?.written(aside.items);
      converted = chat.messages.fromItems({ items: aside.items, idless: counts.idless, reasoningField, sources });
      converted = { value: converted.value, losses: [...aside.losses, ...converted.losses.filter((loss) => !aside.left.has(loss.path))] };
      if (!rewrite) recordLines = sources.map((indexes) => indexes.map((index) => run[index]!.line));
    }
  } catch (error) {
    // A run that cannot be converted whole is converted line by line, so that
    // only the lines at fault are lost.
    if (run.length > 1) {
      const parts = run.map((pending) => convertRun([pending], target, counts, reasoningField, rewrite, ids, repeats ?? new Map()));
      return {
        line: run[0].line,
        records: parts.flatMap((part) => part.records),
        recordLines: parts.flatMap((part) => part.records.map((_, index) => part.recordLines?.[index] ?? [part.line])),
        losses: parts.flatMap((part) => part.losses),
        errors: parts.flatMap((part) => part.errors),
        converted: parts.reduce((sum, part) => sum + part.converted, 0),
      };
    }
    return notConverted(run[0].line, whyRunNotConverted(error, run));
  }
  const losses = converted.losses.map((loss) => {
    const match = /^\/(\d+)(.*)$/.exec(loss.path);
    const pending = match ? run[Number(match[1])] : undefined;
    return pending ? { ...loss, line: pending.line, path: match![2] } : { ...loss, line: run[0].line };
  });
  return { line: run[0].line, lastLine: run[run.length - 1]!.line, records: converted.value, losses: [...losses, ...rewritten], errors: [], converted: run.length, runLines: run.map((pending) => pending.line), ...(recordLines ? { recordLines } : {}) };
}

/** The records of a stream that convert writes through as they came, when the stream is already in the target's envelope. */
const PASSED_STREAM_KINDS: ReadonlySet<RecordKind> = new Set(["chat_chunk", "responses_event", "envelope_event"]);

/**
 * A stream record of SSE text written through on a JSON line of its own, where
 * it reads as a whole record rather than the next of its stream: a Gemini chunk
 * whose candidates all finished, without the responseId of the chunk before it,
 * is the shape of a stored response. Read back, the chunks before it are a
 * stream cut short and their calls in_progress: said, as the text is kept.
 */
function readsAloneOnALine(record: unknown, kind: RecordKind, before: unknown): Pick<Loss, "path" | "code" | "detail"> | undefined {
  if (detectEnvelopeRecord(record).kind === kind) return undefined;
  const id = (value: unknown) => (isPlainObject(value) && typeof value.responseId === "string" ? value.responseId : undefined);
  if (id(record) !== undefined && id(record) === id(before)) return undefined;
  return {
    path: "",
    code: "form_changed",
    detail: "a stream record written on a line of its own, where without the responseId of the record before it it reads as a whole response: read back, the stream before it ends cut short and its calls are in_progress",
  };
}

/**
 * What stands, in the output, for a line of a stream written through that could
 * not be read, or was read and not converted: a line that is not JSON either,
 * so that whoever reads the output, the gate included, finds the stream damaged
 * where it was, and its calls unfinished, as in the input. Not SSE framing, not
 * JSON, one line.
 */
export function unreadMark(line: number, detail: string, what = "could not be read"): string {
  return `orbridge: line ${line} of the input ${what}, and this stream is not whole without it (${visibleInLine(detail)})`;
}

/**
 * A run of loose Chat messages or items, written as a registered envelope's
 * messages. A loss of the step to items names its line; a loss of the step
 * from items points into the items, and names the line of the item (loose
 * items) or of the message that gave it, at the field that gave the value
 * (`ItemOrigin`); an item no message gave names the run's first line.
 * `requestLimits`: what the request body before the run allows and the target
 * lost (lostRequestLimits); a call it refuses is left out.
 */
function convertRunToEnvelope(run: readonly Pending[], kind: RecordKind, target: AdapterName, envelopes: JournalEnvelopes, counts: Required<CallCounts>, rewrite?: RecordRewrite, names?: ResultNames, requestLimits?: RequestLimits, ids?: JournalIds): Emitted {
  const first = run[0]!.line;
  const lineOf = (path: string): { line: number; path: string } => {
    const match = /^\/(\d+)(.*)$/.exec(path);
    const pending = match ? run[Number(match[1])] : undefined;
    return pending ? { line: pending.line, path: match![2]! } : { line: first, path };
  };
  try {
    const origins = new Map<CanonicalItem, ItemOrigin>();
    const items =
      kind === "chat_message"
        ? chat.messages.toItems({ messages: run.map((pending) => pending.record as ChatMessage), callCounts: counts, origins })
        : { value: run.map((pending) => pending.record as CanonicalItem), losses: [] as Loss[] };
    const origin = (index: number): { line: number; path: string } => {
      if (kind === "responses_item") return { line: run[index]!.line, path: "/call_id" };
      const from = origins.get(items.value[index]!);
      return from === undefined ? { line: first, path: "" } : { line: run[from.message]!.line, path: from.fields.call_id ?? from.fields[""] ?? "" };
    };
    const rewritten = rewrite
      ? kind === "chat_message"
        ? rewrittenMessages(items.value, rewrite, names, origins, run)
        : rewrittenAndNamed(items.value, "responses", rewrite, names, (index) => run[index]!.line, () => "")
      : names
        ? namedResults(items.value, names, (index) => origin(index).line, (index) => origin(index).path, origins)
        : { items: items.value, losses: [] };
    const repeats = ids?.judge(rewritten.items, (index) => (kind === "responses_item" ? (run[index]?.line ?? first) : origin(index).line), { givesItemIds: kind === "responses_item" });
    const unfinished = setAsideUnfinishedCalls(rewritten.items, WRITTEN_AS[target], (index) => `/${index}`, kind === "responses_item", false, repeats);
    // Each Chat message is one answer, held to one call a turn; loose items are not counted together.
    const limited = leaveOutDisallowedLooseCalls(unfinished.items, WRITTEN_AS[target], (index) => `/${index}`, requestLimits, kind === "chat_message" ? (index) => origin(index).line : undefined);
    const aside = { items: limited.items, losses: [...unfinished.losses, ...limited.losses], left: new Set([...unfinished.left, ...limited.left]) };
    ids?.written(aside.items);
    const written = envelopeRecords(aside.items, target, envelopes);
    // An item left out is one of the items, not one of the lines: one Chat message gives several items, so its loss names the message that gave it.
    const leftOutFrom = (loss: Loss): StreamLoss => (kind === "responses_item" ? { ...loss, ...lineOf(loss.path) } : { ...loss, ...messageOf(loss.path, rewritten.items, origins, run, first) });
    const losses: StreamLoss[] = [...items.losses.map((loss) => ({ ...loss, ...lineOf(loss.path) })), ...rewritten.losses, ...aside.losses.map(leftOutFrom)];
    for (const loss of written.losses.filter((one) => !aside.left.has(one.path))) losses.push(kind === "responses_item" ? { ...loss, ...lineOf(loss.path) } : { ...loss, ...messageFieldOf(loss.path, rewritten.items, origins, run, first) });
    return { line: first, records: written.value, losses, errors: [], converted: run.length, runLines: run.map((pending) => pending.line) };
  } catch (error) {
    return notConverted(first, whyRunNotConverted(error, run), run.length);
  }
}

/**
 * The items of a run of Chat messages rewritten for the `--for` target, each
 * change reported on the line of the message that gave its item, at the field
 * that gave the value (`/tool_calls/0/id` for a call_id rewritten), then their
 * results named for a target envelope whose results name their call.
 */
function rewrittenMessages(items: readonly CanonicalItem[], rewrite: RecordRewrite, names: ResultNames | undefined, origins: ReadonlyMap<CanonicalItem, ItemOrigin>, run: readonly Pending[]): { items: CanonicalItem[]; losses: StreamLoss[] } {
  const first = run[0]!.line;
  const once = rewrite.items(items, "chat", () => first, (index) => `/${index}`);
  const losses = once.losses.map((loss) => ({ ...loss, ...messageFieldOf(loss.path, items, origins, run, first) }));
  if (!names) return { items: once.items, losses };
  const named = namedResults(once.items, names, () => first, () => "");
  return { items: named.items, losses: [...losses, ...named.losses] };
}

/**
 * Where a loss at an item's field (`/3/arguments`) sits in the Chat message that
 * gave the item: that message's line, and the field of it that gave the value
 * (`/tool_calls/0/function/arguments`), else the part of it that gave the item.
 * An item no message gave (one a rewrite made) keeps the item path, on `first`.
 */
function messageFieldOf(path: string, items: readonly CanonicalItem[], origins: ReadonlyMap<CanonicalItem, ItemOrigin>, run: readonly Pending[], first: number): { line: number; path: string } {
  const match = /^\/(\d+)(?:\/([^/]*))?(.*)$/.exec(path);
  const item = match ? items[Number(match[1])] : undefined;
  const origin = item === undefined ? undefined : origins.get(item);
  const pending = origin === undefined ? undefined : run[origin.message];
  if (!match || !origin || !pending) return { line: first, path };
  const field = match[2];
  const within = field !== undefined ? origin.fields[field] : undefined;
  return { line: pending.line, path: within !== undefined ? within + match[3] : (origin.fields[""] ?? "") };
}

/**
 * The Chat message that gave the item a loss names whole (`/3`): its line, at
 * the whole message, where the item is left out. An item no message gave (one
 * a rewrite made) keeps the item path, on `first`.
 */
function messageOf(path: string, items: readonly CanonicalItem[], origins: ReadonlyMap<CanonicalItem, ItemOrigin>, run: readonly Pending[], first: number): { line: number; path: string } {
  const match = /^\/(\d+)$/.exec(path);
  const item = match ? items[Number(match[1])] : undefined;
  const origin = item === undefined ? undefined : origins.get(item);
  const pending = origin === undefined ? undefined : run[origin.message];
  return pending ? { line: pending.line, path: "" } : { line: first, path };
}

/** Why a run of lines was not converted; when a record of it nests past what the converters follow, which line's record, and where. */
function whyRunNotConverted(error: unknown, run: readonly Pending[]): string {
  if (!isStackOverflow(error)) return `not converted: ${(error as Error).message}`;
  let deepest = run[0]!;
  let depth = -1;
  for (const pending of run) {
    const found = deepestPath(pending.record).depth;
    if (found > depth) [deepest, depth] = [pending, found];
  }
  return tooDeepDetail(deepest.record, "not converted", `the record of line ${deepest.line}`);
}
