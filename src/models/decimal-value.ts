// A JSON number literal's value, as one spelling per value: what tells whether
// the double JSON.parse reads for a literal still says the number written
// (`1.50` and `1.5` do; `12345678901234567891` does not). The gate and the
// converters both ask it.

import { scanJson, type JsonPath } from "./json-scan.js";

const DECIMAL = /^(-?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([-+]?[0-9]+))?$/;

/** A decimal number written one way per value: sign, significant digits, exponent; `undefined` for text that is no decimal. */
export function decimalValue(text: string): string | undefined {
  const parts = DECIMAL.exec(text);
  if (parts === null) return undefined;
  const [, sign, whole, fraction = "", exponent = "0"] = parts;
  let digits = (whole + fraction).replace(/^0+/, "");
  if (digits === "") return "0";
  let power = Number(exponent) - fraction.length;
  const trimmed = digits.replace(/0+$/, "");
  power += digits.length - trimmed.length;
  digits = trimmed;
  return `${sign}${digits}e${power}`;
}

/** A number literal as a detail shows it: cut after 40 characters, so that a line of digits does not swamp the message. */
export function shownLiteral(literal: string): string {
  return literal.length > 40 ? `${literal.slice(0, 40)}…` : literal;
}

/** Whether the double a literal reads as writes back as the same number (not a finite double: no). */
export function readsBackAsWritten(literal: string): boolean {
  return decimalValue(literal) === decimalValue(String(Number(literal)));
}

/**
 * Whether a JSON number literal is one its double stands for: it reads back as
 * written, and the double is finite and within ±(2^53 − 1), past which one
 * double also stands for the whole numbers around it.
 */
export function standsAsDouble(literal: string): boolean {
  const double = Number(literal);
  if (!Number.isFinite(double) || Math.abs(double) > Number.MAX_SAFE_INTEGER) return false;
  return readsBackAsWritten(literal);
}

// A literal of at most 15 digits and no exponent always stands (15 significant
// digits survive a double, and it is below 10^15): only a text with a run of 16
// digits, a point between them or not, or an exponent can hold one that does not.
const MAY_HOLD_INEXACT = /[0-9](?:\.?[0-9]){15}|[0-9][eE]/;

/** Whether JSON text may hold a number literal that its double does not stand for; false means it surely holds none. */
export function mayHoldInexact(text: string): boolean {
  return MAY_HOLD_INEXACT.test(text);
}

/** A number literal of a JSON text that its double does not stand for, and where its value sits. */
export interface LiteralNotStanding {
  literal: string;
  path: JsonPath;
}

/** The number literals of a JSON text (one JSON.parse accepts) that their doubles do not stand for, in text order; `first`: only the first. */
export function literalsNotStanding(text: string, first = false): LiteralNotStanding[] {
  if (!mayHoldInexact(text)) return [];
  const found: LiteralNotStanding[] = [];
  scanJson(text, {
    number: (literal, path) => {
      if (standsAsDouble(literal)) return false;
      found.push({ literal, path: [...path] });
      return first;
    },
  });
  return found;
}

/**
 * Whether `value` is a whole multiple of `divisor`, as the decimals the two
 * doubles write (their shortest texts) say, computed exactly. Division on
 * doubles rounds: 53.199999999999996 / 0.7 gives 76, and 53.2 / 0.7 gives
 * 76.00000000000001. A double's shortest text is the number a JSON text that
 * reads back as written wrote, which is what JSON Schema's multipleOf judges.
 */
export function isWholeMultiple(value: number, divisor: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(divisor) || !(divisor > 0)) return false;
  const [valueDigits, valuePower] = decimalParts(String(value));
  const [divisorDigits, divisorPower] = decimalParts(String(divisor));
  if (valueDigits === 0n) return true;
  // Both as whole numbers over the smaller power of ten; doubles keep the powers within a few hundred.
  const power = Math.min(valuePower, divisorPower);
  const scaledValue = valueDigits * 10n ** BigInt(valuePower - power);
  const scaledDivisor = divisorDigits * 10n ** BigInt(divisorPower - power);
  return scaledValue % scaledDivisor === 0n;
}

/** A finite double's text as significant digits (sign dropped: a multiple's sign does not matter) and a power of ten. */
function decimalParts(text: string): [bigint, number] {
  const [digits, power] = decimalValue(text)!.replace(/^-/, "").split("e") as [string, string?];
  return [BigInt(digits), power === undefined ? 0 : Number(power)];
}
