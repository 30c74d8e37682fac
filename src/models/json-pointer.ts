// JSON Pointers (RFC 6901) into records and items: the paths of losses and findings.

/** Escapes one reference token of a JSON Pointer (RFC 6901, section 3). */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Builds a JSON Pointer from its reference tokens. */
export function pointer(...tokens: ReadonlyArray<string | number>): string {
  return tokens.map((token) => "/" + pointerToken(token)).join("");
}
