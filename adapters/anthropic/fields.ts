// Anthropic's fields with no Open Responses place ride on canonical values under
// the `anthropic:` slug (`cache_control` becomes `anthropic:cache_control`), by
// the rules of src/models/slug-fields.ts; and the small helpers its converters share.
import { isPlainObject } from "../../src/models/json-value.js";
import { slugFields } from "../../src/models/slug-fields.js";

export { isPresent, lossAt, type Fields, type PointerTokens } from "../../src/models/slug-fields.js";

export const SLUG = "anthropic";
export const TARGET = "Anthropic Messages";
const fields = slugFields(SLUG, TARGET);
export const PREFIX = fields.prefix;

export const isRecord = isPlainObject;

export const { carryFields, restoreFields, ownExtensionType } = fields;

/** The type of a value that is not what a converter expected, for a loss's detail. */
export function typeOf(value: unknown): string {
  if (isRecord(value)) return JSON.stringify(value.type);
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}
