// JSON Pointers (RFC 6901) into records and items: the paths of losses and findings.
import type { Loss } from "./loss.js";

/** Escapes one reference token of a JSON Pointer (RFC 6901, section 3). */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Builds a JSON Pointer from its reference tokens. */
export function pointer(...tokens: ReadonlyArray<string | number>): string {
  return tokens.map((token) => "/" + pointerToken(token)).join("");
}

/** Re-roots losses found inside a part of a record (`/messages` + `/3/name`). */
export function prefixLosses(prefix: string, losses: readonly Loss[]): Loss[] {
  return losses.map((loss) => ({ ...loss, path: prefix + loss.path }));
}
