// Bedrock's fields with no Open Responses place ride on canonical values under
// the `bedrock:` slug (a tool result's `status` becomes `bedrock:status`), by the
// rules of src/models/slug-fields.ts; and the small helpers its converters share.
import type { Loss } from "../../src/models/loss.js";
import { isPlainObject } from "../../src/models/json-value.js";
import { slugFields, type Fields, type PointerTokens } from "../../src/models/slug-fields.js";

export { isPresent, lossAt, type Fields, type PointerTokens } from "../../src/models/slug-fields.js";

export const SLUG = "bedrock";
export const TARGET = "Bedrock Converse";
const fields = slugFields(SLUG, TARGET);
export const PREFIX = fields.prefix;

export const isRecord = isPlainObject;

export const { carryFields, ownExtensionType } = fields;

/**
 * A `cachePoint` block marks the end of the content before it; on the way in it
 * rides on the part or item it follows, and on the way back it is written as a
 * block of its own right after that part's block.
 */
export const CACHE_POINT = `${PREFIX}cachePoint`;

/** The shared restoreFields, with the cachePoint field placed by the caller unless said otherwise. */
export function restoreFields(source: Fields, portable: readonly string[], target: Fields, at: PointerTokens, losses: Loss[], placed: readonly string[] = [CACHE_POINT]): void {
  fields.restoreFields(source, portable, target, at, losses, placed);
}

/** The type of a value that is not what a converter expected, for a loss's detail. */
export function typeOf(value: unknown): string {
  if (isRecord(value)) return JSON.stringify(typeof value.type === "string" ? value.type : blockKind(value));
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

/** The member a Bedrock content block holds (`text`, `toolUse`…): its only key. Undefined when it has none or several. */
export function blockKind(block: Fields): string | undefined {
  // Counted without a list of the keys: detection asks this of every record of a journal.
  let kind: string | undefined;
  for (const key in block) {
    if (!Object.hasOwn(block, key) || block[key] === undefined) continue;
    if (kind !== undefined) return undefined;
    kind = key;
  }
  return kind;
}
