// A member name given twice in one object: `{"region":"global","region":"apac"}`.
// JSON.parse keeps the last value, other readers keep the first or refuse, so the
// gate would judge one value and a tool could act on another. Both the lines of
// a journal and a call's arguments are checked.
//
// Every line pays for the check, so it is done in steps, each exact. JSON.parse
// gives an object one own key per distinct name (`__proto__` included), while
// the text holds one member per name written: the two counts, summed over the
// whole value, are equal exactly when no object names a member twice.
//
// The first step bounds the members written from above without reading the
// strings: every member's colon follows, across whitespace at most, the closing
// quote of its name, a quote after an even run of backslashes. A colon inside a
// string can follow such a quote only when that quote opens the string
// (`":x"`); after an escaped quote it never counts. So these colons are at least
// the members written, and when they are no more than the own keys parsed, no
// name is given twice. Otherwise one regular expression that steps over every
// string token counts the members exactly, and only when that count differs
// does a precise walk (json-scan) find the first name given twice, decoded
// (`"a"` and `"\u0061"` are one name), and where it sits.
import { pointerToken } from "./json-pointer.js";
import { scanJson } from "./json-scan.js";
import { quoteVisible } from "./quote-visible.js";

export interface DuplicateName {
  name: string;
  /** JSON Pointer to the member named the second time. */
  path: string;
}

// Each match is one whole string token, and the colon after it when it is a name.
const STRING_TOKEN = /"[^"\\]*(?:\\.[^"\\]*)*"(?:[ \t\n\r]*:)?/g;

/**
 * The first name given twice in one object of `text`, which JSON.parse read as
 * `value`; `undefined` when every object names each member once. Throws when the
 * counts differ and no name is found twice, so that a caller blocks rather than
 * trusts a value the check could not explain. `membersCounted`: the own keys of
 * every object of `value`, when the caller counted them in a walk of its own;
 * `colonsCounted`: `colonsAfterClosingQuotes(text)`, when the caller counted them.
 */
export function duplicateName(text: string, value: unknown, membersCounted?: number, colonsCounted?: number): DuplicateName | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const parsed = membersCounted ?? membersParsed(value);
  if (parsed !== undefined && (colonsCounted ?? colonsAfterClosingQuotes(text)) === parsed) return undefined;
  const written = membersWritten(text);
  if (written === 0 || written === (parsed ?? ownKeys(value))) return undefined;
  const found = firstDuplicate(text);
  if (found === undefined && written !== undefined) throw new Error("the text names more object members than the parsed value holds, and no name is given twice");
  return found;
}

/** The sentence that reports a duplicate name: `what` is the text's subject ("line", "arguments"). */
export function describeDuplicateName(what: string, duplicate: DuplicateName): string {
  return `${what} has the name ${quoteVisible(duplicate.name)} twice in one object, at ${quoteVisible(duplicate.path, 200)}; JSON.parse keeps the last value, other readers keep the first`;
}

/** Members written in the text, or `undefined` when the expression could not finish: the precise walk then decides alone. */
function membersWritten(text: string): number | undefined {
  let members = 0;
  STRING_TOKEN.lastIndex = 0;
  try {
    while (STRING_TOKEN.test(text)) if (text.charCodeAt(STRING_TOKEN.lastIndex - 1) === 0x3a) members += 1;
  } catch {
    // A string of millions of escapes can exhaust the expression's backtracking stack.
    STRING_TOKEN.lastIndex = 0;
    return undefined;
  }
  return members;
}

/**
 * Colons after a quote that may close a string, across JSON whitespace: an upper
 * bound of the members written. Each colon looks back over its own stretch of
 * the text only, so the whole count is linear.
 */
export function colonsAfterClosingQuotes(text: string): number {
  let colons = 0;
  for (let at = text.indexOf(":"); at !== -1; at = text.indexOf(":", at + 1)) {
    let quote = at - 1;
    let code = text.charCodeAt(quote);
    while (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) code = text.charCodeAt(--quote);
    if (code !== 0x22) continue;
    let backslash = quote - 1;
    while (text.charCodeAt(backslash) === 0x5c) backslash -= 1;
    if ((quote - 1 - backslash) % 2 === 0) colons += 1;
  }
  return colons;
}

/** Past this depth the walk by recursion gives way to ownKeys, which keeps a stack of its own. */
export const MAX_RECURSION = 256;

/**
 * Own keys of every object in the parsed value, by recursion over each object's
 * values (Object.values, which on the objects JSON.parse makes walks faster than
 * for-in); `undefined` when the value nests past MAX_RECURSION.
 */
export function membersParsed(value: object): number | undefined {
  const members = membersIn(value, 0);
  return members < 0 ? undefined : members;
}

/** -1 past MAX_RECURSION. */
function membersIn(value: object, depth: number): number {
  if (depth > MAX_RECURSION) return -1;
  const isArray = Array.isArray(value);
  const children: unknown[] = isArray ? value : Object.values(value);
  let members = isArray ? 0 : children.length;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (child === null || typeof child !== "object") continue;
    const inner = membersIn(child, depth + 1);
    if (inner < 0) return -1;
    members += inner;
  }
  return members;
}

/** Own keys of every object in the parsed value, with a stack of its own, for any value. */
function ownKeys(value: object): number {
  let members = 0;
  const pending: object[] = [value];
  while (pending.length > 0) {
    const next = pending.pop()!;
    const children = Array.isArray(next) ? next : Object.values(next);
    if (!Array.isArray(next)) members += children.length;
    for (const child of children) if (child !== null && typeof child === "object") pending.push(child);
  }
  return members;
}

function firstDuplicate(text: string): DuplicateName | undefined {
  // The names met so far in each open object; `undefined` for an array.
  const open: Array<Set<string> | undefined> = [];
  let found: DuplicateName | undefined;
  scanJson(text, {
    enter: (isObject) => void open.push(isObject ? new Set() : undefined),
    leave: () => void open.pop(),
    name: (name, path) => {
      const names = open[open.length - 1]!;
      if (!names.has(name)) {
        names.add(name);
        return false;
      }
      found = { name, path: path.map((token) => "/" + pointerToken(token)).join("") };
      return true;
    },
  });
  return found;
}
