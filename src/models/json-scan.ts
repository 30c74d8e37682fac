// Walks a JSON text that JSON.parse has already accepted, token by token, and
// tells where each member name and each number literal sits. JSON.parse answers
// with values only: what it does not say (a name given twice, the digits of a
// number as written) is read here from the text. The walk keeps its own stack,
// so a value nested a hundred thousand deep costs memory, not the call stack.
// On a text that is not JSON it stops or skips, never loops: callers parse first.

/** Where a token sits: the member names and array indices from the top down. */
export type JsonPath = ReadonlyArray<string | number>;

export interface JsonScanVisitor {
  /** An object (true) or an array (false) opens; `leave` closes the innermost one. */
  enter?(isObject: boolean): void;
  leave?(): void;
  /** A member name, decoded; `path` ends with it. Returns true to stop the walk. */
  name?(name: string, path: JsonPath): boolean | void;
  /** A number literal as written; `path` is where its value sits, `start` where the literal starts in the text. Returns true to stop. */
  number?(literal: string, path: JsonPath, start: number): boolean | void;
}

const NUMBER = /-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;

export function scanJson(text: string, visitor: JsonScanVisitor): void {
  const path: Array<string | number> = [];
  // One entry per open container: whether it is an object.
  const objects: boolean[] = [];
  let expectName = false;
  let at = 0;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code === 0x22) {
      const end = stringEnd(text, at);
      if (expectName) {
        const raw = text.slice(at, end);
        const name = raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        path[path.length - 1] = name;
        expectName = false;
        if (visitor.name?.(name, path) === true) return;
      }
      at = end;
    } else if (code === 0x7b || code === 0x5b) {
      const isObject = code === 0x7b;
      objects.push(isObject);
      path.push(isObject ? "" : 0);
      expectName = isObject;
      visitor.enter?.(isObject);
      at += 1;
    } else if (code === 0x7d || code === 0x5d) {
      objects.pop();
      path.pop();
      expectName = false;
      visitor.leave?.();
      at += 1;
    } else if (code === 0x2c) {
      if (objects[objects.length - 1]) expectName = true;
      else if (objects.length > 0) path[path.length - 1] = (path[path.length - 1] as number) + 1;
      at += 1;
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      NUMBER.lastIndex = at;
      if (!NUMBER.test(text)) {
        at += 1;
        continue;
      }
      const end = NUMBER.lastIndex;
      if (visitor.number?.(text.slice(at, end), path, at) === true) return;
      at = end;
    } else {
      // Whitespace, a colon, or a letter of true, false or null.
      at += 1;
    }
  }
}

/** The index just past the string token that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    // A quote after an odd run of backslashes is escaped.
    let before = quote - 1;
    while (text.charCodeAt(before) === 0x5c) before -= 1;
    if ((quote - 1 - before) % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}
