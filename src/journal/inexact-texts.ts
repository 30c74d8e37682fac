// The JSON texts a conversion wrote from objects whose numbers the record wrote
// with more digits than their doubles hold. An Anthropic `input`, a Gemini
// `args`, a Bedrock `input` become an arguments text (Open Responses, Chat):
// JSON.stringify writes each number as its double, so `0.1000000000000000055`
// reaches the text as `0.1`. The text cannot say which literal was meant when
// two read as one double, so it is left as written and reported. A number whose
// double stands for it but that the record wrote in another form (`2.50`, `1E3`,
// `7.0`) is put back in the text as written.
import { shownLiteral } from "../models/decimal-value.js";
import { pointer } from "../models/json-pointer.js";
import type { Loss } from "../models/loss.js";
import { parseJsonText } from "../models/json-value.js";
import { writtenFromInexact, type InexactLiterals } from "./inexact-numbers.js";
import { restoreNumberTexts, type NumberTexts } from "./number-texts.js";

/**
 * One loss of the record for each string of `written` (the records a
 * conversion wrote, at any depth) that is the JSON text of an object or array
 * holding the double of one of the record's `inexact` literals, past the times
 * the `source` record wrote that text itself (those are its own).
 */
export function inexactTextLosses(written: readonly unknown[], inexact: InexactLiterals, source: unknown): Loss[] {
  const losses: Loss[] = [];
  objectTextsMade(written, source, (text, tokens) => {
    for (const literal of writtenFromInexact(text, inexact)) {
      losses.push({ path: "", code: "form_changed", detail: `the text written at ${pointer(...tokens()) || "/"} holds the number ${shownLiteral(literal)} of the record as its double writes it, ${JSON.stringify(Number(literal))}: a double does not stand for the number as written` });
    }
  });
  return losses;
}

/**
 * Puts back, in each string of `written` that is the JSON text of an object or
 * array a conversion made (not a text the `source` record wrote itself), the
 * numbers as the record wrote them (`2.50`, `1E3`, `-0`, `7.0`), where
 * JSON.stringify wrote their doubles' shortest texts. Returns a loss for each
 * number the record writes two ways, which cannot be put back.
 */
export function restoreObjectTexts(written: unknown[], texts: NumberTexts, source: unknown): Loss[] {
  const losses: Loss[] = [];
  const replaced: Array<{ tokens: Array<string | number>; text: string }> = [];
  objectTextsMade(written, source, (text, tokens) => {
    const back = restoreNumberTexts(text, texts);
    const at = pointer(...tokens()) || "/";
    for (const loss of back.losses) losses.push({ ...loss, detail: `the text written at ${at}: ${loss.detail}` });
    if (back.text !== text) replaced.push({ tokens: tokens(), text: back.text });
  });
  for (const { tokens, text } of replaced) {
    // A single value's tokens do not name its index: it is the first.
    const path = written.length > 1 ? tokens : [0, ...tokens];
    let container = written as unknown as Record<string | number, unknown>;
    for (const token of path.slice(0, -1)) container = container[token] as Record<string | number, unknown>;
    container[path[path.length - 1]!] = text;
  }
  return losses;
}

/**
 * Each string of `values` at any depth, in order, with the way to its pointer
 * (led by the value's index when there are several), built only when asked for.
 */
function walkStrings(values: readonly unknown[], visit: (text: string, tokens: () => Array<string | number>) => void): void {
  // An explicit stack, and each container's parent and key rather than a copy
  // of its path: the records may nest deeper than the call stack goes.
  const parents: number[] = [];
  const keys: Array<string | number> = [];
  const tokensOf = (node: number): Array<string | number> => {
    const tokens: Array<string | number> = [];
    // Node 0 stands above the values; a value's own node is its index, named only among several.
    for (let at = node; at > 0; at = parents[at]!) if (parents[at] !== 0 || values.length > 1) tokens.push(keys[at]!);
    return tokens.reverse();
  };
  parents.push(-1);
  keys.push("");
  const pending: Array<{ value: unknown; node: number }> = [];
  for (let index = values.length - 1; index >= 0; index -= 1) {
    parents.push(0);
    keys.push(index);
    pending.push({ value: values[index], node: parents.length - 1 });
  }
  while (pending.length > 0) {
    const { value, node } = pending.pop()!;
    if (typeof value === "string") visit(value, () => tokensOf(node));
    else if (value !== null && typeof value === "object") {
      const children = Object.entries(value);
      for (let at = children.length - 1; at >= 0; at -= 1) {
        parents.push(node);
        keys.push(Array.isArray(value) ? at : children[at]![0]);
        pending.push({ value: children[at]![1], node: parents.length - 1 });
      }
    }
  }
}

/**
 * Each string of `written` that is the JSON text of an object or array (one
 * JSON.parse reads: the number walks read numbers out of any text), past the
 * times the `source` record wrote that text itself: a text written as often as
 * the record wrote it may be all its own.
 */
function objectTextsMade(written: readonly unknown[], source: unknown, visit: (text: string, tokens: () => Array<string | number>) => void): void {
  const own = new Map<string, number>();
  walkStrings([source], (text) => void own.set(text, (own.get(text) ?? 0) + 1));
  walkStrings(written, (text, tokens) => {
    const times = own.get(text) ?? 0;
    if (times > 0) {
      own.set(text, times - 1);
      return;
    }
    const first = text.trimStart()[0];
    if ((first === "{" || first === "[") && parseJsonText(text).ok) visit(text, tokens);
  });
}
