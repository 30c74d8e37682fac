// Output that never leaves a partial file: `--out FILE` writes to a temporary file
// beside the target and renames it into place only when the run succeeded. The
// input is never opened for writing.
import { createWriteStream, realpathSync, rmSync, statSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Writable } from "node:stream";

export interface JournalOutput {
  stream: Writable;
  /** Puts the output in place (a rename for a file; nothing for stdout). */
  commit(): Promise<void>;
  /** Discards what was written (the temporary file); the target keeps its old content. */
  abort(): Promise<void>;
}

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
  const closed = closedOf(stream);
  pending.add(temporary);
  return {
    stream,
    async commit() {
      stream.end();
      await closed;
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
  const closed = closedOf(stream);
  return {
    stream,
    async commit() {
      stream.end();
      await closed;
    },
    async abort() {
      stream.end();
      await closed.catch(() => {});
    },
  };
}

function closedOf(stream: Writable): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    stream.once("close", resolve);
    stream.once("error", reject);
  });
}
