// Reads one source whatever its container: JSONL (or SSE text) line by line, a
// file that is one JSON document (an array of records, one pretty-printed body,
// a trace export or a page of stored objects), gzip of either, and JSONL whose
// lines are documents of a stored log. Nothing is guessed from a file's name.
//
// | the source opens with                         | it is read as                                  |
// |-----------------------------------------------|------------------------------------------------|
// | the gzip magic number                         | what its decompressed bytes are                |
// | the Parquet magic number ("PAR1")             | its rows: records, or a stored log's documents |
// | a frame of an envelope's binary stream (AWS   | its frames' events, one record each            |
// |   event-stream: a prelude whose CRC holds)    |                                                |
// | `[`                                           | one document (an array of records), else JSONL |
// | `{` on a first line that is not whole JSON    | one document (pretty-printed), else JSONL; a lone `{` or `[` that does not parse stops with one error |
// | a first line that a stored-log reader claims  | JSONL of documents, read by that reader        |
// | anything else                                 | JSONL, streamed                                |
//
// `from` forces a stored-log reader, whatever the document looks like. A
// document's records are numbered 1, 2, … as lines are; a stored log's record
// numbers follow the order of its conversations.
import { describeDuplicateName, duplicateName, type DuplicateName } from "../models/duplicate-names.js";
import { describeNamesFoldedTwice, firstNamesFoldedTwice, STORED_LOG_NAMES } from "../models/names-folded-twice.js";
import { FRAMED_STREAMS, READERS, READER_ORDER, type FramedStream, type Reading, type ReaderName } from "../../adapters/index.js";
import { isGzip, gunzipped } from "./read-gzip.js";
import { isParquet, parquetRows } from "./read-parquet.js";
import { recordTexts } from "./document-texts.js";
import { linesReadAlone, type LineReadAlone } from "./document-lines-alone.js";
import { namesRequestTools } from "./unreadable-request.js";
import { readAsSeveralLines } from "./unicode-line-ends.js";
import { LineSplitter, type JournalLine, type ReadOptions } from "./read.js";
import { unwrapRecord } from "./record-pointer.js";
import type { JsonPointer } from "./json-pointer.js";
import { literalsNotStanding, shownLiteral } from "../models/decimal-value.js";
import { pointer } from "../models/json-pointer.js";

export interface SourceOptions extends ReadOptions {
  /** A stored-log reader to read the source with, whatever its shape. */
  from?: ReaderName;
  /** Where the record is inside each line or element. */
  record?: JsonPointer;
  /**
   * Whether each message a stored-log reader could not read is also an error
   * line, after the records, besides the note that says so: the gate's reading,
   * since a call in such a message would go unjudged.
   */
  unreadableAsErrors?: boolean;
}

/** A source that is neither JSONL nor one JSON document: the one error given for it. */
export class DocumentError extends Error {}

/** What a reading says about the source as a whole: one sentence, then its losses. */
export type SourceNote = (text: string) => void;

const LF = 0x0a;

/** What a source turned out to be: JSONL (or SSE) bytes, decompressed, to split into lines; or records read from a document. */
export type OpenedSource = { kind: "bytes"; chunks: AsyncIterable<Buffer> } | { kind: "records"; lines: Iterable<JournalLine> | AsyncIterable<JournalLine> };

/** The bytes that tell a binary stream's first frame (AWS event-stream's prelude: two lengths and their CRC). */
const FRAME_PRELUDE_BYTES = 12;

/** The longest first line looked at to tell a document from JSONL: a pretty-printed document's is short, and a huge line is streamed. */
const SNIFF_BYTES = 1024 * 1024;

export async function openSourceBytes(source: string, bytes: AsyncIterable<Buffer>, options: SourceOptions = {}, note: SourceNote = () => undefined): Promise<OpenedSource> {
  let chunks = bytes[Symbol.asyncIterator]();
  let head = await peek(chunks, (buffered) => buffered.length >= 2);
  if (isGzip(Buffer.concat(head.chunks))) {
    chunks = gunzipped(replay(head.chunks, chunks))[Symbol.asyncIterator]();
    head = { chunks: [], ended: false };
  }
  head = await peek(chunks, (buffered) => buffered.length >= 4, head);
  if (isParquet(Buffer.concat(head.chunks))) {
    const parts: Buffer[] = [];
    for await (const chunk of replay(head.chunks, chunks)) parts.push(chunk);
    let rows: unknown[];
    try {
      rows = await parquetRows(Buffer.concat(parts));
    } catch (error) {
      throw new DocumentError(`${source} opens as a Parquet file and cannot be read as one: ${(error as Error).message}`);
    }
    return { kind: "records", lines: documentLines(source, rows, options, note, "a Parquet file") };
  }
  head = await peek(chunks, (buffered) => buffered.length >= FRAME_PRELUDE_BYTES, head);
  const framing = FRAMED_STREAMS.find((stream) => stream.opens(Buffer.concat(head.chunks)));
  if (framing !== undefined) {
    const parts: Buffer[] = [];
    for await (const chunk of replay(head.chunks, chunks)) parts.push(chunk);
    return { kind: "records", lines: framedLines(source, framing, Buffer.concat(parts), options, note) };
  }
  // Up to the end of the first line that holds more than whitespace.
  head = await peek(chunks, (buffered) => buffered.length > SNIFF_BYTES || firstLineEnd(buffered) !== -1, head);
  const start = Buffer.concat(head.chunks);
  const opening = firstNonBlank(start);
  const lineEnd = firstLineEnd(start);
  const seen = lineEnd !== -1 || head.ended;
  const firstLine = seen ? start.toString("utf8", opening === -1 ? 0 : opening, lineEnd === -1 ? start.length : lineEnd).trim() : "";
  const firstValue = parseOrUndefined(firstLine);
  const all = replay(head.chunks, chunks);

  const documentLike = seen && opening !== -1 && (start[opening] === 0x5b || (start[opening] === 0x7b && firstValue === undefined));
  if (documentLike || (options.from !== undefined && firstValue === undefined)) {
    const text = await readAll(all);
    let document: unknown;
    try {
      document = JSON.parse(stripBom(text));
    } catch (error) {
      if (options.from !== undefined || firstLine === "{" || firstLine === "[") {
        throw new DocumentError(`${source} is neither JSONL (one JSON record per line) nor one JSON document: ${(error as Error).message}`);
      }
      // A JSONL file whose first line is broken: each line is reported on its own.
      return { kind: "bytes", chunks: replay([Buffer.from(text, "utf8")], emptyIterator()) };
    }
    return { kind: "records", lines: documentLines(source, document, options, note, "one JSON document", text) };
  }
  const reader = options.from ?? (options.record === undefined && firstValue !== undefined ? READER_ORDER.find((name) => READERS[name].recognise(firstValue)) : undefined);
  if (reader !== undefined) return { kind: "records", lines: documentsOfLines(source, reader, all, options, note, options.from === undefined) };
  return { kind: "bytes", chunks: all };
}

/**
 * Whether a source is a stored log whose reader gives its records in
 * conversations (read-only: what it says of the source is not said again, and
 * its lines are not kept), so that a caller can judge each conversation apart.
 */
export async function readsAsConversations(source: string, bytes: AsyncIterable<Buffer>, options: SourceOptions = {}): Promise<boolean> {
  const opened = await openSourceBytes(source, bytes, options);
  if (opened.kind === "bytes") return false;
  for await (const line of opened.lines) if (line.error === undefined) return line.conversation !== undefined;
  return false;
}

/** The lines of one source, whatever its container; `--record` applied to each. */
export async function* readSource(source: string, bytes: AsyncIterable<Buffer>, options: SourceOptions = {}, note: SourceNote = () => undefined): AsyncGenerator<JournalLine> {
  const opened = await openSourceBytes(source, bytes, options, note);
  if (opened.kind === "records") yield* opened.lines;
  else yield* splitLines(source, opened.chunks, options);
}

/**
 * JSONL of documents: each line one document of the store. When the reader was
 * chosen by the first line alone (`guessed`), every other line must be a document
 * it recognises too; otherwise the guess was wrong, and the source is read as the
 * JSONL it is, every line a record of its own, rather than have the reader pass
 * over lines that are not its own (a call among them would get no verdict).
 */
async function* documentsOfLines(source: string, reader: ReaderName, chunks: AsyncIterable<Buffer>, options: SourceOptions, note: SourceNote, guessed: boolean): AsyncGenerator<JournalLine> {
  const documents: unknown[] = [];
  const inexact: InexactNumber[] = [];
  // The first line that names a member twice: refused once the lines prove to be the store's.
  let namedTwice: DocumentError | undefined;
  const lines: JournalLine[] = [];
  let notOwn: number | undefined;
  for await (const line of splitLines(source, chunks, { ...options, record: undefined })) {
    if (guessed) lines.push(line);
    if (line.error !== undefined) {
      if (guessed) {
        notOwn ??= line.line;
        continue;
      }
      throw new DocumentError(`${source}:${line.line}: ${line.error}`);
    }
    if (line.text.trim() === "") continue;
    // A line that a reader ending lines at a lone "\r", or where str.splitlines
    // does, reads as several records holds one the store's reader may leave
    // behind: read as JSONL, the line is refused on its own; with --from, the source is.
    const split = readAsSeveralLines(line.text);
    if (split !== undefined) {
      if (guessed) {
        notOwn ??= line.line;
        continue;
      }
      throw new DocumentError(`${source}:${line.line}: ${split}: it is not read`);
    }
    let document: unknown;
    try {
      document = JSON.parse(line.text);
    } catch (error) {
      if (guessed) {
        notOwn ??= line.line;
        continue;
      }
      throw new DocumentError(`${source}:${line.line}: a line of a ${reader} export that is not JSON: ${(error as Error).message}`);
    }
    if (guessed && notOwn === undefined && !READERS[reader].recognise(document)) notOwn = line.line;
    if (notOwn === undefined) {
      inexact.push(...inexactNumbers(line.text, [documents.length]));
      documents.push(document);
      namedTwice ??= refusalOfNamedTwice(`${source}:${line.line}`, line.text, document);
    }
  }
  if (notOwn !== undefined) {
    // Read as JSONL after all: a line that names a member twice is blocked on its own.
    note(`${source}: line 1 reads as ${reader} and line ${notOwn} does not: every line is read as a record of its own`);
    yield* lines;
    return;
  }
  if (namedTwice !== undefined) throw namedTwice;
  yield* readerLines(source, reader, documents, note, options, inexact);
}

/**
 * The records of a document: its elements, or itself. From the document's text
 * when there is one, so that each is written as the document wrote it; a Parquet
 * file's rows have no text of their own.
 */
function* documentLines(source: string, document: unknown, options: SourceOptions, note: SourceNote, container = "one JSON document", text?: string): Generator<JournalLine> {
  const reader = options.from ?? (options.record === undefined ? READER_ORDER.find((name) => READERS[name].recognise(document)) : undefined);
  if (reader !== undefined) {
    // A store's reader reads the parsed document; records of a plain array keep their own text, where a name given twice blocks its line.
    const refused = text === undefined ? undefined : refusalOfNamedTwice(source, text, document);
    if (refused !== undefined) throw refused;
    // A line a reader of JSONL takes for a record holding an extension item is no record of the store's reader, which may leave it behind unread.
    const alone = text === undefined ? undefined : linesReadAlone(stripBom(text))[0];
    if (alone !== undefined) {
      throw new DocumentError(`${source}: line ${alone.line} of the document is, alone${alone.commaDropped ? " and without the comma that ends it" : ""}, JSON holding ${alone.holds}, which a reader of lines (JSONL, or an array written one element a line) reads as a record of its own, where the ${reader} reader reads no record there: it is not read`);
    }
    return yield* readerLines(source, reader, document, note, options, text === undefined ? [] : inexactNumbers(stripBom(text), []));
  }
  const records = Array.isArray(document) ? document : [document];
  const texts = text === undefined ? undefined : recordTexts(text);
  note(Array.isArray(document) ? `${source} is ${container}, ${container === "one JSON document" ? "an array" : "rows"} of ${plural(records.length, "record")}: record N is ${container === "one JSON document" ? "element" : "row"} /${"{N-1}"}` : `${source} is ${container}: read as one record`);
  const readAlone = text === undefined ? new Map<number, LineReadAlone>() : firstLineReadAlone(stripBom(text));
  for (let index = 0; index < records.length; index++) {
    const line: JournalLine = { source, line: index + 1, text: texts?.[index] ?? JSON.stringify(records[index]) ?? "null" };
    const alone = readAlone.get(index);
    if (alone !== undefined) {
      const error = `line ${alone.line} of the document is, alone${alone.commaDropped ? " and without the comma that ends it" : ""}, JSON holding ${alone.holds}, which a reader of lines (JSONL, or an array written one element a line) reads as a record of its own, where the gate reads it only as a part of ${Array.isArray(document) ? `element /${index}` : "the document"}: the record is not read`;
      yield namesRequestTools(line.text) ? { source, line: index + 1, text: error, error, mayBeRequest: true } : { source, line: index + 1, text: error, error };
      continue;
    }
    yield options.record === undefined ? line : unwrapRecord(line, options.record);
  }
}

/** The first line of each record of the document that a reader of JSONL reads as a record holding a call (document-lines-alone.ts). */
function firstLineReadAlone(text: string): Map<number, LineReadAlone> {
  const byRecord = new Map<number, LineReadAlone>();
  for (const alone of linesReadAlone(text)) if (!byRecord.has(alone.record)) byRecord.set(alone.record, alone);
  return byRecord;
}

/**
 * The records of a binary stream, one a frame, numbered as lines are. A frame
 * that cannot be read, and bytes after the last whole frame, are error lines in
 * their place: a stream open then is damaged, and its calls are not completed.
 */
function* framedLines(source: string, framing: FramedStream, bytes: Buffer, options: SourceOptions, note: SourceNote): Generator<JournalLine> {
  const { records, stopped } = framing.records(bytes);
  note(`${source} is ${framing.title}, ${plural(records.length, "frame")}: record N is frame N${stopped === undefined ? "" : `; ${stopped}`}`);
  let line = 0;
  for (const record of records) {
    line += 1;
    if ("error" in record) yield { source, line, text: record.error, error: record.error };
    else yield options.record === undefined ? { source, line, text: record.text } : unwrapRecord({ source, line, text: record.text }, options.record);
  }
  if (stopped !== undefined) yield { source, line: line + 1, text: stopped, error: stopped };
}

/** A number literal of a document that its double does not stand for (`1.0000000000000001`, `9007199254740993`), and where it is. */
interface InexactNumber {
  literal: string;
  path: string;
}

/** The number literals of a JSON text that their doubles do not stand for, their paths under `prefix`. */
function inexactNumbers(text: string, prefix: ReadonlyArray<string | number>): InexactNumber[] {
  return literalsNotStanding(text).map(({ literal, path }) => ({ literal, path: pointer(...prefix, ...path) }));
}

/**
 * A store's reader reads the parsed document, whose numbers are doubles: a call
 * read from a place that holds a number its double does not stand for (its
 * arguments stored as an object) would be judged on another number than the
 * store holds. It is said, and the gate's reading does not read the call.
 */
function* readerLines(source: string, name: ReaderName, document: unknown, note: SourceNote, options: SourceOptions, inexact: readonly InexactNumber[] = []): Generator<JournalLine> {
  const reading = READERS[name].read(document);
  note(describeReading(source, name, reading));
  for (const loss of reading.losses) if (loss.code !== "left_behind") note(`${source}#${loss.path}${loss.span ? ` (span ${loss.span})` : ""}: ${loss.code}: ${loss.detail}`);
  // What no record holds is said once for each thing left behind (a span's transport, an attribute), at its first place and with how many more.
  for (const { first, more } of groupedBy(reading.losses.filter((loss) => loss.code === "left_behind"), (loss) => loss.detail)) {
    note(`${source}#${first.path}${first.span ? ` (span ${first.span})` : ""}${more > 0 ? ` and ${more} more` : ""}: left_behind: ${first.detail}`);
  }
  let line = 0;
  for (const { record, path, conversation } of reading.records) {
    const held = inexact.length === 0 || !isCall(record) ? undefined : inexact.find((number) => number.path === path || number.path.startsWith(`${path}/`));
    if (held !== undefined) {
      const detail = `the call holds the number ${shownLiteral(held.literal)} at ${held.path}, which a double reads as another number: its arguments would not be the ones the store holds`;
      note(`${source}#${path}: inexact_number: ${detail}`);
      if (options.unreadableAsErrors) {
        const error = `not read: ${source}#${path}: ${detail}`;
        yield { source, line: ++line, text: error, error };
        continue;
      }
    }
    yield { source, line: ++line, text: JSON.stringify(record), conversation };
  }
  if (!options.unreadableAsErrors) return;
  for (const loss of reading.losses) {
    if (loss.code !== "unreadable" && loss.code !== "conflict") continue;
    // `text` repeats the message, as for every line that could not be read.
    const error = loss.code === "conflict" ? `conflict: ${source}#${loss.path}: ${loss.detail}` : `not read: ${source}#${loss.path}: ${loss.detail}, and a call in it would go unjudged`;
    yield { source, line: ++line, text: error, error };
  }
}

/** Each group of `values` by `key`, in the order of their first, with how many more it holds. */
function groupedBy<T>(values: readonly T[], key: (value: T) => string): Array<{ first: T; more: number }> {
  const groups = new Map<string, { first: T; more: number }>();
  for (const value of values) {
    const group = groups.get(key(value));
    if (group) group.more += 1;
    else groups.set(key(value), { first: value, more: 0 });
  }
  return [...groups.values()];
}

/** One sentence on a reading: what every unit became, how the items fared, how many conversations. */
export function describeReading(source: string, name: ReaderName, reading: Reading): string {
  const fates = new Map<string, number>();
  for (const unit of reading.units) fates.set(unit.fate, (fates.get(unit.fate) ?? 0) + 1);
  const units = [...fates].map(([fate, count]) => `${count} ${fate}`).join(", ");
  const conversations = new Set(reading.records.map((record) => record.conversation)).size;
  const { read, emitted, repeated, reported } = reading.messages;
  return `${source}: read as ${name}: ${plural(reading.units.length, "unit")} (${units || "none"}); ${read} read, ${emitted} emitted, ${repeated} repeats, ${reported} not read; ${plural(reading.records.length, "record")} in ${plural(conversations, "conversation")}; ${plural(reading.losses.length, "loss", "losses")}`;
}

export async function* splitLines(source: string, chunks: AsyncIterable<Buffer>, options: SourceOptions): AsyncGenerator<JournalLine> {
  const splitter = new LineSplitter(source, options);
  const record = options.record;
  for await (const chunk of chunks) for (const line of splitter.push(chunk)) yield record === undefined ? line : unwrapRecord(line, record);
  for (const line of splitter.finish()) yield record === undefined ? line : unwrapRecord(line, record);
}

interface Peeked {
  chunks: Buffer[];
  ended: boolean;
}

/** Reads chunks until `enough` holds of what was read, or the source ends. */
async function peek(chunks: AsyncIterator<Buffer>, enough: (buffered: Buffer) => boolean, from: Peeked = { chunks: [], ended: false }): Promise<Peeked> {
  const peeked = { chunks: [...from.chunks], ended: from.ended };
  while (!peeked.ended && !enough(Buffer.concat(peeked.chunks))) {
    const next = await chunks.next();
    if (next.done) peeked.ended = true;
    else peeked.chunks.push(typeof next.value === "string" ? Buffer.from(next.value, "utf8") : next.value);
  }
  return peeked;
}

async function* replay(head: readonly Buffer[], rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  yield* head;
  for (;;) {
    const next = await rest.next();
    if (next.done) return;
    yield typeof next.value === "string" ? Buffer.from(next.value, "utf8") : next.value;
  }
}

function emptyIterator(): AsyncIterator<Buffer> {
  return { next: async () => ({ done: true, value: undefined }) };
}

async function readAll(chunks: AsyncIterable<Buffer>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts).toString("utf8");
}

/** Where the first byte that is not blank (BOM, space, tab, CR, LF) is, or -1. */
function firstNonBlank(bytes: Buffer): number {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0d || bytes[at] === LF)) at++;
  return at < bytes.length ? at : -1;
}

/**
 * Why a document that names a member twice in one object (as written, or once
 * folded) is read as neither of its values (JSON.parse keeps the last, a reader
 * that keeps the first would replay another call): the error that refuses it
 * whole, as a line would be blocked; undefined when it names each member once.
 */
function refusalOfNamedTwice(where: string, text: string, document: unknown): DocumentError | undefined {
  let duplicate: DuplicateName | undefined;
  try {
    duplicate = duplicateName(text, document);
  } catch (error) {
    return new DocumentError(`${where}: the document could not be checked for names given twice (${(error as Error).message}): it is not read`);
  }
  if (duplicate !== undefined) return new DocumentError(`${where}: ${describeDuplicateName("the document", duplicate)}: it is not read`);
  // Two names a reader folding case or width takes for one (`resourceSpans` and
  // `ResourceSpans`, `tool_calls` and `Tool_calls`), of those a store's reader
  // or a call is read by, are one member to it, which keeps the last: the
  // store's reader would read the other.
  const folded = firstNamesFoldedTwice(document, STORED_LOG_NAMES, true);
  return folded === undefined ? undefined : new DocumentError(`${where}: ${describeNamesFoldedTwice("the document", folded)}: it is not read`);
}

/** The end of the first line holding more than blanks, or -1 when it has not ended yet. */
function firstLineEnd(bytes: Buffer): number {
  const opening = firstNonBlank(bytes);
  return opening === -1 ? -1 : bytes.indexOf(LF, opening);
}

function parseOrUndefined(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function isCall(record: unknown): boolean {
  return typeof record === "object" && record !== null && (record as { type?: unknown }).type === "function_call";
}
