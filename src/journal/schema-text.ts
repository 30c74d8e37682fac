// A tool schema or tools file given as JSON text, read the way the gate must read
// it: a name given twice is refused (the gate would judge by the last value, a
// reader that keeps the first by another), and so is a bound or constant that its
// double does not stand for (it would be compared as another number).
import { shownLiteral } from "../models/decimal-value.js";
import { inexactSchemaNumber } from "./inexact-numbers.js";
import { parseRecord } from "./parse-record.js";

/** The value of `text`, or an Error whose message names `what` and the problem. */
export function readSchemaText(text: string, what: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const parsed = parseRecord(text, what);
  if (!parsed.ok) return { ok: false, message: parsed.detail };
  const inexact = inexactSchemaNumber(text);
  if (inexact !== undefined) {
    return { ok: false, message: `${what}: the number ${shownLiteral(inexact.literal)} at ${inexact.path} is one a double reads as another number: the gate would judge arguments by that other number` };
  }
  return { ok: true, value: parsed.value };
}
