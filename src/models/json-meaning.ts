// What a JSON value means, written so that two values that mean the same thing
// are written alike: object members sorted by name, no whitespace, each string
// as JSON.stringify writes it. Numbers keep their text (`1.0` is not `1` to every
// reader, and an integer past 2^53 must not be rounded into another), so two
// values that differ only there are not the same. A text with a member name
// twice has no single meaning (readers keep the first, the last, or refuse): it
// is given none, and the caller compares it as a string.
//
// Used to tell a replayed call from a new one: `{"country": "France"}` and
// `{"country":"France"}` are one call written by two serializers.

/** Past this depth a text is given no meaning, and compared as written. */
const MAX_DEPTH = 512;

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

interface ObjectFrame {
  members: Array<[name: string, written: string]>;
  /** The member name whose value is being read. */
  name: string;
}

type Frame = ObjectFrame | string[];

/**
 * The meaning of a JSON text (RFC 8259): its canonical writing, or undefined when
 * it is not JSON, names a member twice in one object, or nests past MAX_DEPTH.
 * `number` writes each number literal (as written, by default).
 */
export function jsonTextMeaning(text: string, number: (literal: string) => string = (literal) => literal): string | undefined {
  const stack: Frame[] = [];
  let at = 0;
  const skipSpace = (): void => {
    for (;;) {
      const code = text.charCodeAt(at);
      if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return;
      at += 1;
    }
  };
  /** A string token at `at`, decoded; undefined when it is not one. */
  const readString = (): string | undefined => {
    if (text.charCodeAt(at) !== 0x22) return undefined;
    let end = at + 1;
    for (;;) {
      const code = text.charCodeAt(end);
      if (Number.isNaN(code)) return undefined;
      if (code === 0x22) break;
      end += code === 0x5c ? 2 : 1;
    }
    let decoded: string;
    try {
      decoded = JSON.parse(text.slice(at, end + 1)) as string;
    } catch {
      return undefined;
    }
    at = end + 1;
    return decoded;
  };
  /** A member name and its colon, pushed onto the object frame. */
  const readName = (frame: ObjectFrame): boolean => {
    skipSpace();
    const name = readString();
    if (name === undefined) return false;
    skipSpace();
    if (text.charCodeAt(at) !== 0x3a) return false;
    at += 1;
    frame.name = name;
    return true;
  };

  for (;;) {
    // A value starts at `at`.
    skipSpace();
    let value: string;
    const code = text.charCodeAt(at);
    if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      at += 1;
      skipSpace();
      if (text.charCodeAt(at) === code + 2 /* } or ] */) {
        at += 1;
        value = code === 0x7b ? "{}" : "[]";
      } else {
        if (stack.length >= MAX_DEPTH) return undefined;
        if (code === 0x5b) {
          stack.push([]);
          continue;
        }
        const frame: ObjectFrame = { members: [], name: "" };
        if (!readName(frame)) return undefined;
        stack.push(frame);
        continue;
      }
    } else if (code === 0x22) {
      const decoded = readString();
      if (decoded === undefined) return undefined;
      value = JSON.stringify(decoded);
    } else if (text.startsWith("true", at) || text.startsWith("null", at)) {
      value = text.slice(at, at + 4);
      at += 4;
    } else if (text.startsWith("false", at)) {
      value = "false";
      at += 5;
    } else {
      NUMBER.lastIndex = at;
      const literal = NUMBER.exec(text);
      if (literal === null) return undefined;
      value = number(literal[0]);
      at = NUMBER.lastIndex;
    }
    // The value is whole: it closes the containers it ends.
    for (;;) {
      const frame = stack[stack.length - 1];
      skipSpace();
      if (frame === undefined) return at === text.length ? value : undefined;
      const next = text.charCodeAt(at);
      at += 1;
      if (Array.isArray(frame)) {
        frame.push(value);
        if (next === 0x2c) break;
        if (next !== 0x5d) return undefined;
        stack.pop();
        value = "[" + frame.join(",") + "]";
        continue;
      }
      frame.members.push([frame.name, value]);
      if (next === 0x2c) {
        if (!readName(frame)) return undefined;
        break;
      }
      if (next !== 0x7d) return undefined;
      stack.pop();
      const written = writeMembers(frame.members);
      if (written === undefined) return undefined;
      value = written;
    }
  }
}

/** Members sorted by name (UTF-16 code units, as the names compare); undefined when a name comes twice. */
function writeMembers(members: Array<[string, string]>): string | undefined {
  members.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let out = "{";
  for (let i = 0; i < members.length; i += 1) {
    if (i > 0) {
      if (members[i][0] === members[i - 1][0]) return undefined;
      out += ",";
    }
    out += JSON.stringify(members[i][0]) + ":" + members[i][1];
  }
  return out + "}";
}

/**
 * The meaning of a value already parsed: its canonical writing. A number kept
 * exactly by a lossless parser (an instance with `isLosslessNumber` and its
 * text) is written as its text. Throws a RangeError past MAX_DEPTH.
 */
export function jsonValueMeaning(value: unknown, depth = 0): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (depth >= MAX_DEPTH) throw new RangeError("value nested too deep to compare");
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i += 1) out += (i > 0 ? "," : "") + (value[i] === undefined ? "null" : jsonValueMeaning(value[i], depth + 1));
    return out + "]";
  }
  const fields = value as Record<string, unknown>;
  // Only an instance of the parser's class is a number: a plain object with these fields is an object.
  if (fields.isLosslessNumber === true && typeof fields.value === "string" && Object.getPrototypeOf(fields) !== Object.prototype) return fields.value;
  const names = Object.keys(fields).filter((name) => fields[name] !== undefined).sort();
  let out = "{";
  for (let i = 0; i < names.length; i += 1) out += (i > 0 ? "," : "") + JSON.stringify(names[i]) + ":" + jsonValueMeaning(fields[names[i]], depth + 1);
  return out + "}";
}
