// Fields of Bedrock records that have no Open Responses place ride along on the
// canonical value under the envelope's slug (a tool result's `status` becomes
// `bedrock:status`), so that Bedrock gets them back exactly. Another envelope's
// writer sees a key that is not of the portable shape and reports it; it never
// forwards it as its own. The other way, each slug key is put back on the
// Bedrock record, and every other key the portable shape does not define is
// reported, never carried.
import type { Loss } from "../../src/models/loss.js";
import { pointer } from "../../src/models/json-pointer.js";
import { isPlainObject } from "../../src/models/json-value.js";

export const SLUG = "bedrock";
export const PREFIX = `${SLUG}:`;
export const TARGET = "Bedrock Converse";

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

/** Copies every field of `source` not in `mapped` onto `target` under the slug. */
export function carryFields(source: Fields, mapped: readonly string[], target: Fields): void {
  for (const key of Object.keys(source)) {
    if (mapped.includes(key) || source[key] === undefined) continue;
    target[PREFIX + key] = source[key];
  }
}

/**
 * Puts the slug fields of a canonical value back on the Bedrock record (except
 * those in `placed`, which the caller puts elsewhere), and reports every other
 * present field outside `portable`. A slug field never overwrites a field the
 * converter wrote.
 */
export function restoreFields(source: Fields, portable: readonly string[], target: Fields, at: PointerTokens, losses: Loss[], placed: readonly string[] = [CACHE_POINT]): void {
  for (const key of Object.keys(source)) {
    if (portable.includes(key) || placed.includes(key)) continue;
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

/**
 * A `cachePoint` block marks the end of the content before it; on the way in it
 * rides on the part or item it follows, and on the way back it is written as a
 * block of its own right after that part's block.
 */
export const CACHE_POINT = `${PREFIX}cachePoint`;

/** The type of a value that is not what a converter expected, for a loss's detail. */
export function typeOf(value: unknown): string {
  if (isRecord(value)) return JSON.stringify(typeof value.type === "string" ? value.type : blockKind(value));
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

/** The member a Bedrock content block holds (`text`, `toolUse`…): its only key. Undefined when it has none or several. */
export function blockKind(block: Fields): string | undefined {
  const keys = Object.keys(block).filter((key) => block[key] !== undefined);
  return keys.length === 1 ? keys[0] : undefined;
}

/** An extension item's own block kind: `bedrock:toolResult` gives `toolResult`, another slug gives undefined. */
export function ownExtensionType(type: unknown): string | undefined {
  return typeof type === "string" && type.startsWith(PREFIX) && type.length > PREFIX.length ? type.slice(PREFIX.length) : undefined;
}
