// What a command may touch: its streams and environment, passed in so that tests
// run commands in-process and read exactly what a user would see.
import type { Readable, Writable } from "node:stream";

export interface CommandIO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: Record<string, string | undefined>;
}

export type ExitCode = 0 | 1 | 2;

/**
 * Set when the process stops on a signal (main.ts), which then waits for what
 * was handed to stdout before it to be written whole: a later write would go
 * after it, and be cut by the exit.
 */
let stopping = false;

export function stopWriting(): void {
  stopping = true;
}

/** Writes one chunk, waiting for the stream to drain when its buffer is full. */
export function write(stream: Writable, chunk: string): Promise<void> | undefined {
  // Stopping: nothing more is handed on, and the run waits here for the exit.
  if (stopping) return new Promise<void>(() => undefined);
  // A stream that failed takes nothing more and never drains: waiting would hang the run.
  if (stream.errored) return Promise.reject(stream.errored);
  if (stream.write(chunk)) return undefined;
  return new Promise((resolve, reject) => {
    const done = () => {
      stream.off("error", fail);
      resolve();
    };
    const fail = (error: Error) => {
      stream.off("drain", done);
      reject(error);
    };
    stream.once("drain", done);
    stream.once("error", fail);
  });
}

/** A problem of usage or input: one line on stderr, exit 2. */
export class UsageError extends Error {}

/** The run stops for what a journal did to the process (it is no fault of the command line): said in one plain line, status 2. */
export class StoppedRun extends Error {}

/**
 * Gathers output lines and writes them in chunks of about 64 KB: one stream
 * write per line costs more than the line itself. `flush` before the end.
 */
export class LineWriter {
  private pending = "";
  constructor(private readonly stream: Writable) {}

  line(text: string): Promise<void> | undefined {
    this.pending += text + "\n";
    return this.pending.length >= 65_536 ? this.flush() : undefined;
  }

  /** Gathers text that is already whole lines, without writing: for a batch handled at once, with `flushIfFull` after it. */
  add(lines: string): void {
    this.pending += lines;
  }

  /**
   * Called once per batch. Besides writing, it lets the event loop turn: input read
   * ahead and output that does not block would otherwise keep it from turning for
   * many batches, and a SIGINT or SIGTERM handler (main.ts) only runs when it does.
   */
  async flushIfFull(): Promise<void> {
    if (this.pending.length >= 65_536) await this.flush();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  flush(): Promise<void> | undefined {
    if (this.pending === "") return undefined;
    const chunk = this.pending;
    this.pending = "";
    return write(this.stream, chunk);
  }
}
