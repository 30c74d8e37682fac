// Names the field that makes a record too deep for a step that recurses once per
// level of nesting (JSON.stringify, a converter's walk). JSON.parse reads any
// depth; those steps run out of stack some thousands of levels down, and the
// engine's own error ("Maximum call stack size exceeded") says neither the line
// nor the field. This walk holds its own stack, so it reaches any depth.
import { pointerToken } from "../models/json-pointer.js";

/** The tokens of the deepest path shown in a detail; past them the path is cut with `/…`. */
const SHOWN_TOKENS = 6;

/** Whether `error` is the engine running out of stack. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/** The path to the deepest container of `value`, and how many containers deep it sits (`value` itself is 1). */
export function deepestPath(value: unknown): { tokens: string[]; depth: number } {
  if (value === null || typeof value !== "object") return { tokens: [], depth: 0 };
  // Each container met: its parent's number and the key that leads to it.
  const parents: number[] = [-1];
  const keys: string[] = [""];
  const depths: number[] = [1];
  const pending: Array<{ node: object; number: number }> = [{ node: value, number: 0 }];
  let deepest = 0;
  while (pending.length > 0) {
    const { node, number } = pending.pop()!;
    if (depths[number]! > depths[deepest]!) deepest = number;
    for (const [key, child] of Object.entries(node)) {
      if (child === null || typeof child !== "object") continue;
      parents.push(number);
      keys.push(key);
      depths.push(depths[number]! + 1);
      pending.push({ node: child as object, number: parents.length - 1 });
    }
  }
  const tokens: string[] = [];
  for (let at = deepest; at > 0; at = parents[at]!) tokens.push(keys[at]!);
  return { tokens: tokens.reverse(), depth: depths[deepest]! };
}

/** What a step that ran out of stack on `value` says: the field that nests past what it follows, and how deep. `what`: the value, as the detail names it. */
export function tooDeepDetail(value: unknown, step: string, what = "the record"): string {
  const { tokens, depth } = deepestPath(value);
  const shown = tokens.slice(0, SHOWN_TOKENS).map((token) => "/" + pointerToken(token)).join("");
  const pointer = tokens.length > SHOWN_TOKENS ? `${shown}/…` : shown || "/";
  return `${step}: ${what} nests ${depth.toLocaleString("en-US")} levels deep, at ${pointer}, deeper than orbridge follows`;
}

/** The same for the items of a record (or the records of a line: `noun`): the deepest, by its index. */
export function tooDeepItemsDetail(items: readonly unknown[], step: string, noun = "item"): string {
  let deepest = 0;
  let depth = -1;
  items.forEach((item, index) => {
    const itemDepth = deepestPath(item).depth;
    if (itemDepth > depth) [deepest, depth] = [index, itemDepth];
  });
  return tooDeepDetail(items[deepest], step, `its ${noun} ${deepest}`);
}
