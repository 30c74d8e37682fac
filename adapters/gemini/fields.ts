// Fields of Gemini records that have no Open Responses place ride along on the
// canonical value under the envelope's slug (`thoughtSignature` becomes
// `gemini:thoughtSignature`), so that the same provider gets them back exactly.
// Another envelope's writer sees a key that is not of the portable shape and
// reports it; it never forwards it as its own. The other way, each slug key is
// put back on the Gemini part or content, and every other key the portable shape does
// not define is reported, never carried.
import type { Loss } from "../../src/models/loss.js";
import { pointer } from "../../src/models/json-pointer.js";
import { isPlainObject } from "../../src/models/json-value.js";
import { createHash } from "node:crypto";

export const SLUG = "gemini";
export const PREFIX = `${SLUG}:`;
export const TARGET = "Gemini";

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
 * Puts the slug fields of a canonical value back on the Gemini record, and
 * reports every other present field outside `portable`: the portable shape has
 * no place for it and Gemini none either. A slug field never overwrites a
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

/** An extension item's own type: `gemini:executableCode` gives `executableCode`, another slug gives undefined. */
export function ownExtensionType(type: unknown): string | undefined {
  return typeof type === "string" && type.startsWith(PREFIX) && type.length > PREFIX.length ? type.slice(PREFIX.length) : undefined;
}

/**
 * Gemini fields are written in camelCase by the API and in snake_case by some
 * clients (`functionCall` / `function_call`). A reader takes either; the
 * spelling read is kept so that the way back writes it again.
 */
export type Spelling = "camel" | "snake";

export function snakeOf(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** The value of `key` in either spelling, and the spelling that held it. */
export function read(record: Fields, key: string): { value: unknown; spelling: Spelling; key: string } {
  if (record[key] !== undefined) return { value: record[key], spelling: "camel", key };
  const snake = snakeOf(key);
  return { value: record[snake], spelling: snake !== key && record[snake] !== undefined ? "snake" : "camel", key: record[snake] !== undefined ? snake : key };
}

export function spelled(key: string, spelling: Spelling): string {
  return spelling === "snake" ? snakeOf(key) : key;
}

/** A short, stable digest of a text: synthesized ids are made of it, never of chance. */
export function digest(text: string, length = 8): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}

/** Fields of a part that sit beside its data (`{functionCall, thoughtSignature}`), not inside it. */
export const PART_FIELDS = new Set(["thought", "thoughtSignature", "thought_signature", "partMetadata", "part_metadata", "videoMetadata", "video_metadata", "mediaResolution", "media_resolution"]);

/**
 * restoreFields for a part whose data is an inner object (functionCall,
 * functionResponse): a slug field of the part goes beside the data, any other
 * inside it, where it was read.
 */
export function restoreSplit(source: Fields, portable: readonly string[], inner: Fields, part: Fields, at: PointerTokens, losses: Loss[]): void {
  const restored: Fields = {};
  restoreFields(source, portable, restored, at, losses);
  for (const [key, value] of Object.entries(restored)) {
    if (PART_FIELDS.has(key)) part[key] = value;
    else if (!(key in inner)) inner[key] = value;
  }
}
