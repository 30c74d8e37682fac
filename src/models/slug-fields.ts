// Fields of a provider's records that have no Open Responses place ride along on
// the canonical value under the envelope's slug (`cache_control` becomes
// `anthropic:cache_control`), so that the same provider gets them back exactly.
// Another envelope's writer sees a key that is not of the portable shape and
// reports it; it never forwards it as its own. The other way, each slug key is
// put back on the provider's record, and every other key the portable shape does
// not define is reported, never carried. One piece for every envelope that works
// this way; each adapter binds it to its slug.
import type { Loss } from "./loss.js";
import { pointer } from "./json-pointer.js";

export type PointerTokens = ReadonlyArray<string | number>;
export type Fields = Record<string, unknown>;

/** A field counts as present when it holds something other than null or undefined. */
export function isPresent(value: unknown): boolean {
  return value !== null && value !== undefined;
}

export function lossAt(at: PointerTokens, code: Loss["code"], detail: string): Loss {
  return { path: pointer(...at), code, detail };
}

export interface SlugFields {
  /** `slug:`, the prefix of every field carried for the same provider. */
  readonly prefix: string;
  /** Copies every field of `source` not in `mapped` onto `target` under the slug; a null is kept, as the provider wrote it. */
  carryFields(source: Fields, mapped: readonly string[], target: Fields): void;
  /**
   * Puts the slug fields of a canonical value back on the provider's record
   * (except those in `placed`, which the caller puts elsewhere), and reports
   * every other present field outside `portable`: the portable shape has no
   * place for it and the provider none either. A slug field never overwrites a
   * field the converter wrote.
   */
  restoreFields(source: Fields, portable: readonly string[], target: Fields, at: PointerTokens, losses: Loss[], placed?: readonly string[]): void;
  /** An extension item's own type: `anthropic:server_tool_use` gives `server_tool_use`, another slug gives undefined. */
  ownExtensionType(type: unknown): string | undefined;
}

/** The slug-field rules for one envelope; `target` names it in the details of losses. */
export function slugFields(slug: string, target: string): SlugFields {
  const prefix = `${slug}:`;
  return {
    prefix,
    carryFields(source, mapped, into) {
      for (const key of Object.keys(source)) {
        if (mapped.includes(key) || source[key] === undefined) continue;
        into[prefix + key] = source[key];
      }
    },
    restoreFields(source, portable, into, at, losses, placed = []) {
      for (const key of Object.keys(source)) {
        if (portable.includes(key) || placed.includes(key)) continue;
        const value = source[key];
        if (key.startsWith(prefix)) {
          const field = key.slice(prefix.length);
          if (!(field in into) && value !== undefined) into[field] = value;
          continue;
        }
        if (!isPresent(value)) continue;
        losses.push(lossAt([...at, key], "provider_extension", `"${key}" is not a field of the portable shape; ${target} has no place for it`));
      }
    },
    ownExtensionType(type) {
      return typeof type === "string" && type.startsWith(prefix) && type.length > prefix.length ? type.slice(prefix.length) : undefined;
    },
  };
}
