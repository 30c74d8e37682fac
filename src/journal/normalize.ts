// Normalizes a journal, record by record, to canonical items with provenance.
// Each record is converted on its own first (Chat and Open Responses never share
// an item array), then its items are released in input order.
//
// | record              | items                                                          |
// |---------------------|----------------------------------------------------------------|
// | chat message        | messagesToItems of the message                                 |
// | chat request body   | messagesToItems of `messages`; `tools`/`tool_choice` kept aside |
// | chat.completion     | messagesToItems of each choice, with its finish_reason; a later |
// |                     |   request continues one of them (ConversationSoFar)            |
// | chat chunks         | reassembled per completion (ChatStreamAssembler)               |
// | Open Responses item | itself, provider types given the origin's slug                 |
// | request body        | `instructions` as a leading system message, then `input`        |
// | response object     | its `output`, with the response's id and status                |
// | streaming events    | reassembled per response (ResponsesStreamAssembler)            |
// | {request, response} | the request's items, then the response's                       |
// | a registered        | through its descriptor (adapters/index.ts): messages and request |
// |   envelope's record |   bodies by its messages converter (the body's tools, as an Open |
// |                     |   Responses body, kept aside), a response by its response       |
// |                     |   converter, stream events by its assembler                     |
// | raw SSE lines       | their `data:` payloads, as the records above                   |
//
// Lines become records, and streams whole responses, in StreamRecords: a stream
// with a line that cannot be read gives no completed call.
//
// Each field of a record that no item holds (a request's `model` and `tools`, a
// completion's `usage`, a response's `id`…) is reported `left_behind`.
//
// A request that replays the conversation so far (as logged exchanges do) gives
// only its new items; the repeated ones are counted and reported, not emitted twice
// (ConversationSoFar tells which they are).
import { apiErrorOf } from "../models/api-error-body.js";
import { namesRequestTools, unreadableRequest, unreadLine } from "./unreadable-request.js";
import { readAsSeveralLines } from "./unicode-line-ends.js";
import { recordText } from "./record-text.js";
import { chat, journalEnvelopes, type AdapterName, type CallCounts, type JournalEnvelopes } from "../../adapters/index.js";
import { limitSpelledOtherwise } from "../models/limit-spelled-otherwise.js";
import type { ChatMessage } from "../models/chat-completions.js";
import type { AnswerStarts, Envelope, JournalItem, Provenance } from "../models/journal-item.js";
import type { Loss } from "../models/loss.js";
import { pointerToken, prefixLosses } from "../models/json-pointer.js";
import type { CanonicalItem } from "../models/open-responses.js";
import { ConversationSoFar } from "./conversation-so-far.js";
import { replacedInstructionsLosses } from "./replaced-instructions.js";
import { isStackOverflow, tooDeepDetail } from "./deep-field.js";
import { writtenFromInexact, type InexactLiterals, type InexactSchemaNumber } from "./inexact-numbers.js";
import { restoreNumberTexts, type NumberTexts } from "./number-texts.js";
import { madeObjectTexts, numberPointer } from "./inexact-texts.js";
import { refuseInexactParsedArguments } from "./parsed-arguments-numbers.js";
import { countWrittenCalls, spellsUnreadCall, writtenCallPaths } from "./count-written-calls.js";
import { ambiguity, detectEnvelopeRecord, isCompactedResponse, isPlainObject, UNPREFIXED_PROVIDER_ITEM_TYPES, type RecordKind } from "./detect.js";
import { isReadLine, type JournalLine } from "./read.js";
import { unfinishedResponse } from "./responses-stream.js";
import { StreamRecords, type JournalRecord } from "./stream-records.js";
import { synthesizesResponseField } from "../models/response-neutrals.js";
import { stoppedCall } from "../models/assembled-response.js";
import { shownLiteral } from "../models/decimal-value.js";

export interface NormalizeOptions {
  /** Slug given to unprefixed provider item types (`web_search_call` → `openai:web_search_call`). */
  origin?: string;
  /** Emit the items a request repeats from the conversation so far, instead of skipping them. */
  keepRepeats?: boolean;
  /**
   * What a JSON object of no known kind becomes: an error record (the default), or
   * an item kept as it is, for the gate, which then blocks it by its missing or
   * non-string `type`; one verdict still answers every object line.
   */
  unknownObjects?: "error" | "item";
  /**
   * Whether each field of a record that no item holds is reported `left_behind`
   * (true by default). The gate reads no such loss, and building one for every
   * request body, response and streamed response was a measurable share of its time.
   */
  leftBehind?: boolean;
  /**
   * Whether a record that holds more tool calls, in any envelope's form, than it
   * gave call items is an error record (the gate's reading: a call that gave no
   * item would go unjudged) rather than items and the losses that say what was
   * dropped (count-written-calls.ts). So is a line that a reader ending lines at
   * a lone "\r" reads as several records (carriage-return-lines.ts): the calls
   * of those would go unjudged too.
   */
  refuseUnreadCalls?: boolean;
  /**
   * Tool results as the gate reads them: a Chat tool message without
   * tool_call_id (absent or `""`), or a Gemini functionResponse without id,
   * answers a call only when one waiting call could be its, rather than the
   * earliest (by default, as converters write them); a Chat tool message that
   * names its tool keeps that `name` on its output, to be compared with its call's.
   */
  answersForGate?: boolean;
  /** The deepest record read, in levels of nesting; a deeper one is an error on its line (StreamRecordsOptions). */
  maxDepth?: number;
}

/** The items of one record, or the reason it gave none. */
export type NormalizedRecord =
  | {
      kind: "items";
      source?: string;
      line: number;
      /** The last line of a record read from several (a stream's); absent for a record of one line. */
      lastLine?: number;
      recordKind: RecordKind;
      envelope: Envelope;
      items: JournalItem[];
      /** What the conversion could not carry, paths into the record. */
      losses: Loss[];
      /** A request body's tools and tool_choice, for the gate. */
      request?: Record<string, unknown>;
      /** A response object's own tool_choice and tools, for the gate: they narrow what its calls may run. */
      responseTools?: Record<string, unknown>;
      /**
       * The numbers of the request body's line that a schema judges by and a
       * double reads as others: `path` a JSON Pointer into the line, `tokens`
       * into `request`. The gate refuses a tool whose schema holds one.
       */
      requestNumbers?: InexactSchemaNumber[];
      /** Items of the record not emitted because they repeat the conversation so far. */
      repeated: number;
      /**
       * The call_ids of the choices of a completion that the request replays
       * another choice of: the conversation goes on without them, and no
       * output is owed to them (ConversationSoFar).
       */
      callsOfOtherAnswers?: string[];
      /** Where the record's answers that are alternatives to one another begin among `items`: a later answer's items are no turn after an earlier one's calls. */
      answers?: AnswerStarts;
      /**
       * The items whose arguments or output text was written from an object of
       * the record holding a number its double does not stand for: the text is
       * not the record's own (`literal`, as the record wrote it), so a reader
       * that compares texts cannot take it for what the record said.
       */
      notAsWritten?: Array<{ index: number; field: "arguments" | "output"; literal: string }>;
    }
  | { kind: "error"; source?: string; line: number; detail: string };

const MESSAGE_ROLES = new Set(["user", "assistant", "system", "developer"]);

export class JournalNormalizer {
  private readonly origin: string;
  private readonly keepRepeats: boolean;
  private readonly unknownObjects: "error" | "item";
  private source: string | undefined;
  /** The registry's envelopes for this journal: a Gemini result on a later line than its call pairs with it. */
  private readonly envelopes: JournalEnvelopes;
  private readonly records: StreamRecords;
  private readonly sayLeftBehind: boolean;
  private readonly refuseUnreadCalls: boolean;
  /** Calls given a synthesized call_id in loose Chat messages (legacy calls, calls without id), counted across the journal. */
  private readonly callCounts: CallCounts;
  /**
   * Calls given a synthesized call_id in the Chat conversation so far: a request
   * body counts them again from its first message, and a chat.completion on a
   * line of its own counts on, as the next request, replaying it, numbers them.
   */
  private chatCounts: CallCounts;
  private readonly answersForGate: boolean;
  /** The conversation so far, to recognise a request that replays it. */
  private readonly conversation: ConversationSoFar;
  /** Each envelope's response item fields (envelopeResponseItemFields), as first asked for. */
  private readonly itemFieldsOf = new Map<AdapterName, ReadonlySet<string>>();
  /** The calls the record being converted writes, while it is, when its parse counted them. */
  private writtenCalls: number | undefined;

  constructor(options: NormalizeOptions = {}) {
    this.origin = (options.origin ?? "openai").replace(/:$/, "");
    this.keepRepeats = options.keepRepeats ?? false;
    this.unknownObjects = options.unknownObjects ?? "error";
    this.sayLeftBehind = options.leftBehind ?? true;
    this.refuseUnreadCalls = options.refuseUnreadCalls ?? false;
    this.answersForGate = options.answersForGate ?? false;
    this.callCounts = chat.callCounts(this.answersForGate);
    this.chatCounts = chat.callCounts(this.answersForGate);
    this.envelopes = journalEnvelopes({ forGate: this.answersForGate });
    const envelopes = Object.values(this.envelopes);
    this.conversation = new ConversationSoFar((callId) => envelopes.some((adapter) => adapter.dropsCallId?.(callId) ?? false));
    this.records = new StreamRecords({ envelopes: this.envelopes, itemLines: true, leftBehind: this.sayLeftBehind, responseObjects: true, maxDepth: options.maxDepth });
  }

  /** One line of the journal; returns the records it completes, in input order. */
  push(given: JournalLine): NormalizedRecord[] {
    const line = this.refuseUnreadCalls ? readAsOneLine(given) : given;
    if (line.source === this.source) return this.normalized(this.records.push(line));
    const out = this.finish();
    this.source = line.source;
    out.push(...this.normalized(this.records.push(line)));
    return out;
  }

  /** A record already parsed (a library caller's object), judged as the JSON text it writes (record-text.ts). */
  pushRecord(record: unknown, line: number): NormalizedRecord[] {
    const written = recordText(record);
    const source = this.source ?? "-";
    return this.normalized(this.records.push(written.ok ? { source, line, text: written.text } : { source, line, text: written.message, error: written.message, mayBeRequest: true }));
  }

  /**
   * A line not given here may have been a record of the stream open here: it is
   * damaged from that line (StreamRecords). `detail`: why, when it is not a line
   * that could not be read.
   */
  damageOpenStream(line: number, detail?: string): void {
    this.records.damageOpenStream(line, detail);
  }

  /** End of the journal (or of one source): whatever streams are open, as last seen. */
  finish(): NormalizedRecord[] {
    return this.normalized(this.records.finish());
  }

  private normalized(records: JournalRecord[]): NormalizedRecord[] {
    const out = this.normalizedRecords(records);
    // An item given under a client's call id, other than an output written under the call's own, makes that id its own.
    if (this.conversation.holdsClientCallIds) {
      for (const record of out) if (record.kind === "items") for (const { item } of record.items) if (isPlainObject(item)) this.conversation.forgetClientCallId(item.call_id);
    }
    return out;
  }

  private normalizedRecords(records: JournalRecord[]): NormalizedRecord[] {
    if (records.length === 1 && records[0].kind === "plain" && records[0].inexact === undefined && records[0].numberTexts === undefined && records[0].schemaNumbers === undefined && records[0].parsedArgumentsInexact === undefined) {
      return [this.plain(records[0].record, records[0].recordKind, records[0].line, records[0].envelope, records[0].writtenCalls)];
    }
    const out: NormalizedRecord[] = [];
    for (const entry of records) {
      switch (entry.kind) {
        case "plain": {
          let normalized = this.plain(entry.record, entry.recordKind, entry.line, entry.envelope, entry.writtenCalls);
          if (entry.inexact !== undefined) normalized = this.valuesOfObjects(normalized, entry.inexact, entry.record);
          if (entry.numberTexts !== undefined) normalized = numbersAsWritten(normalized, entry.numberTexts, entry.record);
          if (entry.schemaNumbers !== undefined) normalized = withRequestNumbers(normalized, entry.recordKind, entry.schemaNumbers);
          if (entry.parsedArgumentsInexact !== undefined && this.refuseUnreadCalls) normalized = refuseInexactParsedArguments(normalized, entry.parsedArgumentsInexact);
          out.push(normalized);
          break;
        }
        case "error":
          // For the gate, a line that may have been a request body narrows the tools as far as it can: to none.
          if (entry.namesTools === true && this.unknownObjects === "item") {
            out.push({ kind: "items", source: this.source, line: entry.line, recordKind: "unknown", envelope: "responses", items: [], losses: [], request: unreadableRequest(entry.detail), repeated: 0 });
          } else out.push({ kind: "error", source: this.source, line: entry.line, detail: entry.detail });
          break;
        case "rejected":
          out.push({ kind: "error", source: this.source, line: entry.line, detail: `stream record cannot be reassembled: ${entry.reason}` });
          break;
        case "response": {
          let normalized = this.assembled(entry);
          if (entry.inexact !== undefined) normalized = this.valuesOfObjects(normalized, entry.inexact, undefined, "a record of the stream");
          if (entry.numberTexts !== undefined) normalized = numbersAsWritten(normalized, entry.numberTexts, undefined);
          out.push(normalized);
          break;
        }
        case "unassembled":
          // For the gate, stream records that opened no response are a line it must
          // answer: a blocked error line, as an object of no known kind gets one.
          if (this.unknownObjects === "item") {
            out.push({ kind: "error", source: this.source, line: entry.line, detail: entry.detail });
            break;
          }
          // Stream records that opened no response hold no item; they are said, not dropped.
          out.push({ kind: "items", source: this.source, line: entry.line, recordKind: streamKindOf(entry.envelope), envelope: entry.envelope, items: [], losses: [{ path: "", code: "unsupported_item", detail: entry.detail }], repeated: 0 });
          break;
        default:
          return assertNever(entry);
      }
    }
    return out;
  }

  /**
   * `writtenCalls`: the tool calls the record writes, when its parse counted them (see unreadCalls).
   * A record nested deeper than a converter's walk can follow (JSON.parse reads
   * any depth) is an error on its line that names the field, never a crash of
   * the whole journal.
   */
  private plain(record: unknown, kind: RecordKind, line: number, envelope?: AdapterName, writtenCalls?: number): NormalizedRecord {
    this.writtenCalls = writtenCalls;
    try {
      return this.plainOf(record, kind, line, envelope);
    } catch (error) {
      if (!isStackOverflow(error)) throw error;
      return { kind: "error", source: this.source, line, detail: tooDeepDetail(record, "not read") };
    } finally {
      this.writtenCalls = undefined;
    }
  }

  private plainOf(record: unknown, kind: RecordKind, line: number, envelope?: AdapterName): NormalizedRecord {
    const fields = record as Record<string, unknown>;
    switch (kind) {
      case "envelope_message": {
        const adapter = this.envelopes[envelope!];
        const converted = adapter.messagesToItems({ messages: [record] });
        const at = new RegExp(`^/${adapter.fields.messages}/0(?=/|$)`);
        const unread = this.unreadCalls(record, converted.value, converted.losses, line);
        if (unread) return unread;
        this.conversation.extend(converted.value);
        return {
          kind: "items",
          source: this.source,
          line,
          recordKind: kind,
          envelope: envelope!,
          items: converted.value.map((item, index) => ({ item, provenance: this.provenance(line, index, envelope!) })),
          losses: converted.losses.map((loss) => ({ ...loss, path: loss.path.replace(at, "") })),
          repeated: 0,
        };
      }
      case "envelope_request":
      case "envelope_response":
      case "envelope_event":
        return this.convertRecord(fields, kind, line, envelope);
      case "chat_message": {
        const converted = chat.messages.toItems({ messages: [record as ChatMessage], callCounts: this.callCounts });
        const unread = this.unreadCalls(record, converted.value, converted.losses, line);
        if (unread) return unread;
        this.conversation.extend(converted.value);
        return {
          kind: "items",
          source: this.source,
          line,
          recordKind: kind,
          envelope: "chat",
          items: converted.value.map((item, index) => ({ item, provenance: this.provenance(line, index, "chat") })),
          losses: converted.losses.map(dropFirstToken),
          repeated: 0,
        };
      }
      case "responses_item":
        return this.looseItem(record as CanonicalItem, line);
      case "chat_request":
      case "chat_completion":
      case "response":
      case "responses_request":
      case "exchange":
      // Chunks and events are reassembled before they get here; on their own they are errors.
      case "chat_chunk":
      case "responses_event":
        return this.convertRecord(fields, kind, line);
      case "unknown":
        // For the gate, an array that names a request's tool fields may be request bodies batched, as a line not read
        // that names them may be one: the tools narrow to none. (An object of no known kind is the gate's: tools-in-force.ts.)
        if (this.unknownObjects === "item" && Array.isArray(record) && namesRequestTools(unknownRecordText(record))) {
          return { kind: "items", source: this.source, line, recordKind: "unknown", envelope: "responses", items: [], losses: [], request: unreadableRequest(describeUnknown(record)), repeated: 0 };
        }
        if (this.unknownObjects === "item" && isPlainObject(record)) return this.looseItem(record as CanonicalItem, line);
        return { kind: "error", source: this.source, line, detail: describeUnknown(record) };
      default:
        return assertNever(kind);
    }
  }

  /**
   * With `refuseUnreadCalls`: the error record for a record that holds more tool
   * calls than it gave calls the gate judges (function_call items, and calls
   * reported `unsupported_tool_call`, which block the line themselves). An
   * extension item is not one: it may stand for a call no count here knows. The
   * calls written inside one are, though (a Bedrock server tool's `toolUse`, kept
   * as a `bedrock:toolUse` item): the gate blocks the item that holds them.
   */
  private unreadCalls(record: unknown, items: readonly CanonicalItem[], losses: readonly Loss[], line: number): NormalizedRecord | undefined {
    if (!this.refuseUnreadCalls) return undefined;
    const written = this.writtenCalls ?? countWrittenCalls(record);
    if (written === 0) return undefined;
    let read = 0;
    for (const item of items) {
      if (!isPlainObject(item)) continue;
      if (item.type === "function_call" || (typeof item.type === "string" && spellsUnreadCall(item.type))) read += 1;
      else if (typeof item.type === "string" && item.type.includes(":")) read += countWrittenCalls(item);
    }
    for (const loss of losses) if (loss.code === "unsupported_tool_call") read += 1;
    if (written <= read) return undefined;
    return {
      kind: "error",
      source: this.source,
      line,
      detail: `the record holds ${written} tool call${written === 1 ? "" : "s"} (at ${writtenCallPaths(record, 3).map(shortPath).join(", ")}${written > 3 ? ", …" : ""}) and gave ${read} to judge: a call written where its kind of record keeps none is never checked, though an SDK of its envelope would run it`,
    };
  }

  /**
   * A record of an envelope that writes arguments and results as objects, whose
   * line holds numbers its doubles do not stand for (inexact-numbers.ts): an
   * argument or output text that writes such a double is not what the record
   * wrote. For the gate (`refuseUnreadCalls`), a call of it is refused, as it
   * cannot be judged as written; otherwise each such text is reported.
   * `writer`: what wrote the number, for the detail (a stream's response is
   * made of several records); `source`: the record, where it is one, whose
   * number each loss points at.
   */
  private valuesOfObjects(normalized: NormalizedRecord, inexact: InexactLiterals, source: unknown, writer = "the record"): NormalizedRecord {
    if (normalized.kind !== "items") return normalized;
    const losses: Loss[] = [];
    const notAsWritten: NonNullable<Extract<NormalizedRecord, { kind: "items" }>["notAsWritten"]> = [];
    for (const [index, { item }] of normalized.items.entries()) {
      const fields = item as Record<string, unknown>;
      const field = fields.type === "function_call" ? "arguments" : fields.type === "function_call_output" ? "output" : undefined;
      const value = field === undefined ? undefined : fields[field];
      // An output is text, or parts whose texts may hold a result object's JSON text.
      const texts = typeof value === "string" ? [value] : Array.isArray(value) ? value.map((part) => (isPlainObject(part) ? part.text : undefined)) : [];
      const literals: string[] = [];
      for (const text of texts) if (typeof text === "string") for (const literal of writtenFromInexact(text, inexact)) if (!literals.includes(literal)) literals.push(literal);
      if (literals.length === 0) continue;
      if (this.refuseUnreadCalls && field === "arguments") {
        return { kind: "error", source: this.source, line: normalized.line, detail: `${writer} writes the number ${shownLiteral(literals[0]!)} in a call's arguments object, and a double does not stand for it exactly: the arguments text made of it is not the record's own, and the call is not judged` };
      }
      // Each number so changed is said: a text may hold several.
      for (const literal of literals) losses.push({ path: numberPointer(source, literal), code: "form_changed", detail: `the ${field} text of item ${index} holds the number ${shownLiteral(literal)} of ${writer} as its double writes it, ${JSON.stringify(Number(literal))}` });
      notAsWritten.push({ index, field: field!, literal: literals[0]! });
    }
    return losses.length === 0 ? normalized : { ...normalized, losses: [...normalized.losses, ...losses], notAsWritten: [...(normalized.notAsWritten ?? []), ...notAsWritten] };
  }

  private leftBehind(record: Record<string, unknown>, kept: ReadonlySet<string>, at: string, what: string): Loss[] {
    return this.sayLeftBehind ? fieldsLeftBehind(record, kept, at, what) : [];
  }

  /** An item on a line of its own, the commonest record: what `convertRecord` gives it, without the parts a record of several items needs. */
  private looseItem(record: CanonicalItem, line: number): NormalizedRecord {
    const items = [this.canonical(record)];
    const unread = this.unreadCalls(record, items, [], line);
    if (unread) return unread;
    this.conversation.extend(items);
    return { kind: "items", source: this.source, line, recordKind: "responses_item", envelope: "responses", items: [{ item: items[0]!, provenance: this.provenance(line, 0, "responses") }], losses: [], repeated: 0 };
  }

  private assembled(entry: Extract<JournalRecord, { kind: "response" }>): NormalizedRecord {
    const { response, envelope } = entry;
    const items = response.items.map((item) => this.canonical(item));
    // A call its chunks wrote where the converter reads none (beside a part's text) is refused, as on a line of its own.
    if (response.merged !== undefined) {
      const unread = this.unreadCalls(response.merged(), items, response.losses, response.lastLine);
      if (unread) return unread;
    }
    // The fields a stream's response object was given are in no item.
    const losses: Loss[] = response.losses.filter((loss) => !synthesizesResponseField(loss));
    if (entry.damage) losses.push(entry.damage);
    // A stream of several Gemini candidates joins them into one response, each candidate an answer of its own.
    const candidates = candidateStarts(items);
    if (response.laterChoice === true) this.conversation.extendAnswer(items);
    else this.conversation.extend(items, candidates);
    // What the streamed response says its request allowed holds for its calls, as a stored response's does.
    const toolFields = response.responseObject === undefined ? undefined : responseToolFields(response.responseObject);
    return {
      kind: "items",
      source: this.source,
      line: response.line,
      lastLine: response.lastLine,
      recordKind: streamKindOf(envelope),
      envelope,
      // Each item at the line that completed it: a call is where its arguments became final.
      items: items.map((item, index) => ({ item, provenance: this.provenance(response.itemLines?.[index] ?? response.lastLine, index, envelope, { id: response.id, status: response.status }) })),
      losses,
      ...(toolFields ? { responseTools: toolFields } : {}),
      ...(response.laterChoice === true ? { answers: { starts: [0], later: true } } : candidates !== undefined ? { answers: { starts: candidates } } : {}),
      repeated: 0,
    };
  }

  private convertRecord(record: Record<string, unknown>, kind: RecordKind, line: number, envelope?: AdapterName): NormalizedRecord {
    const parts = this.partsOf(record, kind, "", undefined, envelope);
    if ("error" in parts) return { kind: "error", source: this.source, line, detail: parts.error };
    const unread = this.unreadCalls(record, parts.items, parts.losses, line);
    if (unread) return unread;
    const carriesHistory = parts.requestItemCount > 0;
    // A request carries the conversation so far: emit what is new.
    const skipped = carriesHistory && !this.keepRepeats ? this.conversation.repeatedPrefix(parts.requestItemCount, parts.items) : 0;
    // Instructions that replace the conversation's lead the skipped items: they are left behind, not repeated.
    const replaced = skipped > 0 ? this.conversation.replacedInstructions : 0;
    if (replaced > 0) parts.losses.push(...replacedInstructionsLosses(record, kind, replaced, this.envelopes, envelope));
    // The calls of the choices a replay did not continue, known before the restart forgets them.
    const otherAnswers = skipped > 0 ? this.conversation.callsOfOtherAnswers : undefined;
    if (carriesHistory) this.conversation.restart();
    this.conversation.extend(parts.items, parts.answers);
    const losses = [...parts.losses];
    return {
      kind: "items",
      source: this.source,
      line,
      recordKind: kind,
      envelope: parts.envelope,
      items: parts.items.slice(skipped).map((item, i) => ({ item: this.underKnownCallId(item, losses), provenance: this.provenance(line, i + skipped, parts.envelope, parts.responseOf(i + skipped)) })),
      losses,
      ...(parts.request ? { request: parts.request } : {}),
      ...(parts.responseTools ? { responseTools: parts.responseTools } : {}),
      ...(otherAnswers !== undefined && otherAnswers.length > 0 ? { callsOfOtherAnswers: [...otherAnswers] } : {}),
      // A replay skips request items only, which come before every answer.
      ...(parts.answers !== undefined && parts.answers.length > 1 ? { answers: { starts: parts.answers.map((start) => start - skipped) } } : {}),
      repeated: skipped - replaced,
    };
  }

  /**
   * The item under the call_id the conversation first knew its call by, where a
   * request replayed that call under an id of the client's own (ConversationSoFar):
   * an output the client answers it with answers the call the gate judged, not
   * one it never saw. Reported, as every id written otherwise than the record has it.
   */
  private underKnownCallId(item: CanonicalItem, losses: Loss[]): CanonicalItem {
    // A hole in a record's items is the null its JSON text writes: no item, and no call_id.
    if (!isPlainObject(item) || item.type !== "function_call_output" || typeof item.call_id !== "string") return item;
    const callId = item.call_id;
    const known = this.conversation.knownCallId(callId);
    if (known === undefined) return item;
    losses.push({ path: "", code: "form_changed", detail: `the call_id ${JSON.stringify(callId)} is written ${JSON.stringify(known)}: the output answers the call its conversation made without id, which a request replays under ${JSON.stringify(callId)}` });
    return { ...item, call_id: known } as CanonicalItem;
  }

  /** `counts`: calls given a synthesized call_id so far in the same exchange, so that its response's calls number on from its request's. */
  private partsOf(record: Record<string, unknown>, kind: RecordKind, at: string, counts?: CallCounts, envelope?: AdapterName): RecordParts | { error: string } {
    switch (kind) {
      case "envelope_request": {
        const adapter = this.envelopes[envelope!];
        const converted = adapter.messagesToItems({ messages: record[adapter.fields.messages] as unknown[], system: record[adapter.fields.system], whole: true });
        const kept = new Set([adapter.fields.messages, adapter.fields.system]);
        const losses = [...prefixLosses(at, converted.losses), ...this.leftBehind(record, kept, at, "the request body")];
        // The gate reads the body's tools in its own envelope, through the reader its caller hands it.
        return parts(envelope!, converted.value, losses, { request: record });
      }
      case "envelope_response": {
        // The items are written alone: what was made up for each is reported at the part of the record it comes from.
        const converted = this.envelopes[envelope!].responseToResource(record, { sourcePaths: true });
        const resource = converted.value as unknown as Record<string, unknown>;
        const output = (Array.isArray(resource.output) ? resource.output : []).map((item) => this.canonical(item as CanonicalItem));
        // What the converter made up for the response object (its creation time,
        // the fields the spec requires of it) is in no item either.
        const itemLosses = converted.losses.filter((loss) => !synthesizesResponseField(loss));
        // A field the converter kept on the response object under its slug (a stop_reason no status says) is in no item either:
        // the whole field, or, where the items hold the rest of each element (Gemini's candidates), what the slug keeps of each.
        const itemFields = this.responseItemFields(envelope!);
        const slugged = sluggedItemFields(resource, itemFields);
        const elementwise = slugged.size === 0 ? [] : [...slugged].filter(([field, value]) => Array.isArray(value) && Array.isArray(record[field]) && value.length === (record[field] as unknown[]).length);
        // With no field kept under the slug, every item field is kept: the set itself, as fieldsLeftBehind only reads it.
        const kept = slugged.size === 0 ? itemFields : new Set([...itemFields].filter((field) => !slugged.has(field) || elementwise.some(([one]) => one === field)));
        const losses = [...prefixLosses(at, itemLosses), ...this.leftBehind(record, kept, at, "the response")];
        if (this.sayLeftBehind) for (const [field, value] of elementwise) losses.push(...elementsLeftBehind(field, value as unknown[], at));
        const result = parts(envelope!, output, losses, { response: { id: stringOrUndefined(resource.id), status: stringOrUndefined(resource.status) } });
        const candidates = candidateStarts(output);
        if (candidates !== undefined) result.answers = candidates;
        return result;
      }
      case "chat_request": {
        const requestCounts = counts ?? chat.callCounts(this.answersForGate);
        // On a line of its own, the request begins the count the completions after it go on with.
        if (counts === undefined) this.chatCounts = requestCounts;
        const converted = chat.messages.toItems({ messages: record.messages as ChatMessage[], callCounts: requestCounts });
        const losses = [...prefixLosses(`${at}/messages`, converted.losses), ...this.leftBehind(record, REQUEST_ITEM_FIELDS, at, "the request body")];
        return parts("chat", converted.value, losses, { request: record });
      }
      case "chat_completion": {
        const unreadable = unreadableChoices(record.choices);
        if (unreadable !== undefined) return { error: unreadable };
        // Every choice gives items, as its stream does: a call in any answer is
        // gated. Each choice is a response of its own, so that the findings of
        // one (an incomplete item not last) do not reach into another.
        const converted = chat.completionToItems({ completion: record, callCounts: counts ?? this.chatCounts });
        const id = stringOrUndefined(record.id);
        const items: CanonicalItem[] = [];
        const responses: Array<Provenance["response"]> = [];
        const losses: Loss[] = [];
        const answers: number[] = [];
        converted.value.forEach((choice, position) => {
          answers.push(items.length);
          const response = { id: position === 0 || id === undefined ? id : `${id} choice ${choice.index}`, status: choice.status };
          for (const item of choice.items) {
            items.push(item);
            responses.push(response);
          }
          losses.push(...prefixLosses(at, choice.losses));
        });
        losses.push(...prefixLosses(at, converted.losses));
        // A completion stored with its request's tool_choice, tools or parallel_tool_calls says what its calls were allowed, as a response object does.
        const toolFields = responseToolFields(record);
        const result = parts("chat", items, losses, { response: { id, status: converted.value[0]!.status }, ...(toolFields ? { responseTools: toolFields } : {}) });
        result.responseOf = (index) => responses[index];
        if (answers.length > 1) result.answers = answers;
        return result;
      }
      case "response": {
        const losses: Loss[] = [];
        // A response that failed or was cancelled never ran its calls in the
        // recording: a completed one is written incomplete, as a failed stream's is.
        // So is one of a status the spec does not define: it cannot be told apart.
        const stopped = stoppedResponse(record);
        const output = (record.output as unknown[]).map((item, index) => {
          const canonical = this.canonical(item as CanonicalItem);
          const call = stopped === undefined ? undefined : stoppedCall(canonical);
          if (call === undefined) return canonical;
          losses.push({ path: `${at}/output/${index}/status`, code: "form_changed", detail: `${stopped}: its completed call is written incomplete, as the recording never ran it` });
          return call;
        });
        losses.push(...this.leftBehind(record, RESPONSE_ITEM_FIELDS, at, "the response"));
        // What the response says its request allowed holds for its own calls, beside what an exchange's request says.
        const toolFields = responseToolFields(record);
        return parts("responses", output, losses, { response: { id: stringOrUndefined(record.id), status: stringOrUndefined(record.status) }, ...(toolFields ? { responseTools: toolFields } : {}) });
      }
      case "responses_request": {
        const items: CanonicalItem[] = [];
        const losses: Loss[] = [];
        if (typeof record.instructions === "string") {
          items.push({ type: "message", role: "system", content: record.instructions });
          losses.push({ path: `${at}/instructions`, code: "form_changed", detail: "instructions written as a leading system message item" });
        }
        const input = record.input;
        if (typeof input === "string") items.push({ type: "message", role: "user", content: input });
        else if (Array.isArray(input)) for (const item of input) items.push(this.canonical(item as CanonicalItem));
        losses.push(...this.leftBehind(record, BODY_ITEM_FIELDS, at, "the request body"));
        return parts("responses", items, losses, { request: record });
      }
      case "responses_item":
        return parts("responses", [this.canonical(record as CanonicalItem)], []);
      case "exchange": {
        const request = record.request as Record<string, unknown>;
        const response = record.response as Record<string, unknown>;
        const { kind: requestKind, envelope: requestEnvelope } = detectEnvelopeRecord(request);
        const { kind: responseKind, envelope: responseEnvelope } = detectEnvelopeRecord(response);
        if (requestKind !== "chat_request" && requestKind !== "responses_request" && requestKind !== "envelope_request") return { error: `exchange request is ${requestKind === "unknown" ? "of no known kind" : `a ${requestKind}`}, not a request body` };
        if (responseKind !== "chat_completion" && responseKind !== "response" && responseKind !== "envelope_response") {
          const apiError = responseKind === "unknown" && isPlainObject(response) ? apiErrorOf(response) : undefined;
          if (apiError !== undefined) return { error: `exchange response is a provider's error body (${apiError}): the request got no response, and no call` };
          return { error: `exchange response is ${responseKind === "unknown" ? "of no known kind" : `a ${responseKind}`}, not a response` };
        }
        const twoKinds = ambiguity(request, requestKind, requestEnvelope) ?? ambiguity(response, responseKind, responseEnvelope);
        if (twoKinds !== undefined) return { error: `exchange ${ambiguity(request, requestKind, requestEnvelope) !== undefined ? "request" : "response"}: ${twoKinds}` };
        // The response continues the request's conversation: a legacy call it makes
        // is numbered after the request's, as the next request, replaying both, numbers it.
        const exchangeCounts = chat.callCounts(this.answersForGate);
        this.chatCounts = exchangeCounts;
        const requestParts = this.partsOf(request, requestKind, `${at}/request`, exchangeCounts, requestEnvelope);
        const responseParts = this.partsOf(response, responseKind, `${at}/response`, exchangeCounts, responseEnvelope);
        if ("error" in requestParts) return requestParts;
        if ("error" in responseParts) return responseParts;
        const exchangeLosses = [...requestParts.losses, ...responseParts.losses, ...this.leftBehind(record, EXCHANGE_ITEM_FIELDS, at, "the exchange")];
        const combined = parts(requestParts.envelope, [...requestParts.items, ...responseParts.items], exchangeLosses, {
          request,
          response: responseParts.response,
          ...(responseParts.responseTools ? { responseTools: responseParts.responseTools } : {}),
        });
        combined.requestItemCount = requestParts.items.length;
        if (responseParts.answers !== undefined) combined.answers = responseParts.answers.map((start) => start + combined.requestItemCount);
        combined.responseOf = (index) => (index >= combined.requestItemCount ? responseParts.responseOf(index - combined.requestItemCount) : undefined);
        return combined;
      }
      default:
        return { error: `a ${kind} record cannot be converted on its own` };
    }
  }

  /** The fields an envelope's response gives its items from, once per envelope: its field paths are fixed. */
  private responseItemFields(envelope: AdapterName): ReadonlySet<string> {
    let fields = this.itemFieldsOf.get(envelope);
    if (fields === undefined) {
      fields = envelopeResponseItemFields(this.envelopes[envelope].responseFields);
      this.itemFieldsOf.set(envelope, fields);
    }
    return fields;
  }

  private provenance(line: number, index: number, envelope: Envelope, response?: Provenance["response"]): Provenance {
    const provenance: Provenance = { line, index, envelope };
    if (this.source !== undefined) provenance.source = this.source;
    if (response) provenance.response = response;
    return provenance;
  }

  /** An item in canonical form: messages typed, unprefixed provider types given the origin's slug. */
  private canonical(item: CanonicalItem): CanonicalItem {
    if (!isPlainObject(item)) return item;
    // The spec's short message form `{role, content}` is a message item; it is
    // written with its type, so that the gate does not take it for an unknown item.
    if (item.type === undefined && typeof item.role === "string" && MESSAGE_ROLES.has(item.role)) return { type: "message", ...item } as CanonicalItem;
    if (typeof item.type !== "string" || !UNPREFIXED_PROVIDER_ITEM_TYPES.has(item.type)) return item;
    return { ...item, type: `${this.origin}:${item.type}` } as CanonicalItem;
  }
}

/**
 * The line as the gate reads it: one that a reader ending lines at a lone "\r",
 * or where str.splitlines does, reads as several records is a line not read,
 * which may be a request body when it names a request's tools, as any line not read.
 */
function readAsOneLine(line: JournalLine): JournalLine {
  if (line.error !== undefined) return line;
  const split = readAsSeveralLines(line.text);
  return split === undefined ? line : unreadLine(line, split);
}

// The fields each kind of record gives its items from; `object` only says the
// kind. Every other field is left behind, and reported as such.
const REQUEST_ITEM_FIELDS = new Set(["messages"]);
const RESPONSE_ITEM_FIELDS = new Set(["object", "output"]);
const BODY_ITEM_FIELDS = new Set(["input", "instructions"]);
const EXCHANGE_ITEM_FIELDS = new Set(["request", "response"]);
// An envelope's response gives its items from the field that holds its output
// (Anthropic `content`, Bedrock `output`, Gemini `candidates`) and their status
// from the field that says why it stopped (`stop_reason`, `stopReason`); `type`
// and `role` only say the kind.
function envelopeResponseItemFields(responseFields: Readonly<Record<string, string>>): Set<string> {
  const topField = (path: string | undefined) => (path === undefined ? [] : [path.split("/")[1]!]);
  return new Set(["type", "role", ...topField(responseFields.output), ...topField(responseFields.status)]);
}

/**
 * Each of `itemFields` that the converter kept on the response object under a
 * slug (`gemini:candidates`, a key ending in `:` and the field), with what the
 * last such key holds. Only a key with a colon can end so: the others are not
 * tried against each field.
 */
function sluggedItemFields(resource: Record<string, unknown>, itemFields: ReadonlySet<string>): Map<string, unknown> {
  const slugged = new Map<string, unknown>();
  const withColon = Object.keys(resource).filter((key) => key.includes(":"));
  if (withColon.length === 0) return slugged;
  for (const field of itemFields) {
    const suffix = `:${field}`;
    for (const key of withColon) if (key.endsWith(suffix)) slugged.set(field, resource[key]);
  }
  return slugged;
}

/** The record kind of a stream of `envelope`, as a whole response rebuilt from it is said to be. */
function streamKindOf(envelope: Envelope): RecordKind {
  return envelope === "chat" ? "chat_chunk" : envelope === "responses" ? "responses_event" : "envelope_event";
}

/**
 * A `left_behind` loss for each field of a record that no item holds: normalize
 * writes items only. A field that holds nothing (null, [], {}) has nothing to leave.
 */
function fieldsLeftBehind(record: Record<string, unknown>, kept: ReadonlySet<string>, at: string, what: string): Loss[] {
  const losses: Loss[] = [];
  for (const key in record) {
    if (!Object.hasOwn(record, key) || kept.has(key)) continue;
    const value = record[key];
    if (value === null || value === undefined || (typeof value === "object" && Object.keys(value).length === 0)) continue;
    losses.push({ path: `${at}/${pointerToken(key)}`, code: "left_behind", detail: `${key} of ${what} is in no item: normalize writes items only` });
  }
  return losses;
}

/** What a slug kept of each element of a response's field whose elements gave items (`gemini:candidates`), left behind at the element's own field. */
function elementsLeftBehind(field: string, kept: readonly unknown[], at: string): Loss[] {
  const losses: Loss[] = [];
  kept.forEach((element, index) => {
    if (!isPlainObject(element)) return;
    for (const key of Object.keys(element)) {
      losses.push({ path: `${at}/${pointerToken(field)}/${index}/${pointerToken(key)}`, code: "left_behind", detail: `${key} of ${field.replace(/s$/, "")} ${index} is in no item: normalize writes items only` });
    }
  });
  return losses;
}

/** The mark of the candidate a Gemini response's item comes from, when the response has several (generate-content-to-response.ts). */
const CANDIDATE_MARK = "gemini:candidate";

/** Where each candidate's items begin among a response's items, when they come from several: they are alternatives, as a completion's choices are. */
function candidateStarts(items: readonly CanonicalItem[]): number[] | undefined {
  const starts: number[] = [];
  let last: unknown;
  items.forEach((item, index) => {
    const mark = isPlainObject(item) ? item[CANDIDATE_MARK] : undefined;
    if (index === 0 || mark !== last) starts.push(index);
    last = mark;
  });
  return starts.length > 1 ? starts : undefined;
}

interface RecordParts {
  envelope: Envelope;
  items: CanonicalItem[];
  losses: Loss[];
  request?: Record<string, unknown>;
  response?: Provenance["response"];
  /** A response object's own tool_choice and tools, which it repeats from its request. */
  responseTools?: Record<string, unknown>;
  /** For an exchange, how many of `items` came from its request. */
  requestItemCount: number;
  /** Where each choice of a chat.completion of several begins among `items`: a later request continues one of them. */
  answers?: number[];
  responseOf(index: number): Provenance["response"];
}

function parts(envelope: Envelope, items: CanonicalItem[], losses: Loss[], extra: { request?: Record<string, unknown>; response?: Provenance["response"]; responseTools?: Record<string, unknown> } = {}): RecordParts {
  const result: RecordParts = {
    envelope,
    items,
    losses,
    ...extra,
    requestItemCount: extra.request && !extra.response ? items.length : 0,
    // In an exchange only the response's items belong to the response.
    responseOf: (index) => (extra.response && index >= result.requestItemCount ? extra.response : undefined),
  };
  return result;
}

/** A loss of a one-element conversion points at `/0/…`; the record itself is that element. */
function dropFirstToken(loss: Loss): Loss {
  return { ...loss, path: loss.path.replace(/^\/0(?=\/|$)/, "") };
}

/** The statuses of a response object the spec defines, and those whose calls ran. */
const RESPONSE_STATUSES: ReadonlySet<unknown> = new Set(["completed", "incomplete", "in_progress", "queued", "failed", "cancelled"]);

/**
 * Why a stored response's completed calls did not run, or cannot be taken to
 * have: it failed or was cancelled, did not finish as a stream's terminal
 * event would not (unfinishedResponse), or says a status the spec does not define.
 */
function stoppedResponse(record: Record<string, unknown>): string | undefined {
  // A compacted response has no status: its items are the history handed back,
  // never a call the model just made, so a call among them is not to be run.
  if (isCompactedResponse(record)) return "the response is a compacted history (response.compaction), whose calls were made before and are not to run again";
  const status = record.status;
  if (status === "failed" || status === "cancelled") return `the response ${status}`;
  const unfinished = unfinishedResponse(record);
  if (unfinished !== undefined || RESPONSE_STATUSES.has(status)) return unfinished;
  // The spec requires a status: without one, whether the response finished is not known.
  if (status === undefined) return "the response gives no status, which the spec requires, so whether it finished is not known";
  return `the response's status ${JSON.stringify(status)} is none the spec defines`;
}

/**
 * A response object's or a stored completion's tool_choice and tools, as it
 * wrote them, and its parallel_tool_calls when it limits the calls (false, or
 * not a boolean, which the gate reads as one call as it does in a request);
 * undefined when it wrote none of these.
 */
function responseToolFields(record: Record<string, unknown>): Record<string, unknown> | undefined {
  const parallel = record.parallel_tool_calls;
  const limitsCalls = parallel !== undefined && parallel !== null && parallel !== true;
  // A limit spelled so that only a reader folding names reads it goes on as written, for the gate to refuse.
  const misspelled = limitSpelledOtherwise(record);
  if (record.tool_choice === undefined && record.tools === undefined && !limitsCalls && misspelled === undefined) return undefined;
  return {
    ...(record.tool_choice === undefined ? {} : { tool_choice: record.tool_choice }),
    ...(record.tools === undefined ? {} : { tools: record.tools }),
    ...(limitsCalls ? { parallel_tool_calls: parallel } : {}),
    ...(misspelled === undefined ? {} : { misspelled_limit: misspelled }),
  };
}

/** A path as a detail shows it: its last 200 characters, where it is deeper than a reader can follow. */
function shortPath(path: string): string {
  return path.length > 200 ? `…${path.slice(-200)}` : path;
}

/**
 * Why a chat.completion's choices give nothing to read, if they do not. A choice
 * without a message is read, as no item: Azure answers so when its filter
 * stopped the answer (finish_reason content_filter, content_filter_results). A
 * call written elsewhere in such a choice is still counted against the items
 * (unreadCalls), so the gate blocks its line.
 */
function unreadableChoices(choices: unknown): string | undefined {
  if (!Array.isArray(choices) || choices.length === 0) return "chat.completion has no choice";
  const readable = choices.every((choice) => isPlainObject(choice) && (choice.message === undefined || choice.message === null || isPlainObject(choice.message)));
  return readable ? undefined : "chat.completion has a choice that is no object, or whose message is no object";
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The record's JSON text; one that cannot be written (too deep) is taken to name anything, `"tools":` among it. */
function unknownRecordText(record: unknown): string {
  try {
    return JSON.stringify(record) ?? "";
  } catch {
    return '"tools":';
  }
}

function describeUnknown(record: unknown): string {
  if (Array.isArray(record)) return "record is an array, not a journal record";
  if (!isPlainObject(record)) return `record is ${record === null ? "null" : `a ${typeof record}`}, not a journal record`;
  const apiError = apiErrorOf(record);
  if (apiError !== undefined) return `record is a provider's error body (${apiError}), not a journal record: the request it answers got no response`;
  const keys = Object.keys(record).slice(0, 5).map((key) => JSON.stringify(key)).join(", ");
  return `record of no known kind (keys: ${keys || "none"})`;
}

function assertNever(value: never): never {
  throw new Error(`unhandled record kind ${JSON.stringify(value)}`);
}

/** What `normalizeJournal` accepts: lines of text, lines readLines gave, or records already parsed. */
export type JournalInput = Iterable<JournalLine | string | unknown> | AsyncIterable<JournalLine | string | unknown>;

/** Normalizes lines that a reader of this package gave (readLines, the command line's inputs), streaming as normalizeJournal does. */
export async function* normalizeLines(lines: Iterable<JournalLine> | AsyncIterable<JournalLine>, options: NormalizeOptions = {}): AsyncGenerator<NormalizedRecord> {
  const normalizer = new JournalNormalizer(options);
  for await (const line of lines) yield* normalizer.push(line);
  yield* normalizer.finish();
}

/**
 * Normalizes a whole journal, streaming: each record's items (or its error) as
 * soon as they are known. Strings are lines of JSONL or SSE text, numbered from 1;
 * the lines readLines gave are read as lines; any other value is a record
 * already parsed.
 */
export async function* normalizeJournal(input: JournalInput, options: NormalizeOptions = {}): AsyncGenerator<NormalizedRecord> {
  const normalizer = new JournalNormalizer(options);
  let line = 0;
  for await (const entry of input as AsyncIterable<unknown>) {
    line += 1;
    if (typeof entry === "string") yield* normalizer.push({ source: "-", line, text: entry });
    else if (isReadLine(entry)) yield* normalizer.push(entry);
    else yield* normalizer.pushRecord(entry, line);
  }
  yield* normalizer.finish();
}

/**
 * The arguments and output texts of a record that wrote them as objects, with
 * each number put back as the line wrote it (`2.50`, `1E3`, `-0`, `7.0`), where
 * JSON.stringify wrote its double's shortest text: a tool that reads `7.0` as a
 * float and `7` as an integer gets what the record said. An output of parts
 * (a Bedrock result's json block) has its texts put back each. A number the
 * line writes two ways (`1` and `1.0`) cannot be put back, and is said. Only a
 * text the conversion made of an object is: one the `source` record wrote
 * itself (a tool result `7`) is its own, and kept (undefined for a stream's
 * response, made of several records).
 */
function numbersAsWritten(normalized: NormalizedRecord, texts: NumberTexts, source: unknown): NormalizedRecord {
  if (normalized.kind !== "items") return normalized;
  const losses: Loss[] = [];
  let changed = false;
  const isMade = madeObjectTexts(normalized.items.map(({ item }) => item), source);
  const restored = (text: string, index: number, field: string): string => {
    if (!isMade(text)) return text;
    const back = restoreNumberTexts(text, texts);
    for (const loss of back.losses) losses.push({ ...loss, detail: `the ${field} text of item ${index}: ${loss.detail}` });
    if (back.text !== text) changed = true;
    return back.text;
  };
  const items = normalized.items.map((entry, index) => {
    const fields = entry.item as Record<string, unknown>;
    if (fields.type === "function_call" && typeof fields.arguments === "string") {
      const text = restored(fields.arguments, index, "arguments");
      return text === fields.arguments ? entry : { ...entry, item: { ...fields, arguments: text } as CanonicalItem };
    }
    if (fields.type === "function_call_output" && typeof fields.output === "string") {
      const text = restored(fields.output, index, "output");
      return text === fields.output ? entry : { ...entry, item: { ...fields, output: text } as CanonicalItem };
    }
    if (fields.type === "function_call_output" && Array.isArray(fields.output)) {
      const parts = fields.output.map((part: unknown, at) => (isPlainObject(part) && typeof part.text === "string" ? withText(part, restored(part.text, index, `output part ${at}`)) : part));
      return parts.every((part, at) => part === (fields.output as unknown[])[at]) ? entry : { ...entry, item: { ...fields, output: parts } as CanonicalItem };
    }
    return entry;
  });
  if (!changed && losses.length === 0) return normalized;
  return { ...normalized, items, losses: [...normalized.losses, ...losses] };
}

/** A part with its text, itself when the text is the same. */
function withText(part: Record<string, unknown>, text: string): Record<string, unknown> {
  return part.text === text ? part : { ...part, text };
}

/**
 * A request body's record with the numbers of its line that a schema judges by
 * and a double reads as others, re-rooted at the body: an exchange's are those
 * of its request.
 */
function withRequestNumbers(normalized: NormalizedRecord, kind: RecordKind, numbers: readonly InexactSchemaNumber[]): NormalizedRecord {
  if (normalized.kind !== "items" || normalized.request === undefined) return normalized;
  const requestNumbers = kind === "exchange" ? numbers.filter(({ tokens }) => tokens[0] === "request").map((number) => ({ ...number, tokens: number.tokens.slice(1) })) : [...numbers];
  return requestNumbers.length === 0 ? normalized : { ...normalized, requestNumbers };
}

/**
 * Why the arguments text of a record's item is not what the record wrote, as a
 * sentence: it was written from an object holding a number its double does not
 * stand for. `undefined` for arguments that are the record's own.
 */
export function argumentsNotAsWritten(record: Extract<NormalizedRecord, { kind: "items" }>, index: number): string | undefined {
  const entry = record.notAsWritten?.find((one) => one.index === index && one.field === "arguments");
  return entry === undefined ? undefined : `the arguments of line ${record.line} were written from an object holding ${shownLiteral(entry.literal)}, which a double does not stand for`;
}
