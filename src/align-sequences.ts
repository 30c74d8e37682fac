// Lines up two sequences of keys (equal numbers stand for equal items) along a
// longest common subsequence, in bounded work and memory:
//
// | step                                                   | cost                          |
// |--------------------------------------------------------|-------------------------------|
// | the equal ends of a stretch are taken first            | linear                        |
// | a stretch of at most `maxCells` pairs: the LCS table   | its size, at most `maxCells`  |
// | a larger one is cut at the keys found once on each     | n log n                       |
// |   side, in the same order on both (as patience diff)   |                               |
// | a larger one with no such key is left unaligned        | none: the caller pairs it by  |
// |                                                        |   position and says so        |

/** Half-open ranges of the two sequences. */
export interface Stretch {
  aFrom: number;
  aTo: number;
  bFrom: number;
  bTo: number;
}

export interface Alignment {
  /** Index pairs of equal keys, increasing on both sides. */
  pairs: Array<[number, number]>;
  /** Stretches too large to align, in order; no pair falls inside one. */
  tooLarge: Stretch[];
}

export function alignSequences(a: readonly number[], b: readonly number[], maxCells: number): Alignment {
  const pairs: Array<[number, number]> = [];
  const tooLarge: Stretch[] = [];
  const work: Stretch[] = [{ aFrom: 0, aTo: a.length, bFrom: 0, bTo: b.length }];
  while (work.length > 0) {
    let { aFrom, aTo, bFrom, bTo } = work.pop()!;
    while (aFrom < aTo && bFrom < bTo && a[aFrom] === b[bFrom]) pairs.push([aFrom++, bFrom++]);
    while (aFrom < aTo && bFrom < bTo && a[aTo - 1] === b[bTo - 1]) pairs.push([--aTo, --bTo]);
    const rows = aTo - aFrom;
    const columns = bTo - bFrom;
    if (rows === 0 || columns === 0) continue;
    if (rows * columns <= maxCells) {
      tablePairs(a, b, { aFrom, aTo, bFrom, bTo }, pairs);
      continue;
    }
    const anchors = uniqueAnchors(a, b, { aFrom, aTo, bFrom, bTo });
    if (anchors.length === 0) {
      tooLarge.push({ aFrom, aTo, bFrom, bTo });
      continue;
    }
    let nextA = aFrom;
    let nextB = bFrom;
    for (const [i, j] of anchors) {
      work.push({ aFrom: nextA, aTo: i, bFrom: nextB, bTo: j });
      pairs.push([i, j]);
      nextA = i + 1;
      nextB = j + 1;
    }
    work.push({ aFrom: nextA, aTo, bFrom: nextB, bTo });
  }
  pairs.sort((x, y) => x[0] - y[0]);
  tooLarge.sort((x, y) => x.aFrom - y.aFrom || x.bFrom - y.bFrom);
  return { pairs, tooLarge };
}

/** The LCS of a stretch from its table: cell (i, j) holds the LCS length of the two suffixes from there. */
function tablePairs(a: readonly number[], b: readonly number[], stretch: Stretch, pairs: Array<[number, number]>): void {
  const rows = stretch.aTo - stretch.aFrom;
  const columns = stretch.bTo - stretch.bFrom;
  const width = columns + 1;
  // A length never exceeds the shorter side.
  const table = Math.min(rows, columns) < 0xffff ? new Uint16Array((rows + 1) * width) : new Uint32Array((rows + 1) * width);
  for (let i = rows - 1; i >= 0; i--) {
    const key = a[stretch.aFrom + i];
    for (let j = columns - 1; j >= 0; j--) {
      const here = i * width + j;
      table[here] = key === b[stretch.bFrom + j] ? table[here + width + 1] + 1 : Math.max(table[here + width], table[here + 1]);
    }
  }
  let i = 0;
  let j = 0;
  while (i < rows && j < columns) {
    if (a[stretch.aFrom + i] === b[stretch.bFrom + j]) {
      pairs.push([stretch.aFrom + i, stretch.bFrom + j]);
      i += 1;
      j += 1;
    } else if (table[(i + 1) * width + j] >= table[i * width + j + 1]) i += 1;
    else j += 1;
  }
}

/** The keys found exactly once on each side of a stretch, as index pairs, the longest run increasing on both sides. */
function uniqueAnchors(a: readonly number[], b: readonly number[], stretch: Stretch): Array<[number, number]> {
  const seen = new Map<number, { inA: number; inB: number; atA: number; atB: number }>();
  for (let i = stretch.aFrom; i < stretch.aTo; i++) {
    const entry = seen.get(a[i]);
    if (entry === undefined) seen.set(a[i], { inA: 1, inB: 0, atA: i, atB: -1 });
    else entry.inA += 1;
  }
  for (let j = stretch.bFrom; j < stretch.bTo; j++) {
    const entry = seen.get(b[j]);
    if (entry === undefined) continue;
    entry.inB += 1;
    entry.atB = j;
  }
  const candidates: Array<[number, number]> = [];
  for (const entry of seen.values()) if (entry.inA === 1 && entry.inB === 1) candidates.push([entry.atA, entry.atB]);
  candidates.sort((x, y) => x[0] - y[0]);
  return longestIncreasing(candidates);
}

/** The longest run of pairs whose second index increases (the first already does), by patience sorting. */
export function longestIncreasing(candidates: ReadonlyArray<[number, number]>): Array<[number, number]> {
  const tails: number[] = [];
  const previous = new Int32Array(candidates.length).fill(-1);
  for (let k = 0; k < candidates.length; k++) {
    const value = candidates[k][1];
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (candidates[tails[middle]][1] < value) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[k] = tails[low - 1];
    tails[low] = k;
  }
  const run: Array<[number, number]> = [];
  for (let k = tails.length > 0 ? tails[tails.length - 1] : -1; k !== -1; k = previous[k]) run.push(candidates[k]);
  return run.reverse();
}
