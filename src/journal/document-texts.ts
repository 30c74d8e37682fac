// The text of each record of a JSON document, as the document wrote it: the
// elements of a top-level array, or the whole value, with the whitespace between
// tokens removed so that each is one line, and every token (a number's digits, a
// name given twice) kept as written. `JSON.parse` then `JSON.stringify` would turn
// `1.0` into `1` and keep one of two equal names: the gate must judge what the
// journal holds.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Where the string token whose opening quote is at `quote` ends: the index of
 * its closing quote, past every escaped character; the text's length when it
 * has none. A scan of JSON text goes on from there, outside strings.
 */
export function stringEnd(text: string, quote: number): number {
  for (let at = quote + 1; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === BACKSLASH) at++;
    else if (code === QUOTE) return at;
  }
  return text.length;
}

/** Removes the whitespace outside strings of valid JSON text. */
export function compactJson(text: string): string {
  let out = "";
  let from = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) at = stringEnd(text, at);
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
  let start = 1;
  for (let at = 1; at < compact.length - 1; at++) {
    const code = compact.charCodeAt(at);
    if (code === QUOTE) at = stringEnd(compact, at);
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
