// Runs a whole recorded stream through the parsers and assemblers the way a
// journal reader does: SSE framing or one JSON value per line, records routed
// by shape, `[DONE]` and the first record of the other envelope ending a stream.
// It shows what the assemblers make of the records: a final SSE event without
// its blank line is given to them as it is, where the journal reader
// (stream-records.ts) also marks the stream damaged.
import { ChatStreamAssembler } from "../../adapters/chat-completions/stream.js";
import type { AssembledResponse } from "../../src/models/assembled-response.js";
import { detectRecord, isPlainObject } from "../../src/journal/detect.js";
import { ResponsesStreamAssembler } from "../../src/journal/responses-stream.js";
import { SseParser } from "../../src/journal/sse.js";

export interface RecordingResult {
  responses: AssembledResponse[];
  /** Records that belong to neither stream, with their line. */
  rejected: Array<{ line: number; detail: string }>;
}

export type RecordingFormat = "sse" | "jsonl";

/** The lines of a text, without the empty string a final newline leaves. */
export function linesOf(text: string): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

export function assembleRecording(text: string, format: RecordingFormat): RecordingResult {
  const result: RecordingResult = { responses: [], rejected: [] };
  let chat: ChatStreamAssembler | undefined;
  let responses: ResponsesStreamAssembler | undefined;
  const endChat = () => {
    for (const response of chat?.finish() ?? []) result.responses.push(response);
    chat = undefined;
  };
  const endResponses = () => {
    for (const response of responses?.finish() ?? []) result.responses.push(response);
    responses = undefined;
  };
  const pushRecord = (record: unknown, line: number) => {
    const kind = detectRecord(record);
    // Azure's prompt filter chunk has `object: ""`, but it is a chunk of the stream.
    if (kind === "chat_chunk" || (isPlainObject(record) && Array.isArray(record.choices) && record.object === "")) {
      endResponses();
      chat ??= new ChatStreamAssembler();
      for (const response of chat.push(record, line)) result.responses.push(response);
    } else if (kind === "responses_event") {
      endChat();
      responses ??= new ResponsesStreamAssembler();
      for (const response of responses.push(record, line)) result.responses.push(response);
    } else {
      result.rejected.push({ line, detail: `a ${kind} record is not part of a stream` });
    }
  };
  const pushData = (data: string, line: number) => {
    // The SDKs stop at data that starts with [DONE], whichever stream is open.
    if (data.startsWith("[DONE]")) {
      endChat();
      return endResponses();
    }
    try {
      pushRecord(JSON.parse(data), line);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      result.rejected.push({ line, detail: `not JSON: ${error.message}` });
    }
  };

  const lines = linesOf(text);
  if (format === "sse") {
    const parser = new SseParser();
    lines.forEach((line, i) => {
      for (const event of parser.push(line, i + 1)) pushData(event.data, event.line);
    });
    for (const event of parser.finish()) pushData(event.data, event.line);
  } else {
    lines.forEach((line, i) => {
      if (line.trim() !== "") pushData(line, i + 1);
    });
  }
  endChat();
  endResponses();
  return result;
}
