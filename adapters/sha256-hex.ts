// The SHA-256 of a text, as hex: what the converters make the ids a record
// lacks of (an id-less response's id, its items' ids, a call's synthesized id).
import * as crypto from "node:crypto";

/**
 * Node's one-shot digest, where it has one (20.12 and later): converting a
 * response hashes once per item, and a Hash object made for each was a
 * measurable share of it. Both read the text as UTF-8 (a lone surrogate as
 * U+FFFD) and give the same hex.
 */
const oneShot: ((algorithm: string, data: string, encoding: "hex") => string) | undefined = typeof crypto.hash === "function" ? crypto.hash : undefined;

export function sha256Hex(text: string): string {
  return oneShot !== undefined ? oneShot("sha256", text, "hex") : crypto.createHash("sha256").update(text).digest("hex");
}
