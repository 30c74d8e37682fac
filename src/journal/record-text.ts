// A record a library caller built in code, judged as the JSON text a journal
// line would hold of it: the text `JSON.stringify` writes, read back. An object
// built in code can hold what no line can: a getter that answers one thing when
// the gate reads it and another when the replayer does, a member that is not
// enumerable, an inherited one, a `toJSON`, a Proxy, a hole in an array. Each is
// read once, as the text a replayer would send, and the gate judges that text;
// every later read is of plain data.
//
// A record that cannot be written as JSON (one that holds itself, a BigInt) is an
// error on its line, and so is one whose text would pass the bound on values: an
// object shared at every level of a tree doubles its written size per level.

/** The most JSON values the text of one record built in code may hold. */
export const MAX_RECORD_VALUES = 10_000_000;

/**
 * The record as the text a journal line would hold, or why it has none. `deep`:
 * the error was a stack overflow, most likely a record nested deeper than
 * `JSON.stringify` goes. A getter or `toJSON` can throw the same error, so the
 * gate's readers never take the record as it is on that word: it is an error,
 * blocked. Only `diffJournals`, which judges nothing, compares such an item as
 * it was given.
 */
export function recordText(record: unknown): { ok: true; text: string } | { ok: false; message: string; deep?: true } {
  let values = 0;
  let text: string | undefined;
  try {
    text = JSON.stringify(record, (_key, value: unknown) => {
      if (++values > MAX_RECORD_VALUES) throw new RangeError(`it holds more than ${MAX_RECORD_VALUES.toLocaleString("en-US")} JSON values`);
      return value;
    });
  } catch (error) {
    const message = `the record cannot be written as JSON: ${error instanceof Error ? error.message : String(error)}`;
    return error instanceof RangeError && /call stack/.test(error.message) ? { ok: false, message, deep: true } : { ok: false, message };
  }
  if (text === undefined) return { ok: false, message: `the record is ${typeof record}, which JSON cannot write` };
  return { ok: true, text };
}
