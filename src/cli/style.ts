// Colour for terminals only, and never when NO_COLOR is set (no-color.org).
import type { Writable } from "node:stream";

export interface Style {
  blocked(text: string): string;
  passed(text: string): string;
}

const plain: Style = { blocked: (text) => text, passed: (text) => text };

export function styleFor(stream: Writable, env: Record<string, string | undefined>): Style {
  const terminal = (stream as Writable & { isTTY?: boolean }).isTTY === true;
  if (!terminal || (env.NO_COLOR !== undefined && env.NO_COLOR !== "")) return plain;
  return { blocked: (text) => `\x1b[31m${text}\x1b[39m`, passed: (text) => `\x1b[32m${text}\x1b[39m` };
}
