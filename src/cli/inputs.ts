// Turns the operand list of a command into line streams: files in order, `-` or
// nothing for stdin. Every file is checked before any output, so an unreadable
// input is a usage error (exit 2) rather than a half-written result.
//
// Each source is read whatever its container (read-document.ts): JSONL or SSE
// text, one JSON document, a stored log (`--from NAME` forces its reader), gzip
// of any of these; `--record POINTER` takes the record out of each wrapped line.
// What a stored-log reading says (what became of each span or page, its losses)
// is written on stderr, so nothing it leaves out goes unsaid.
import { fstatSync } from "node:fs";
import { access, constants, readFile, stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import { READER_ORDER, isReaderName } from "../../adapters/index.js";
import { identityOfPath, identityOfStream, sameFile, type FileIdentity } from "./file-identity.js";
import { parsePointer } from "../journal/json-pointer.js";
import { readFileChunks, unreadableLineText, type JournalLine, type ReadOptions } from "../journal/read.js";
import { DocumentError, openSourceBytes, splitLines, type SourceOptions } from "../journal/read-document.js";
import { stringOption, type OptionSpec, type ParsedArgs } from "./args.js";
import { UsageError, write, type CommandIO } from "./io.js";
import { readSchemaText } from "../journal/schema-text.js";
import { visibleInLine } from "../models/quote-visible.js";

/**
 * The sources of the operands, each checked readable; stdin (`-`, or no operand)
 * is checked when it is a descriptor (`stdin` the command's).
 */
export async function checkInputs(operands: readonly string[], stdin?: Readable): Promise<string[]> {
  const sources = operands.length === 0 ? ["-"] : [...operands];
  for (const source of sources) {
    if (source === "-") {
      checkStdin(stdin);
      continue;
    }
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(source)).isDirectory();
    } catch {
      throw new UsageError(`cannot read ${source}: no such file or not readable`);
    }
    if (isDirectory) throw new UsageError(`${source} is a directory: give the journal files in it (as ${source.replace(/\/+$/, "")}/*.jsonl)`);
    try {
      await access(source, constants.R_OK);
    } catch {
      throw new UsageError(`cannot read ${source}: permission denied`);
    }
  }
  return sources;
}

/**
 * Node reads a directory given as stdin (`orbridge gate < folder`) as empty,
 * without an error: the run would say that nothing was blocked in a journal it
 * never read.
 */
function checkStdin(stdin: Readable | undefined): void {
  const fd = stdin === undefined ? undefined : (stdin as Readable & { fd?: unknown }).fd;
  if (typeof fd !== "number") return;
  let isDirectory = false;
  try {
    isDirectory = fstatSync(fd).isDirectory();
  } catch {
    // A descriptor that cannot be looked at is read as it comes, and fails there if it must.
  }
  if (isDirectory) throw new UsageError("standard input is a directory: give the journal files in it (as FOLDER/*.jsonl)");
}

/** The options every reading command takes about its inputs. */
export const INPUT_OPTIONS: Record<string, OptionSpec> = {
  from: { value: true, choices: READER_ORDER },
  record: { value: true },
};

/** The help lines of INPUT_OPTIONS, in the layout of every command's help. */
export const INPUT_OPTIONS_HELP = `  --from STORE     read each FILE as a stored log of STORE, whatever its shape:
                   ${[...READER_ORDER].sort().join(", ")} (without it, a stored log
                   is recognised by its shape)
  --record POINTER the record is at POINTER (a JSON Pointer, as /message) inside
                   each line; a line where it is absent is an error on its line
                   (other options that take a pointer then point into the record);
                   normalize and convert write each output record back at POINTER
                   in its line's wrapper, the other fields as the line wrote them
`;

/** `--max-line-bytes`, `--from` and `--record`, checked. */
export function inputOptions(args: ParsedArgs): SourceOptions {
  const options: SourceOptions = maxLineBytesOption(stringOption(args, "max-line-bytes"));
  const from = stringOption(args, "from");
  if (from !== undefined && isReaderName(from)) options.from = from;
  const record = stringOption(args, "record");
  if (record !== undefined) {
    try {
      options.record = parsePointer(record);
    } catch (error) {
      throw new UsageError(`--record: ${(error as Error).message}`);
    }
    if (options.from !== undefined) throw new UsageError("--record reads records out of wrapped lines; --from reads a stored log: give one of them");
  }
  return options;
}

/** The bytes of one source as it is stored: a file in large reads, or stdin (said to be awaited when it is a terminal). */
async function* sourceBytes(source: string, io: CommandIO): AsyncGenerator<Buffer> {
  if (source !== "-") return yield* readFileChunks(source);
  if ((io.stdin as Readable & { isTTY?: boolean }).isTTY === true) {
    await write(io.stderr, "orbridge: reading a journal from the terminal: paste JSONL records, one per line, and end with Ctrl-D; or give a FILE\n");
  }
  for await (const chunk of io.stdin as AsyncIterable<Buffer | string>) yield typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
}

function noteOn(io: CommandIO): (text: string) => void {
  // Written at once: a reading's notes come before any of its records. A note
  // quotes the store (a span id, an attribute's key), and on a terminal a
  // carriage return or an escape sequence in it would rub the note out and
  // print a line of its own, as a verdict that passed: each is shown escaped.
  return (text) => void write(io.stderr, `orbridge: ${visibleInLine(text)}\n`);
}

export async function* inputLines(sources: readonly string[], io: CommandIO, options: SourceOptions = {}): AsyncGenerator<JournalLine> {
  const standard = standardFiles(io);
  checkStandardStreams(inputFiles(sources, standard.stdin), standard);
  for (const source of sources) {
    try {
      const opened = await openSourceBytes(source, sourceBytes(source, io), options, noteOn(io));
      if (opened.kind === "records") yield* opened.lines;
      else yield* splitLines(source, opened.chunks, options);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      if (error instanceof DocumentError) throw new UsageError(error.message);
      throw new UsageError(`cannot read ${source}: ${(error as Error).message}`);
    }
  }
}

/**
 * The bytes of a source as JSONL: a JSONL file's own (a file's chunks are the
 * reader's, which `gate --jobs` may move to another thread; stdin's are copied),
 * or the records of a document, a stored log or `--record`, one per line.
 */
async function openedChunks(source: string, io: CommandIO, options: SourceOptions): Promise<AsyncIterable<Buffer | string>> {
  const opened = await openSourceBytes(source, sourceBytes(source, io), options, noteOn(io));
  if (opened.kind === "bytes" && options.record === undefined) return opened.chunks;
  const lines = opened.kind === "records" ? opened.lines : splitLines(source, opened.chunks, options);
  return recordChunks(lines);
}

/** Lines as JSONL chunks of about 64 KiB; a line that could not be read stays an error in its place. */
async function* recordChunks(lines: Iterable<JournalLine> | AsyncIterable<JournalLine>): AsyncGenerator<Buffer> {
  let pending = "";
  for await (const line of lines) {
    pending += (line.error === undefined ? line.text : unreadableLineText(line.error, line.mayBeRequest === true)) + "\n";
    if (pending.length >= 65_536) {
      yield Buffer.from(pending, "utf8");
      pending = "";
    }
  }
  if (pending !== "") yield Buffer.from(pending, "utf8");
}

/** A chunk of one source's bytes, or the end of that source. */
export type InputChunk = { source: string; bytes: Buffer } | { source: string; end: true };

/** The bytes of every source, in order, in chunks (of 64 KiB from a file) that are the caller's own, each source followed by its end. */
export async function* inputChunks(sources: readonly string[], io: CommandIO, options: SourceOptions = {}): AsyncGenerator<InputChunk> {
  const standard = standardFiles(io);
  checkStandardStreams(inputFiles(sources, standard.stdin), standard);
  for (const source of sources) {
    let chunks: AsyncIterator<Buffer | string>;
    try {
      chunks = (await openedChunks(source, io, options))[Symbol.asyncIterator]();
    } catch (error) {
      if (error instanceof DocumentError) throw new UsageError(error.message);
      throw new UsageError(`cannot read ${source}: ${(error as Error).message}`);
    }
    try {
      // The next chunk is asked for before this one is handed on, so that it is
      // read while this one is worked on (and may fail while this generator waits at its yield).
      let next = ahead(chunks);
      for (;;) {
        const { done, value } = await next;
        if (done) break;
        next = ahead(chunks);
        // Each chunk handed on is a buffer of its own, which may be moved to another
        // thread (`gate --jobs`): a file's chunks are read so, stdin's are copied.
        const bytes = typeof value === "string" ? Buffer.from(value, "utf8") : source === "-" ? Buffer.from(value) : value;
        if (bytes.length > 0) yield { source, bytes };
      }
    } catch (error) {
      throw new UsageError(`cannot read ${source}: ${(error as Error).message}`);
    } finally {
      await chunks.return?.();
    }
    yield { source, end: true };
  }
}

/** The next chunk, asked for now and awaited later: its failure is thrown where it is awaited, never reported as unhandled before. */
function ahead<T>(chunks: AsyncIterator<T>): Promise<IteratorResult<T>> {
  const next = chunks.next();
  next.catch(() => undefined);
  return next;
}

export async function readJsonFile(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new UsageError(`cannot read ${what} ${path}: no such file or not readable`);
  }
  const read = readSchemaText(text, `${what} ${path}`);
  if (!read.ok) throw new UsageError(read.message);
  return read.value;
}

/** An input of the run and the file it stands for: a file named, or stdin when it is read. */
export interface InputFile {
  /** The operand: a path, or "-". */
  source: string;
  identity: FileIdentity | undefined;
}

export function inputFiles(sources: readonly string[], stdin: FileIdentity | undefined): InputFile[] {
  return sources.map((source) => ({ source, identity: source === "-" ? stdin : identityOfPath(source) }));
}

/** The files behind the standard streams; `undefined` for a stream in memory (a library caller's, a test's). */
export interface StandardFiles {
  stdin: FileIdentity | undefined;
  stdout: FileIdentity | undefined;
  stderr: FileIdentity | undefined;
}

export function standardFiles(io: Pick<CommandIO, "stdin" | "stdout" | "stderr">): StandardFiles {
  return { stdin: identityOfStream(io.stdin), stdout: identityOfStream(io.stdout), stderr: identityOfStream(io.stderr) };
}

/**
 * Refuses a run whose standard output or standard error is one of its inputs
 * (`orbridge gate journal.jsonl >> journal.jsonl`): each line written would be
 * read again, and the journal would grow for as long as the run lasts.
 */
export function checkStandardStreams(inputs: readonly InputFile[], standard: StandardFiles): void {
  for (const [name, identity] of [["standard output", standard.stdout], ["standard error", standard.stderr]] as const) {
    const input = inputs.find((candidate) => sameFile(candidate.identity, identity));
    if (input) throw new UsageError(`${name} is also an input (${describeInput(input.source)}); inputs are never overwritten`);
  }
}

export function describeInput(source: string): string {
  return source === "-" ? "standard input" : source;
}

/** `--max-line-bytes N`: a positive whole number of bytes. */
export function maxLineBytesOption(value: string | undefined): ReadOptions {
  if (value === undefined) return {};
  // A number past the safe integers is no exact count of bytes, and the line reader refuses it: refused here, as the command line's fault.
  if (!/^[1-9][0-9]*$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`--max-line-bytes must be a positive whole number of bytes (got "${value}")`);
  return { maxLineBytes: Number(value) };
}
