// Gemini's fields with no Open Responses place ride on canonical values under
// the `gemini:` slug (`thoughtSignature` becomes `gemini:thoughtSignature`), by
// the rules of src/models/slug-fields.ts; and the small helpers its converters
// share, its two spellings of field names among them.
import { sha256Hex } from "../sha256-hex.js";
import type { Loss } from "../../src/models/loss.js";
import { isPlainObject } from "../../src/models/json-value.js";
import { slugFields, type Fields, type PointerTokens } from "../../src/models/slug-fields.js";

export { isPresent, lossAt, type Fields, type PointerTokens } from "../../src/models/slug-fields.js";

export const SLUG = "gemini";
export const TARGET = "Gemini";
const fields = slugFields(SLUG, TARGET);
export const PREFIX = fields.prefix;

export const isRecord = isPlainObject;

export const { carryFields, restoreFields, ownExtensionType } = fields;

/** The type of a value that is not what a converter expected, for a loss's detail. */
export function typeOf(value: unknown): string {
  if (isRecord(value)) return JSON.stringify(value.type);
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

/**
 * Gemini fields are written in camelCase by the API and in snake_case by some
 * clients (`functionCall` / `function_call`). A reader takes either; the
 * spelling read is kept so that the way back writes it again.
 */
export type Spelling = "camel" | "snake";

/**
 * The snake spellings worked out so far: readers ask for the same few field
 * names for every part of every record, and a replace per ask was a measurable
 * share of reading one. Bounded, though the names asked for are the readers' own.
 */
const SNAKE_SPELLINGS = new Map<string, string>();
const MAX_SNAKE_SPELLINGS = 512;

export function snakeOf(key: string): string {
  let snake = SNAKE_SPELLINGS.get(key);
  if (snake === undefined) {
    snake = key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    if (SNAKE_SPELLINGS.size < MAX_SNAKE_SPELLINGS) SNAKE_SPELLINGS.set(key, snake);
  }
  return snake;
}

/** The value of `key` in either spelling, and the spelling that held it. */
export function read(record: Fields, key: string): { value: unknown; spelling: Spelling; key: string } {
  if (record[key] !== undefined) return { value: record[key], spelling: "camel", key };
  const snake = snakeOf(key);
  return { value: record[snake], spelling: snake !== key && record[snake] !== undefined ? "snake" : "camel", key: record[snake] !== undefined ? snake : key };
}

/** Whether `key` is given in both spellings, which a reader of either reads its own way. */
export function givenTwice(record: Fields, key: string): boolean {
  const snake = snakeOf(key);
  return snake !== key && record[key] !== undefined && record[snake] !== undefined;
}

export function spelled(key: string, spelling: Spelling): string {
  return spelling === "snake" ? snakeOf(key) : key;
}

/** A short, stable digest of a text: synthesized ids are made of it, never of chance. */
export function digest(text: string, length = 8): string {
  return sha256Hex(text).slice(0, length);
}

/**
 * Fields of a part that sit beside its data (`{functionCall, thoughtSignature}`), not inside it.
 * The other data fields too: a part that holds a call may write them null beside it, as the
 * Python SDK's model_dump does, and no FunctionCall or FunctionResponse has a field of their names.
 */
export const PART_FIELDS = new Set([
  ...["thought", "thoughtSignature", "partMetadata", "videoMetadata", "mediaResolution"],
  ...["text", "inlineData", "fileData", "functionCall", "functionResponse", "executableCode", "codeExecutionResult", "toolCall", "toolResponse"],
].flatMap((key) => [key, snakeOf(key)]));

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
