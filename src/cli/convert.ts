// `orbridge convert --to responses|chat`: each record in the other envelope,
// keeping its kind.
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
// object (not loose items), whose id, status and usage say what the stream said.
// When the stream was cut, the status it left (in_progress) wins over the one a
// finish_reason would give: its calls stay in_progress and the gate blocks them.
// The chat.completion an event stream becomes can only say so with a null
// finish_reason, which is reported as a loss.
import { responsesBodyToChatRequest } from "../../adapters/chat-completions/body-to-request.js";
import { chatCompletionToResponse } from "../../adapters/chat-completions/completion-to-response.js";
import { itemsToMessages } from "../../adapters/chat-completions/items-to-messages.js";
import { messagesToItems } from "../../adapters/chat-completions/messages-to-items.js";
import { chatRequestToResponsesBody } from "../../adapters/chat-completions/request-to-body.js";
import { responseToChatCompletion } from "../../adapters/chat-completions/response-to-completion.js";
import { ChatStreamAssembler } from "../../adapters/chat-completions/stream.js";
import { detectRecord, isPlainObject, type RecordKind } from "../journal/detect.js";
import type { JournalLine } from "../journal/read.js";
import { ResponsesStreamAssembler } from "../journal/responses-stream.js";
import { isSseFraming, SseParser, type SseEvent } from "../journal/sse.js";
import { atomicFileOutput, stdoutOutput, type JournalOutput } from "../journal/write.js";
import { z } from "zod";
import type { AssembledResponse, StreamLoss } from "../models/assembled-response.js";
import { chatCompletionSchema, chatRequestBodySchema, type ChatCompletion, type ChatMessage, type ChatRequestBody } from "../models/chat-completions.js";
import type { Envelope } from "../models/journal-item.js";
import { pointer, prefixLosses, type Converted, type Loss } from "../models/loss.js";
import { createResponseBodySchema, responseResourceSchema, type CanonicalItem, type CreateResponseBody, type ResponseResource } from "../models/open-responses.js";
import { parseArgs, stringOption } from "./args.js";
import type { Command } from "./command.js";
import { checkInputs, checkOutputIsNotInput, inputLines, maxLineBytesOption } from "./inputs.js";
import { UsageError, write, type ExitCode } from "./io.js";
import { progressFor } from "./progress.js";
import { ReportWriter } from "./report.js";

const help = `Usage: orbridge convert --to responses|chat [--out FILE] [--report FILE] [--max-line-bytes N] [FILE...|-]

Converts a journal between Chat Completions and Open Responses, one record at
a time, keeping each record's kind:
  Chat request body      <->  Open Responses request body (one line each)
  chat.completion        <->  response object (one line each)
  {request, response}    <->  the same exchange, both parts converted
  loose Chat message      ->  one line per item (text, then each tool call)
  loose items             ->  Chat messages: a message and the function_call
                              items after it merge into one assistant message,
                              each tool message follows it in call order
  chat.completion.chunk   ->  one response object per streamed completion, as
    stream                    the completion would give, with the status the
                              stream left: a cut stream is in_progress, and so
                              are its calls
  Open Responses event    ->  one chat.completion per streamed response, as the
    stream                    response object would give (a cut stream has a
                              null finish_reason, reported as a loss)
Streams are read as JSON lines or raw SSE text (data: lines, data: [DONE]).
Records already in the target envelope are written unchanged; a stream in the
target envelope stays a stream, one record per line, without its SSE framing.

Nothing is dropped silently: every field the target cannot hold is a loss,
counted on stderr and, with --report, written with its line and JSON Pointer
(a loss in a stream names the line of the record it points into).

Options:
  --to ENVELOPE    responses or chat: the envelope to write
  --out FILE       write the records to FILE, atomically (all or nothing)
  --report FILE    write every loss and error as JSONL: {line, path, code, detail}
  --max-line-bytes N
                   report a line longer than N bytes as an error, without
                   reading it into memory, and go on with the next line
  -h, --help       show this help

Reads stdin when no FILE is given or FILE is "-". A line that is not JSON, or
a record of no known kind, is reported on stderr with its line number; the
summary counts input records: read = converted + reported.
Exit status: 0 every record converted, 1 some record could not be converted,
2 usage error or unreadable input.

Examples:
  orbridge convert --to responses chat-log.jsonl > responses-log.jsonl
  orbridge convert --to chat --report losses.jsonl responses-log.jsonl
  orbridge convert --to responses --out completions.jsonl chat-stream.sse
  cat request.json | orbridge convert --to responses -
`;

type Fields = Record<string, unknown>;

/** One input line waiting in a run of loose messages or items. */
interface Pending {
  line: number;
  record: unknown;
}

interface Emitted {
  /** The first input line the output comes from. */
  line: number;
  /** Output records, each written on its own line. */
  records: unknown[];
  losses: StreamLoss[];
  /** Input records that could not be converted; `records` of them when more than one. */
  errors: Array<{ line: number; detail: string; records?: number }>;
  /** Input records converted. */
  converted: number;
}

interface Counts {
  lines: number;
  records: number;
  errors: number;
  losses: number;
}

export const convertCommand: Command = {
  name: "convert",
  summary: "convert a journal between Chat Completions and Open Responses",
  help,
  async run(argv, io) {
    const args = parseArgs(argv, {
      to: { value: true, choices: ["responses", "chat"] },
      out: { value: true },
      report: { value: true },
      "max-line-bytes": { value: true },
      help: {},
      h: {},
    });
    if (args.options.help || args.options.h) {
      await write(io.stdout, help);
      return 0;
    }
    if (args.problems.length > 0) throw new UsageError(args.problems.join("\n"));
    const target = stringOption(args, "to") as Envelope | undefined;
    if (target === undefined) throw new UsageError("convert needs --to responses or --to chat (see orbridge convert --help)");
    const readOptions = maxLineBytesOption(stringOption(args, "max-line-bytes"));
    const sources = await checkInputs(args.operands);
    const outPath = stringOption(args, "out");
    const reportPath = stringOption(args, "report");
    if (outPath !== undefined) checkOutputIsNotInput("--out", outPath, sources);
    if (reportPath !== undefined) checkOutputIsNotInput("--report", reportPath, sources);
    const output: JournalOutput = outPath ? atomicFileOutput(outPath) : stdoutOutput(io.stdout);
    const report = reportPath ? new ReportWriter(reportPath) : undefined;
    const progress = progressFor(sources, io.stderr);
    const counts: Counts = { lines: 0, records: 0, errors: 0, losses: 0 };
    const converter = new JournalConverter(target);

    const where = (source: string, line: number) => (sources.length > 1 ? `${source}:${line}` : `line ${line}`);
    const sourceField = (source: string) => (sources.length > 1 ? { source } : {});
    const fail = async (source: string, line: number, detail: string, records = 1) => {
      counts.errors += records;
      await write(io.stderr, `orbridge convert: ${where(source, line)}: ${detail}\n`);
      await report?.write({ ...sourceField(source), line, path: "", code: "error", detail });
    };
    const emit = async (source: string, batch: Emitted[]) => {
      for (const emitted of batch) {
        let text: string;
        try {
          text = emitted.records.map((record) => JSON.stringify(record) + "\n").join("");
        } catch (error) {
          // A record nested deeper than the serializer can go: reported, so the
          // lines after it are still converted.
          if (emitted.converted > 0) await fail(source, emitted.line, `not written: ${(error as Error).message}`, emitted.converted);
          for (const failed of emitted.errors) await fail(source, failed.line, failed.detail, failed.records);
          continue;
        }
        counts.records += emitted.converted;
        await write(output.stream, text);
        for (const error of emitted.errors) await fail(source, error.line, error.detail, error.records);
        for (const loss of emitted.losses) {
          counts.losses += 1;
          await report?.write({ ...sourceField(source), line: loss.line, path: loss.path, code: loss.code, detail: loss.detail });
        }
      }
    };

    let source: string | undefined;
    try {
      for await (const line of inputLines(sources, io, readOptions)) {
        counts.lines += 1;
        progress.tick(line.text.length);
        if (source !== undefined && line.source !== source) await emit(source, converter.finish());
        source = line.source;
        await emit(source, converter.push(line));
      }
      if (source !== undefined) await emit(source, converter.finish());
      progress.done();
      await output.commit();
      await report?.commit();
    } catch (error) {
      progress.done();
      await output.abort();
      await report?.abort();
      throw error;
    }
    await write(io.stderr, `read ${counts.lines} lines: ${counts.records} records, ${counts.errors} errors; ${counts.losses} losses\n`);
    return (counts.errors > 0 ? 1 : 0) as ExitCode;
  },
};

/**
 * The records of one source, converted in input order. Loose records wait in a
 * run and streams in their assembler until the record that ends them arrives.
 */
class JournalConverter {
  private readonly looseKind: RecordKind;
  private run: Pending[] = [];
  private sse: SseParser | undefined;
  private stream: StreamConversion | undefined;

  constructor(private readonly target: Envelope) {
    this.looseKind = target === "responses" ? "chat_message" : "responses_item";
  }

  push(line: JournalLine): Emitted[] {
    if (line.error !== undefined) return [...this.flushRun(), notConverted(line.line, line.error)];
    const text = line.text;
    const out: Emitted[] = [];
    if (this.sse || isSseFraming(text)) {
      this.sse ??= new SseParser();
      if (isSseFraming(text) || text.trim() === "") {
        for (const event of this.sse.push(text, line.line)) out.push(...this.pushEvent(event));
        return out;
      }
      // A JSON line after SSE text ends the SSE part of the journal.
      for (const event of this.sse.finish()) out.push(...this.pushEvent(event));
      this.sse = undefined;
    }
    if (text.trim() === "") return out;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (parseError) {
      out.push(...this.flushRun(), notConverted(line.line, `line is not JSON: ${(parseError as Error).message}`));
      return out;
    }
    out.push(...this.pushRecord(record, line.line));
    return out;
  }

  /** End of the source: the run, the SSE event and the stream still open. */
  finish(): Emitted[] {
    const out: Emitted[] = [];
    if (this.sse) for (const event of this.sse.finish()) out.push(...this.pushEvent(event));
    this.sse = undefined;
    out.push(...this.flushRun(), ...this.finishStream());
    return out;
  }

  private pushEvent(event: SseEvent): Emitted[] {
    // `[DONE]` is framing, not a record: it ends the Chat stream.
    if (event.data === "[DONE]") return this.stream?.envelope === "chat" ? this.finishStream() : [];
    let record: unknown;
    try {
      record = JSON.parse(event.data);
    } catch (error) {
      return [...this.flushRun(), notConverted(event.line, `SSE data is not JSON: ${(error as Error).message}`)];
    }
    return this.pushRecord(record, event.line);
  }

  private pushRecord(record: unknown, line: number): Emitted[] {
    const kind = detectRecord(record);
    const streamed = kind === "chat_chunk" ? "chat" : kind === "responses_event" ? "responses" : undefined;
    const out: Emitted[] = [];
    // A stream ends at the first record that is not part of it.
    if (this.stream && this.stream.envelope !== streamed) out.push(...this.finishStream());
    if (kind === this.looseKind) {
      // A user, system or developer message starts a new turn: no call of
      // the run so far reaches past it, so the run can be written.
      if (startsTurn(record)) out.push(...this.flushRun());
      this.run.push({ line, record });
      return out;
    }
    out.push(...this.flushRun());
    if (streamed === undefined || streamed === this.target) {
      out.push(convertRecord(record, kind, this.target, line));
      return out;
    }
    this.stream ??= new StreamConversion(streamed);
    out.push(...this.stream.push(record as Fields, line));
    return out;
  }

  private flushRun(): Emitted[] {
    if (this.run.length === 0) return [];
    const pending = this.run;
    this.run = [];
    return [convertRun(pending, this.target)];
  }

  private finishStream(): Emitted[] {
    const stream = this.stream;
    this.stream = undefined;
    return stream ? stream.finish() : [];
  }
}


function startsTurn(record: unknown): boolean {
  return isPlainObject(record) && (record.role === "user" || record.role === "system" || record.role === "developer");
}

/** A run of loose messages (to items) or items (to messages), each loss sent back to its own line. */
function convertRun(run: readonly Pending[], target: Envelope): Emitted {
  let converted: Converted<unknown[]>;
  try {
    converted =
      target === "responses"
        ? messagesToItems({ messages: run.map((pending) => pending.record as ChatMessage) })
        : itemsToMessages({ items: run.map((pending) => pending.record as CanonicalItem) });
  } catch (error) {
    // A run that cannot be converted whole is converted line by line, so that
    // only the lines at fault are lost.
    if (run.length > 1) {
      const parts = run.map((pending) => convertRun([pending], target));
      return {
        line: run[0].line,
        records: parts.flatMap((part) => part.records),
        losses: parts.flatMap((part) => part.losses),
        errors: parts.flatMap((part) => part.errors),
        converted: parts.reduce((sum, part) => sum + part.converted, 0),
      };
    }
    return notConverted(run[0].line, `not converted: ${(error as Error).message}`);
  }
  const losses = converted.losses.map((loss) => {
    const match = /^\/(\d+)(.*)$/.exec(loss.path);
    const pending = match ? run[Number(match[1])] : undefined;
    return pending ? { ...loss, line: pending.line, path: match![2] } : { ...loss, line: run[0].line };
  });
  return { line: run[0].line, records: converted.value, losses, errors: [], converted: run.length };
}

function notConverted(line: number, detail: string, records = 1): Emitted {
  return { line, records: [], losses: [], errors: [{ line, detail, records }], converted: 0 };
}

/** One record that is not a loose message or item: converted whole, or passed on when already in the target envelope. */
function convertRecord(record: unknown, kind: RecordKind, target: Envelope, line: number): Emitted {
  const done = (records: unknown[], losses: Loss[]): Emitted => ({ line, records, losses: losses.map((loss) => ({ line, ...loss })), errors: [], converted: 1 });
  try {
    switch (kind) {
      case "chat_request":
      case "chat_completion":
      case "responses_request":
      case "response": {
        if (envelopeOf(kind) === target) return done([record], []);
        const converted = convertWhole(record, kind);
        return done([converted.value], converted.losses);
      }
      case "exchange": {
        const exchange = record as Fields;
        const losses: Loss[] = [];
        const converted: Fields = { ...exchange };
        for (const part of ["request", "response"] as const) {
          const partKind = detectRecord(exchange[part]);
          if (partKind !== "chat_request" && partKind !== "chat_completion" && partKind !== "responses_request" && partKind !== "response") {
            return notConverted(line, `the ${part} of this exchange is of no known kind (${partKind})`);
          }
          if (envelopeOf(partKind) === target) continue;
          const result = convertWhole(exchange[part], partKind);
          converted[part] = result.value;
          losses.push(...prefixLosses("/" + part, result.losses));
        }
        return done([converted], losses);
      }
      case "chat_message":
      case "responses_item":
      // The other envelope's loose records, and the target's own stream records:
      // written as they are.
      case "chat_chunk":
      case "responses_event":
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

const SCHEMAS: Partial<Record<RecordKind, { name: string; schema: z.ZodType }>> = {
  chat_request: { name: "Chat request body", schema: chatRequestBodySchema },
  chat_completion: { name: "chat.completion", schema: chatCompletionSchema },
  responses_request: { name: "Open Responses request body", schema: createResponseBodySchema },
  response: { name: "response object", schema: responseResourceSchema },
};

/** Says where a record that made a converter throw departs from its envelope's model, when the model can tell. */
function whyNotConverted(record: unknown, kind: RecordKind, error: unknown): string {
  const model = SCHEMAS[kind];
  const parsed = model?.schema.safeParse(record);
  const issue = parsed && !parsed.success ? parsed.error.issues[0] : undefined;
  if (model && issue) return `not a valid ${model.name}: ${pointer(...issue.path.map(String)) || "/"}: ${issue.message}`;
  return `not converted: ${(error as Error).message}`;
}

type WholeKind = "chat_request" | "chat_completion" | "responses_request" | "response";

function envelopeOf(kind: WholeKind): Envelope {
  return kind === "chat_request" || kind === "chat_completion" ? "chat" : "responses";
}

function convertWhole(record: unknown, kind: WholeKind): Converted<unknown> {
  switch (kind) {
    case "chat_request":
      return chatRequestToResponsesBody({ request: record as ChatRequestBody });
    case "chat_completion":
      return chatCompletionToResponse({ completion: record as ChatCompletion });
    case "responses_request":
      return responsesBodyToChatRequest({ body: record as CreateResponseBody });
    case "response":
      return responseToChatCompletion({ response: record as ResponseResource });
    default: {
      const unknownKind: never = kind;
      throw new TypeError(`record kind ${String(unknownKind)} is not a whole record`);
    }
  }
}

// --- Streams -----------------------------------------------------------------

/** What a closed Chat completion needs beyond its items to become a chat.completion. */
interface ChatWhole {
  /** The completion fields of its first chunk with a choice (id, created, model…), and that chunk's line. */
  fields?: Fields;
  line?: number;
  /** The choice that continues the conversation (the lowest index) and its position in the chunk. */
  firstIndex?: number;
  position?: number;
  finish: Map<number, { reason: string; line: number; position: number }>;
  usage?: Fields;
  usageLine?: number;
}

/** What a closed Open Responses response needs beyond its items: the last response object the stream showed. */
interface ResponsesWhole {
  snapshot?: Fields;
  snapshotLine?: number;
  /** The snapshot came from the terminal event, whose output wins when it has one. */
  terminal: boolean;
  /** Line of the event that last set the item at each output_index. */
  itemLines: Map<number, number>;
}

const RESPONSE_EVENTS: ReadonlySet<string> = new Set(["response.created", "response.queued", "response.in_progress", "response.completed", "response.incomplete", "response.failed"]);
const TERMINAL_EVENTS: ReadonlySet<string> = new Set(["response.completed", "response.incomplete", "response.failed"]);
const ITEM_EVENTS: ReadonlySet<string> = new Set(["response.output_item.added", "response.output_item.done"]);

/**
 * One stream of the other envelope: its records go to the assembler, and beside
 * it the fields of the whole response that the assembler does not keep (model,
 * usage, the finish_reason, the response object) are followed, so that each
 * response it closes is converted as the non-streamed record would be. Each
 * input record is counted with the response it went into.
 */
class StreamConversion {
  private readonly chat = new ChatStreamAssembler();
  private readonly responses = new ResponsesStreamAssembler();
  private chatWhole: ChatWhole | undefined;
  private responsesWhole: ResponsesWhole | undefined;
  /** Records pushed and not yet counted with a response, and the line of the first. */
  private pending = 0;
  private firstPending = 0;
  private lastPending = 0;
  private closedAny = false;

  constructor(readonly envelope: Envelope) {}

  push(record: Fields, line: number): Emitted[] {
    let closed: AssembledResponse[];
    try {
      closed = this.envelope === "chat" ? this.chat.push(record, line) : this.responses.push(record, line);
    } catch (error) {
      return [notConverted(line, `not reassembled: ${(error as Error).message}`)];
    }
    const wholes = this.envelope === "chat" ? this.followChat(record, line, closed.length) : this.followResponses(record, line, closed.length);
    if (this.pending === 0) this.firstPending = line;
    this.lastPending = line;
    this.pending += 1;
    // Records before this one belong to the first response closed; this one to
    // a response closed by it (a terminal event), else to the one it opens.
    let earlier = this.pending - 1;
    let current = 1;
    const out = closed.map((response, i) => {
      const includesCurrent = current === 1 && response.lastLine >= line;
      const records = earlier + (includesCurrent ? current : 0);
      earlier = 0;
      if (includesCurrent) current = 0;
      return this.whole(response, wholes[i], records);
    });
    this.pending = earlier + current;
    if (closed.length > 0 && this.pending > 0) this.firstPending = line;
    return out;
  }

  /** End of the stream: the response still open, as it was last seen. */
  finish(): Emitted[] {
    const closed = this.envelope === "chat" ? this.chat.finish() : this.responses.finish();
    const whole = this.envelope === "chat" ? this.chatWhole : this.responsesWhole;
    this.chatWhole = undefined;
    this.responsesWhole = undefined;
    const pending = this.pending;
    this.pending = 0;
    if (closed.length > 0) return [this.whole(closed[0], whole, pending)];
    if (pending === 0) return [];
    // Records after the last response that opened nothing (a trailing usage
    // chunk, an event this project does not know) went with the stream.
    if (this.closedAny) return [{ line: this.firstPending, records: [], losses: [], errors: [], converted: pending }];
    const which = pending === 1 ? "" : ` (${pending} records, lines ${this.firstPending}-${this.lastPending})`;
    const one = pending === 1;
    const detail =
      this.envelope === "chat"
        ? `${one ? "a chat.completion.chunk" : "chat.completion.chunk records"} with no choices${which} ${one ? "belongs" : "belong"} to no completion: nothing to convert`
        : `${one ? "a streaming event" : "streaming events"} of no known type${which} ${one ? "opens" : "open"} no response (ignored, as the specification asks): nothing to convert`;
    return [notConverted(this.firstPending, detail, pending)];
  }

  private whole(response: AssembledResponse, whole: ChatWhole | ResponsesWhole | undefined, records: number): Emitted {
    this.closedAny = true;
    try {
      const converted =
        this.envelope === "chat"
          ? chatStreamToResponse(response, (whole as ChatWhole | undefined) ?? { finish: new Map() })
          : responsesStreamToCompletion(response, (whole as ResponsesWhole | undefined) ?? { terminal: false, itemLines: new Map() });
      const losses = [...response.losses, ...converted.losses].sort((a, b) => a.line - b.line);
      return { line: response.line, records: [converted.value], losses, errors: [], converted: records };
    } catch (error) {
      return notConverted(response.line, `the response streamed on lines ${response.line}-${response.lastLine} was not converted: ${(error as Error).message}`, records);
    }
  }

  /** Follows a chunk the Chat assembler has seen; returns the wholes of the completions it closed. */
  private followChat(chunk: Fields, line: number, closedCount: number): ChatWhole[] {
    const wholes: ChatWhole[] = [];
    // Only the next completion's first chunk closes one, and it opens the next.
    if (closedCount > 0) {
      wholes.push(this.chatWhole ?? { finish: new Map() });
      this.chatWhole = undefined;
    }
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    if (choices.length > 0 && !this.chatWhole) {
      const { choices: _choices, usage: _usage, obfuscation: _obfuscation, ...fields } = chunk;
      this.chatWhole = { fields, line, finish: new Map() };
    }
    const whole = this.chatWhole;
    if (!whole) return wholes;
    const id = typeof chunk.id === "string" && chunk.id !== "" ? chunk.id : undefined;
    if (choices.length === 0 && id !== undefined && id !== whole.fields?.id) return wholes;
    choices.forEach((choice, position) => {
      if (!isPlainObject(choice)) return;
      const index = typeof choice.index === "number" && Number.isInteger(choice.index) ? choice.index : 0;
      if (whole.firstIndex === undefined || index < whole.firstIndex) {
        whole.firstIndex = index;
        whole.position = position;
      }
      if (typeof choice.finish_reason === "string") whole.finish.set(index, { reason: choice.finish_reason, line, position });
    });
    if (isPlainObject(chunk.usage)) {
      whole.usage = chunk.usage;
      whole.usageLine = line;
    }
    return wholes;
  }

  /** Follows an event the Open Responses assembler has seen; returns the wholes of the responses it closed. */
  private followResponses(event: Fields, line: number, closedCount: number): ResponsesWhole[] {
    const wholes: ResponsesWhole[] = [];
    const type = String(event.type);
    const terminal = TERMINAL_EVENTS.has(type);
    // Another response's event closes the one before it; a terminal event then closes its own.
    const earlier = terminal ? closedCount - 1 : closedCount;
    for (let i = 0; i < earlier; i++) {
      wholes.push(this.responsesWhole ?? { terminal: false, itemLines: new Map() });
      this.responsesWhole = undefined;
    }
    const whole: ResponsesWhole = (this.responsesWhole ??= { terminal: false, itemLines: new Map() });
    if (RESPONSE_EVENTS.has(type) && isPlainObject(event.response)) {
      whole.snapshot = event.response;
      whole.snapshotLine = line;
      whole.terminal = terminal;
    }
    const index = event.output_index;
    if (ITEM_EVENTS.has(type) && typeof index === "number" && Number.isInteger(index) && index >= 0 && isPlainObject(event.item)) whole.itemLines.set(index, line);
    if (terminal && closedCount > 0) {
      wholes.push(whole);
      this.responsesWhole = undefined;
    }
    return wholes;
  }
}

/**
 * A reassembled Chat completion as a response object: the chat.completion it
 * streams (its message rebuilt from the items) goes through the same converter
 * as a non-streamed one. A status a finish_reason cannot give (a cut stream is
 * in_progress; an unknown reason incomplete) is the stream's.
 */
function chatStreamToResponse(response: AssembledResponse, whole: ChatWhole): { value: unknown; losses: StreamLoss[] } {
  const items = response.items.map((item) => {
    if (!isPlainObject(item) || !("status" in item)) return item;
    const { status: _status, ...rest } = item;
    return rest as CanonicalItem;
  });
  const line = whole.line ?? response.line;
  const delta = pointer("choices", whole.position ?? 0, "delta");
  const rebuilt = itemsToMessages({ items });
  const losses: StreamLoss[] = rebuilt.losses.map((loss) => ({ ...loss, line, path: delta }));
  const message = rebuilt.value.find((candidate) => candidate.role === "assistant") ?? { role: "assistant", content: null };
  const finish = whole.firstIndex === undefined ? undefined : whole.finish.get(whole.firstIndex);
  const completion: Fields = {
    ...(whole.fields ?? (response.id !== undefined ? { id: response.id } : {})),
    object: "chat.completion",
    choices: [{ index: 0, message, finish_reason: finish?.reason ?? null }],
  };
  if (whole.usage !== undefined) completion.usage = whole.usage;
  const converted = chatCompletionToResponse({ completion: completion as ChatCompletion });
  const value = converted.value as ResponseResource & Fields;
  const streamStatus = response.status;
  const restatus = streamStatus !== undefined && streamStatus !== value.status;
  for (const loss of converted.losses) {
    if (loss.path === "/choices/0/finish_reason") {
      if (restatus) continue;
      losses.push({ ...loss, line: finish?.line ?? line, path: pointer("choices", finish?.position ?? 0, "finish_reason") });
    } else if (loss.path.startsWith("/usage")) losses.push({ ...loss, line: whole.usageLine ?? line });
    else if (loss.path.startsWith("/choices/0/message")) losses.push({ ...loss, line, path: delta });
    else losses.push({ ...loss, line });
  }
  if (restatus) {
    value.status = streamStatus;
    for (const item of value.output as Fields[]) if ("status" in item) item.status = streamStatus;
    if (finish !== undefined) {
      losses.push({ line: finish.line, path: pointer("choices", finish.position, "finish_reason"), code: "form_changed", detail: `finish_reason ${JSON.stringify(finish.reason)} written as status ${streamStatus}` });
    }
  }
  return { value, losses };
}

/**
 * A reassembled Open Responses response as a chat.completion: the last response
 * object the stream showed, with the reassembled output and status, goes
 * through the same converter as a response object on its own line.
 */
function responsesStreamToCompletion(response: AssembledResponse, whole: ResponsesWhole): { value: unknown; losses: StreamLoss[] } {
  const resource = { ...(whole.snapshot ?? (response.id !== undefined ? { id: response.id } : {})), object: "response", status: response.status, output: response.items };
  const converted = responseToChatCompletion({ response: resource as unknown as ResponseResource });
  const snapshotOutput = whole.snapshot?.output;
  const outputFromSnapshot = whole.terminal && Array.isArray(snapshotOutput) && (snapshotOutput.length > 0 || whole.itemLines.size === 0);
  const indexes = [...whole.itemLines.keys()].sort((a, b) => a - b);
  const losses = converted.losses.map((loss): StreamLoss => {
    const item = /^\/output\/(\d+)(.*)$/.exec(loss.path);
    const itemLine = item && !outputFromSnapshot ? whole.itemLines.get(indexes[Number(item[1])]) : undefined;
    if (item && itemLine !== undefined) return { ...loss, line: itemLine, path: "/item" + item[2] };
    if (whole.snapshotLine !== undefined) return { ...loss, line: whole.snapshotLine, path: "/response" + loss.path };
    return { ...loss, line: response.line };
  });
  return { value: converted.value, losses };
}
