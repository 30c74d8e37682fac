// What a JSON text says that the value JSON.parse gives of it does not hold: an
// envelope whose calls carry an input object (Anthropic, Gemini, Bedrock) writes
// that value, so a converter names what it cannot carry instead of changing a
// call's arguments in passing. Their spelling (spaces, escapes, `1.0`) is not
// value, but the text is what a journal keeps, so it is named too.

/**
 * Why arguments written as an object (`noun`: what the envelope calls it) do
 * not come back as the same text, or `undefined` when they do: a value the
 * object does not hold first, else the spelling.
 */
export function argumentsObjectChange(text: string, parsed: unknown, noun: string): string | undefined {
  const inexact = inexactness(text);
  if (inexact !== undefined) return `${inexact}: the ${noun} object does not hold what the arguments text says`;
  if (JSON.stringify(parsed) === text) return undefined;
  return `the arguments text becomes the ${noun} object, whose JSON text is spelled otherwise (spaces, escapes or number forms): the values are kept, not the text`;
}
/**
 * What JSON.parse does not keep of a JSON text it accepted: a member name given
 * twice in one object (the last value wins) or a number whose value a double
 * does not hold. Spacing and escapes are spelling, not value.
 */
export function inexactness(text: string): string | undefined {
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
