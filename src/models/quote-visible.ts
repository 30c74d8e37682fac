// A string quoted so that a reader sees every character it holds. JSON.stringify
// leaves a zero-width space, a no-break space or a fullwidth colon as they are,
// and `function_call\u200b` would read as `function_call`: outside printable
// ASCII, each UTF-16 unit is written as a \u escape.

/** `text` as a JSON string whose characters are all printable ASCII, cut after `maxLength` characters. */
export function quoteVisible(text: string, maxLength = 60): string {
  const shown = text.length > maxLength ? text.slice(0, maxLength) : text;
  const quoted = JSON.stringify(shown).replace(/[^\x20-\x7e]/g, unicodeEscape);
  return shown === text ? quoted : `${quoted}…`;
}

// Characters that, printed as they are, end a line, reorder what follows it or
// do not show at all: C0 and C1 controls, DEL, the line and paragraph
// separators, the bidirectional marks and embeddings, the zero-width and other
// invisible format characters (so that `call_1` and `call_1\u200b` do not look
// alike), and a surrogate that has no partner. So are the characters that show
// as a blank or as nothing, where a reader sees a space or no character at all:
// the spaces other than U+0020 (no-break, en, ideographic…), the Hangul and
// Braille fillers, variation selectors, the Mongolian and Khmer format
// characters, and the tag characters (U+E0000–U+E007F), which no font draws:
// `call_1\u00a0` and `call_1\u{e0041}` printed as they are read as `call_1`.
const UNSAFE_IN_A_LINE =
  /[\u0000-\u001f\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180f\u2000-\u200f\u2028-\u202f\u205f-\u206f\u2800\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f\udd00-\uddef]|\ud834[\udd73-\udd7a]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `text` for one line of a terminal: every character that could end the line or
 * reorder it written as a \u escape, the rest as it is. A value a journal gives
 * (a call_id, a type, a tool name) cannot then print a line of its own that
 * reads as another verdict.
 */
export function visibleInLine(text: string): string {
  return text.replace(UNSAFE_IN_A_LINE, unicodeEscape);
}

/** Each UTF-16 unit of `units` (one, or the two of a tag character) as a \u escape. */
function unicodeEscape(units: string): string {
  let escaped = "";
  for (let index = 0; index < units.length; index++) escaped += `\\u${units.charCodeAt(index).toString(16).padStart(4, "0")}`;
  return escaped;
}
