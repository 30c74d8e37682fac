// The text of each record of a JSON document, as the document wrote it: the
// elements of a top-level array, or the whole value, with the whitespace between
// tokens removed so that each is one line, and every token (a number's digits, a
// name given twice) kept as written. `JSON.parse` then `JSON.stringify` would turn
// `1.0` into `1` and keep one of two equal names: the gate must judge what the
// journal holds.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Removes the whitespace outside strings of valid JSON text. */
export function compactJson(text: string): string {
  let out = "";
  let from = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === BACKSLASH) at++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) {
      out += text.slice(from, at);
      from = at + 1;
    }
  }
  return out + text.slice(from);
}

/**
 * The texts of the records of a document that `JSON.parse` has read: one per
 * element when it is an array, else the one value. `text` must be valid JSON.
 */
export function recordTexts(text: string): string[] {
  const compact = compactJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (compact[0] !== "[") return [compact];
  const texts: string[] = [];
  let depth = 0;
  let inString = false;
  let start = 1;
  for (let at = 1; at < compact.length - 1; at++) {
    const code = compact.charCodeAt(at);
    if (inString) {
      if (code === BACKSLASH) at++;
      else if (code === QUOTE) inString = false;
      continue;
    }
    if (code === QUOTE) inString = true;
    else if (code === 0x5b || code === 0x7b) depth++;
    else if (code === 0x5d || code === 0x7d) depth--;
    else if (code === 0x2c && depth === 0) {
      texts.push(compact.slice(start, at));
      start = at + 1;
    }
  }
  if (compact.length > 2) texts.push(compact.slice(start, compact.length - 1));
  return texts;
}
