// Turns the operand list of a command into line streams: files in order, `-` or
// nothing for stdin. Every file is checked before any output, so an unreadable
// input is a usage error (exit 2) rather than a half-written result.
import { access, constants } from "node:fs/promises";
import { openSource, readLines, type JournalLine } from "../journal/read.js";
import type { CommandIO } from "./io.js";
import { UsageError } from "./io.js";

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

export async function* inputLines(sources: readonly string[], io: CommandIO): AsyncGenerator<JournalLine> {
  for (const source of sources) {
    const stream = openSource(source, io.stdin);
    try {
      yield* readLines(source, stream);
    } catch (error) {
      throw new UsageError(`cannot read ${source}: ${(error as Error).message}`);
    }
  }
}

export async function readJsonFile(path: string, what: string): Promise<unknown> {
  const { readFile } = await import("node:fs/promises");
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
