// Colour for terminals only, and never when NO_COLOR is set (no-color.org).
import type { Writable } from "node:stream";

export interface Style {
  blocked(text: string): string;
  passed(text: string): string;
}

const plain: Style = { blocked: (text) => text, passed: (text) => text };

const coloured: Style = { blocked: (text) => `\x1b[31m${text}\x1b[39m`, passed: (text) => `\x1b[32m${text}\x1b[39m` };

export function styleFor(stream: Writable, env: Record<string, string | undefined>): Style {
  return wantsColour(stream, env) ? coloured : plain;
}

/** Whether output to `stream` is coloured: a terminal, and NO_COLOR not set. */
export function wantsColour(stream: Writable, env: Record<string, string | undefined>): boolean {
  const terminal = (stream as Writable & { isTTY?: boolean }).isTTY === true;
  return terminal && !(env.NO_COLOR !== undefined && env.NO_COLOR !== "");
}

export function styleOf(colour: boolean): Style {
  return colour ? coloured : plain;
}
