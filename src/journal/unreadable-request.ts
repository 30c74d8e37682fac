// A line that cannot be read (not JSON, or a name given twice) and that names a
// request's tool fields may have been a request body that narrowed the tools:
// `"tool_choice":"none","tool_choice":"auto"` is "none" to a reader that keeps
// the first value. Its choice cannot be known, so the gate allows no function
// after it until the next request body, as it does for a choice it cannot read.
// A line that is not UTF-8 is tested as a reader that replaces bad bytes reads
// it, a line too long to read by its bytes as they go by (below), and a record a
// library caller built that cannot be written as JSON is taken for one (read.ts,
// `mayBeRequest`).
// The normalizer, reading for the gate, hands such a line on as a request body
// that is only this mark: no journal can write it, since JSON has no symbols.

import { StringDecoder } from "node:string_decoder";
import { foldName } from "../models/folded-name.js";
import type { JournalLine } from "./read.js";

/** The key of the mark; its value says why the line could not be read. */
export const UNREADABLE_REQUEST: unique symbol = Symbol("orbridge: unreadable request body");

export type UnreadableRequest = Record<string, unknown> & { [UNREADABLE_REQUEST]: string };

/**
 * The members of a request body, in any envelope, that say which tools its calls
 * may use; Chat's legacy `function_call` among them, which is also an item's
 * type, so that only as a member name does it count.
 */
const TOOL_FIELD_NAMES = ["tools", "tool_choice", "functions", "toolConfig", "tool_config", "allowed_tools", "allowedFunctionNames", "allowed_function_names"] as const;
const MEMBER_ONLY_NAMES = ["function_call"] as const;

/**
 * A request's tool fields named as a member anywhere in a line's text: a name
 * in quotes before its colon, or before the end of a line cut short there; in
 * any case, as a reader matching names regardless of case reads them
 * (`"Tool_choice"`), where a readable line so spelled narrows too.
 */
const TOOL_FIELDS = new RegExp(`"(?:${[...TOOL_FIELD_NAMES, ...MEMBER_ONLY_NAMES].join("|")})"\\s*(?::|$)`, "i");

/**
 * Whether an unreadable line's text names a request's tool fields, written
 * plainly or with `\u` escapes, or as a reader folding case or width reads a
 * member's name (`"Ｔｏｏｌ＿ｃｈｏｉｃｅ"`, `"tool\u200b_choice"`), as a readable line so spelled is read.
 */
export function namesRequestTools(text: string): boolean {
  if (TOOL_FIELDS.test(text)) return true;
  const unescaped = text.includes("\\u") ? text.replace(/\\u([0-9a-fA-F]{4})/g, (_escape, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))) : text;
  return (unescaped !== text && TOOL_FIELDS.test(unescaped)) || TOOL_FIELDS.test(foldName(unescaped));
}

/** `line` as a line not read, for `error`: one that names a request's tool fields may have been a request body. */
export function unreadLine(line: JournalLine, error: string): JournalLine {
  return namesRequestTools(line.text) ? { ...line, text: error, error, mayBeRequest: true } : { ...line, text: error, error };
}

export function unreadableRequest(detail: string): UnreadableRequest {
  return { [UNREADABLE_REQUEST]: detail } as UnreadableRequest;
}

/** The reason a request body handed on is only the mark, or undefined for a request body read. */
export function unreadableReason(body: unknown): string | undefined {
  return body !== null && typeof body === "object" && UNREADABLE_REQUEST in body ? (body as UnreadableRequest)[UNREADABLE_REQUEST] : undefined;
}

// A line too long to read is never held whole, so its bytes are searched as they
// go by, for each name in quotes (whether a colon follows is not asked, but for
// a name that is also a type) and for any escape of a printable ASCII character
// (`\u0074ools`), which could spell one; the escapes of other characters, which
// Python's json writes for every one beyond ASCII, spell none. The names are ASCII, and a reader that replaces
// bad bytes keeps every ASCII byte, so the bytes tell what it would read.
const TOOL_FIELD_BYTES = [
  ...TOOL_FIELD_NAMES.map((name) => `"${name}"`),
  // A name that is also a type value counts before a colon or JSON's white space only.
  ...MEMBER_ONLY_NAMES.flatMap((name) => [":", " ", "\t", "\n", "\r"].map((next) => `"${name}"${next}`)),
].map((text) => Buffer.from(text, "latin1"));
const ESCAPE_OF_ASCII = Buffer.from("\\u00", "latin1");
const OVERLAP = Math.max(ESCAPE_OF_ASCII.length + 1, ...TOOL_FIELD_BYTES.map((bytes) => bytes.length)) - 1;
// The same names as a reader matching them regardless of case or width reads
// them (`"Tool_choice"`, `"TOOLS"`, `"toolſ"`, full-width letters), as a readable
// line so spelled is read: searched in the line's text folded as the gate folds
// a member's name, piece by piece. Folding drops white space, so a member-only
// name is found before its colon.
const FOLDED_TOOL_FIELDS = [...TOOL_FIELD_NAMES.map((name) => `"${foldName(name)}"`), ...MEMBER_ONLY_NAMES.map((name) => `"${foldName(name)}":`)];
const FOLDED_OVERLAP = Math.max(...FOLDED_TOOL_FIELDS.map((name) => name.length)) - 1;

/** Whether the bytes hold `\u00` and a digit from 2 to 7: the escape of a character from U+0020 to U+007F. */
function escapesAscii(bytes: Buffer): boolean {
  for (let at = bytes.indexOf(ESCAPE_OF_ASCII); at !== -1; at = bytes.indexOf(ESCAPE_OF_ASCII, at + 1)) {
    const digit = bytes[at + ESCAPE_OF_ASCII.length];
    if (digit !== undefined && digit >= 0x32 && digit <= 0x37) return true;
  }
  return false;
}

/**
 * Whether a line too long to read may name a request's tool fields, searched
 * piece by piece as the line goes by: a name cut between two pieces is found
 * across them.
 */
export class ToolFieldSearch {
  private tail = Buffer.alloc(0);
  private seen = false;
  // A character cut between two pieces is decoded whole, with the later piece.
  private readonly decoder = new StringDecoder("utf8");
  private foldedTail = "";

  get found(): boolean {
    return this.seen;
  }

  push(piece: Uint8Array): void {
    if (this.seen || piece.length === 0) return;
    const window = this.tail.length === 0 ? Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength) : Buffer.concat([this.tail, piece]);
    this.seen = TOOL_FIELD_BYTES.some((bytes) => window.includes(bytes)) || escapesAscii(window) || this.foldedHolds(piece);
    // A copy: a view would keep the whole chunk the piece came in.
    this.tail = Buffer.from(window.subarray(Math.max(0, window.length - OVERLAP)));
  }

  /** Whether the text so far, folded, names a request's tool fields; a name cut between pieces is found across them, since what folding drops is gone from the tail. */
  private foldedHolds(piece: Uint8Array): boolean {
    const folded = this.foldedTail + foldName(this.decoder.write(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength)));
    this.foldedTail = folded.slice(-FOLDED_OVERLAP);
    return FOLDED_TOOL_FIELDS.some((name) => folded.includes(name));
  }
}
