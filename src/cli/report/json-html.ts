// A JSON value pretty-printed as escaped HTML, with the values at some JSON
// Pointers marked: the argument a schema refused is shown where it sits. A
// string or a name is written with each character that does not show (a
// zero-width space, a bidirectional mark, a line separator) as its \u escape,
// as JSON may write it: the text is the same JSON value, and a member
// "region\u200b" or an account "1\u200b2" does not read as "region" or "12".
import { visibleInLine } from "../../models/quote-visible.js";
import { escapeHtml } from "./escape-html.js";

/** Deeper values are written on one line: a hostile journal nests thousands deep. */
const MAX_DEPTH = 40;

/** `marked`: the pointer, or the pointers, of the values to mark. */
export function jsonHtml(value: unknown, marked?: string | ReadonlySet<string>): string {
  return write(value, "", "", typeof marked === "string" ? new Set([marked]) : (marked ?? NOTHING_MARKED));
}

const NOTHING_MARKED: ReadonlySet<string> = new Set();

function write(value: unknown, pointer: string, indent: string, marked: ReadonlySet<string>): string {
  return marked.has(pointer) ? `<mark>${inner(value, pointer, indent, marked)}</mark>` : inner(value, pointer, indent, marked);
}

function inner(value: unknown, pointer: string, indent: string, marked: ReadonlySet<string>): string {
  if (value === null || typeof value !== "object") return escapeHtml(visibleInLine(JSON.stringify(value) ?? "null"));
  if (indent.length / 2 >= MAX_DEPTH) return escapeHtml(visibleInLine(safeStringify(value)));
  const next = indent + "  ";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const parts = value.map((element, index) => next + write(element, `${pointer}/${index}`, next, marked));
    return `[\n${parts.join(",\n")}\n${indent}]`;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return "{}";
  const parts = keys.map((key) => `${next}${escapeHtml(visibleInLine(JSON.stringify(key)))}: ${write((value as Record<string, unknown>)[key], `${pointer}/${escapePointerToken(key)}`, next, marked)}`);
  return `{\n${parts.join(",\n")}\n${indent}}`;
}

function escapePointerToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    return `(not shown: ${(error as Error).message})`;
  }
}
