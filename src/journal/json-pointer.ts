// JSON Pointers (RFC 6901) that a user gives to say where something is in each
// record of a journal (`--conversation /metadata/session`): read once, then
// resolved in every record. Pointers the project writes itself (the paths of
// losses and findings) are built in models/json-pointer.ts.
//
// | pointer          | resolves to                                                    |
// |------------------|----------------------------------------------------------------|
// | ""               | the whole record                                               |
// | "/a/b"           | member "b" of member "a"                                       |
// | "/a~1b", "/a~0b" | member "a/b", member "a~b" (`~1` is "/", `~0` is "~")          |
// | "/items/0"       | the first element, when "items" is an array                   |
// | "/items/-", "/items/01" | nothing: not an index of an existing element            |
//
// Only a record's own members count: `/__proto__` or `/constructor` finds a
// member of that name written in the record, never something an object
// inherits, so a record cannot borrow a value it does not hold.
import { describeValue, isPlainObject } from "../models/json-value.js";

/** A pointer read from its text: the reference tokens, and the text to name it by. */
export interface JsonPointer {
  readonly text: string;
  readonly tokens: readonly string[];
}

/** Where a pointer led: the value found, or why there is none. */
export type PointerResolution = { found: true; value: unknown } | { found: false; reason: string };

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/** Reads the text of a pointer; a RangeError says what is wrong with it. */
export function parsePointer(text: string): JsonPointer {
  if (text === "") return { text, tokens: [] };
  if (!text.startsWith("/")) throw new RangeError(`a JSON Pointer starts with "/" (got ${JSON.stringify(text)})`);
  const tokens = text
    .slice(1)
    .split("/")
    .map((token) => {
      // RFC 6901 section 3: "~" is only ever followed by "0" or "1".
      if (/~(?![01])/.test(token)) throw new RangeError(`in the JSON Pointer ${JSON.stringify(text)}, "~" must be followed by 0 or 1 ("~0" is "~", "~1" is "/")`);
      // "~1" first: "~01" is the token "~1", not "/".
      return token.replace(/~1/g, "/").replace(/~0/g, "~");
    });
  return { text, tokens };
}

/** The value `pointer` names in `value`, or a sentence saying where the path stops. */
export function resolvePointer(value: unknown, pointer: JsonPointer): PointerResolution {
  let current = value;
  let at = "";
  for (const token of pointer.tokens) {
    const here = at === "" ? "the record" : at;
    if (Array.isArray(current)) {
      if (!ARRAY_INDEX.test(token)) return { found: false, reason: `${here} is an array, and ${JSON.stringify(token)} is not an index` };
      const index = Number(token);
      if (index >= current.length) return { found: false, reason: `${here} is an array of ${current.length} element${current.length === 1 ? "" : "s"}` };
      current = current[index];
    } else if (isPlainObject(current)) {
      if (!Object.hasOwn(current, token)) return { found: false, reason: `${here} has no member ${JSON.stringify(token)}` };
      current = current[token];
    } else {
      return { found: false, reason: `${here} is ${describeValue(current)}, not an object or an array` };
    }
    at += "/" + token.replace(/~/g, "~0").replace(/\//g, "~1");
  }
  return { found: true, value: current };
}

/**
 * Whether `text`, read as a pointer, names a value inside `value`, own members
 * only. Text that is no pointer (a "~" not followed by 0 or 1) names none.
 */
export function holdsPointer(value: unknown, text: string): boolean {
  try {
    return resolvePointer(value, parsePointer(text)).found;
  } catch {
    return false;
  }
}
