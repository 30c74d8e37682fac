// Small facts about JSON values that every layer asks.

/** A JSON object: not null, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A value named in a sentence: its kind for containers, a short quote for strings. */
export function describeValue(value: unknown, maxLength = 40): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return JSON.stringify(value.length > maxLength ? value.slice(0, maxLength) + "…" : value);
  return `${typeof value} ${String(value)}`;
}

/**
 * A copy of a string that keeps nothing else alive. V8 may give a string parsed
 * out of a long JSON line as a slice of that line, so a map that keeps the
 * string keeps the whole line; a journal-wide map of call_ids would then hold
 * every line of the journal.
 */
export function detached(text: string): string {
  return (" " + text).slice(1);
}
