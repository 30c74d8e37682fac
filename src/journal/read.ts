// Reads journals line by line from files or stdin, with constant memory whatever
// the file size. Lines keep their 1-based number across all inputs of one run
// only within their own source; provenance carries the source name as well.
//
// Lines end at "\n"; a "\r" before it is part of the ending ("\r\n"), a lone "\r"
// is content (JSON allows it as whitespace). Bytes are split before they are
// decoded, so a line longer than the limit is never held whole: it is skipped to
// its end and given as a line that says so, with its number, and reading goes on.
// A line that is not UTF-8 is given the same way rather than decoded with
// replacement characters: the gate must judge the bytes a replayer will read, and
// a decoder that drops bad bytes would read `function_ca\xffll` as a call.
import type { TextFacts } from "./text-facts.js";
import { namesRequestTools, ToolFieldSearch } from "./unreadable-request.js";
import { constants as bufferConstants, isUtf8 } from "node:buffer";
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import type { Readable } from "node:stream";

export interface JournalLine {
  /** The file name, or "-" for stdin. */
  source: string;
  /** 1-based line number within the source. */
  line: number;
  text: string;
  /**
   * Set when the line could not be read (longer than the limit, or not UTF-8). `text` then
   * repeats this message, which is not JSON, so a reader that looks only at
   * `text` still reports the line instead of skipping it.
   */
  error?: string;
  /**
   * With `error`: the line may be a request body that narrows the tools (its
   * bytes, read as a lenient reader would, name a request's tool fields; a line
   * too long to read holds such a name in quotes, or the `\u` escape of an
   * ASCII character; or a record a library caller built cannot be written as
   * JSON), so the gate allows no function after it until the next request body.
   */
  mayBeRequest?: boolean;
  /** What the thread that split the line read of its text (text-facts.ts), for the thread that parses it. */
  textFacts?: TextFacts;
  /** The conversation a stored log's reader read the record in (a trace, a stored completion): the gate judges each apart. */
  conversation?: string;
}

export interface ReadOptions {
  /**
   * The longest line read, in bytes, without its line ending. A longer line is
   * not decoded: it comes back with `error` set. The default is the longest
   * string the runtime can hold, so that no line crashes the reader.
   */
  maxLineBytes?: number;
}

/** The default line limit: beyond it a line cannot become a string at all. */
export const MAX_LINE_BYTES = bufferConstants.MAX_STRING_LENGTH;

/** Opens a source, failing early (before any output) when the file cannot be read. */
export function openSource(source: string, stdin: Readable): Readable {
  if (source === "-") return stdin;
  return createReadStream(source);
}

/**
 * The bytes of a file in chunks of `chunkBytes`, read `readBytes` at a time: the
 * next read runs while the chunks of the last are handed on. Each read costs a
 * round trip to the I/O threads, whatever its size, so reads are large; yet each
 * chunk is a buffer of its own, so that what is made of one dies young and a
 * chunk can move to another thread whole. One read fills them all at once
 * (readv), straight from the file: copying each chunk out of one large buffer
 * cost as much as deciding the verdicts of a tenth of the lines.
 */
export async function* readFileChunks(path: string, readBytes = 1024 * 1024, chunkBytes = 64 * 1024): AsyncGenerator<Buffer> {
  const file = await open(path, "r");
  try {
    let reading = file.readv(freshChunks(readBytes, chunkBytes));
    for (;;) {
      const { bytesRead, buffers } = await reading;
      if (bytesRead === 0) return;
      reading = file.readv(freshChunks(readBytes, chunkBytes));
      // Awaited at the next turn; until then a failure must not count as unhandled.
      reading.catch(() => undefined);
      let left = bytesRead;
      for (let i = 0; left > 0; i++) {
        const chunk = buffers[i];
        yield left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= chunk.length;
      }
    }
  } finally {
    await file.close();
  }
}

/**
 * Buffers for one read of `readBytes`: `chunkBytes` each, the last one what is
 * left. Not zeroed: a chunk is handed on only as far as the read filled it.
 */
function freshChunks(readBytes: number, chunkBytes: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < readBytes; at += chunkBytes) chunks.push(Buffer.allocUnsafeSlow(Math.min(chunkBytes, readBytes - at)));
  return chunks;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Splits bytes into journal lines as they arrive, in chunks of any size: the
 * reader of a stream, and of chunks handed over by another thread.
 */
export class LineSplitter {
  private readonly limit: number;
  private line = 0;
  // The bytes of the line being read, in the chunks they came in; once the line
  // is known to be too long they are counted, not kept.
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private lastByte = -1;
  // A line too long to read may still be a request body that narrows the tools:
  // its bytes are searched for their names as they are dropped.
  private overLimit: ToolFieldSearch | undefined;

  constructor(
    private readonly source: string,
    options: ReadOptions = {},
  ) {
    this.limit = lineLimit(options.maxLineBytes);
  }

  /** The lines a chunk completes, in order. */
  push(chunk: Buffer | string): JournalLine[] {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    const lines: JournalLine[] = [];
    const first = bytes.indexOf(LF);
    if (first === -1) {
      if (bytes.length > 0) this.keep(bytes);
      return lines;
    }
    lines.push(this.finishLine(bytes.subarray(0, first)));
    const last = bytes.lastIndexOf(LF);
    if (last > first) {
      // The lines between the first and the last newline lie whole in this chunk.
      // When they are UTF-8 and none can pass the limit, they are checked at once
      // (a newline never falls inside a character), then decoded one by one: a
      // line of ASCII then becomes a one-byte string, quicker to make and to parse
      // than its piece of the chunk decoded whole, which is two-byte as soon as
      // one character anywhere in the chunk is beyond Latin-1.
      let start = first + 1;
      if (last - start <= this.limit && isUtf8(bytes.subarray(start, last))) {
        const source = this.source;
        for (let end = bytes.indexOf(LF, start); end !== -1 && end <= last; end = bytes.indexOf(LF, start)) {
          this.line += 1;
          const text = bytes.toString("utf8", start, end > start && bytes[end - 1] === CR ? end - 1 : end);
          lines.push(journalLine(source, this.line, text));
          start = end + 1;
        }
      } else {
        for (let end = bytes.indexOf(LF, start); end !== -1 && end <= last; end = bytes.indexOf(LF, start)) {
          lines.push(this.finishLine(bytes.subarray(start, end)));
          start = end + 1;
        }
      }
    }
    if (last + 1 < bytes.length) this.keep(bytes.subarray(last + 1));
    return lines;
  }

  /** The end of the source: a last line without its newline is still a line. */
  finish(): JournalLine[] {
    return this.pendingBytes > 0 ? [this.finishLine(Buffer.alloc(0))] : [];
  }

  private finishLine(segment: Buffer): JournalLine {
    const source = this.source;
    const line = (this.line += 1);
    if (segment.length > 0) this.lastByte = segment[segment.length - 1];
    const length = this.pendingBytes + segment.length - (this.lastByte === CR ? 1 : 0);
    const parts = this.pending;
    const overLimit = this.overLimit;
    this.pending = [];
    this.pendingBytes = 0;
    this.lastByte = -1;
    this.overLimit = undefined;
    if (length > this.limit) {
      const error = `line is ${length} bytes, over the limit of ${this.limit} bytes; it was not read`;
      const search = overLimit ?? new ToolFieldSearch();
      for (const part of parts) search.push(part);
      search.push(segment);
      return search.found ? { source, line, text: error, error, mayBeRequest: true } : { source, line, text: error, error };
    }
    const whole = (parts.length === 0 ? segment : Buffer.concat([...parts, segment])).subarray(0, length);
    if (!isUtf8(whole)) {
      const error = `line is not valid UTF-8 (byte ${firstInvalidByte(whole) + 1} of ${length}); it was not read`;
      // A reader that replaces bad bytes reads the rest: what it would read there decides.
      return namesRequestTools(whole.toString("utf8")) ? { source, line, text: error, error, mayBeRequest: true } : { source, line, text: error, error };
    }
    const raw = whole.toString("utf8");
    // A UTF-8 byte order mark on the first line is framing, not content.
    const text = line === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    // Not to openai-python, which decodes SSE lines without taking the mark off:
    // it reads a `data` or `event` field after it as a field of another name and
    // skips it, so its first event is another than openai-node and the SSE
    // standard read.
    const field = text !== raw ? SSE_EVENT_FIELD.exec(text)?.[1] : undefined;
    if (field !== undefined) {
      const error = `line starts with a byte order mark before the SSE field "${field}": openai-python reads the mark as part of the field's name and skips the field, where openai-node and the SSE standard take the mark off, so they read its event apart; it was not read`;
      return { source, line, text: error, error };
    }
    return journalLine(source, line, text);
  }

  private keep(segment: Buffer): void {
    this.pendingBytes += segment.length;
    this.lastByte = segment[segment.length - 1];
    // One byte of slack: a "\r" past the limit may still be the line's ending.
    if (this.pendingBytes <= this.limit + 1) {
      this.pending.push(segment);
      return;
    }
    if (this.overLimit === undefined) {
      this.overLimit = new ToolFieldSearch();
      for (const part of this.pending) this.overLimit.push(part);
      this.pending = [];
    }
    this.overLimit.push(segment);
  }
}

/**
 * A line that could not be read, written among lines of JSONL (the records of a
 * document or a stored log, which the gate's threads take as bytes): its message
 * after a mark that starts with a NUL, which starts no JSON text and no SSE
 * field, and says whether the line may be a request body (`mayBeRequest`). The
 * splitter gives it back as an error on its line, where JSON.parse would have
 * said only that the message is not JSON. A line of a journal that starts with
 * the mark is an error too, its detail the rest of the line.
 */
export function unreadableLineText(error: string, mayBeRequest = false): string {
  return (mayBeRequest ? UNREADABLE_REQUEST_MARK : UNREADABLE_MARK) + error.replace(/[\r\n]+/g, " ");
}

/** An SSE line that gives its event's data or name: what a reader that skips the line reads otherwise. */
const SSE_EVENT_FIELD = /^(data|event)(:|$)/;

const UNREADABLE_MARK = "\u0000orbridge: unreadable\u0000";
const UNREADABLE_REQUEST_MARK = "\u0000orbridge: unreadable, may be a request body\u0000";

/** A decoded line: its text, or the error its text carries behind the mark. */
function journalLine(source: string, line: number, text: string): JournalLine {
  if (text.charCodeAt(0) !== 0) return { source, line, text };
  if (text.startsWith(UNREADABLE_REQUEST_MARK)) {
    const error = text.slice(UNREADABLE_REQUEST_MARK.length);
    return { source, line, text: error, error, mayBeRequest: true };
  }
  if (!text.startsWith(UNREADABLE_MARK)) return { source, line, text };
  const error = text.slice(UNREADABLE_MARK.length);
  return { source, line, text: error, error };
}

/**
 * The lines readLines gave. The journal readers that also take records already
 * parsed (normalizeJournal, gateJournal) read an object as a line only when it
 * is one of these: a record parsed from a journal may have the same members
 * (`{"source":…,"line":…,"text":"…"}`), and read as a line, the text inside it
 * would be judged in its place, where the command line judges the record.
 */
const linesRead = new WeakSet<JournalLine>();

/** Whether `value` is a line readLines gave. */
export function isReadLine(value: unknown): value is JournalLine {
  return typeof value === "object" && value !== null && linesRead.has(value as JournalLine);
}

/** The lines of a stream, one at a time. */
export async function* readLines(source: string, stream: Readable, options: ReadOptions = {}): AsyncGenerator<JournalLine> {
  const splitter = new LineSplitter(source, options);
  for await (const chunk of stream as AsyncIterable<Buffer | string>) yield* marked(splitter.push(chunk));
  yield* marked(splitter.finish());
}

function* marked(lines: readonly JournalLine[]): Generator<JournalLine> {
  for (const line of lines) {
    linesRead.add(line);
    yield line;
  }
}

function lineLimit(maxLineBytes: number | undefined): number {
  if (maxLineBytes === undefined) return MAX_LINE_BYTES;
  if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 0) throw new RangeError(`maxLineBytes must be a whole number of bytes, not ${maxLineBytes}`);
  return Math.min(maxLineBytes, MAX_LINE_BYTES);
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function firstInvalidByte(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    // The sequence length and the range of its second byte (RFC 3629 table),
    // which excludes overlong forms and surrogates.
    let size: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead < 0x80) size = 1;
    else if (lead >= 0xc2 && lead <= 0xdf) size = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      size = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      size = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k < size; k++) {
      const next = bytes[i + k];
      const min = k === 1 ? low : 0x80;
      const max = k === 1 ? high : 0xbf;
      if (next === undefined || next < min || next > max) return i;
    }
    i += size;
  }
  return bytes.length;
}
