// A call's `parsed_arguments` (the OpenAI SDKs' parse helpers' reading of its
// arguments, which a runner built on them runs) is read from the line by
// JSON.parse, into doubles. When the line writes a number there that its double
// does not stand for (`9007199254740993`), the value the gate holds to the
// arguments text is not the one a runner that keeps numbers exact would run,
// so the gate refuses the line.
import { shownLiteral } from "../models/decimal-value.js";
import { writtenFromInexact, type InexactLiterals } from "./inexact-numbers.js";
import type { NormalizedRecord } from "./normalize.js";

/** Whether a line's text may give a call `parsed_arguments`: the name as written, or written with escapes. */
export function mayWriteParsedArguments(text: string): boolean {
  return text.includes("parsed_arguments") || text.includes("\\u");
}

/** Whether a record gives `parsed_arguments` anywhere in it: walked with a stack of its own, as a record may nest deeper than calls can. */
export function holdsParsedArguments(record: unknown): boolean {
  const pending: unknown[] = [record];
  while (pending.length > 0) {
    const value = pending.pop();
    if (value === null || typeof value !== "object") continue;
    if (Array.isArray(value)) {
      for (const entry of value) pending.push(entry);
      continue;
    }
    if (Object.hasOwn(value, "parsed_arguments")) return true;
    for (const entry of Object.values(value)) pending.push(entry);
  }
  return false;
}

/**
 * The record, or, when one of its calls' `parsed_arguments` holds a double that
 * one of `inexact` (the line's literals no double stands for) was read as, an
 * error record for the gate. (`normalize` writes such a number as the line does.)
 */
export function refuseInexactParsedArguments(normalized: NormalizedRecord, inexact: InexactLiterals): NormalizedRecord {
  if (normalized.kind !== "items") return normalized;
  for (const { item } of normalized.items) {
    const fields = item as Record<string, unknown>;
    const parsed = fields.type === "function_call" ? fields.parsed_arguments : undefined;
    if (parsed === undefined || parsed === null) continue;
    let literals: string[];
    try {
      literals = writtenFromInexact(JSON.stringify(parsed), inexact);
    } catch {
      // Too deep to write out: which numbers it holds is not known, so any of the line's may be there.
      literals = [...new Set(inexact.values())];
    }
    if (literals.length === 0) continue;
    return {
      kind: "error",
      source: normalized.source,
      line: normalized.line,
      detail: `the record writes the number ${shownLiteral(literals[0]!)} in a call's parsed_arguments, and a double does not stand for it exactly: a runner that reads it as written runs another value than the one the gate would hold to the arguments text, and the call is not judged`,
    };
  }
  return normalized;
}
