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
// alike), and a surrogate that has no partner.
const UNSAFE_IN_A_LINE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `text` for one line of a terminal: every character that could end the line or
 * reorder it written as a \u escape, the rest as it is. A value a journal gives
 * (a call_id, a type, a tool name) cannot then print a line of its own that
 * reads as another verdict.
 */
export function visibleInLine(text: string): string {
  return text.replace(UNSAFE_IN_A_LINE, unicodeEscape);
}

/** One UTF-16 unit as a \u escape. */
function unicodeEscape(unit: string): string {
  return `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`;
}
