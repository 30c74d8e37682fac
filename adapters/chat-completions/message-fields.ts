// Field bookkeeping shared by the message and item converters. Both envelopes are
// parsed loosely, so a record can carry fields neither converter reads; listing
// the fields a converter does read lets every other one be reported as a loss
// instead of vanishing.
import type { Loss } from "../../src/models/loss.js";
import { pointer } from "../../src/models/json-pointer.js";
import { isPlainObject as isRecord } from "../../src/models/json-value.js";

export type PointerTokens = ReadonlyArray<string | number>;

export { isRecord };

/** A field counts as present when it holds something other than null or undefined. */
export function isPresent(value: unknown): boolean {
  return value !== null && value !== undefined;
}

/** True for null, undefined, "" and []: values that carry nothing to lose. */
export function isEmpty(value: unknown): boolean {
  return !isPresent(value) || value === "" || (Array.isArray(value) && value.length === 0);
}

/**
 * One `provider_extension` loss per present field of `record` not in `known`.
 * `target` names the envelope that has no place for the field.
 */
export function extensionFieldLosses(
  record: Record<string, unknown>,
  known: readonly string[],
  at: PointerTokens,
  target: string,
): Loss[] {
  const losses: Loss[] = [];
  for (const key of Object.keys(record)) {
    if (known.includes(key) || !isPresent(record[key])) continue;
    losses.push({
      path: pointer(...at, key),
      code: "provider_extension",
      detail: `"${key}" is not a field of the portable shape; ${target} has no place for it`,
    });
  }
  return losses;
}

/** A loss at the pointer made of `at`. */
export function lossAt(at: PointerTokens, code: Loss["code"], detail: string): Loss {
  return { path: pointer(...at), code, detail };
}
