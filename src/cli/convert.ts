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
import { chat, ENVELOPE_NAMES, type ReasoningField } from "../../adapters/index.js";
import { repairDoubleEncoded } from "../journal/double-encoded.js";
import { isStackOverflow, tooDeepDetail, tooDeepItemsDetail } from "../journal/deep-field.js";
import { infiniteNumberLosses, LineNumberTexts, writtenWith } from "../journal/number-texts.js";
import { LineIndexNameOrders } from "../journal/index-name-order.js";
import { atomicFileOutput } from "../journal/write.js";
import { isTarget, TARGETS } from "../gate/target-names.js";
import { profileOf } from "../../adapters/profiles.js";
import { RecordRewrite } from "./record-rewrite.js";
import { TRANSPORT_PADDING_DETAIL, type StreamLoss } from "../models/assembled-response.js";
import type { Envelope } from "../models/journal-item.js";
import type { Loss } from "../models/loss.js";
import { commandArgs, stringOption } from "./args.js";
import type { Command } from "./command.js";
import { LineWrappers, rewrap, type RecordWrapper } from "../journal/record-pointer.js";
import { checkInputs, inputLines, INPUT_OPTIONS, INPUT_OPTIONS_HELP, inputOptions } from "./inputs.js";
import { UsageError, write, type ExitCode } from "./io.js";
import { openOutputs, writeThenCommit } from "./outputs.js";
import { counted } from "./plural.js";
import { progressFor } from "./progress.js";
import { PrototypeGuard } from "./prototype-guard.js";
import { visibleInLine } from "../models/quote-visible.js";
import { RUN_HARD_LIMIT, RUN_SOFT_LIMIT } from "./run-bound.js";
import { JournalConverter } from "./journal-converter.js";
import type { Emitted } from "./convert-record.js";
import { loadChatRequests } from "./convert-whole.js";
import { limitHeapGrowth } from "./heap-growth.js";


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
that are no JSON text, with an item id or call_id an earlier item of the
journal gave, refused by its response's own tool_choice, tools or
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
2 usage error, unreadable input or an output that cannot be written.

Examples:
  orbridge convert --to responses chat-log.jsonl > responses-log.jsonl
  orbridge convert --to chat --report losses.jsonl responses-log.jsonl
  orbridge convert --to responses --out completions.jsonl chat-stream.sse
  orbridge convert --to anthropic --report losses.jsonl chat-log.jsonl
  cat request.json | orbridge convert --to responses -
`;

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
    const sources = await checkInputs(args.operands, io.stdin);
    const { output, report } = openOutputs(stringOption(args, "out"), stringOption(args, "report"), sources, io.stdout, { stdin: io.stdin, stderr: io.stderr }, { outputs: [["--id-map", stringOption(args, "id-map")]] });
    const progress = progressFor(sources, io.stderr);
    const counts: Counts = { lines: 0, records: 0, errors: 0, losses: 0, synthesized: 0, repaired: 0, padding: 0 };
    const repairing = stringOption(args, "repair") === "double-encoded";
    await loadChatRequests();
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
    const nameOrders = new LineIndexNameOrders();
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
        // An object reordered is said where its record is written, unless the record left it out.
        const reordered = emitted.converted > 0 ? nameOrders.take(emitted.line, emitted.lastLine ?? emitted.line, emitted.losses) : [];
        for (const loss of [...emitted.losses, ...restored.map((loss) => ({ ...loss, line: emitted.line })), ...unwrapped, ...reordered]) {
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
    limitHeapGrowth();
    await writeThenCommit([output, report, idMap], progress, async () => {
      for await (const line of inputLines(sources, io, readOptions)) {
        counts.lines += 1;
        guard.tick();
        progress.tick(line.text.length + 1, 1);
        if (source !== undefined && line.source !== source) {
          await emit(source, converter.finish());
          numberTexts.clear();
          nameOrders.clear();
        }
        source = line.source;
        numberTexts.read(line);
        wrappers?.hold(line);
        nameOrders.read(line);
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

/** Why converted records could not be written: the engine's serializer ran out of stack on one, or another error. */
function whyNotWritten(error: unknown, records: readonly unknown[]): string {
  if (!isStackOverflow(error)) return `not written: ${(error as Error).message}`;
  return records.length === 1 ? tooDeepDetail(records[0], "not written") : tooDeepItemsDetail(records, "not written", "record");
}
