// The JSON texts a conversion wrote from objects whose numbers the record wrote
// with more digits than their doubles hold. An Anthropic `input`, a Gemini
// `args`, a Bedrock `input` become an arguments text (Open Responses, Chat):
// JSON.stringify writes each number as its double, so `0.1000000000000000055`
// reaches the text as `0.1`. The text cannot say which literal was meant when
// two read as one double, so it is left as written and reported. A number whose
// double stands for it but that the record wrote in another form (`2.50`, `1E3`,
// `7.0`) is put back in the text as written.
//
// A later step may join such a text to other text (Gemini writes a result's
// text parts as one response): the joined text is no JSON text of its own, so
// the JSON text the first step made is found inside it, and its numbers are put
// back or reported there.
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
      losses.push({ path: numberPointer(source, literal), code: "form_changed", detail: `the text written at ${pointer(...tokens()) || "/"} holds the number ${shownLiteral(literal)} of the record as its double writes it, ${JSON.stringify(Number(literal))}: a double does not stand for the number as written` });
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
  for (const { tokens, text } of replaced) replaceString(written, tokens, text);
  return losses;
}

/**
 * The JSON texts of objects and arrays a conversion's first step made
 * (`made`: its Open Responses values, not texts the `source` record wrote
 * itself) that hold a number the record wrote otherwise: in another form
 * (`texts`) or with more digits than a double holds (`inexact`). Where a later
 * step joined one to other text, in a string of `written`, its numbers are put
 * back there as the record wrote them; those a double does not stand for stay
 * as the double writes them, and each is a loss at its place in the record.
 * `source` is undefined for a stream, whose records are several.
 */
export function restoreJoinedTexts(args: { written: unknown[]; made: readonly unknown[]; source: unknown; texts?: NumberTexts; inexact?: InexactLiterals }): Loss[] {
  const { written, source, texts, inexact } = args;
  const made = textsToFind(args.made, source, texts, inexact);
  if (made.length === 0) return [];
  const whole = new Set(made);
  const losses: Loss[] = [];
  const replaced: Array<{ tokens: Array<string | number>; text: string }> = [];
  const found = new Set<string>();
  stringsMade(written, source, (text, tokens) => {
    // A text that is one of them whole is restoreObjectTexts' and inexactTextLosses' to answer.
    if (whole.has(text)) {
      found.add(text);
      return;
    }
    let joined = text;
    const reported = new Set<string>();
    for (const json of made) {
      if (!joined.includes(json)) continue;
      found.add(json);
      const at = pointer(...tokens()) || "/";
      for (const literal of inexact === undefined ? [] : writtenFromInexact(json, inexact)) {
        if (reported.has(literal)) continue;
        reported.add(literal);
        losses.push({ path: numberPointer(source, literal), code: "form_changed", detail: `the text written at ${at} joins a JSON text made of the record to other text, and holds the number ${shownLiteral(literal)} of the record as its double writes it, ${JSON.stringify(Number(literal))}: a double does not stand for the number as written` });
      }
      if (texts === undefined) continue;
      const back = restoreNumberTexts(json, texts);
      for (const loss of back.losses) losses.push({ ...loss, detail: `the text written at ${at}, joined to other text: ${loss.detail}` });
      if (back.text === json) continue;
      // The made text cannot be told from the same text written by the record itself (one of its own
      // strings holds it, or it is held more than once), nor from a stream's own text: none is changed.
      const ambiguous = source === undefined ? "a stream's own text may hold it too" : joined.indexOf(json) !== joined.lastIndexOf(json) ? "it is held more than once" : ownStringHolds(source, json) ? "the record writes that text itself too" : undefined;
      if (ambiguous !== undefined) {
        const number = firstNumberOf(json, back.text);
        losses.push({ path: number === "" ? "" : numberPointer(source, number), code: "form_changed", detail: `the text written at ${at} holds a JSON text made of the record among other text, and ${ambiguous}: which is the one made is not known, so its numbers are written as their doubles write them, not as the record wrote them` });
        continue;
      }
      joined = joined.replace(json, () => back.text);
    }
    if (joined !== text) replaced.push({ tokens: tokens(), text: joined });
  });
  for (const { tokens, text } of replaced) replaceString(written, tokens, text);
  if (inexact !== undefined) losses.push(...infiniteParsedBack(made.filter((json) => !found.has(json)), inexact, source));
  return losses;
}

/**
 * A made JSON text that no string written holds was read back into an object
 * (a Gemini `args`, an Anthropic `input`): its numbers are put back where the
 * record is written, but one past the largest double, which the text wrote
 * `null`, is a null there, which nothing can tell from one the record wrote.
 */
function infiniteParsedBack(texts: readonly string[], inexact: InexactLiterals, source: unknown): Loss[] {
  const losses: Loss[] = [];
  const said = new Set<string>();
  for (const json of texts) {
    for (const literal of writtenFromInexact(json, inexact)) {
      if (Number.isFinite(Number(literal)) || said.has(literal)) continue;
      said.add(literal);
      losses.push({ path: numberPointer(source, literal), code: "form_changed", detail: `the number ${shownLiteral(literal)} of the record is past the largest double: the JSON text made of its object writes it null, and so does the object written from that text` });
    }
  }
  return losses;
}

/**
 * The JSON texts of `made` that hold a number to put back or to report, each
 * once, the longest first: one made of an object may hold another's, which is
 * then put back with it.
 */
function textsToFind(made: readonly unknown[], source: unknown, texts: NumberTexts | undefined, inexact: InexactLiterals | undefined): string[] {
  const found = new Set<string>();
  objectTextsMade(made, source, (text) => {
    const restores = texts !== undefined && restoreNumberTexts(text, texts).text !== text;
    if (restores || (inexact !== undefined && writtenFromInexact(text, inexact).length > 0)) found.add(text);
  });
  return [...found].sort((one, other) => other.length - one.length);
}

/** The first number token of `json` written otherwise in `restored` (the two differ only in number forms), as a double's text. */
function firstNumberOf(json: string, restored: string): string {
  let at = 0;
  while (at < json.length && json[at] === restored[at]) at += 1;
  // Back to the start of the token the two first differ in.
  while (at > 0 && /[0-9.eE+-]/.test(json[at - 1]!)) at -= 1;
  return /^-?[0-9.eE+]+/.exec(json.slice(at))?.[0] ?? "";
}

/** Sets the string of `written` at `tokens` (as walkStrings gives them) to `text`. */
function replaceString(written: unknown[], tokens: ReadonlyArray<string | number>, text: string): void {
  // A single value's tokens do not name its index: it is the first.
  const path = written.length > 1 ? tokens : [0, ...tokens];
  let container = written as unknown as Record<string | number, unknown>;
  for (const token of path.slice(0, -1)) container = container[token] as Record<string | number, unknown>;
  container[path[path.length - 1]!] = text;
}

/** Whether a string the `source` record writes itself holds `json`. */
function ownStringHolds(source: unknown, json: string): boolean {
  let holds = false;
  walkStrings([source], (text) => {
    if (!holds && text.includes(json)) holds = true;
  });
  return holds;
}

/**
 * The JSON Pointer of the number of the `source` record that reads as the same
 * double as `literal`: where the record wrote it. `""` (the record as a whole)
 * when there is no one record (a stream's), none is found, or more than one
 * reads as that double (`1` and `1.0000000000000001`), since which of them the
 * record wrote as `literal` its parsed value cannot tell.
 */
export function numberPointer(source: unknown, literal: string): string {
  if (source === undefined) return "";
  const double = Number(literal);
  let found: string | undefined;
  // An explicit stack, and each value's parent and key rather than a copy of
  // its path: a record may nest deeper than the call stack goes.
  const parents: number[] = [-1];
  const keys: Array<string | number> = [""];
  const pending: Array<{ value: unknown; node: number }> = [{ value: source, node: 0 }];
  while (pending.length > 0) {
    const { value, node } = pending.pop()!;
    if (typeof value === "number" && Object.is(value, double)) {
      if (found !== undefined) return "";
      const tokens: Array<string | number> = [];
      for (let at = node; at > 0; at = parents[at]!) tokens.push(keys[at]!);
      found = pointer(...tokens.reverse());
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    const children = Object.entries(value);
    for (let at = children.length - 1; at >= 0; at -= 1) {
      parents.push(node);
      keys.push(Array.isArray(value) ? at : children[at]![0]);
      pending.push({ value: children[at]![1], node: parents.length - 1 });
    }
  }
  return found ?? "";
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
  stringsMade(written, source, (text, tokens) => {
    const first = text.trimStart()[0];
    if ((first === "{" || first === "[") && parseJsonText(text).ok) visit(text, tokens);
  });
}

/** Each string of `written`, past the times the `source` record wrote that text itself. */
function stringsMade(written: readonly unknown[], source: unknown, visit: (text: string, tokens: () => Array<string | number>) => void): void {
  const isOwn = ownTexts(source);
  walkStrings(written, (text, tokens) => {
    if (!isOwn(text)) visit(text, tokens);
  });
}

/**
 * Whether a text, asked in the order a conversion writes its texts, is one the
 * `source` record wrote itself: each of its strings answers yes as many times
 * as the record wrote it.
 */
function ownTexts(source: unknown): (text: string) => boolean {
  const own = new Map<string, number>();
  walkStrings([source], (text) => void own.set(text, (own.get(text) ?? 0) + 1));
  return (text) => {
    const times = own.get(text) ?? 0;
    if (times === 0) return false;
    own.set(text, times - 1);
    return true;
  };
}

/**
 * Whether a text of `values` (what a conversion wrote), asked once for each
 * time it is written, is the JSON text of an object or array the conversion
 * made, not one the `source` record wrote itself: only such a text has numbers
 * to put back. A record's own tool result `7` stays `7`, where the record's
 * object writes `7.0`. The texts are told apart in the order `values` writes
 * them, as objectTextsMade tells them.
 */
export function madeObjectTexts(values: readonly unknown[], source: unknown): (text: string) => boolean {
  const made = new Map<string, number>();
  objectTextsMade(values, source, (text) => void made.set(text, (made.get(text) ?? 0) + 1));
  return (text) => {
    const times = made.get(text) ?? 0;
    if (times === 0) return false;
    made.set(text, times - 1);
    return true;
  };
}
