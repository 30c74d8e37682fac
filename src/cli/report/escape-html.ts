// Everything a journal holds is untrusted: a message may say `</script>`, a name
// may be `javascript:alert(1)`, an id may close an attribute. Text goes through
// `escapeHtml` and nothing else; the page builds its own ids and links from
// numbers, never from journal text.
import { visibleInLine } from "../../models/quote-visible.js";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * Text safe in an element's content and in a quoted attribute value. A
 * bidirectional embedding, override or isolate is written as its \u escape:
 * left as it is, a tool name that starts with U+202E turns the page's own words
 * after it around, and a blocked item's header could read as passed.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'\u202a-\u202e\u2066-\u2069]/g, (character) => ENTITIES[character] ?? `\\u${character.charCodeAt(0).toString(16)}`);
}

/**
 * A name, id, type or key, escaped as text, with every character that does not
 * show, ends a line or turns it (a zero-width space, a bidirectional mark, a
 * control) written as its \u escape, as `gate` prints them: a call to
 * `delete_file\u200b` or with call_id `call_1\u200b` must not read on the page
 * as the call to `delete_file` or with call_id `call_1`.
 */
export function escapeName(text: string): string {
  return escapeHtml(visibleInLine(text));
}

/**
 * Text shown as written over several lines (arguments that are not JSON, or
 * that JSON.parse would show otherwise): its line feeds and tabs kept, every
 * other character that does not show written as its \u escape, so that a
 * passed call's "acct 1\u200b2" does not read as "acct 12".
 */
export function escapeWritten(text: string): string {
  return escapeHtml(text.replace(/[^\n\t]+/g, visibleInLine));
}
