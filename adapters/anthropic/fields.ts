// Fields of Anthropic records that have no Open Responses place ride along on the
// canonical value under the envelope's slug (`cache_control` becomes
// `anthropic:cache_control`), so that the same provider gets them back exactly.
// Another envelope's writer sees a key that is not of the portable shape and
// reports it; it never forwards it as its own. The other way, each slug key is
// put back on the Anthropic record, and every other key the portable shape does
// not define is reported, never carried.
import type { Loss } from "../../src/models/loss.js";
import { pointer } from "../../src/models/json-pointer.js";
import { isPlainObject } from "../../src/models/json-value.js";

export const SLUG = "anthropic";
export const PREFIX = `${SLUG}:`;
export const TARGET = "Anthropic Messages";

export type PointerTokens = ReadonlyArray<string | number>;
export type Fields = Record<string, unknown>;

export const isRecord = isPlainObject;

/** A field counts as present when it holds something other than null or undefined. */
export function isPresent(value: unknown): boolean {
  return value !== null && value !== undefined;
}

export function lossAt(at: PointerTokens, code: Loss["code"], detail: string): Loss {
  return { path: pointer(...at), code, detail };
}

/** Copies every field of `source` not in `mapped` onto `target` under the slug; a null is kept, as the same provider wrote it. */
export function carryFields(source: Fields, mapped: readonly string[], target: Fields): void {
  for (const key of Object.keys(source)) {
    if (mapped.includes(key) || source[key] === undefined) continue;
    target[PREFIX + key] = source[key];
  }
}

/**
 * Puts the slug fields of a canonical value back on the Anthropic record, and
 * reports every other present field outside `portable`: the portable shape has
 * no place for it and Anthropic none either. A slug field never overwrites a
 * field the converter wrote.
 */
export function restoreFields(source: Fields, portable: readonly string[], target: Fields, at: PointerTokens, losses: Loss[]): void {
  for (const key of Object.keys(source)) {
    if (portable.includes(key)) continue;
    const value = source[key];
    if (key.startsWith(PREFIX)) {
      const field = key.slice(PREFIX.length);
      if (!(field in target) && value !== undefined) target[field] = value;
      continue;
    }
    if (!isPresent(value)) continue;
    losses.push(lossAt([...at, key], "provider_extension", `"${key}" is not a field of the portable shape; ${TARGET} has no place for it`));
  }
}

/** The type of a value that is not what a converter expected, for a loss's detail. */
export function typeOf(value: unknown): string {
  if (isRecord(value)) return JSON.stringify(value.type);
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

/** An extension item's own type: `anthropic:server_tool_use` gives `server_tool_use`, another slug gives undefined. */
export function ownExtensionType(type: unknown): string | undefined {
  return typeof type === "string" && type.startsWith(PREFIX) && type.length > PREFIX.length ? type.slice(PREFIX.length) : undefined;
}
