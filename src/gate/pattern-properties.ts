// The code points of a Unicode property escape, `\p{…}`, taken from this process's
// own RegExp: every code point is tested once against `\p{…}` with the u flag, so
// the set is the one the JavaScript engine's Unicode version gives, whatever that
// version is, and no table of ours can fall behind it. A property costs tens of
// milliseconds the first time and is kept for the life of the process; the
// ECMA-262 list of property names and values is finite, so the cache is too.
import type { CodePointRanges } from "./pattern-code-points.js";
import { MAX_CODE_POINT } from "./pattern-code-points.js";

const rangesByProperty = new Map<string, CodePointRanges>();

/**
 * The set of `\p{key=value}` (`\p{key}` for a binary property, `value` null), as
 * the parser names it. Throws when this engine's RegExp does not know the property.
 */
export function propertyRanges(key: string, value: string | null): CodePointRanges {
  // The name pattern-syntax.ts lists the pattern's properties by.
  const name = value === null ? key : `${key}=${value}`;
  let ranges = rangesByProperty.get(name);
  if (ranges === undefined) {
    ranges = probeProperty(new RegExp(`^\\p{${name}}$`, "u"));
    rangesByProperty.set(name, ranges);
  }
  return ranges;
}

function probeProperty(property: RegExp): number[] {
  const ranges: number[] = [];
  let from = -1;
  for (let codePoint = 0; codePoint <= MAX_CODE_POINT; codePoint++) {
    // A lone surrogate is one code point to a u-mode RegExp, as in the input.
    const text = codePoint <= 0xffff ? String.fromCharCode(codePoint) : String.fromCodePoint(codePoint);
    const inside = property.test(text);
    if (inside && from < 0) from = codePoint;
    else if (!inside && from >= 0) {
      ranges.push(from, codePoint - 1);
      from = -1;
    }
  }
  if (from >= 0) ranges.push(from, MAX_CODE_POINT);
  return ranges;
}
