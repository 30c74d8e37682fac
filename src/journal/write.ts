// Output that never leaves a partial file: `--out FILE` writes to a temporary file
// beside the target and renames it into place only when the run succeeded. The
// input is never opened for writing.
import { createWriteStream, realpathSync, rmSync, statSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Writable } from "node:stream";

export interface JournalOutput {
  stream: Writable;
  /** Puts the output in place (a rename for a file; nothing for stdout), once it is `finish`ed. */
  commit(): Promise<void>;
  /**
   * Writes out what is held and closes the file, failing if it could not be
   * written: a run with several files finishes them all before it puts any in
   * place, so that one that fails leaves none of them written.
   */
  finish?(): Promise<void>;
  /** Discards what was written (the temporary file); the target keeps its old content. */
  abort(): Promise<void>;
  /** Why the file could not be written (a full disk), once it failed. */
  failure?(): OutputFailed | undefined;
}

/** A file the run writes could not be written (a full disk, an I/O error): no fault of the journal, nor of the command line. */
export class OutputFailed extends Error {}

/** Temporary files of outputs not yet committed, for removal when the process is stopped. */
const pending = new Set<string>();

/** Removes the temporary files of unfinished outputs; their targets keep their old content. */
export function removePendingOutputs(): void {
  for (const temporary of pending) rmSync(temporary, { force: true });
  pending.clear();
}

export function stdoutOutput(stdout: Writable): JournalOutput {
  return { stream: stdout, commit: async () => {}, abort: async () => {} };
}

export function atomicFileOutput(path: string): JournalOutput {
  // A device, a pipe or a descriptor (`/dev/stdout`, a FIFO, `/proc/self/fd/1`)
  // is written in place: renaming a file over it would replace the link or the
  // device instead of writing to what it names.
  const existing = statSync(path, { throwIfNoEntry: false });
  if (/^\/(dev|proc)\//.test(path) || (existing && !existing.isFile())) return directOutput(path);
  // Through a symbolic link, the file it names is replaced, and the link kept.
  const target = existing ? realpathSync(path) : path;
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now()}.tmp`);
  const stream = createWriteStream(temporary, { flags: "wx" });
  const closed = closedOf(stream, path);
  const finish = async () => {
    stream.end();
    await closed;
  };
  pending.add(temporary);
  return {
    stream,
    failure: () => closed.failure,
    finish,
    async commit() {
      await finish();
      await rename(temporary, target);
      pending.delete(temporary);
    },
    async abort() {
      stream.destroy();
      await closed.catch(() => {});
      await rm(temporary, { force: true });
      pending.delete(temporary);
    },
  };
}

function directOutput(target: string): JournalOutput {
  const stream = createWriteStream(target, { flags: "a" });
  const closed = closedOf(stream, target);
  const finish = async () => {
    stream.end();
    await closed;
  };
  return {
    stream,
    failure: () => closed.failure,
    finish,
    commit: finish,
    async abort() {
      stream.end();
      await closed.catch(() => {});
    },
  };
}

/**
 * Settles when the file is closed, or fails with what failed, which `failure`
 * keeps. It is awaited only at commit or abort: a failure before then (a write
 * on a full disk) must not count as unhandled, which would stop the process
 * with a stack trace and its temporary file left behind.
 */
function closedOf(stream: Writable, path: string): Promise<void> & { failure?: OutputFailed } {
  const closed: Promise<void> & { failure?: OutputFailed } = new Promise<void>((resolve, reject) => {
    stream.once("close", resolve);
    stream.once("error", (error: Error) => {
      closed.failure = new OutputFailed(`cannot write ${path}: ${error.message}`);
      reject(closed.failure);
    });
  });
  closed.catch(() => undefined);
  return closed;
}
