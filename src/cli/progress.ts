// A progress line on stderr while a large file is read: only when stderr is a
// terminal and the input is a file (a pipe has no known size). It redraws at
// most a few times a second and clears itself at the end.
import { statSync } from "node:fs";
import type { Writable } from "node:stream";

export interface Progress {
  /** Called as input is read: how much of it (characters of a line and its newline, or bytes of a chunk) and how many lines that finished. */
  tick(length: number, lines: number): void;
  done(): void;
}

const silent: Progress = { tick() {}, done() {} };

export function progressFor(sources: readonly string[], stderr: Writable): Progress {
  const terminal = (stderr as Writable & { isTTY?: boolean }).isTTY === true;
  if (!terminal || sources.some((source) => source === "-")) return silent;
  let total = 0;
  for (const source of sources) total += statSync(source).size;
  if (total === 0) return silent;
  let read = 0;
  let lines = 0;
  let last = 0;
  let drawn = false;
  return {
    tick(length, done) {
      read += length;
      lines += done;
      const now = Date.now();
      if (now - last < 200) return;
      last = now;
      const share = Math.min(1, read / total);
      const width = 30;
      const filled = Math.round(share * width);
      stderr.write(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}%  ${lines} lines`);
      drawn = true;
    },
    done() {
      if (drawn) stderr.write("\r\x1b[2K");
    },
  };
}
