// Small facts about JSON values that every layer asks.

/** A JSON object: not null, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Sets `key` as an own data member of `target`, whatever its name: `__proto__`
 * included, which plain assignment would take for the prototype's setter. Keys
 * a journal wrote are set this way wherever a reader builds an object from them.
 */
export function setOwn(target: object, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
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
 * `JSON.parse(text)`, or the message of its error. Only the message is ever shown,
 * so no stack is captured: on a journal of broken lines or arguments, capturing it
 * cost twice the failed parse itself.
 */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  } finally {
    Error.stackTraceLimit = limit;
  }
}
