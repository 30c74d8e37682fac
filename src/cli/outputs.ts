// The files a run writes: `--out` (stdout without it) and `--report`, opened only
// when each has a place of its own, put in place only when the whole run
// succeeded, and discarded on any error, so no file is partial.
//
// | refused before anything is opened or read                 | why                                          |
// |-----------------------------------------------------------|----------------------------------------------|
// | an output that is an input (a path, a symbolic or hard    | the input would be replaced, or (a device,   |
// |   link, /dev/stdin, /dev/fd/0, /proc/self/fd/0 when stdin |   a pipe) appended to while it is read       |
// |   is read)                                                |                                              |
// | an output that is stdin, read or not, when stdin is a file | a pipe nobody reads fills and the run hangs |
// |   or a pipe                                               |                                              |
// | `--out` and `--report` naming one file, or `--report` the | one would replace the other, or their lines  |
// |   stdout the items go to (a file or a pipe)               |   would mix                                  |
// | standard output or standard error that is an input        | each line written would be read again        |
// | a directory, a folder that does not exist or cannot be    | the run would end in a crash                 |
// |   written, a socket (/dev/stdout of a process spawned     |                                              |
// |   with socket pairs)                                      |                                              |
// A terminal or /dev/null may take any number of outputs.
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import { atomicFileOutput, stdoutOutput, type JournalOutput } from "../journal/write.js";
import { gzipFileOutput } from "../journal/write-gzip.js";
import { identityOfDescriptor, identityOfPath, identityOfStream, sameFile, type FileIdentity } from "./file-identity.js";
import { checkStandardStreams, inputFiles, type StandardFiles } from "./inputs.js";
import { UsageError } from "./io.js";
import type { Progress } from "./progress.js";
import { ReportWriter } from "./loss-report.js";

/**
 * Opens the output (a file for `--out`, else stdout) and the `--report` file, if
 * any, once neither can destroy an input or the other (see the top of this file).
 * `streams` are the command's stdin and stderr; without them, a run on the
 * process's own stdout is taken to be on its stdin and stderr too.
 */
/**
 * `more`: the command's other files, checked with these: outputs by option
 * (`--id-map`), each needing a file of its own, and inputs no output may
 * overwrite (`--map`).
 */
export interface OtherFiles {
  outputs?: ReadonlyArray<readonly [option: string, path: string | undefined]>;
  inputs?: readonly string[];
}

export function openOutputs(
  outPath: string | undefined,
  reportPath: string | undefined,
  sources: readonly string[],
  stdout: Writable,
  streams?: { stdin: Readable; stderr: Writable },
  more: OtherFiles = {},
): { output: JournalOutput; report?: ReportWriter } {
  checkOutputs(outPath, reportPath, sources, standardFilesOf(stdout, streams), more);
  // A name ending in .gz is the one place a name decides anything: the user asked for gzip.
  const output = outPath === undefined || outPath === "" ? stdoutOutput(stdout) : outPath.endsWith(".gz") ? gzipFileOutput(outPath) : atomicFileOutput(outPath);
  return { output, ...(reportPath ? { report: new ReportWriter(reportPath) } : {}) };
}

function standardFilesOf(stdout: Writable, streams: { stdin: Readable; stderr: Writable } | undefined): StandardFiles {
  if (streams) return { stdin: identityOfStream(streams.stdin), stdout: identityOfStream(stdout), stderr: identityOfStream(streams.stderr) };
  const own = stdout === process.stdout;
  return { stdin: own ? identityOfDescriptor(0) : undefined, stdout: identityOfStream(stdout), stderr: own ? identityOfDescriptor(2) : undefined };
}

interface NamedOutput {
  option: string;
  path: string;
  identity: FileIdentity | undefined;
  /** Where a file that does not exist yet will be created; `undefined` when it exists. */
  newPlace: string | undefined;
}

export function checkOutputs(outPath: string | undefined, reportPath: string | undefined, sources: readonly string[], standard: StandardFiles, more: OtherFiles = {}): void {
  const inputs = inputFiles(sources, standard.stdin);
  checkStandardStreams(inputs, standard);
  inputs.push(...inputFiles(more.inputs ?? [], standard.stdin));
  const named: NamedOutput[] = [];
  for (const [option, path] of [["--out", outPath], ["--report", reportPath], ...(more.outputs ?? [])] as const) {
    if (path === undefined) continue;
    const output = namedOutput(option, path);
    const input = inputs.find((candidate) => sameFile(candidate.identity, output.identity));
    if (input) throw new UsageError(`${option} ${path} is also an input${input.source === "-" ? " (standard input)" : ""}; inputs are never overwritten`);
    if (sameFile(output.identity, standard.stdin)) throw new UsageError(`${option} ${path} is standard input; an output never writes into what the run was given to read`);
    for (const other of named) {
      if (sameFile(output.identity, other.identity) || (output.newPlace !== undefined && output.newPlace === other.newPlace)) {
        throw new UsageError(`${option} ${path} is the same file as ${other.option} ${other.path}; each output needs a file of its own`);
      }
    }
    if (outPath === undefined && sameFile(output.identity, standard.stdout)) {
      throw new UsageError(`${option} ${path} is the standard output the items are written to; each output needs a file of its own`);
    }
    named.push(output);
  }
}

/** What an output path names, once it is known to be a place a file can be written. */
function namedOutput(option: string, path: string): NamedOutput {
  if (path === "") throw new UsageError(`${option} needs a file name`);
  let stats;
  try {
    stats = statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOTDIR" ? "a part of its path is not a folder" : code === "EACCES" ? "permission denied" : (code ?? (error as Error).message);
    throw new UsageError(`cannot write ${option} ${path}: ${why}`);
  }
  if (stats?.isDirectory()) throw new UsageError(`${option} ${path} is a directory`);
  // The system opens no socket by a name in /dev or /proc: the run would crash at its first line.
  if (stats?.isSocket()) throw new UsageError(`cannot write ${option} ${path}: it is a socket, which cannot be opened by name`);
  const identity = identityOfPath(path);
  // A device, a pipe or a descriptor is written in place; a file is written beside
  // its target and renamed over it, so the folder must take a new file.
  if (stats !== undefined && !stats.isFile()) return { option, path, identity, newPlace: undefined };
  const folder = stats !== undefined ? dirname(realpathSync(path)) : dirname(resolve(path));
  const folderStats = statSync(folder, { throwIfNoEntry: false });
  if (folderStats === undefined || !folderStats.isDirectory()) throw new UsageError(`cannot write ${option} ${path}: there is no folder ${folder}`);
  try {
    accessSync(folder, constants.W_OK | constants.X_OK);
  } catch {
    throw new UsageError(`cannot write ${option} ${path}: the folder ${folder} cannot be written`);
  }
  return { option, path, identity, newPlace: stats === undefined ? join(realpathSync(folder), basename(path)) : undefined };
}

interface PendingOutput {
  finish?(): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
  failure?(): Error | undefined;
}

export async function writeThenCommit(outputs: ReadonlyArray<PendingOutput | undefined>, progress: Progress, work: () => Promise<void>): Promise<void> {
  try {
    await work();
    progress.done();
    // Every file written out before any is put in place: one that fails then leaves none.
    for (const output of outputs) await output?.finish?.();
    for (const output of outputs) await output?.commit();
  } catch (error) {
    progress.done();
    for (const output of outputs) await output?.abort();
    // A file that could not be written is the cause: what failed after it (a write
    // into a stream that takes nothing more) only follows from it.
    throw outputs.map((output) => output?.failure?.()).find((failure) => failure !== undefined) ?? error;
  }
}
