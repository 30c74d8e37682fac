// JSON Pointer (RFC 6901) helpers for tests that check losses against their source.
import type { Loss } from "../../src/models/loss.js";

export function tokensOf(path: string): string[] {
  if (path === "") return [];
  if (!path.startsWith("/")) throw new Error(`not a JSON Pointer: ${path}`);
  return path.slice(1).split("/").map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Where a pointer lands: its parent and last token, when every token exists. */
export function resolve(value: unknown, tokens: readonly string[]): { found: boolean; parent?: unknown; key?: string } {
  let current: unknown = value;
  let parent: unknown;
  for (const token of tokens) {
    if (Array.isArray(current) ? !/^(0|[1-9]\d*)$/.test(token) || Number(token) >= current.length : typeof current !== "object" || current === null || !Object.hasOwn(current, token)) {
      return { found: false };
    }
    parent = current;
    current = (current as Record<string, unknown>)[token];
  }
  return { found: true, parent, key: tokens[tokens.length - 1] };
}

/** Later and deeper paths first, so that removing one never moves another. */
function compareDescending(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    const numeric = /^\d+$/.test(a[i]) && /^\d+$/.test(b[i]);
    return numeric ? Number(b[i]) - Number(a[i]) : b[i] < a[i] ? -1 : 1;
  }
  return b.length - a.length;
}

/** The value with every lost path removed: what a round trip gives back when nothing else changes. */
export function withoutPaths(value: unknown, losses: readonly Loss[]): unknown {
  const copy = structuredClone(value);
  const paths = [...new Set(losses.map((loss) => loss.path))].map(tokensOf).sort(compareDescending);
  for (const tokens of paths) {
    const { found, parent, key } = resolve(copy, tokens);
    // A path that resolves to nothing is left for the tests that check every loss points into its source.
    if (!found || key === undefined) continue;
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete (parent as Record<string, unknown>)[key];
  }
  return copy;
}
