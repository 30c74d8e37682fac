// A progress line on stderr while a large file is read: only when stderr is a
// terminal and the input is a file (a pipe has no known size). It redraws at
// most a few times a second and clears itself at the end; with NO_COLOR set it
// writes no escape sequence, and clears the line with spaces.
import { statSync } from "node:fs";
import type { Writable } from "node:stream";
import { counted } from "./plural.js";

export interface Progress {
  /** Called as input is read: how much of it (characters of a line and its newline, or bytes of a chunk), how many lines that finished, and how many records are blocked so far (gate). */
  tick(length: number, lines: number, blocked?: number): void;
  done(): void;
}

const silent: Progress = { tick() {}, done() {} };

export function progressFor(sources: readonly string[], stderr: Writable, env: Record<string, string | undefined> = process.env): Progress {
  const terminal = (stderr as Writable & { isTTY?: boolean }).isTTY === true;
  if (!terminal || sources.length === 0 || sources.some((source) => source === "-")) return silent;
  const plain = env.NO_COLOR !== undefined && env.NO_COLOR !== "";
  let total = 0;
  for (const source of sources) total += statSync(source).size;
  if (total === 0) return silent;
  let read = 0;
  let lines = 0;
  let last = 0;
  let drawn = 0;
  const started = Date.now();
  return {
    tick(length, done, blocked) {
      read += length;
      lines += done;
      const now = Date.now();
      if (now - last < 200) return;
      last = now;
      const share = Math.min(1, read / total);
      const width = 30;
      const filled = Math.round(share * width);
      const seconds = (now - started) / 1000;
      const rate = seconds > 0 ? `  ${Math.round(lines / seconds)} lines/s` : "";
      const text = `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${(share * 100).toFixed(0).padStart(3)}%  ${counted(lines, "line")}${blocked === undefined ? "" : `, ${blocked} blocked`}${rate}`;
      stderr.write(`\r${text}${" ".repeat(Math.max(0, drawn - text.length))}`);
      drawn = Math.max(drawn, text.length);
    },
    done() {
      if (drawn > 0) stderr.write(plain ? `\r${" ".repeat(drawn)}\r` : "\r\x1b[2K");
    },
  };
}
