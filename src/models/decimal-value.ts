// A JSON number literal's value, as one spelling per value: what tells whether
// the double JSON.parse reads for a literal still says the number written
// (`1.50` and `1.5` do; `12345678901234567891` does not). The gate and the
// converters both ask it.

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

/** Whether the double a literal reads as writes back as the same number (not a finite double: no). */
export function readsBackAsWritten(literal: string): boolean {
  return decimalValue(literal) === decimalValue(String(Number(literal)));
}
