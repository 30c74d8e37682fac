// Sets of code points as sorted, disjoint, inclusive ranges, and the sets ECMA-262
// gives the class escapes and `.` under the u flag without i, m or s.
//
// | syntax     | set                                                                       |
// |------------|---------------------------------------------------------------------------|
// | `\d`       | 0-9                                                                       |
// | `\w`       | A-Z a-z 0-9 _ (the word characters `\b` looks at too)                     |
// | `\s`       | WhiteSpace and LineTerminator: U+0009-000D, U+0020, U+00A0, U+1680,        |
// |            | U+2000-200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF               |
// | `.`        | every code point but the line terminators U+000A, U+000D, U+2028, U+2029  |
// | `\D \W \S` | the complement of the lower-case set                                      |
//
// A lone surrogate is a code point of its own (U+D800-DFFF), as a u-mode RegExp
// reads a string, so complements and `.` include them.

/** Inclusive ranges, sorted and disjoint, never adjacent: `[from0, to0, from1, to1, …]`. */
export type CodePointRanges = readonly number[];

export const MAX_CODE_POINT = 0x10ffff;

export const DIGIT_RANGES: CodePointRanges = [0x30, 0x39];
export const WORD_RANGES: CodePointRanges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
export const SPACE_RANGES: CodePointRanges = [
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff,
];
export const DOT_RANGES: CodePointRanges = [0x00, 0x09, 0x0b, 0x0c, 0x0e, 0x2027, 0x202a, MAX_CODE_POINT];

/** Sorts and merges ranges given in any order, overlapping or adjacent. */
export function normalizeRanges(ranges: readonly number[]): number[] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i], ranges[i + 1]]);
  pairs.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [from, to] of pairs) {
    const last = merged.length - 1;
    if (last > 0 && from <= merged[last] + 1) merged[last] = Math.max(merged[last], to);
    else merged.push(from, to);
  }
  return merged;
}

/** Every code point the ranges leave out. */
export function complementRanges(ranges: CodePointRanges): number[] {
  const complement: number[] = [];
  let next = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    if (ranges[i] > next) complement.push(next, ranges[i] - 1);
    next = ranges[i + 1] + 1;
  }
  if (next <= MAX_CODE_POINT) complement.push(next, MAX_CODE_POINT);
  return complement;
}

export function rangesContain(ranges: CodePointRanges, codePoint: number): boolean {
  let low = 0;
  let high = ranges.length / 2 - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (codePoint < ranges[2 * middle]) high = middle - 1;
    else if (codePoint > ranges[2 * middle + 1]) low = middle + 1;
    else return true;
  }
  return false;
}

export function isWordCodePoint(codePoint: number): boolean {
  return (codePoint >= 0x61 && codePoint <= 0x7a) || (codePoint >= 0x41 && codePoint <= 0x5a) || (codePoint >= 0x30 && codePoint <= 0x39) || codePoint === 0x5f;
}
