// JSON read without JSON.parse, so that a number keeps the text it was written
// with: `0.0` stays `0.0` and a 19-digit id keeps its digits. What the tests
// need of a record is its leaves, each with its JSON Pointer and its literal.

export type LeafKind = "string" | "number" | "boolean" | "null" | "empty_object" | "empty_array";

export interface Leaf {
  /** JSON Pointer (RFC 6901) into the record. */
  path: string;
  kind: LeafKind;
  /** The string's value for a string; the literal as written for anything else. */
  value: string;
}

const escapeToken = (token: string) => token.replace(/~/g, "~0").replace(/\//g, "~1");

/** Every leaf of one JSON text, in document order. Throws on text that is not JSON. */
export function leavesOf(text: string): Leaf[] {
  const leaves: Leaf[] = [];
  let at = 0;
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at offset ${at}`);
  };
  const skipSpace = () => {
    while (at < text.length && (text[at] === " " || text[at] === "\t" || text[at] === "\n" || text[at] === "\r")) at++;
  };
  const readString = (): string => {
    const end = scanString(text, at);
    const value = JSON.parse(text.slice(at, end)) as string;
    at = end;
    return value;
  };
  const readValue = (path: string): void => {
    skipSpace();
    const char = text[at];
    if (char === "{") {
      at++;
      skipSpace();
      if (text[at] === "}") {
        at++;
        leaves.push({ path, kind: "empty_object", value: "{}" });
        return;
      }
      for (;;) {
        skipSpace();
        if (text[at] !== '"') fail("expected a member name");
        const key = readString();
        skipSpace();
        if (text[at++] !== ":") fail("expected ':'");
        readValue(`${path}/${escapeToken(key)}`);
        skipSpace();
        const next = text[at++];
        if (next === "}") return;
        if (next !== ",") fail("expected ',' or '}'");
      }
    }
    if (char === "[") {
      at++;
      skipSpace();
      if (text[at] === "]") {
        at++;
        leaves.push({ path, kind: "empty_array", value: "[]" });
        return;
      }
      for (let index = 0; ; index++) {
        readValue(`${path}/${index}`);
        skipSpace();
        const next = text[at++];
        if (next === "]") return;
        if (next !== ",") fail("expected ',' or ']'");
      }
    }
    if (char === '"') {
      leaves.push({ path, kind: "string", value: readString() });
      return;
    }
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(at, at + 400));
    if (!literal) fail("expected a value");
    at += literal![0].length;
    const kind: LeafKind = literal![0] === "null" ? "null" : literal![0] === "true" || literal![0] === "false" ? "boolean" : "number";
    leaves.push({ path, kind, value: literal![0] });
  };
  readValue("");
  skipSpace();
  if (at !== text.length) fail("text after the value");
  return leaves;
}

/** The offset just past the string that starts at `start`. */
function scanString(text: string, start: number): number {
  let at = start + 1;
  while (at < text.length) {
    const char = text[at];
    if (char === "\\") at += 2;
    else if (char === '"') return at + 1;
    else at++;
  }
  throw new SyntaxError(`unterminated string at offset ${start}`);
}

/** The JSON text with the white space between tokens removed, every literal as written. */
export function compactJson(text: string): string {
  let out = "";
  let at = 0;
  while (at < text.length) {
    const char = text[at];
    if (char === '"') {
      const end = scanString(text, at);
      out += text.slice(at, end);
      at = end;
    } else {
      if (char !== " " && char !== "\t" && char !== "\n" && char !== "\r") out += char;
      at++;
    }
  }
  return out;
}
