// `orbridge convert --to ENVELOPE`: each record in the target envelope, keeping
// its kind. Chat and Open Responses convert to each other directly; to and from
// a registered envelope (Anthropic…), a record goes through its Open Responses
// form (request body, response object, items), and the losses of both steps
// are reported.
//
// | record                             | written as                                               |
// |------------------------------------|----------------------------------------------------------|
// | request body                       | one request body of the other envelope                   |
// | chat.completion / response object  | one response object / one chat.completion                |
// | {request, response}                | the same exchange, both parts converted                  |
// | loose Chat messages                | one line per item, converted in runs                     |
// | loose items                        | Chat messages: calls rejoin their message, outputs follow |
// | chat.completion.chunk stream       | one response object per completion: what the completion  |
// |                                    |   it streams gives, with the status the stream left      |
// | Open Responses event stream        | one chat.completion per response: what the response      |
// |                                    |   object it streams gives                                |
// | raw SSE text                       | its `data:` records, as above; `[DONE]` ends a stream    |
// | a record already in the target     | unchanged; a stream stays a stream, one record a line    |
//
// A reassembled stream is one whole response, so it keeps that kind: a response
// object (not loose items), whose id, status and usage say what the stream said
// (StreamRecords reads the streams, convertAssembledResponse writes them). A cut
// stream, or one with a line that could not be read, never gives a completed call.
import { chat, ENVELOPE_NAMES, ENVELOPES, isAdapterName, journalEnvelopes, type AdapterName, type CallCounts, type ChatRequests, type Conversation, type ItemOrigin, type JournalEnvelopes, type ReasoningField } from "../../adapters/index.js";
import { convertAssembledResponse } from "../journal/convert-assembled-response.js";
import { detectEnvelopeRecord, isCompactedResponse, isPlainObject, type RecordKind } from "../journal/detect.js";
import { repairDoubleEncoded } from "../journal/double-encoded.js";
import { deepestPath, isStackOverflow, tooDeepDetail, tooDeepItemsDetail } from "../journal/deep-field.js";
import { ConversationCalls } from "../journal/conversation-calls.js";
import { nameResults } from "../journal/name-results.js";
import { inexactTextLosses, restoreJoinedTexts, restoreObjectTexts } from "../journal/inexact-texts.js";
import { infiniteNumberLosses, LineNumberTexts, writtenWith } from "../journal/number-texts.js";
import type { JournalLine } from "../journal/read.js";
import { StreamRecords, type JournalRecord } from "../journal/stream-records.js";
import { heldIn, joinStepLosses, type StepEnvelope } from "../journal/two-step-losses.js";
import { joinBodyStepLosses } from "../journal/body-step-losses.js";
import { atomicFileOutput } from "../journal/write.js";
import { isTarget, TARGETS } from "../gate/target-names.js";
import { profileOf } from "../../adapters/profiles.js";
import { RecordRewrite } from "./record-rewrite.js";
import { z } from "zod";
import { TRANSPORT_PADDING_DETAIL, type StreamLoss } from "../models/assembled-response.js";
import { chatCompletionSchema, chatRequestBodySchema, type ChatCompletion, type ChatMessage, type ChatRequestBody } from "../models/chat-completions.js";
import type { Envelope } from "../models/journal-item.js";
import type { Converted, Loss } from "../models/loss.js";
import { pointer, pointerToken, prefixLosses } from "../models/json-pointer.js";
import { createResponseBodySchema, responseResourceSchema, type CanonicalItem, type CreateResponseBody, type ResponseResource } from "../models/open-responses.js";
import { commandArgs, stringOption } from "./args.js";
import type { Command } from "./command.js";
import { LineWrappers, rewrap, type RecordWrapper } from "../journal/record-pointer.js";
import { checkInputs, inputLines, INPUT_OPTIONS, INPUT_OPTIONS_HELP, inputOptions } from "./inputs.js";
import { UsageError, write, type ExitCode } from "./io.js";
import { openOutputs, writeThenCommit } from "./outputs.js";
import { counted } from "./plural.js";
import { progressFor } from "./progress.js";
import { PrototypeGuard } from "./prototype-guard.js";
import { ENVELOPE_TITLES } from "../journal/envelope-titles.js";
import { intoSetAside, isSetAside, setAsideUnfinishedCalls, unfinishedResponse } from "../journal/unfinished-calls.js";
import { leaveOutLostChoiceCalls, type Refusal } from "../journal/lost-choice-calls.js";
import { ToolRegistry } from "../gate/tool-registry.js";
import { readRequestTools } from "../gate/read-request-tools.js";
import { heldChoice, type ChoiceAllows } from "../journal/held-choice.js";
import { readEnvelopeTools } from "./envelope-tools.js";
import { leaveOutDisallowedLooseCalls, leaveOutRefusedCalls, lostRequestLimits, refusedByOwnLimits, type RequestLimits } from "../journal/own-limit-calls.js";
import { visibleInLine } from "../models/quote-visible.js";
import { RUN_HARD_LIMIT, RUN_SOFT_LIMIT, RunCalls } from "./run-bound.js";

const help = `Usage: orbridge convert --to ${ENVELOPE_NAMES.join("|")} [--reasoning-field FIELD] [--out FILE] [--report FILE] [--max-line-bytes N] [FILE...|-]

Converts a journal between envelopes (${ENVELOPE_NAMES.join(", ")}), one
record at a time, keeping each record's kind. Between Chat Completions and
Open Responses:
  Chat request body      <->  Open Responses request body (one line each)
  chat.completion        <->  response object (one line each)
  {request, response}    <->  the same exchange, both parts converted
  loose Chat message      ->  one line per item (text, then each tool call)
  loose items             ->  Chat messages: a message and the function_call
                              items after it merge into one assistant message
                              (text between its calls too), the tool messages
                              follow it in the order the outputs came; an
                              output that came before its call moves after it
  chat.completion.chunk   ->  one response object per streamed completion, as
    stream                    the completion would give, with the status the
                              stream left: a cut stream is in_progress, and so
                              are its calls
  Open Responses event    ->  one chat.completion per streamed response, as the
    stream                    response object would give (a cut stream has a
                              null finish_reason, reported as a loss)
To and from Anthropic Messages, a record goes through its Open Responses form:
a request body, a response (type "message") and loose messages keep their kind,
a stream of events becomes one response; loose system text is written as a
{"role":"system"} line, which reads back as the same item.
Streams are read as JSON lines or raw SSE text (data: lines, data: [DONE]).
A stream with a line that could not be read has its calls incomplete (a
finish_reason of length in a chat.completion), and a loss names that line.
Records already in the target envelope are written unchanged; a stream in the
target envelope stays a stream, one record per line, without its SSE framing.
Loose records wait for the end of their turn to be folded together. A turn of
more than ${RUN_SOFT_LIMIT.toLocaleString("en-US")} records is written in pieces where they fold alike (each call
so far answered, before a record that is no output); one of more than ${RUN_HARD_LIMIT.toLocaleString("en-US")}
records with no such place is cut anyway, and each cut is reported, so that
memory stays bounded.

Nothing is dropped silently: every field the target cannot hold is a loss,
counted on stderr and, with --report, written with its line and JSON Pointer
(a loss in a stream names the line of the record it points into).

A call the gate blocks stays blocked in the target, each change a loss: where
the target cannot say why (a call unfinished, of a namespace, with arguments
that are no JSON text, refused by its response's own tool_choice, tools or
parallel_tool_calls), the call is left out, or its response written
incomplete; a tool_choice the target cannot write (allowed_tools, or "none"
for bedrock) is kept as the tools it allows.

The model's reasoning that OpenAI-compatible providers write in Chat messages
(reasoning_content: DeepSeek; reasoning: vLLM, OpenRouter, Groq;
reasoning_details: OpenRouter) becomes a reasoning item that names its field.
Chat itself has no reasoning: going to chat, reasoning is a loss unless
--reasoning-field names the field of the dialect that takes it, or --for names
a dialect that reads it (deepseek: reasoning_content).

Options:
  --to ENVELOPE    the envelope to write: ${ENVELOPE_NAMES.join(", ")}
  --reasoning-field FIELD
                   with --to chat: write reasoning into each assistant message
                   as FIELD (reasoning_content, reasoning or reasoning_details);
                   reasoning read from that field comes back as it was
  --for TARGET     also rewrite each record's items for a replay target, as
                   normalize --for does, one record at a time: ${TARGETS.join(", ")};
                   each change is reported (a stream is written as rebuilt,
                   and reported as not rewritten)
  --id-map FILE    with --for: write each call id rewritten as JSONL
                   {"original": ..., "rewritten": ...}, for restore-ids
  --repair double-encoded
                   decode once the arguments of a call encoded twice (a JSON
                   string holding JSON text) in the records written, each
                   repair reported, code repaired; without it arguments stay
                   byte for byte
  --out FILE       write the records to FILE, atomically (all or nothing)
  --report FILE    write every loss and error as JSONL: {line, path, code, detail}
  --max-line-bytes N
                   report a line longer than N bytes as an error, without
                   reading it into memory, and go on with the next line
${INPUT_OPTIONS_HELP}  -h, --help       show this help

Reads stdin when no FILE is given or FILE is "-". A line that is not JSON, or
a record of no known kind, is reported on stderr with its line number; the
summary counts input records: read = converted + reported. A field the target
requires and the source lacks (a response object's tools, temperature…) is
written with the spec's neutral value and reported "synthesized" at its path in
the output; the summary counts these apart from the losses, and the padding a
stream's records carry for the transport (obfuscation, reported left_behind).
Exit status: 0 every record converted, 1 some record could not be converted,
2 usage error or unreadable input.

Examples:
  orbridge convert --to responses chat-log.jsonl > responses-log.jsonl
  orbridge convert --to chat --report losses.jsonl responses-log.jsonl
  orbridge convert --to responses --out completions.jsonl chat-stream.sse
  orbridge convert --to anthropic --report losses.jsonl chat-log.jsonl
  cat request.json | orbridge convert --to responses -
`;

type Fields = Record<string, unknown>;

/** Chat's request-body converters, which load with their models before the first record is read. */
let loadedChatRequests: ChatRequests | undefined;

function chatRequests(): ChatRequests {
  if (!loadedChatRequests) throw new Error("the Chat request-body converters are not loaded");
  return loadedChatRequests;
}

/** One input line waiting in a run of loose messages or items. */
interface Pending {
  line: number;
  record: unknown;
}

interface Emitted {
  /** The first input line the output comes from. */
  line: number;
  /** The last, when the output comes from several (a stream's, a run's); the first otherwise. */
  lastLine?: number;
  /** Output records, each written on its own line. */
  records: unknown[];
  losses: StreamLoss[];
  /** Input records that could not be converted; `records` of them when more than one. */
  errors: Array<{ line: number; detail: string; records?: number }>;
  /** Input records converted. */
  converted: number;
  /** The input lines of a run converted together, whose records are written as one group, in the first line's wrapper. */
  runLines?: number[];
  /** The call_ids of the calls a loose message of a registered envelope made: the results on the next line may answer them. */
  calls?: ReadonlySet<string>;
  /** What a request body (alone, or an exchange's) allows the responses after it and its record written cannot say (lostRequestLimits). */
  limits?: RequestLimits;
  /**
   * Lines written as they are after the records: the mark left where a line of a
   * stream written through unchanged could not be read (`unreadMark`).
   */
  marks?: string[];
  /**
   * The input lines each output record comes from, first first, when the run
   * can tell: each record is written in its first line's wrapper, and the
   * wrappers of the others it folds in are reported as not kept.
   */
  recordLines?: number[][];
}

interface Counts {
  lines: number;
  records: number;
  errors: number;
  losses: number;
  /** Values the target requires and the source lacks, written and reported: counted apart from what was lost. */
  synthesized: number;
  /** Calls whose arguments encoded twice were decoded, as --repair asked. */
  repaired: number;
  /** Stream records' transport padding (`obfuscation`), reported one a record: counted apart, as it carries nothing of the conversation. */
  padding: number;
}

export const convertCommand: Command = {
  async run(argv, io) {
    const options = {
      to: { value: true, choices: [...ENVELOPE_NAMES] },
      out: { value: true },
      report: { value: true },
      "max-line-bytes": { value: true },
      ...INPUT_OPTIONS,
      "reasoning-field": { value: true, choices: [...chat.reasoningFields] },
      for: { value: true, choices: TARGETS },
      "id-map": { value: true },
      repair: { value: true, choices: ["double-encoded"] },
    };
    const args = await commandArgs(argv, options, help, io.stdout);
    if (!args) return 0;
    const target = stringOption(args, "to") as Envelope | undefined;
    if (target === undefined) throw new UsageError(`convert needs --to and an envelope: ${ENVELOPE_NAMES.join(", ")} (see orbridge convert --help)`);
    const namedField = stringOption(args, "reasoning-field") as ReasoningField | undefined;
    if (namedField !== undefined && target !== "chat") throw new UsageError("--reasoning-field names the Chat field that takes reasoning: it goes with --to chat");
    const readOptions = inputOptions(args);
    const sources = await checkInputs(args.operands);
    const { output, report } = openOutputs(stringOption(args, "out"), stringOption(args, "report"), sources, io.stdout, { stdin: io.stdin, stderr: io.stderr }, { outputs: [["--id-map", stringOption(args, "id-map")]] });
    const progress = progressFor(sources, io.stderr);
    const counts: Counts = { lines: 0, records: 0, errors: 0, losses: 0, synthesized: 0, repaired: 0, padding: 0 };
    const repairing = stringOption(args, "repair") === "double-encoded";
    loadedChatRequests ??= await chat.requests();
    const forTarget = stringOption(args, "for");
    const profile = forTarget !== undefined && isTarget(forTarget) ? profileOf(forTarget) : undefined;
    const rewrite = forTarget !== undefined && isTarget(forTarget) ? new RecordRewrite(forTarget, profile, namedField) : undefined;
    // A Chat dialect that reads reasoning takes it in its own field unless told another.
    const reasoningField = namedField ?? (target === "chat" ? (profile?.reasoning.chatField as ReasoningField | undefined) : undefined);
    const idMapPath = stringOption(args, "id-map");
    if (idMapPath !== undefined && rewrite === undefined) throw new UsageError("--id-map writes the call ids --for rewrites: it goes with --for");
    const idMap = idMapPath === undefined ? undefined : atomicFileOutput(idMapPath);
    const converter = new JournalConverter(target, reasoningField, rewrite);
    const numberTexts = new LineNumberTexts();
    // With --record, each output record goes back into the wrapper of the line it is written for.
    const wrappers = readOptions.record === undefined ? undefined : new LineWrappers();
    const inWrapper = (text: string, wrapper: RecordWrapper | undefined) => (wrapper === undefined ? text : rewrap(wrapper, text));

    const where = (source: string, line: number) => (sources.length > 1 ? `${source}:${line}` : `line ${line}`);
    const sourceField = (source: string) => (sources.length > 1 ? { source } : {});
    const fail = async (source: string, line: number, detail: string, records = 1) => {
      counts.errors += records;
      await write(io.stderr, `orbridge convert: ${visibleInLine(where(source, line))}: ${visibleInLine(detail)}\n`);
      await report?.write({ ...sourceField(source), line, path: "", code: "error", detail });
    };
    const emit = async (source: string, batch: Emitted[]) => {
      for (const emitted of batch) {
        let text: string;
        // Only the lines the output comes from: a later line's `1.0` is not put back in this record's `1`.
        const texts = numberTexts.between(emitted.line, emitted.lastLine ?? emitted.line);
        const restored: Loss[] = [];
        const forgotten = numberTexts.forgottenFrom(emitted.line);
        if (forgotten !== undefined) {
          restored.push({ path: "", code: "form_changed", detail: `numbers of lines ${emitted.line} to ${forgotten} written otherwise than JSON.stringify writes them (0.0, 1E3, 19 digits) were kept for ${LineNumberTexts.WINDOW} lines only: the record is written with them as their doubles write them` });
        }
        const unwrapped: StreamLoss[] = [];
        if (repairing) for (const record of emitted.records) restored.push(...repairDoubleEncoded(record));
        restored.push(...infiniteNumberLosses(emitted.records, texts));
        try {
          const wrapper = wrappers?.of(source, emitted.line);
          const recordLines = wrappers === undefined ? undefined : emitted.recordLines;
          text = emitted.records
            .map((record, index) => inWrapper(writtenWith(JSON.stringify(record), texts, restored), recordLines ? wrappers!.of(source, recordLines[index]?.[0] ?? emitted.line) : wrapper) + "\n")
            .join("");
          for (const mark of emitted.marks ?? []) text += `${mark}\n`;
          if (wrappers !== undefined && wrapper === undefined && emitted.records.length > 0) {
            restored.push({ path: "", code: "form_changed", detail: "the wrapper of this line is no longer held: the record is written without it" });
          }
          if (recordLines) unwrapped.push(...foldedWrappers(recordLines, (line) => wrappers!.of(source, line)));
          else {
            // A run's records are written as one group, in the wrapper of its first line: the others' wrappers are not kept.
            for (const line of (emitted.runLines ?? []).filter((line) => line !== emitted.line)) {
              const other = wrappers?.of(source, line);
              if (wrapper !== undefined && other !== undefined && !sameWrapper(other, wrapper)) {
                unwrapped.push({ line, path: "", code: "unsupported_field", detail: `converted with the run of line ${emitted.line} and written in that line's wrapper: this line's wrapper fields are not kept` });
              }
            }
          }
        } catch (error) {
          // A record nested deeper than the serializer can go: reported, so the
          // lines after it are still converted.
          if (emitted.converted > 0) await fail(source, emitted.line, whyNotWritten(error, emitted.records), emitted.converted);
          for (const failed of emitted.errors) await fail(source, failed.line, failed.detail, failed.records);
          continue;
        }
        counts.records += emitted.converted;
        await write(output.stream, text);
        for (const error of emitted.errors) await fail(source, error.line, error.detail, error.records);
        for (const loss of [...emitted.losses, ...restored.map((loss) => ({ ...loss, line: emitted.line })), ...unwrapped]) {
          if (loss.code === "synthesized") counts.synthesized += 1;
          else if (loss.code === "repaired") counts.repaired += 1;
          else if (loss.detail === TRANSPORT_PADDING_DETAIL) counts.padding += 1;
          else counts.losses += 1;
          await report?.write({ ...sourceField(source), line: loss.line, path: loss.path, code: loss.code, detail: loss.detail });
        }
      }
    };

    let source: string | undefined;
    const guard = new PrototypeGuard();
    await writeThenCommit([output, report, idMap], progress, async () => {
      for await (const line of inputLines(sources, io, readOptions)) {
        counts.lines += 1;
        guard.tick();
        progress.tick(line.text.length + 1, 1);
        if (source !== undefined && line.source !== source) {
          await emit(source, converter.finish());
          numberTexts.clear();
        }
        source = line.source;
        numberTexts.read(line);
        wrappers?.hold(line);
        await emit(source, converter.push(line));
      }
      if (source !== undefined) await emit(source, converter.finish());
      guard.check();
      if (idMap && rewrite) {
        for (const entry of rewrite.idMap()) await write(idMap.stream, `${JSON.stringify(entry)}\n`);
      }
    });
    const synthesized = `${counts.synthesized > 0 ? `, ${counted(counts.synthesized, "value")} synthesized` : ""}${repairing ? `, ${counted(counts.repaired, "call")} repaired` : ""}${counts.padding > 0 ? `, ${counted(counts.padding, "padding field")} left behind` : ""}`;
    await write(io.stderr, `read ${counted(counts.lines, "line")}: ${counted(counts.records, "record")}, ${counted(counts.errors, "error")}; ${counted(counts.losses, "loss", "losses")}${synthesized}\n`);
    return (counts.errors > 0 ? 1 : 0) as ExitCode;
  },
};

/**
 * The records of one source, converted in input order. Loose records wait in a
 * run until the record that ends it; streams of the other envelope are
 * reassembled by StreamRecords and come back as whole responses.
 */
class JournalConverter {
  /** Whether the last record was of a stream in the target's envelope, written through as it came. */
  private passingStream = false;
  /** The stream record written through last, while a stream is passing: what a later one of its stream is read with on a JSON line. */
  private lastPassed: { envelope?: AdapterName; record: unknown } | undefined;
  /** The calls of the loose message on the line before, when it was one of a registered envelope (Emitted.calls). */
  private callsBefore: ReadonlySet<string> | undefined;
  /** What the last request body allows the responses after it, where the target lost it: it holds until the next request body, as at the gate. */
  private requestLimits: RequestLimits | undefined;
  /** Whether the target's own streams are rebuilt whole, as they are once a request's limit is lost in the target. */
  private rebuildsOwnStreams = false;
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
          const emitted = convertRecord(entry.record, entry.recordKind, this.target, entry.line, this.envelopes, this.reasoningField, entry.envelope, this.rewrite, this.names, callsBefore, this.requestLimits);
          this.callsBefore = emitted.calls;
          if (REQUEST_KINDS.has(entry.recordKind)) this.requestLimits = emitted.limits;
          // A stream in the target's envelope cannot leave out a call such a limit refuses as it passes: from here on it is rebuilt whole.
          if (this.requestLimits !== undefined && isAdapterName(this.target) && !this.rebuildsOwnStreams) {
            this.records.reassembleToo(this.target);
            this.rebuildsOwnStreams = true;
          }
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
          const streamed = convertStreamed(entry, this.target, this.reasoningField, this.requestLimits);
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
    const emitted = isAdapterName(this.target) ? convertRunToEnvelope(pending, kind, this.target, this.callCounts, this.rewrite, this.names, this.requestLimits) : convertRun(pending, this.target, this.callCounts, this.reasoningField, this.rewrite);
    if (cutAt !== undefined) {
      emitted.losses.push({ line: cutAt, path: "", code: "form_changed", detail: `the ${pending.length} records from line ${pending[0]!.line} hold no user turn past their first record, and no place where each call so far had its output and the next record was no output: they are written before this record, to hold memory to a bound, and what this record would have been folded with there (calls of one message, an output moved after its call) is written apart` });
    }
    return [emitted];
  }
}

/** A response reassembled from a stream, as the other envelope's whole record; each input record is counted with it. */
function convertStreamed(entry: Extract<JournalRecord, { kind: "response" }>, target: Envelope, reasoningField?: ReasoningField, requestLimits?: RequestLimits): Emitted {
  const { response, records } = entry;
  try {
    const converted = convertAssembledResponse({ ...entry, target, ...(reasoningField ? { reasoningField } : {}), ...(requestLimits ? { requestLimits } : {}) });
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

/** The journal's calls by call_id, for a target whose results name their call (`TargetProfile.toolResultNames`). */
interface ResultNames {
  calls: ConversationCalls;
  field: string;
  rule: string;
}

/**
 * Items whose results, answering a call on an earlier line, take its name;
 * each such result a loss (`synthesized`) of its line, at the field that names
 * its call. `origins`, when given, follows each item given a name.
 */
function namedResults(items: readonly CanonicalItem[], names: ResultNames, lineOf: (index: number) => number, pathOf: (index: number) => string, origins?: Map<CanonicalItem, ItemOrigin>): { items: CanonicalItem[]; losses: StreamLoss[] } {
  const named = nameResults({ items, calls: names.calls, field: names.field, lineOf });
  const losses = named.named.map(({ index, name, callLine }): StreamLoss => {
    const origin = origins?.get(items[index]!);
    if (origin) origins!.set(named.items[index]!, origin);
    return { line: lineOf(index), path: pathOf(index), code: "synthesized", detail: `${names.rule}: the result gets the name of its call on line ${callLine}, ${JSON.stringify(name)}` };
  });
  return { items: named.items, losses };
}

/**
 * Items rewritten for the `--for` target, then their results named for a target
 * envelope whose results name their call, when the rewrite did not name them:
 * `--to gemini --for anthropic` needs both.
 */
function rewrittenAndNamed(items: readonly CanonicalItem[], envelope: Envelope, rewrite: RecordRewrite | undefined, names: ResultNames | undefined, lineOf: (index: number) => number, pathOf: (index: number) => string): { items: CanonicalItem[]; losses: StreamLoss[] } {
  const rewritten = rewrite ? rewrite.items(items, envelope, lineOf, pathOf) : { items: [...items], losses: [] };
  if (!names) return rewritten;
  const named = namedResults(rewritten.items, names, lineOf, pathOf);
  return { items: named.items, losses: [...rewritten.losses, ...named.losses] };
}

/** The calls of a whole record, in its Open Responses form, kept for the results of later lines. */
function recordCalls(canonical: unknown, names: ResultNames, line: number): void {
  if (!isPlainObject(canonical)) return;
  const items = Array.isArray(canonical.output) ? canonical.output : Array.isArray(canonical.input) ? canonical.input : [];
  nameResults({ items: items as CanonicalItem[], calls: names.calls, field: names.field, lineOf: () => line });
}

function startsTurn(record: unknown): boolean {
  return isPlainObject(record) && (record.role === "user" || record.role === "system" || record.role === "developer");
}

/**
 * A run of loose messages (to items) or items (to messages), each loss sent back
 * to its own line. `counts`: the journal's calls given a synthesized call_id so
 * far, so that two runs never give two calls one synthesized call_id.
 */
function convertRun(run: readonly Pending[], target: Envelope, counts: Required<CallCounts>, reasoningField?: ReasoningField, rewrite?: RecordRewrite): Emitted {
  let converted: Converted<unknown[]>;
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
        const items = rewrite.items(converted.value as CanonicalItem[], "chat", () => run[0]!.line, () => "");
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
      const aside = setAsideUnfinishedCalls(items, WRITTEN_AS.chat, (index) => `/${index}`, true, true);
      converted = chat.messages.fromItems({ items: aside.items, idless: counts.idless, reasoningField, sources });
      converted = { value: converted.value, losses: [...aside.losses, ...converted.losses.filter((loss) => !aside.left.has(loss.path))] };
      if (!rewrite) recordLines = sources.map((indexes) => indexes.map((index) => run[index]!.line));
    }
  } catch (error) {
    // A run that cannot be converted whole is converted line by line, so that
    // only the lines at fault are lost.
    if (run.length > 1) {
      const parts = run.map((pending) => convertRun([pending], target, counts, reasoningField, rewrite));
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

/**
 * Each record goes in the wrapper of the first line it comes from; a line
 * folded into a record of another line loses its wrapper's fields where they
 * differ, and is reported once.
 */
function foldedWrappers(recordLines: readonly number[][], wrapperOf: (line: number) => RecordWrapper | undefined): StreamLoss[] {
  const losses: StreamLoss[] = [];
  const reported = new Set<number>();
  const written = new Set(recordLines.map((lines) => lines[0]));
  for (const lines of recordLines) {
    const [first, ...folded] = lines;
    const wrapper = first === undefined ? undefined : wrapperOf(first);
    for (const line of folded) {
      const other = wrapperOf(line);
      if (written.has(line) || reported.has(line) || wrapper === undefined || other === undefined || sameWrapper(other, wrapper)) continue;
      reported.add(line);
      losses.push({ line, path: "", code: "unsupported_field", detail: `folded into the record of line ${first} and written in that line's wrapper: this line's wrapper fields are not kept` });
    }
  }
  return losses;
}

/** Two wrappers that hold the same fields beside their records. */
function sameWrapper(one: RecordWrapper, other: RecordWrapper): boolean {
  return one.text.slice(0, one.start) === other.text.slice(0, other.start) && one.text.slice(one.end) === other.text.slice(other.end);
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

function notConverted(line: number, detail: string, records = 1): Emitted {
  return { line, records: [], losses: [], errors: [{ line, detail, records }], converted: 0 };
}

/** One record that is not a loose message or item: converted whole, or passed on when already in the target envelope. */
function convertRecord(record: unknown, kind: RecordKind, target: Envelope, line: number, envelopes: JournalEnvelopes, reasoningField?: ReasoningField, envelope?: AdapterName, rewrite?: RecordRewrite, names?: ResultNames, callsBefore?: ReadonlySet<string>, requestLimits?: RequestLimits): Emitted {
  const done = (records: unknown[], losses: Loss[]): Emitted => ({ line, records, losses: losses.map((loss) => ({ line, ...loss })), errors: [], converted: 1 });
  try {
    switch (kind) {
      case "chat_request":
      case "chat_completion":
      case "responses_request":
      case "response":
      case "envelope_request":
      case "envelope_response": {
        if (envelopeOf(kind, envelope) === target && !rewrite && !lostLimitRefusesCall(record, kind, envelopes, envelope, requestLimits)) return done([record], []);
        const converted = convertWhole(record, kind, target, envelopes, reasoningField, envelope, rewrite, line, names, requestLimits);
        return { ...done([converted.value], converted.losses), ...(converted.limits ? { limits: converted.limits } : {}) };
      }
      case "exchange": {
        const exchange = record as Fields;
        const losses: Loss[] = [];
        const converted: Fields = { ...exchange };
        // The exchange's own request is the one its response answers, in place of any before it.
        let limits: RequestLimits | undefined;
        for (const part of ["request", "response"] as const) {
          const { kind: partKind, envelope: partEnvelope } = detectEnvelopeRecord(exchange[part]);
          if (!isWholeKind(partKind)) {
            return notConverted(line, `the ${part} of this exchange is of no known kind (${partKind})`);
          }
          if (envelopeOf(partKind, partEnvelope) === target && !rewrite && !lostLimitRefusesCall(exchange[part], partKind, envelopes, partEnvelope, limits)) continue;
          const result = convertWhole(exchange[part], partKind, target, envelopes, reasoningField, partEnvelope, rewrite, line, names, limits);
          if (part === "request") limits = result.limits;
          converted[part] = result.value;
          losses.push(...prefixLosses("/" + part, result.losses));
        }
        return { ...done([converted], losses), ...(limits ? { limits } : {}) };
      }
      case "envelope_message": {
        const adapter = envelopes[envelope!];
        const items = adapter.messagesToItems({ messages: [record] });
        // A message already in the target's envelope is written as it is, unless its request's limit, lost there, refuses a call of it.
        const title = target === "responses" ? "Open Responses" : WRITTEN_AS[target];
        const disallowed = leaveOutDisallowedLooseCalls(items.value, title, () => "", requestLimits);
        if (envelope === target && !rewrite && disallowed.left.size === 0) return done([record], []);
        const at = new RegExp(`^/${adapter.fields.messages}/0(?=/|$)`);
        const itemLosses = items.losses.map((loss) => ({ ...loss, path: loss.path.replace(at, "") }));
        const rewritten = rewrittenAndNamed(items.value, envelope!, rewrite, names, () => line, () => "");
        const blocked = blockedCallsLeftOut(rewritten.items, target);
        const limited = leaveOutDisallowedLooseCalls(blocked.items, title, (index) => `/${index}`, requestLimits);
        const aside = { items: limited.items, losses: [...blocked.losses, ...limited.losses.map((loss) => ({ ...loss, path: "" }))], left: new Set([...blocked.left, ...limited.left]) };
        const written = itemsToEnvelope(aside.items, target, reasoningField);
        const second = written.losses.filter((loss) => !aside.left.has(loss.path) && !answersCallBefore(loss, aside.items, callsBefore));
        const emitted = done(written.value, [...itemLosses, ...rewritten.losses, ...aside.losses, ...messageStepLosses(record, adapter, aside.items, second)]);
        return { ...emitted, calls: new Set(aside.items.flatMap((item) => (isPlainObject(item) && item.type === "function_call" && typeof item.call_id === "string" ? [item.call_id] : []))) };
      }
      case "chat_message":
      case "responses_item":
        // A loose record already in the target's envelope: through its items when they are rewritten.
        if (rewrite) return done(...rewriteLoose(record, kind, line, rewrite, reasoningField));
      // falls through: the other envelope's loose records, and the target's own
      // stream records, are written as they are.
      case "chat_chunk":
      case "responses_event":
      case "envelope_event":
        return done([record], []);
      case "unknown":
        return notConverted(line, "record of no known kind (not a message, item, request body, completion or response)");
      default: {
        const unknownKind: never = kind;
        return notConverted(line, `record kind ${String(unknownKind)} is not converted`);
      }
    }
  } catch (error) {
    return notConverted(line, whyNotConverted(record, kind, error));
  }
}

/**
 * Whether a response already in the target's envelope holds a call that the
 * limits of its request, lost in the target (lostRequestLimits), refuse: it
 * is then written through its Open Responses form, which leaves that call out.
 */
function lostLimitRefusesCall(record: unknown, kind: WholeKind, envelopes: JournalEnvelopes, envelope: AdapterName | undefined, requestLimits: RequestLimits | undefined): boolean {
  if (requestLimits === undefined || (kind !== "chat_completion" && kind !== "response" && kind !== "envelope_response")) return false;
  const canonical = toResponses(record, kind, envelopes, envelope).value;
  return isPlainObject(canonical) && refusedByOwnLimits(canonical, requestLimits).size > 0;
}

/**
 * The items of one loose message of another envelope, each call the gate blocks
 * for what it says (the message's stop reason made it incomplete) left out with
 * its outputs where the target cannot say it. Their losses point at the message
 * as a whole: its items are no field of it.
 */
function blockedCallsLeftOut(items: CanonicalItem[], target: Envelope): { items: CanonicalItem[]; losses: Loss[]; left: ReadonlySet<string> } {
  if (target === "responses") return { items, losses: [], left: new Set() };
  const aside = setAsideUnfinishedCalls(items, WRITTEN_AS[target], (index) => `/${index}`, false, target === "chat");
  return { items: aside.items, losses: aside.losses.map((loss) => ({ ...loss, path: "" })), left: aside.left };
}

/** Items as the target's loose records: items themselves, Chat messages, or an envelope's messages (its system text first, as a system line). */
function itemsToEnvelope(items: readonly CanonicalItem[], target: Envelope, reasoningField?: ReasoningField): Converted<unknown[]> {
  if (target === "responses") return { value: [...items], losses: [] };
  if (target === "chat") return chat.messages.fromItems({ items, reasoningField });
  const converted = ENVELOPES[target as AdapterName].itemsToMessages(items);
  return { value: conversationRecords(converted.value), losses: converted.losses };
}

function conversationRecords(conversation: Conversation): unknown[] {
  const system = conversation.system === undefined || conversation.system === null ? [] : [{ role: "system", content: conversation.system }];
  return [...system, ...conversation.messages];
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
function convertRunToEnvelope(run: readonly Pending[], kind: RecordKind, target: AdapterName, counts: Required<CallCounts>, rewrite?: RecordRewrite, names?: ResultNames, requestLimits?: RequestLimits): Emitted {
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
      ? rewrittenAndNamed(items.value, kind === "chat_message" ? "chat" : "responses", rewrite, names, (index) => (kind === "responses_item" ? run[index]!.line : first), () => "")
      : names
        ? namedResults(items.value, names, (index) => origin(index).line, (index) => origin(index).path, origins)
        : { items: items.value, losses: [] };
    const unfinished = setAsideUnfinishedCalls(rewritten.items, WRITTEN_AS[target], (index) => `/${index}`, kind === "responses_item");
    const limited = leaveOutDisallowedLooseCalls(unfinished.items, WRITTEN_AS[target], (index) => `/${index}`, requestLimits);
    const aside = { items: limited.items, losses: [...unfinished.losses, ...limited.losses], left: new Set([...unfinished.left, ...limited.left]) };
    const written = ENVELOPES[target].itemsToMessages(aside.items);
    const losses: StreamLoss[] = [...items.losses.map((loss) => ({ ...loss, ...lineOf(loss.path) })), ...rewritten.losses, ...aside.losses.map((loss) => ({ ...loss, ...lineOf(loss.path) }))];
    for (const loss of written.losses.filter((one) => !aside.left.has(one.path))) losses.push(kind === "responses_item" ? { ...loss, ...lineOf(loss.path) } : { ...loss, ...messageFieldOf(loss.path, rewritten.items, origins, run, first) });
    return { line: first, records: conversationRecords(written.value), losses, errors: [], converted: run.length, runLines: run.map((pending) => pending.line) };
  } catch (error) {
    return notConverted(first, whyRunNotConverted(error, run), run.length);
  }
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

const SCHEMAS: Partial<Record<RecordKind, { name: string; schema: z.ZodType }>> = {
  chat_request: { name: "Chat request body", schema: chatRequestBodySchema },
  chat_completion: { name: "chat.completion", schema: chatCompletionSchema },
  responses_request: { name: "Open Responses request body", schema: createResponseBodySchema },
  response: { name: "response object", schema: responseResourceSchema },
};

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

/** Why converted records could not be written: the engine's serializer ran out of stack on one, or another error. */
function whyNotWritten(error: unknown, records: readonly unknown[]): string {
  if (!isStackOverflow(error)) return `not written: ${(error as Error).message}`;
  return records.length === 1 ? tooDeepDetail(records[0], "not written") : tooDeepItemsDetail(records, "not written", "record");
}

/** A valid record the target envelope has no record for: said as it is, not as a departure from a model. */
class NoEquivalent extends Error {}

/** Says where a record that made a converter throw departs from its envelope's model, when the model can tell. */
function whyNotConverted(record: unknown, kind: RecordKind, error: unknown): string {
  if (error instanceof NoEquivalent) return error.message;
  // The model's own walk would run out of stack on the same record.
  if (isStackOverflow(error)) return tooDeepDetail(record, "not converted");
  const model = SCHEMAS[kind];
  const parsed = model?.schema.safeParse(record);
  const issue = parsed && !parsed.success ? parsed.error.issues[0] : undefined;
  if (model && issue) return `not a valid ${model.name}: ${pointer(...issue.path.map(String)) || "/"}: ${issue.message}`;
  return `not converted: ${(error as Error).message}`;
}

type WholeKind = "chat_request" | "chat_completion" | "responses_request" | "response" | "envelope_request" | "envelope_response";

/** The records that hold a request body: each replaces what the one before allowed the responses after it. */
const REQUEST_KINDS: ReadonlySet<RecordKind> = new Set(["chat_request", "responses_request", "envelope_request", "exchange"]);

function isWholeKind(kind: RecordKind): kind is WholeKind {
  return kind === "chat_request" || kind === "chat_completion" || kind === "responses_request" || kind === "response" || kind === "envelope_request" || kind === "envelope_response";
}

function envelopeOf(kind: WholeKind, envelope?: AdapterName): Envelope {
  if (kind === "envelope_request" || kind === "envelope_response") return envelope!;
  return kind === "chat_request" || kind === "chat_completion" ? "chat" : "responses";
}

/**
 * A whole record in the target envelope. Between Chat and Open Responses, one
 * converter; otherwise through the record's Open Responses form. The
 * second-step losses are pointed back into the record: a response's by its
 * fields (joinStepLosses), a request body's by the message each item came from
 * (joinBodyStepLosses).
 */
function convertWhole(record: unknown, kind: WholeKind, target: Envelope, envelopes: JournalEnvelopes, reasoningField?: ReasoningField, envelope?: AdapterName, rewrite?: RecordRewrite, line = 0, names?: ResultNames, requestLimits?: RequestLimits): Converted<unknown> & { limits?: RequestLimits } {
  const source = envelopeOf(kind, envelope);
  if (kind === "response" && target !== "responses" && isCompactedResponse(record)) throw new NoEquivalent(`a compacted response (response.compaction) has no ${WRITTEN_AS[target]} equivalent: its output is the history that replaces a conversation, its compaction item encrypted for the Responses API alone`);
  const isBody = kind === "chat_request" || kind === "responses_request" || kind === "envelope_request";
  if (!rewrite && ((source === "chat" && target === "responses") || (source === "responses" && target === "chat"))) {
    const written = convertChatOrResponses(record, kind, reasoningField);
    if (!isBody) return written;
    // One converter writes the body: the calls its choice refuses are left out of what it reads, or of what it wrote.
    const canonical = target === "responses" ? written.value : record;
    const lost = lostChoiceCalls(record, canonical, written.value, target);
    if (lost === undefined) return withChoiceHeld(record, written, target);
    if (target === "responses") return withChoiceHeld(record, { value: lost.value, losses: [...written.losses, ...lost.losses] }, target);
    const again = convertChatOrResponses(lost.value, kind, reasoningField);
    return withChoiceHeld(record, { value: again.value, losses: [...again.losses.filter((loss) => !lost.left.has(loss.path)), ...lost.losses] }, target);
  }
  let canonical = toResponses(record, kind, envelopes, envelope);
  if (rewrite) canonical = rewriteCanonical(canonical, source, rewrite, line);
  if (names) recordCalls(canonical.value, names, line);
  if (target === "responses") {
    const lost = isBody ? lostChoiceCalls(record, canonical.value, canonical.value, target) : undefined;
    const converted = lost === undefined ? canonical : { value: lost.value, losses: [...canonical.losses, ...lost.losses] };
    return isBody ? withChoiceHeld(record, converted, target) : converted;
  }
  const marked = unfinishedCallsMarked(canonical, isBody, target, requestLimits);
  const write = (body: Converted<unknown>): Converted<unknown> =>
    target === "chat"
      ? isBody
        ? chatRequests().requestBodies.fromResponses({ body: body.value as CreateResponseBody, reasoningField })
        : chat.responses.fromResponses({ response: body.value as ResponseResource, reasoningField, synthesized: synthesizedPaths(body.losses) })
      : isBody
        ? ENVELOPES[target as AdapterName].bodyToRequest(body.value as CreateResponseBody)
        : ENVELOPES[target as AdapterName].resourceToResponse(body.value as ResponseResource);
  const written = write(marked);
  if (isBody) {
    const lost = lostChoiceCalls(record, marked.value, written.value, target);
    const body = lost === undefined ? marked.value : lost.value;
    const once = lost === undefined ? written : write({ value: body, losses: marked.losses });
    // A choice the writer dropped is written as what it allows (held-choice.ts), and the body written again.
    const held = heldChoice(choiceAllows(record), choiceAllows(once.value), WRITTEN_AS[target]);
    const final = held === undefined ? body : { ...(body as Fields), tool_choice: held.choice };
    const out = held === undefined ? once : write({ value: final, losses: marked.losses });
    // What the body allows the responses after it and the request written cannot say (own-limit-calls.ts).
    const limits = lostRequestLimits(final, target, `the request of line ${line}`);
    const left = new Set([...(marked.left ?? []), ...(lost?.left ?? [])]);
    const losses = [...bodyLosses(record, source, marked, out.losses.filter((loss) => !left.has(loss.path))), ...(lost?.losses ?? []), ...(held ? [held.loss] : [])];
    return { value: out.value, losses, ...(limits ? { limits } : {}) };
  }
  const second = written.losses.filter((loss) => !intoSetAside(loss.path, marked.left));
  const joined = joinStepLosses({ source: stepEnvelope(source, envelopes), target: stepEnvelope(target, envelopes), first: marked.losses, second, written: written.value });
  // A synthesized value points into the record written; every other loss into the source, or at it as a whole.
  return { value: written.value, losses: joined.map((loss) => (loss.code === "synthesized" ? loss : heldIn(record, loss))) };
}

/**
 * A request body's Open Responses form (`canonical`) with each call of its
 * input that the body refuses, and the body written (`written`) does not,
 * left out (lost-choice-calls.ts); undefined when there is none. The gate's
 * own reading of each body says what it refuses. Toward Open Responses the
 * calls are taken out; toward another envelope they are set aside, which no
 * writer writes, and `left` holds their pointers.
 */
function lostChoiceCalls(record: unknown, canonical: unknown, written: unknown, target: Envelope): { value: unknown; losses: Loss[]; left: ReadonlySet<string> } | undefined {
  const input = isPlainObject(canonical) ? canonical.input : undefined;
  if (!Array.isArray(input) || !input.some((item) => isPlainObject(item) && item.type === "function_call")) return undefined;
  const title = target === "responses" ? "Open Responses" : WRITTEN_AS[target];
  const aside = leaveOutLostChoiceCalls(input as CanonicalItem[], requestRefusal(record), requestRefusal(written), title, (index) => `/input/${index}`);
  if (aside.losses.length === 0) return undefined;
  const items = target === "responses" ? aside.items.filter((item) => !isSetAside(item)) : aside.items;
  return { value: { ...(canonical as Fields), input: items }, losses: aside.losses, left: aside.left };
}

/**
 * A request body written toward Chat or Open Responses (`converted`) with its
 * tool_choice written as what the source's allows, where the writer dropped a
 * limit the gate reads in it (held-choice.ts).
 */
function withChoiceHeld(record: unknown, converted: Converted<unknown>, target: Envelope): Converted<unknown> {
  const held = heldChoice(choiceAllows(record), choiceAllows(converted.value), target === "responses" ? "Open Responses" : WRITTEN_AS[target]);
  if (held === undefined) return converted;
  const choice = target === "chat" ? chatRequests().toolChoice.fromResponses({ toolChoice: held.choice }).value : held.choice;
  return { value: { ...(converted.value as Fields), tool_choice: choice }, losses: [...converted.losses, held.loss] };
}

/** The functions the gate reads a request body's choice to allow; undefined allows every one. */
function choiceAllows(body: unknown): ChoiceAllows {
  // A body that is no object is never written: nothing to hold.
  if (!isPlainObject(body)) return undefined;
  return readRequestTools(body, "the request", readEnvelopeTools).choice.names;
}

/** Why a request body refuses a call to a name, as the gate reads the body; read when first asked. */
function requestRefusal(body: unknown): Refusal {
  let registry: ToolRegistry | undefined;
  return (name) => {
    if (registry === undefined) {
      registry = new ToolRegistry();
      registry.addRequestBody(body, "the request", readEnvelopeTools);
    }
    return registry.notAllowedReason(name);
  };
}

/**
 * A loose message is written alone, so the target's writer sees no message
 * before its results and says each answers no call (Anthropic and Bedrock
 * reject a result whose call is not in the message before it). A result that
 * answers a call of the loose message on the line before is where they want it.
 */
function answersCallBefore(loss: Loss, items: readonly CanonicalItem[], callsBefore: ReadonlySet<string> | undefined): boolean {
  if (callsBefore === undefined || loss.code !== "target_rejects") return false;
  const at = /^\/(\d+)\/call_id$/.exec(loss.path);
  const item = at ? items[Number(at[1])] : undefined;
  return isPlainObject(item) && item.type === "function_call_output" && typeof item.call_id === "string" && callsBefore.has(item.call_id);
}

/**
 * The second step's losses of a loose message of a registered envelope, which
 * point at its items, pointed at the block or field of the message each came
 * from: as a request body's, for a body of that one message.
 */
function messageStepLosses(record: unknown, adapter: JournalEnvelopes[AdapterName], items: readonly CanonicalItem[], second: readonly Loss[]): Loss[] {
  if (second.length === 0) return [];
  const field = adapter.fields.messages;
  const joined = joinBodyStepLosses({
    record: { [field]: [record] },
    messagesField: field,
    itemsOf: (message) => adapter.messagesToItems({ messages: [message] }).value.length,
    slug: adapter.slug,
    input: items,
    first: [],
    second: second.map((loss) => ({ ...loss, path: "/input" + loss.path })),
  });
  const message = `/${pointerToken(field)}/0`;
  return joined.map((loss) => ({ ...loss, path: loss.path === message ? "" : loss.path.startsWith(message + "/") ? loss.path.slice(message.length) : loss.path }));
}

/** A request body's losses of both steps, the second's pointed into the messages of the body written. */
function bodyLosses(record: unknown, source: Envelope, canonical: Converted<unknown>, second: readonly Loss[]): Loss[] {
  if (source === "responses") return [...canonical.losses, ...second];
  const { input, tools } = canonical.value as { input?: unknown; tools?: unknown };
  const adapter = source === "chat" ? undefined : ENVELOPES[source];
  return joinBodyStepLosses({
    record,
    messagesField: adapter ? adapter.fields.messages : "messages",
    system: adapter ? systemItems(record, adapter, canonical.value) : undefined,
    itemsOf: adapter ? (message) => adapter.messagesToItems({ messages: [message] }).value.length : (message) => chat.messages.toItems({ messages: [message as ChatMessage] }).value.length,
    slug: adapter?.slug,
    input: Array.isArray(input) ? input : [],
    ...(Array.isArray(tools) ? { tools } : {}),
    first: canonical.losses,
    second,
  });
}

/** The input items a body's own system prompt gives, when it has one. */
function systemItems(record: unknown, adapter: (typeof ENVELOPES)[AdapterName], body: unknown): { field: string; items: number } | undefined {
  const system = (record as Fields)[adapter.fields.system];
  if (system === undefined || system === null) return undefined;
  // A system prompt the first step made the body's instructions (Anthropic's string) is no input item.
  if (typeof system === "string" && (body as Fields).instructions === system) return { field: adapter.fields.system, items: 0 };
  try {
    return { field: adapter.fields.system, items: adapter.messagesToItems({ system, messages: [] }).value.length };
  } catch {
    return undefined;
  }
}

/** What the losses of a response's two steps need to know of an envelope: its slug and where its response holds each field. */
function stepEnvelope(envelope: Envelope, envelopes: JournalEnvelopes): StepEnvelope {
  if (envelope === "responses") return "responses";
  if (envelope === "chat") return { responseFields: chat.responses.fieldPaths };
  const adapter = envelopes[envelope];
  return { slug: adapter.slug, responseFields: adapter.responseFields };
}

/** Where the step to Open Responses wrote a value no record said, so that the next step does not report it lost. */
function synthesizedPaths(losses: readonly Loss[]): string[] {
  return losses.filter((loss) => loss.code === "synthesized").map((loss) => loss.path);
}

/** A loose Chat message or item written in its own envelope, its items rewritten for the `--for` target. */
function rewriteLoose(record: unknown, kind: "chat_message" | "responses_item", line: number, rewrite: RecordRewrite, reasoningField?: ReasoningField): [unknown[], Loss[]] {
  const items = kind === "chat_message" ? chat.messages.toItems({ messages: [record as ChatMessage] }) : { value: [record as CanonicalItem], losses: [] as Loss[] };
  const rewritten = rewrite.items(items.value, kind === "chat_message" ? "chat" : "responses", () => line, () => "");
  const changes = rewritten.losses.map(({ line: _line, ...loss }) => loss);
  if (kind === "responses_item") return [rewritten.items, changes];
  const written = chat.messages.fromItems({ items: rewritten.items, reasoningField });
  return [written.value, [...items.losses.map((loss) => ({ ...loss, path: loss.path.replace(/^\/0(?=\/|$)/, "") })), ...changes, ...written.losses]];
}

/** A request body's input, or a response's output, rewritten for the `--for` target; each change a loss of the record's line. */
function rewriteCanonical(canonical: Converted<unknown>, source: Envelope, rewrite: RecordRewrite, line: number): Converted<unknown> {
  const value = canonical.value as Fields;
  const field = Array.isArray(value.output) ? "output" : Array.isArray(value.input) ? "input" : undefined;
  if (field === undefined) return canonical;
  const rewritten = rewrite.items(value[field] as CanonicalItem[], source, () => line, (index) => `/${field}/${index}`);
  // The record's own line is added by the caller: the changes keep their paths only.
  const losses = rewritten.losses.map(({ line: _line, ...loss }) => loss);
  return { value: { ...value, [field]: rewritten.items }, losses: [...canonical.losses, ...losses] };
}

/** A whole record's Open Responses form: a request body or a response object. */
function toResponses(record: unknown, kind: WholeKind, envelopes: JournalEnvelopes, envelope?: AdapterName): Converted<unknown> {
  switch (kind) {
    case "chat_request":
      return chatRequests().requestBodies.toResponses({ request: record as ChatRequestBody });
    case "chat_completion":
      return chat.responses.toResponses({ completion: record as ChatCompletion });
    case "responses_request":
    case "response":
      return { value: record, losses: [] };
    case "envelope_request":
      return envelopes[envelope!].requestToBody(record);
    case "envelope_response":
      return envelopes[envelope!].responseToResource(record);
    default: {
      const unknownKind: never = kind;
      throw new TypeError(`record kind ${String(unknownKind)} is not a whole record`);
    }
  }
}

/**
 * A body's or response's Open Responses form with its unfinished calls marked
 * for a target that has no status for one call (unfinished-calls.ts): a body's
 * set aside, a completed response written incomplete. A set-aside item's own
 * loss says why; what the writer would add of it is left out by `left`.
 */
function unfinishedCallsMarked(canonical: Converted<unknown>, isBody: boolean, target: Envelope, requestLimits?: RequestLimits): Converted<unknown> & { left?: ReadonlySet<string> } {
  const value = canonical.value as Fields;
  const title = target === "responses" ? target : WRITTEN_AS[target];
  if (!isBody) {
    // Calls the response's own record of its request refuses go first: the target has no place for that record.
    const refused = target === "responses" ? undefined : leaveOutRefusedCalls(value, title, requestLimits);
    const marked = unfinishedResponse(refused?.value ?? value, title, target !== "chat" && target !== "responses", target === "chat");
    const losses = [...(refused?.losses ?? []), ...marked.losses];
    return losses.length === 0 ? canonical : { value: marked.value, losses: [...canonical.losses, ...losses], ...(refused?.left.size ? { left: refused.left } : {}) };
  }
  if (!Array.isArray(value.input)) return canonical;
  const aside = setAsideUnfinishedCalls(value.input as CanonicalItem[], title, (index) => `/input/${index}`, true, target === "chat");
  return aside.losses.length === 0 ? canonical : { value: { ...value, input: aside.items }, losses: [...canonical.losses, ...aside.losses], left: aside.left };
}


/** How a loss names each envelope that has no status for one call. */
const WRITTEN_AS: Readonly<Record<"chat" | AdapterName, string>> = { chat: "Chat", ...ENVELOPE_TITLES };

function convertChatOrResponses(record: unknown, kind: WholeKind, reasoningField?: ReasoningField): Converted<unknown> {
  switch (kind) {
    case "chat_request":
      return chatRequests().requestBodies.toResponses({ request: record as ChatRequestBody });
    case "chat_completion":
      return chat.responses.toResponses({ completion: record as ChatCompletion });
    case "responses_request": {
      const marked = unfinishedCallsMarked({ value: record, losses: [] }, true, "chat");
      const written = chatRequests().requestBodies.fromResponses({ body: marked.value as CreateResponseBody, reasoningField });
      return { value: written.value, losses: [...marked.losses, ...written.losses.filter((loss) => !marked.left?.has(loss.path))] };
    }
    case "response": {
      const marked = unfinishedCallsMarked({ value: record, losses: [] }, false, "chat");
      const written = chat.responses.fromResponses({ response: marked.value as ResponseResource, reasoningField });
      return { value: written.value, losses: [...marked.losses, ...written.losses.filter((loss) => !intoSetAside(loss.path, marked.left))] };
    }
    case "envelope_request":
    case "envelope_response":
      throw new TypeError(`a ${kind} record is neither Chat nor Open Responses`);
    default: {
      const unknownKind: never = kind;
      throw new TypeError(`record kind ${String(unknownKind)} is not a whole record`);
    }
  }
}
