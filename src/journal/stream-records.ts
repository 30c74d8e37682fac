// Reads the lines of a journal as its records, in input order, with its streams
// reassembled into whole responses. `normalize` and `convert` both read through
// it, so a stream is framed, routed, ended and marked damaged the same way in each.
//
// | line or record                           | yields                                                  |
// |------------------------------------------|---------------------------------------------------------|
// | a JSON line, or an SSE `data:` payload   | `plain`: the record and its kind                        |
// | SSE `data: [DONE]`                       | nothing: framing, which ends the Chat stream            |
// | a blank line                             | nothing                                                 |
// | a line not read, not JSON, SSE data not  | `error`; inside a stream, the stream is damaged         |
// |   JSON, or a record of two kinds at once |                                                         |
// |   (detect.ts, `ambiguity`)               |                                                         |
// | a chunk or event of a reassembled        | nothing until the record that closes its response; then |
// |   envelope                               |   `response`, with how many records went into it        |
// | a stream record the assembler rejects    | `rejected`; the stream is damaged, unless told not to   |
// | stream records that went into no         | `unassembled`, with their count, when the stream ends   |
// |   response                               |                                                         |
// | any record that is not part of the open  | the open stream's last response first, then the record  |
// |   stream                                 |                                                         |
//
// Chat chunks go to Chat's assembler, Open Responses events to ResponsesStreamAssembler,
// and the events of a registered envelope to that envelope's assembler
// (adapters/index.ts). While such a stream is open, a record its envelope takes
// for an event continues it, even one detection gives another kind on its own
// (Anthropic's `error` event has the shape of the Responses one). A record that
// is a whole response of its envelope on a JSON line is a stream event in SSE
// text when its envelope's stream takes it: a Gemini chunk has the shape of a
// response. On a JSON line it is one when the open stream's assembler says it
// continues the response (a Gemini chunk kept one per line, the last of which
// has every finishReason). A Gemini response on a JSON line that names its
// responseId (response_id in the Python SDK's dumps) waits for the next record: one of the same responseId, and not the
// same response written again, continues it as a stream that went on after it
// finished.
//
// A damaged stream was rebuilt without a record it held: a call in it may lack a
// fragment of its arguments, so no call of its responses is yielded as completed.
//
// An envelope that writes arguments as objects does so in its stream too (a
// Gemini chunk's `args`, a `partialArgs` piece's value, an Anthropic tool_use
// block started with its input): a response carries the numbers its records'
// lines write and their doubles do not stand for (inexact-numbers.ts), as a
// `plain` record of such an envelope does, and a record that defines tools
// carries the numbers of its tool schemas that a double reads as others.
import { isDeepStrictEqual } from "node:util";
import { namesRequestTools } from "./unreadable-request.js";
import { chat, ENVELOPES, type AdapterName, type JournalEnvelopes, type StreamAssembler } from "../../adapters/index.js";
import { stoppedCall, type AssembledResponse } from "../models/assembled-response.js";
import type { Envelope } from "../models/journal-item.js";
import { isPlainObject } from "../models/json-value.js";
import type { Loss } from "../models/loss.js";
import { ambiguity, continuesEnvelopeStream, continuesResponsesStream, detectEnvelopeRecord, type RecordKind } from "./detect.js";
import { parseRecord, type ParsedRecord, type RecordCount } from "./parse-record.js";
import { deepestPath, tooDeepDetail } from "./deep-field.js";
import type { TextFacts } from "./text-facts.js";
import { inexactLiterals, inexactSchemaNumbers, mayHoldInexactValue, type InexactLiterals, type InexactSchemaNumber } from "./inexact-numbers.js";
import { exactForms, mergeNumberTexts, notAsDoublesWrite, numberTextsOf, writtenNumbers, type NumberTexts } from "./number-texts.js";
import type { JournalLine } from "./read.js";
import { holdsParsedArguments, mayWriteParsedArguments } from "./parsed-arguments-numbers.js";
import { ResponsesStreamAssembler } from "./responses-stream.js";
import { isSseFraming, SseParser, type SseEvent } from "./sse.js";

export type JournalRecord =
  /** A record that is not reassembled: everything but the chunks and events of a reassembled envelope. */
  | {
      kind: "plain";
      line: number;
      record: unknown;
      recordKind: RecordKind;
      envelope?: AdapterName;
      inexact?: InexactLiterals;
      /** A record of an envelope that writes arguments as objects: the numbers of its line written otherwise than their doubles write them (`2.50`, `1E3`). */
      numberTexts?: NumberTexts;
      /** A record that defines tools: the numbers of its line that a schema judges by and a double reads as others. */
      schemaNumbers?: InexactSchemaNumber[];
      /** A record that may give calls `parsed_arguments` (parsed-arguments-numbers.ts): the numbers of its line that their doubles do not stand for. */
      parsedArgumentsInexact?: InexactLiterals;
      /** The tool calls the record writes, when its parse counted them (parse-record.ts). */
      writtenCalls?: number;
    }
  /** A line that gave no record: not read (too long…), not JSON, or SSE data that is not JSON. */
  | { kind: "error"; line: number; detail: string; namesTools?: boolean }
  /** A stream record its assembler cannot take (a chunk without a choices array…); `reason` is the assembler's. */
  | { kind: "rejected"; line: number; envelope: Envelope; reason: string }
  /**
   * One response rebuilt from a stream, and how many input records went into it.
   * `damage`, when a line inside the stream could not be read: the loss that says
   * which, path `""` into the response; its completed calls are already incomplete.
   */
  | {
      kind: "response";
      envelope: Envelope;
      response: AssembledResponse;
      records: number;
      damage?: Loss;
      inexact?: InexactLiterals;
      /** A stream whose events write arguments as objects: the numbers of its lines written otherwise than their doubles write them. */
      numberTexts?: NumberTexts;
    }
  /**
   * Stream records that went into no response (a usage chunk with no completion,
   * events of no known type), counted when the stream ends; `afterResponse` when
   * the stream had closed a response before them; `detail` says what they were.
   */
  | { kind: "unassembled"; envelope: Envelope; line: number; lastLine: number; records: number; afterResponse: boolean; detail: string };

/** The kinds of record whose tools the gate reads as a request body's. */
const DEFINES_TOOLS: ReadonlySet<RecordKind> = new Set(["chat_request", "responses_request", "envelope_request", "exchange"]);

export interface StreamRecordsOptions {
  /** Envelopes whose streams are reassembled (all by default); the other envelopes' chunks or events are `plain` records. */
  reassemble?: readonly Envelope[];
  /** Whether a stream record the assembler rejects damages its stream, as an unreadable line does (true by default). */
  rejectionDamages?: boolean;
  /** Whether each response also carries what its whole record needs beyond the items (`completion`, `resource`). */
  wholeRecords?: boolean;
  /** Whether each response also says which record completed each of its items (`itemLines`), where a reassembler can tell. */
  itemLines?: boolean;
  /** Whether a rebuilt response reports its fields that no item holds (true by default). */
  leftBehind?: boolean;
  /** Whether an event stream's response also carries the last response object its events showed (`responseObject`), whose tool fields the gate reads. */
  responseObjects?: boolean;
  /** The registry's envelopes as the journal's other records are converted with them, so that a stream's calls pair with their results. */
  envelopes?: JournalEnvelopes;
  /**
   * The deepest record read, in levels of nesting: a deeper line or SSE data is
   * not read, as one that is not JSON. Without it, a record is read until a step
   * that recurses once a level runs out of stack, a depth that moves with the
   * frames below that step, so that two threads, or two runs, disagree near it.
   */
  maxDepth?: number;
}

interface OpenStream {
  envelope: Envelope;
  assembler: StreamAssembler;
  /** Records pushed and not yet counted with a response, and the lines of the first and the last. */
  pending: number;
  firstPending: number;
  lastPending: number;
  closedAny: boolean;
  /** The first line inside the stream that could not be read. */
  damagedAt?: number;
  /** The numbers of the pending records' lines that their doubles do not stand for. */
  inexact?: InexactLiterals;
  /** Every number of the pending records' lines, where the assembler writes arguments as objects. */
  numberTexts?: NumberTexts[];
  /** Whether the stream was opened by an SSE event (or by a JSON line): a record of the other kind that continues it is one no reader of the first kind sees. */
  fromSse: boolean;
  /** What damaged the stream, when it is not a line that could not be read. */
  damage?: string;
}

export class StreamRecords {
  private readonly reassemble: Set<Envelope>;
  private readonly rejectionDamages: boolean;
  private readonly wholeRecords: boolean;
  private readonly itemLines: boolean;
  private readonly leftBehind: boolean;
  private readonly responseObjects: boolean;
  private readonly envelopes: JournalEnvelopes | typeof ENVELOPES;
  private readonly maxDepth: number | undefined;
  private sse: SseParser | undefined;
  /** Whether an event of the SSE text read so far had an `event:` name: then each must have one. */
  private sseNamed = false;
  private stream: OpenStream | undefined;
  /**
   * A Gemini response on a JSON line that names its responseId, held until the
   * next record: one with the same responseId makes the two one stream kept a
   * chunk per line, whose first chunk had already finished (the stream's
   * assembler then leaves its calls incomplete). Anything else, the same
   * response written again included, lets it go as it is.
   */
  private held: { plain: JournalRecord & { kind: "plain" }; text?: string; responseId: string } | undefined;
  /**
   * A stream record just read neither way while no stream was open, or a record
   * not read that may have been any stream's (`envelope` then unsaid): the stream
   * the next record opens, when of its envelope, is damaged from its line.
   */
  private damageNext: { envelope?: Envelope; line: number } | undefined;
  /** While the SSE event the recording ended before its blank line is read: its line. */
  private unendedAt: number | undefined;

  constructor(options: StreamRecordsOptions = {}) {
    this.reassemble = new Set(options.reassemble ?? ["chat", "responses", ...(Object.keys(ENVELOPES) as AdapterName[])]);
    this.rejectionDamages = options.rejectionDamages ?? true;
    this.wholeRecords = options.wholeRecords ?? false;
    this.itemLines = options.itemLines ?? false;
    this.leftBehind = options.leftBehind ?? true;
    this.responseObjects = options.responseObjects ?? false;
    this.envelopes = options.envelopes ?? ENVELOPES;
    this.maxDepth = options.maxDepth;
  }

  /** One line of the journal; returns the records it completes, in input order. */
  /**
   * From the next record on, whether `envelope`'s streams are reassembled: a
   * reader that writes them through as they come may learn on a later line
   * that it must see each whole, and on another that it need not any more. A
   * stream of it open at that line is read from there the other way: as one
   * with no start, or cut, its calls unfinished either way.
   */
  reassembled(envelope: Envelope, reassembled: boolean): void {
    if (reassembled) this.reassemble.add(envelope);
    else this.reassemble.delete(envelope);
  }

  push(line: JournalLine): JournalRecord[] {
    // Only a record parsed from a JSON line can continue the response held; anything else comes after it.
    if (this.held !== undefined && (line.error !== undefined || this.sse !== undefined || line.text.charCodeAt(0) !== 0x7b)) return [...this.release(), ...this.pushLine(line)];
    return this.pushLine(line);
  }

  private pushLine(line: JournalLine): JournalRecord[] {
    if (line.error !== undefined) {
      // An SSE event being read may have held it; with no stream open, it may have been the first record of the next.
      this.sse?.unread(line.line);
      const unreadable = this.unreadableOpener(line.line, line.error);
      return [line.mayBeRequest === true ? { ...unreadable, namesTools: true } : unreadable];
    }
    const text = line.text;
    // Made only for SSE text: a JSON line, nearly every line, needs no list of its own.
    let out: JournalRecord[] | undefined;
    // A line that opens an object is neither SSE framing nor blank: the two tests are left for other lines.
    const opensObject = text.charCodeAt(0) === 0x7b;
    if (this.sse || (!opensObject && isSseFraming(text))) {
      this.sse ??= new SseParser();
      out = [];
      if (isSseFraming(text) || text.trim() === "") {
        for (const event of this.sse.push(text, line.line)) out.push(...this.pushSseEvent(event));
        return out;
      }
      // A JSON line after SSE text ends the SSE part of the journal. To an SSE
      // reader it is a field of no meaning: if it continues the stream open, the
      // stream is damaged from it (pushStreamed).
      for (const event of this.sse.finish()) out.push(...this.pushSseEvent(event));
      this.sse = undefined;
      this.sseNamed = false;
    }
    if (!opensObject && isBlank(text)) return out ?? [];
    const facts = line.textFacts;
    const parsed = this.withinDepth(parseRecord(text, "line", facts?.colons));
    if (!parsed.ok) {
      const released = this.release();
      const unreadable = this.unreadable(line.line, parsed.detail);
      if (released.length > 0) return [...released, unreadable];
      if (namesRequestTools(text)) unreadable.namesTools = true;
      if (out === undefined) return [unreadable];
      out.push(unreadable);
      return out;
    }
    const record = parsed.value;
    if (out === undefined || out.length === 0) return this.pushRecord(record, line.line, false, text, parsed.counted, facts);
    out.push(...this.pushRecord(record, line.line, false, text, parsed.counted, facts));
    return out;
  }

  /**
   * A record already parsed (a library caller's object, or an SSE payload).
   * `text`: the line it was parsed from (or the SSE payload), read again for
   * the numbers its doubles do not stand for when the record is of an envelope
   * that holds arguments as objects, or defines tools. `counted`: what the walk
   * of its parse found (parse-record.ts), when it walked the whole record;
   * `facts`: what was read of `text` already (text-facts.ts).
   */
  pushRecord(record: unknown, line: number, fromSse = false, text?: string, counted?: RecordCount, facts?: TextFacts): JournalRecord[] {
    const held = this.held;
    if (held === undefined) return this.holdOrGive(this.pushDetected(record, line, fromSse, text, counted, facts), fromSse, text);
    this.held = undefined;
    // The same response written again is a repeat of the stored response, not a chunk of it.
    if (fromSse || responseIdOf(record) !== held.responseId || isDeepStrictEqual(record, held.plain.record)) return [held.plain, ...this.holdOrGive(this.pushDetected(record, line, fromSse, text, counted, facts), fromSse, text)];
    // Read again as the first chunk of a stream, which this record continues.
    const { record: first, line: firstLine, inexact } = held.plain;
    this.stream = this.open("gemini", false);
    const opened = this.pushStreamed("gemini", first, firstLine, false, inexact, undefined, held.text);
    return [...opened, ...this.pushDetected(record, line, fromSse, text, counted, facts)];
  }

  /** The records pushDetected gave, less a Gemini response that names its responseId, which is held (`held`) when it is the last. */
  private holdOrGive(out: JournalRecord[], fromSse: boolean, text: string | undefined): JournalRecord[] {
    // The reader's own fields first: a stream record leaves its stream open, and
    // the records given have many shapes, whose fields cost more to read.
    if (fromSse || this.stream !== undefined) return out;
    const last = out[out.length - 1];
    if (last === undefined || last.kind !== "plain" || last.envelope !== "gemini" || last.recordKind !== "envelope_response" || !this.reassemble.has("gemini")) return out;
    const responseId = responseIdOf(last.record);
    if (responseId === undefined || responseId === "") return out;
    this.held = { plain: last, text, responseId };
    return out.slice(0, -1);
  }

  /** The Gemini response held, for the records that follow it. */
  private release(): JournalRecord[] {
    const held = this.held;
    this.held = undefined;
    return held === undefined ? [] : [held.plain];
  }

  private pushDetected(record: unknown, line: number, fromSse: boolean, text: string | undefined, counted: RecordCount | undefined, facts: TextFacts | undefined): JournalRecord[] {
    const detected = detectEnvelopeRecord(record);
    let recordKind = detected.kind;
    let envelope = detected.envelope;
    // An extension event that has an `id` reads as an extension item, unless a stream is there for it to continue.
    if (recordKind === "responses_item" && this.stream?.envelope === "responses" && continuesResponsesStream(record)) recordKind = "responses_event";
    const open = this.stream?.envelope;
    // An event of a kind the open stream's envelope added later goes on that stream, whose assembler reports it.
    if (recordKind === "unknown" && open !== undefined && open !== "chat" && open !== "responses" && ENVELOPES[open as AdapterName].recognise.unknownStreamEvent?.(record) === true) {
      recordKind = "envelope_event";
      envelope = open as AdapterName;
    } else if (open !== undefined && open !== "chat" && open !== "responses" && recordKind !== "envelope_event" && (fromSse || recordKind !== "envelope_response" || this.stream!.assembler.continues?.(record) === true) && continuesEnvelopeStream(record, open)) {
      recordKind = "envelope_event";
      envelope = open as AdapterName;
    } else if (fromSse && recordKind === "envelope_response" && continuesEnvelopeStream(record, envelope!)) {
      recordKind = "envelope_event";
    }
    const streamed: Envelope | undefined = recordKind === "chat_chunk" ? "chat" : recordKind === "responses_event" ? "responses" : recordKind === "envelope_event" ? envelope : undefined;
    const reassembled = streamed !== undefined && this.reassemble.has(streamed) ? streamed : undefined;
    const ambiguous = ambiguity(record, recordKind, envelope);
    if (ambiguous !== undefined) {
      // A stream record read neither way is a part of its stream no reader here saw: the stream it opens is damaged from it.
      if (reassembled !== undefined && this.stream === undefined) this.damageNext = { envelope: reassembled, line };
      return [this.unreadable(line, ambiguous)];
    }
    const damage = this.damageNext;
    this.damageNext = undefined;
    // A chunk or event of an envelope that writes arguments as objects may hold
    // such a number as well: the response it goes into carries it.
    const writesObjects = (envelope !== undefined || (recordKind === "exchange" && exchangeWritesObjects(record))) && text !== undefined;
    const definesTools = reassembled === undefined && text !== undefined && DEFINES_TOOLS.has(recordKind);
    // Both readings of the line's numbers find only a number its double does not
    // stand for: one test of the text, not one per reading, tells that it holds none.
    const mayHoldInexact = (writesObjects || definesTools) && (facts?.mayHoldInexact ?? mayHoldInexactValue(text!));
    const inexact = mayHoldInexact && writesObjects ? inexactLiterals(text) : undefined;
    // A line that may give a call parsed_arguments (parsed-arguments-numbers.ts): the numbers of it no double stands for.
    // The walk of its parse said whether it names parsed_arguments; a record not walked is asked of its text.
    // A line of an envelope that writes objects has them already: `inexact` is the same reading of its text.
    const givesParsedArguments = text !== undefined && (counted === undefined ? mayWriteParsedArguments(text) : counted.parsedArguments);
    const parsedArgumentsInexact = givesParsedArguments ? (writesObjects ? inexact : inexactLiterals(text)) : undefined;
    let plain: JournalRecord | undefined;
    if (reassembled === undefined && this.unendedAt !== undefined) return [this.unreadableOpener(line, UNENDED)];
    if (reassembled === undefined) {
      const writtenCalls = counted?.writtenCalls;
      plain = envelope ? { kind: "plain", line, record, recordKind, envelope, writtenCalls } : { kind: "plain", line, record, recordKind, writtenCalls };
      if (inexact) plain.inexact = inexact;
      const numberTexts = writesObjects ? exactForms(numberTextsOf(text)) : undefined;
      if (numberTexts) plain.numberTexts = numberTexts;
      const schemaNumbers = mayHoldInexact && definesTools ? inexactSchemaNumbers(text!) : undefined;
      if (schemaNumbers !== undefined) plain.schemaNumbers = schemaNumbers;
      if (parsedArgumentsInexact !== undefined) plain.parsedArgumentsInexact = parsedArgumentsInexact;
    }
    const damagedAt = damage !== undefined && (damage.envelope === undefined || damage.envelope === reassembled) ? damage.line : undefined;
    // An error the API sent in the stream, as a record of its own: the OpenAI SDKs throw at it, and finish no call of the stream.
    const openStream = this.stream;
    if (plain && openStream !== undefined && (openStream.envelope === "chat" || openStream.envelope === "responses") && carriesError(record)) {
      damageFrom(openStream, line, `line ${line} is an error sent in this stream, at which the OpenAI SDKs stop reading it; its calls are marked incomplete`);
    }
    // The response a stream rebuilds holds its events' parsed_arguments as doubles: one written otherwise damages the stream.
    const ownDamage =
      plain === undefined && parsedArgumentsInexact !== undefined && (counted?.parsedArguments ?? holdsParsedArguments(record))
        ? `line ${line} writes a number a double does not stand for in a record that gives parsed_arguments, which a runner that keeps numbers exact reads otherwise than the gate; its calls are marked incomplete`
        : undefined;
    // A stream ends at the first record that is not part of it.
    if (!this.stream || this.stream.envelope === reassembled) return plain ? [plain] : this.pushStreamed(reassembled!, record, line, fromSse, inexact, damagedAt, writesObjects ? text : undefined, ownDamage);
    const out = this.endStream();
    out.push(...(plain ? [plain] : this.pushStreamed(reassembled!, record, line, fromSse, inexact, damagedAt, writesObjects ? text : undefined, ownDamage)));
    return out;
  }

  /**
   * A line this reader was not given may have been a record of the stream it has
   * open (a line that names no conversation, in a journal read conversation by
   * conversation): the stream is damaged from it, as by a line it could not read.
   */
  damageOpenStream(line: number, detail?: string): void {
    if (!this.stream) return;
    if (detail === undefined) this.stream.damagedAt ??= line;
    else damageFrom(this.stream, line, detail);
  }

  /** End of the journal (or of one of its sources): the SSE event still being read, then the stream still open, as last seen. */
  finish(): JournalRecord[] {
    const out: JournalRecord[] = this.release();
    if (this.sse) {
      for (const event of this.sse.finish()) out.push(...this.pushSseEvent(event));
      this.sse = undefined;
      this.sseNamed = false;
    }
    out.push(...this.endStream());
    return out;
  }

  /**
   * An SSE event, read as SSE readers read it. `[DONE]` (the OpenAI SDKs stop at
   * data that starts with it) is framing, not a record: it ends the stream open,
   * and a response it cuts short damages the stream that the next record opens,
   * which no such reader sees. An event the recording ended before its blank
   * line, or that held a line that could not be read, is not read.
   */
  private pushSseEvent(event: SseEvent): JournalRecord[] {
    const { data, line } = event;
    if (data.startsWith("[DONE]")) {
      // Unended or not, nothing comes after it for an SDK.
      const ended = this.endStream();
      if (ended.some((record) => record.kind === "unassembled" || (record.kind === "response" && record.response.status === "in_progress"))) this.damageNext = { line };
      return ended;
    }
    if (event.unreadAt !== undefined) return [this.unreadableOpener(line, `SSE event holds line ${event.unreadAt}, which could not be read: read without it, it is another event than SSE readers read, so it is not read`)];
    if (event.dataless === true) return [this.unreadableOpener(line, `SSE event "${event.event}" has no data: the OpenAI SDKs read its empty data as JSON and throw there, reading nothing after it, where other SSE readers skip it`)];
    if (event.emptyDispatch !== undefined) {
      const held = event.emptyDispatch.field === "id" ? `the event id of line ${event.emptyDispatch.line}, which it keeps from event to event` : `the retry of line ${event.emptyDispatch.line}`;
      return [this.unreadableOpener(line, `blank line dispatches, to openai-python, an SSE event with no data, as it holds ${held}: it reads the empty data as JSON and throws there, reading nothing after it, where openai-node and the SSE standard skip the line`)];
    }
    if (event.unended !== true) return this.pushSseData(data, line, event.event);
    // Read as a part of its stream, which it damages: what the recording held is
    // kept, and no call it finishes runs. Anything else is not read.
    this.unendedAt = line;
    try {
      return this.pushSseData(data, line, event.event);
    } finally {
      this.unendedAt = undefined;
    }
  }

  private pushSseData(data: string, line: number, name: string | undefined): JournalRecord[] {
    const parsed = this.withinDepth(parseRecord(data, "SSE data"));
    // The OpenAI SDKs throw at SSE data that is not JSON and read nothing after
    // it: a stream that opens right after it is one they never saw.
    if (!parsed.ok) return [this.unreadableOpener(line, parsed.detail)];
    const misnamed = misnamedEvent(parsed.value, name, this.sseNamed);
    if (name !== undefined) this.sseNamed = true;
    if (misnamed !== undefined) return [this.unreadable(line, misnamed)];
    // openai-node throws at an event named `error`, whatever its data (a Chat
    // chunk has no type to tell it by), and reads nothing after it.
    if (name === "error" && !(isPlainObject(parsed.value) && parsed.value.type === "error")) {
      const error = providerError(parsed.value);
      if (error !== undefined) return [this.unreadableOpener(line, `SSE event named "error" carries the provider's error (${error}): the stream failed there, and openai-node throws at it and reads nothing after it`)];
      return [this.unreadableOpener(line, 'SSE event named "error" carries data that is no error event: openai-node throws at it and reads nothing after it, where other readers read its data, so it is not read')];
    }
    return this.pushRecord(parsed.value, line, true, data, parsed.counted);
  }

  /** The parsed record, or an error when it nests past `maxDepth`. */
  private withinDepth(parsed: ParsedRecord): ParsedRecord {
    // A parse that counted the record walked all of it, within MAX_RECURSION levels: only a record it did not count can be deeper.
    if (this.maxDepth === undefined || !parsed.ok || parsed.counted !== undefined || parsed.value === null || typeof parsed.value !== "object") return parsed;
    if (deepestPath(parsed.value).depth <= this.maxDepth) return parsed;
    // Said as a record a step ran out of stack on is said: the same line gets the same error, however deep.
    return { ok: false, detail: tooDeepDetail(parsed.value, "not read") };
  }

  private unreadable(line: number, detail: string): JournalRecord & { kind: "error" } {
    this.damageOpenStream(line);
    return { kind: "error", line, detail };
  }

  /** A record not read that may have been any stream's: the stream open is damaged from it, or else the one the next record opens. */
  private unreadableOpener(line: number, detail: string): JournalRecord & { kind: "error" } {
    if (this.stream === undefined) this.damageNext = { line };
    return this.unreadable(line, detail);
  }

  /** `inexact`: the numbers of the record's line that their doubles do not stand for, which the response it goes into carries. */
  /** `text`: the record's line, when its envelope writes objects, for the numbers an assembler that writes arguments as objects puts back. */
  /** `ownDamage`: why the record itself damages its stream. */
  private pushStreamed(envelope: Envelope, record: unknown, line: number, fromSse: boolean, inexact?: InexactLiterals, damagedAt?: number, text?: string, ownDamage?: string): JournalRecord[] {
    const stream = (this.stream ??= this.open(envelope, fromSse));
    if (damagedAt !== undefined) stream.damagedAt ??= damagedAt;
    if (ownDamage !== undefined) damageFrom(stream, line, ownDamage);
    if (this.unendedAt !== undefined) damageFrom(stream, line, `line ${line} is an SSE event the recording ends before its blank line, which SSE readers discard; its calls are marked incomplete`);
    // A stream read partly from SSE events and partly from JSON lines is two streams:
    // an SSE reader skips the JSON lines, a reader of JSON lines the events.
    if (stream.fromSse !== fromSse) {
      damageFrom(
        stream,
        line,
        fromSse
          ? `line ${line} is an SSE event of a stream that JSON lines opened, which a reader of either kind does not read whole; its calls are marked incomplete`
          : `line ${line} is a JSON line inside the SSE text of this stream, which SSE readers do not read; its calls are marked incomplete`,
      );
    }
    // The OpenAI SDKs throw at a chunk or event that carries an error (an error
    // event of the Responses API fails its response already): they never finish its calls.
    if ((envelope === "chat" || envelope === "responses") && carriesError(record)) damageFrom(stream, line, `line ${line} carries an error, at which the OpenAI SDKs stop reading the stream; its calls are marked incomplete`);
    let closed: AssembledResponse[];
    try {
      closed = stream.assembler.push(record, line);
    } catch (error) {
      if (this.rejectionDamages) stream.damagedAt ??= line;
      return [{ kind: "rejected", line, envelope, reason: (error as Error).message }];
    }
    if (stream.pending === 0) stream.firstPending = line;
    stream.lastPending = line;
    stream.pending += 1;
    const lineTexts = text !== undefined && stream.assembler.argumentsAsObjects === true ? writtenNumbers(text) : undefined;
    if (closed.length === 0) {
      // Nearly every record closes nothing: it waits with the others. The list
      // of line texts is the stream's own, appended in place, so that a long
      // stream costs what its lines do.
      if (inexact !== undefined) stream.inexact = stream.inexact === undefined ? inexact : joinedInPlace(stream.inexact, inexact);
      if (lineTexts !== undefined) (stream.numberTexts ??= []).push(lineTexts);
      return [];
    }
    // Records before this one belong to the first response closed; this one to
    // a response closed by it (a terminal event), else to the one it opens.
    let earlier = stream.pending - 1;
    let current = 1;
    let earlierInexact = stream.inexact;
    let currentInexact = inexact;
    let earlierTexts = stream.numberTexts;
    let currentTexts = lineTexts === undefined ? undefined : [lineTexts];
    const out = closed.map((response): JournalRecord => {
      const includesCurrent = current === 1 && response.lastLine >= line;
      const records = earlier + (includesCurrent ? current : 0);
      const literals = joined(earlierInexact, includesCurrent ? currentInexact : undefined);
      const texts = joinedTexts(earlierTexts, includesCurrent ? currentTexts : undefined);
      earlier = 0;
      earlierInexact = undefined;
      earlierTexts = undefined;
      if (includesCurrent) {
        current = 0;
        currentInexact = undefined;
        currentTexts = undefined;
      }
      return this.closedResponse(stream, response, records, literals, texts);
    });
    stream.pending = earlier + current;
    stream.inexact = joined(earlierInexact, currentInexact);
    stream.numberTexts = joinedTexts(earlierTexts, currentTexts);
    if (stream.pending > 0) stream.firstPending = line;
    return out;
  }

  private open(envelope: Envelope, fromSse: boolean): OpenStream {
    const assembler: StreamAssembler =
      envelope === "chat"
        ? chat.stream.assembler({ completion: this.wholeRecords, itemLines: this.itemLines, responseObject: this.responseObjects })
        : envelope === "responses"
          ? new ResponsesStreamAssembler({ resource: this.wholeRecords, itemLines: this.itemLines, leftBehind: this.leftBehind, responseObject: this.responseObjects })
          : this.envelopes[envelope as AdapterName].assembler();
    return { envelope, assembler, pending: 0, firstPending: 0, lastPending: 0, closedAny: false, fromSse };
  }

  private endStream(): JournalRecord[] {
    const stream = this.stream;
    this.stream = undefined;
    if (!stream) return [];
    const closed = stream.assembler.finish();
    // What records that went into no response said: the response they are counted with says it, or their own record.
    const unplaced = stream.assembler.unplaced?.() ?? [];
    if (closed.length > 0) {
      closed[0]!.losses.push(...unplaced);
      return closed.map((response, index) => this.closedResponse(stream, response, index === 0 ? stream.pending : 0, index === 0 ? stream.inexact : undefined, index === 0 ? stream.numberTexts : undefined));
    }
    if (stream.pending === 0) return [];
    const { envelope, firstPending: line, lastPending: lastLine, pending: records } = stream;
    const said = unplaced.map((loss) => loss.detail);
    return [{ kind: "unassembled", envelope, line, lastLine, records, afterResponse: stream.closedAny, detail: unassembledDetail(envelope, line, lastLine, records, said) }];
  }

  private closedResponse(stream: OpenStream, response: AssembledResponse, records: number, inexact: InexactLiterals | undefined, lineTexts?: NumberTexts[]): JournalRecord {
    stream.closedAny = true;
    const damagedAt = stream.damagedAt;
    // Every line's numbers merged, then those its doubles write set aside, then the forms no double holds: a
    // number one line writes so, or as its double writes it, stays as its double in every line's text.
    const merged = lineTexts === undefined ? undefined : mergeNumberTexts(lineTexts);
    const numberTexts = merged === undefined ? undefined : exactForms(notAsDoublesWrite(merged));
    if (damagedAt === undefined) return withLiterals({ kind: "response", envelope: stream.envelope, response, records }, inexact, numberTexts);
    const items = response.items.map((item) => stoppedCall(item) ?? item);
    const damage: Loss = { path: "", code: "form_changed", detail: stream.damage ?? `line ${damagedAt} of this stream could not be read; its calls are marked incomplete` };
    return withLiterals({ kind: "response", envelope: stream.envelope, response: { ...response, items }, records, damage }, inexact, numberTexts);
  }
}

/**
 * A response record with the literals its lines wrote, each member only when
 * there are some, after the others: set one by one, where a spread of objects of
 * several shapes is V8's slow path, and it ran for every response.
 */
function withLiterals(record: JournalRecord & { kind: "response" }, inexact: InexactLiterals | undefined, numberTexts: NumberTexts | undefined): JournalRecord {
  if (inexact !== undefined) record.inexact = inexact;
  if (numberTexts !== undefined) record.numberTexts = numberTexts;
  return record;
}

/** The number texts of two runs of lines as one list; undefined when neither has any. */
function joinedTexts(first: NumberTexts[] | undefined, second: NumberTexts[] | undefined): NumberTexts[] | undefined {
  if (second === undefined) return first;
  if (first === undefined) return second;
  return [...first, ...second];
}

/**
 * The literals of `second` added to the stream's own, as `joined` gives them:
 * the stream's, no response's or line's that was given out (a response takes
 * them as the stream leaves them, and the stream then starts another set).
 */
function joinedInPlace(own: InexactLiterals, second: InexactLiterals): InexactLiterals {
  const literals = own as Map<string, string>;
  for (const [double, literal] of second) if (!literals.has(double)) literals.set(double, literal);
  return literals;
}

/** The literals of two sets of records as one; undefined when neither has any. */
function joined(first: InexactLiterals | undefined, second: InexactLiterals | undefined): InexactLiterals | undefined {
  if (second === undefined) return first;
  if (first === undefined) return second;
  const literals = new Map(first);
  for (const [double, literal] of second) if (!literals.has(double)) literals.set(double, literal);
  return literals;
}

/** `said`: what the events themselves said (an error, the types ignored), each a sentence. */
function unassembledDetail(envelope: Envelope, line: number, lastLine: number, records: number, said: readonly string[]): string {
  const one = records === 1;
  const which = one ? "" : ` (${records} records, lines ${line}-${lastLine})`;
  const what = said.length > 0 ? ": " + said.join("; ") : "";
  if (envelope === "chat") return `${one ? "a chat.completion.chunk" : "chat.completion.chunk records"} with no choices${which} ${one ? "belongs" : "belong"} to no completion${what}`;
  if (envelope !== "responses") return `${one ? `a ${envelope} stream event` : `${envelope} stream events`}${which} ${one ? "opens" : "open"} no response${what}`;
  return `${one ? "a streaming event" : "streaming events"}${which} ${one ? "opens" : "open"} no response${what}`;
}

/**
 * A line of JSON whitespace only (RFC 8259: space, tab, CR, LF), which holds no
 * record. `trim()` would also take a no-break space, a form feed or a stray byte
 * order mark for blank, and the line would vanish instead of failing to parse.
 */
/**
 * Why an SSE event is read two ways: its `event:` name and its data's `type`
 * differ, or it has no name where the events before it had. Anthropic's SDK goes
 * by the name (and skips a `ping`, or an event of no name), the gate by the
 * type, so each would build a call of its own.
 */
function misnamedEvent(value: unknown, name: string | undefined, named: boolean): string | undefined {
  if (!isPlainObject(value) || typeof value.type !== "string") return undefined;
  if (name !== undefined && name !== value.type) return `SSE event "${name}" carries data of type "${value.type}": a reader that goes by the name and one that goes by the type read it apart`;
  if (name === undefined && named) return `SSE event with no name carries data of type "${value.type}", where the events before it were named: a reader that goes by the name skips it`;
  return undefined;
}

function isBlank(text: string): boolean {
  return text.length === 0 || /^[ \t\r\n]*$/.test(text);
}

/** Damages the stream from `line`, saying why, unless something damaged it before. */
function damageFrom(stream: OpenStream, line: number, detail: string): void {
  if (stream.damagedAt !== undefined) return;
  stream.damagedAt = line;
  stream.damage = detail;
}

const UNENDED = "SSE event ends without the blank line that dispatches it: SSE readers discard it, so it is not read";

/** Whether an OpenAI stream record other than an error event carries an `error` member that JavaScript reads as true, as openai-node tests it. */
function carriesError(record: unknown): boolean {
  return isPlainObject(record) && Boolean(record.error) && record.type !== "error";
}

/**
 * The responseId a Gemini record names, in the API's camelCase or in the
 * snake_case of the Python SDK's dumps (which write null for one it has none of).
 */
function responseIdOf(record: unknown): string | undefined {
  if (!isPlainObject(record)) return undefined;
  const responseId = record.responseId ?? record.response_id;
  return typeof responseId === "string" ? responseId : undefined;
}

/**
 * Whether a logged exchange's request or response is of an envelope that writes
 * a call's arguments as an object (Anthropic, Gemini, Bedrock): a logged exchange
 * names no envelope of its own, and its calls are read as each side's envelope
 * writes them.
 */
function exchangeWritesObjects(record: unknown): boolean {
  const { request, response } = record as Record<string, unknown>;
  return detectEnvelopeRecord(request).envelope !== undefined || detectEnvelopeRecord(response).envelope !== undefined;
}

/**
 * The error a Chat provider sends in place of a chunk (`{"error": {type, code,
 * message}}`, as Groq and OpenAI write it), told as `type code: "message"`;
 * undefined for other data.
 */
function providerError(data: unknown): string | undefined {
  if (!isPlainObject(data) || !isPlainObject(data.error)) return undefined;
  const { type, code, message } = data.error;
  const words = [type, code].filter((word, index, all): word is string => typeof word === "string" && word !== "" && all.indexOf(word) === index);
  const said = typeof message === "string" ? JSON.stringify(message.length > 200 ? `${message.slice(0, 200)}…` : message) : "no message";
  return `${words.length > 0 ? words.join(" ") + ": " : ""}${said}`;
}
