// A tool call's `input` (a JSON object, Anthropic) and its `arguments` (a JSON
// text, Open Responses).
//
// | Anthropic `input`            | Open Responses `arguments`                                       |
// |------------------------------|------------------------------------------------------------------|
// | an object                    | JSON.stringify(input): member order kept, no spaces; reported    |
// |                              |   synthesized, as the record holds a value, not its text         |
// | a string                     | the string itself, as written: no call has it, so it is text a   |
// |                              |   writer put there for arguments it could not parse (see below)  |
// | any other value              | its JSON text: loss, the gate judges it against the schema       |
// | absent                       | "": loss, the gate blocks it (arguments_parse)                   |
//
// | Open Responses `arguments`   | Anthropic `input`                                                |
// |------------------------------|------------------------------------------------------------------|
// | the text of a JSON object    | the parsed object                                                |
// |   a name given twice, a      |   the object JSON.parse gives: loss, what the text said is not   |
// |   number a double cannot hold|   what the object holds                                          |
// | ""                           | {}: loss (providers write "" for a call without parameters)      |
// | anything else (not JSON, an  | the text as a string: loss target_rejects. Anthropic rejects the |
// |   array, a string…)          |   request rather than run a call whose arguments were never an   |
// |                              |   object; {} would forge a call, and dropping it would lose it    |
// |                              |   unseen. The way back gives the same text again.                |
import type { Loss } from "../../src/models/loss.js";

export type InputLoss = { code: Loss["code"]; detail: string };

export function argumentsOfInput(input: unknown): { value: string; loss?: InputLoss } {
  if (input === undefined) return { value: "", loss: { code: "form_changed", detail: "a tool_use without input: empty arguments written, which the gate blocks" } };
  if (typeof input === "string") {
    return { value: input, loss: { code: "form_changed", detail: "input is a string, not an object: taken as the arguments text as it is; the gate judges it" } };
  }
  const text = JSON.stringify(input);
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return { value: text, loss: { code: "form_changed", detail: `input is ${Array.isArray(input) ? "an array" : String(input)}, not an object: its JSON text is the arguments; the gate judges it` } };
  }
  return { value: text, loss: { code: "synthesized", detail: "input is an object, not a text: the arguments are its JSON text as JSON.stringify writes it (no spaces, member order kept)" } };
}

export function inputOfArguments(args: string): { value: unknown; loss?: InputLoss } {
  if (args === "") return { value: {}, loss: { code: "form_changed", detail: "empty arguments written as the empty input {}" } };
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return { value: args, loss: { code: "target_rejects", detail: "arguments that are not JSON cannot be an input object: written as the text it is, which Anthropic rejects" } };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return { value: args, loss: { code: "target_rejects", detail: "arguments that are not a JSON object cannot be an input object: written as the text it is, which Anthropic rejects" } };
  }
  const inexact = inexactness(args);
  return inexact === undefined ? { value: parsed } : { value: parsed, loss: { code: "form_changed", detail: `${inexact}: the input object does not hold what the arguments text says` } };
}

/**
 * What JSON.parse does not keep of a JSON text it accepted: a member name given
 * twice in one object (the last value wins) or a number whose value a double
 * does not hold. Spacing and escapes are spelling, not value, and are not reported.
 */
function inexactness(text: string): string | undefined {
  const names: Array<Set<string> | undefined> = [];
  let expectName = false;
  for (let at = 0; at < text.length; ) {
    const code = text.charCodeAt(at);
    if (code === 0x22) {
      const end = stringEnd(text, at);
      if (expectName) {
        const name = JSON.parse(text.slice(at, end)) as string;
        const seen = names[names.length - 1]!;
        if (seen.has(name)) return `the name ${JSON.stringify(name)} is given twice in one object`;
        seen.add(name);
        expectName = false;
      }
      at = end;
    } else if (code === 0x7b || code === 0x5b) {
      names.push(code === 0x7b ? new Set() : undefined);
      expectName = code === 0x7b;
      at += 1;
    } else if (code === 0x7d || code === 0x5d) {
      names.pop();
      at += 1;
    } else if (code === 0x2c) {
      expectName = names[names.length - 1] !== undefined;
      at += 1;
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      const literal = /^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/.exec(text.slice(at, at + 1100))?.[0] ?? text[at];
      if (!sameDecimal(literal, JSON.stringify(Number(literal)))) return `the number ${literal.length > 40 ? literal.slice(0, 40) + "…" : literal} is not one a double holds`;
      at += literal.length;
    } else {
      at += 1;
    }
  }
  return undefined;
}

function stringEnd(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x5c) at += 1;
    else if (code === 0x22) return at + 1;
  }
  return text.length;
}

/** Whether two decimal literals name the same number (`1.0` and `1`, `1e2` and `100`). */
function sameDecimal(a: string, b: string | undefined): boolean {
  if (b === undefined || b === "null") return false;
  const x = decimal(a);
  const y = decimal(b);
  return x.digits === y.digits && x.exponent === y.exponent && (x.negative === y.negative || x.digits === "");
}

/** A literal as sign, significant digits and the exponent of the last of them. */
function decimal(literal: string): { negative: boolean; digits: string; exponent: number } {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/.exec(literal);
  if (!match) return { negative: false, digits: literal, exponent: 0 };
  const [, sign, whole, fraction = "", power = "0"] = match;
  let digits = (whole + fraction).replace(/^0+/, "");
  let exponent = Number(power) - fraction.length;
  const trailing = /0*$/.exec(digits)![0].length;
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  return { negative: sign === "-", digits, exponent: digits === "" ? 0 : exponent };
}
