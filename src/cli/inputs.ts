// Turns the operand list of a command into line streams: files in order, `-` or
// nothing for stdin. Every file is checked before any output, so an unreadable
// input is a usage error (exit 2) rather than a half-written result.
import { access, constants, readFile } from "node:fs/promises";
import { identityOfPath, identityOfStream, sameFile, type FileIdentity } from "./file-identity.js";
import { openSource, readFileChunks, readLines, type JournalLine, type ReadOptions } from "../journal/read.js";
import { UsageError, type CommandIO } from "./io.js";

export async function checkInputs(operands: readonly string[]): Promise<string[]> {
  const sources = operands.length === 0 ? ["-"] : [...operands];
  for (const source of sources) {
    if (source === "-") continue;
    try {
      await access(source, constants.R_OK);
    } catch {
      throw new UsageError(`cannot read ${source}: no such file or not readable`);
    }
  }
  return sources;
}

export async function* inputLines(sources: readonly string[], io: CommandIO, options: ReadOptions = {}): AsyncGenerator<JournalLine> {
  const standard = standardFiles(io);
  checkStandardStreams(inputFiles(sources, standard.stdin), standard);
  for (const source of sources) {
    const stream = openSource(source, io.stdin);
    try {
      yield* readLines(source, stream, options);
    } catch (error) {
      throw new UsageError(`cannot read ${source}: ${(error as Error).message}`);
    }
  }
}

/** A chunk of one source's bytes, or the end of that source. */
export type InputChunk = { source: string; bytes: Buffer } | { source: string; end: true };

/** The bytes of every source, in order, in chunks (of 64 KiB from a file) that are the caller's own, each source followed by its end. */
export async function* inputChunks(sources: readonly string[], io: CommandIO): AsyncGenerator<InputChunk> {
  const standard = standardFiles(io);
  checkStandardStreams(inputFiles(sources, standard.stdin), standard);
  for (const source of sources) {
    const chunks = source === "-" ? (io.stdin as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]() : readFileChunks(source);
    try {
      // The next chunk is asked for before this one is handed on, so that it is
      // read while this one is worked on.
      let next = chunks.next();
      for (;;) {
        next.catch(() => undefined);
        const { done, value } = await next;
        if (done) break;
        next = chunks.next();
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

export async function readJsonFile(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new UsageError(`cannot read ${what} ${path}: no such file or not readable`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${what} ${path} is not JSON: ${(error as Error).message}`);
  }
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
  if (!/^[1-9][0-9]*$/.test(value)) throw new UsageError(`--max-line-bytes must be a positive whole number of bytes (got "${value}")`);
  return { maxLineBytes: Number(value) };
}
