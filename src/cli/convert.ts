// `orbridge convert --to responses|chat`: each record in the other envelope,
// keeping its kind. A request body stays one request body, a completion one
// response object (and back); loose messages and items are converted in runs,
// so that a message's calls and outputs meet again on the way to Chat.
import { responsesBodyToChatRequest } from "../../adapters/chat-completions/body-to-request.js";
import { chatCompletionToResponse } from "../../adapters/chat-completions/completion-to-response.js";
import { itemsToMessages } from "../../adapters/chat-completions/items-to-messages.js";
import { messagesToItems } from "../../adapters/chat-completions/messages-to-items.js";
import { chatRequestToResponsesBody } from "../../adapters/chat-completions/request-to-body.js";
import { responseToChatCompletion } from "../../adapters/chat-completions/response-to-completion.js";
import { detectRecord, isPlainObject, type RecordKind } from "../journal/detect.js";
import { z } from "zod";
import { chatCompletionSchema, chatRequestBodySchema, type ChatCompletion, type ChatMessage, type ChatRequestBody } from "../models/chat-completions.js";
import type { Envelope } from "../models/journal-item.js";
import { pointer, prefixLosses, type Converted, type Loss } from "../models/loss.js";
import { createResponseBodySchema, responseResourceSchema, type CanonicalItem, type CreateResponseBody, type ResponseResource } from "../models/open-responses.js";
import { parseArgs, stringOption } from "./args.js";
import type { Command } from "./command.js";
import { checkInputs, inputLines } from "./inputs.js";
import { UsageError, write, type ExitCode } from "./io.js";
import { progressFor } from "./progress.js";
import { ReportWriter } from "./report.js";

const help = `Usage: orbridge convert --to responses|chat [--report FILE] [FILE...|-]

Converts a JSONL journal between Chat Completions and Open Responses, one
record at a time, keeping each record's kind:
  Chat request body      <->  Open Responses request body (one line each)
  chat.completion        <->  response object (one line each)
  {request, response}    <->  the same exchange, both parts converted
  loose Chat message      ->  one line per item (text, then each tool call)
  loose items             ->  Chat messages: a message and the function_call
                              items after it merge into one assistant message,
                              each tool message follows it in call order
Records already in the target envelope are written unchanged. Streamed
chunks and events are not converted here (orbridge normalize reassembles them).

Nothing is dropped silently: every field the target cannot hold is a loss,
counted on stderr and, with --report, written with its line and JSON Pointer.

Options:
  --to ENVELOPE    responses or chat: the envelope to write
  --report FILE    write every loss and error as JSONL: {line, path, code, detail}
  -h, --help       show this help

Reads stdin when no FILE is given or FILE is "-". A line that is not JSON, or
a record of no known kind, is reported on stderr with its line number.
Exit status: 0 every record converted, 1 some line could not be converted,
2 usage error or unreadable input.

Examples:
  orbridge convert --to responses chat-log.jsonl > responses-log.jsonl
  orbridge convert --to chat --report losses.jsonl responses-log.jsonl
  cat request.json | orbridge convert --to responses -
`;

/** One input line waiting in a run of loose messages or items. */
interface Pending {
  line: number;
  record: unknown;
}

interface Emitted {
  /** Output records, each written on its own line. */
  records: unknown[];
  losses: Array<{ line: number } & Loss>;
  /** Input lines that could not be converted. */
  errors: Array<{ line: number; detail: string }>;
  /** Input lines converted. */
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
    const args = parseArgs(argv, { to: { value: true, choices: ["responses", "chat"] }, report: { value: true }, help: {}, h: {} });
    if (args.options.help || args.options.h) {
      await write(io.stdout, help);
      return 0;
    }
    if (args.problems.length > 0) throw new UsageError(args.problems.join("\n"));
    const target = stringOption(args, "to") as Envelope | undefined;
    if (target === undefined) throw new UsageError("convert needs --to responses or --to chat (see orbridge convert --help)");
    const sources = await checkInputs(args.operands);
    const reportPath = stringOption(args, "report");
    if (reportPath !== undefined && sources.includes(reportPath)) throw new UsageError(`--report ${reportPath} is also an input; inputs are never overwritten`);
    const report = reportPath ? new ReportWriter(reportPath) : undefined;
    const progress = progressFor(sources, io.stderr);
    const counts: Counts = { lines: 0, records: 0, errors: 0, losses: 0 };
    const looseKind: RecordKind = target === "responses" ? "chat_message" : "responses_item";
    let run: Pending[] = [];
    let runSource = "";

    const where = (source: string, line: number) => (sources.length > 1 ? `${source}:${line}` : `line ${line}`);
    const sourceField = (source: string) => (sources.length > 1 ? { source } : {});
    const fail = async (source: string, line: number, detail: string) => {
      counts.errors += 1;
      await write(io.stderr, `orbridge convert: ${where(source, line)}: ${detail}\n`);
      await report?.write({ ...sourceField(source), line, path: "", code: "error", detail });
    };
    const emit = async (source: string, emitted: Emitted) => {
      counts.records += emitted.converted;
      for (const record of emitted.records) await write(io.stdout, JSON.stringify(record) + "\n");
      for (const error of emitted.errors) await fail(source, error.line, error.detail);
      for (const loss of emitted.losses) {
        counts.losses += 1;
        await report?.write({ ...sourceField(source), line: loss.line, path: loss.path, code: loss.code, detail: loss.detail });
      }
    };
    const flush = async () => {
      if (run.length === 0) return;
      const pending = run;
      run = [];
      await emit(runSource, convertRun(pending, target));
    };

    try {
      for await (const { source, line, text, error } of inputLines(sources, io)) {
        counts.lines += 1;
        progress.tick(text.length);
        if (source !== runSource) await flush();
        runSource = source;
        if (error !== undefined) {
          await flush();
          await fail(source, line, error);
          continue;
        }
        if (text.trim() === "") continue;
        let record: unknown;
        try {
          record = JSON.parse(text);
        } catch (parseError) {
          await flush();
          await fail(source, line, `line is not JSON: ${(parseError as Error).message}`);
          continue;
        }
        const kind = detectRecord(record);
        if (kind === looseKind) {
          // A user, system or developer message starts a new turn: no call of
          // the run so far reaches past it, so the run can be written.
          if (startsTurn(record)) await flush();
          run.push({ line, record });
          continue;
        }
        await flush();
        await emit(source, convertRecord(record, kind, target, line));
      }
      await flush();
      progress.done();
      await report?.commit();
    } catch (error) {
      progress.done();
      await report?.abort();
      throw error;
    }
    await write(io.stderr, `read ${counts.lines} lines: ${counts.records} records, ${counts.errors} errors; ${counts.losses} losses\n`);
    return (counts.errors > 0 ? 1 : 0) as ExitCode;
  },
};

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
  return { records: converted.value, losses, errors: [], converted: run.length };
}

function notConverted(line: number, detail: string): Emitted {
  return { records: [], losses: [], errors: [{ line, detail }], converted: 0 };
}

/** One record that is not a loose message or item: converted whole, or passed on when already in the target envelope. */
function convertRecord(record: unknown, kind: RecordKind, target: Envelope, line: number): Emitted {
  const done = (records: unknown[], losses: Loss[]): Emitted => ({ records, losses: losses.map((loss) => ({ line, ...loss })), errors: [], converted: 1 });
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
        const exchange = record as Record<string, unknown>;
        const losses: Loss[] = [];
        const converted: Record<string, unknown> = { ...exchange };
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
        // The other envelope's loose records: written as they are.
        return done([record], []);
      case "chat_chunk":
      case "responses_event":
        return notConverted(line, `a ${kind === "chat_chunk" ? "chat.completion.chunk" : "streaming event"} is one piece of a stream; orbridge normalize reassembles streams`);
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

