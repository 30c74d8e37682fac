// Runs an automaton over a string's code points as a lazily built DFA: each set of
// automaton states met during a run becomes one DFA state, and each transition is
// worked out the first time it is taken and then kept. A warm test costs one table
// lookup per code point; a cold step costs one pass over the automaton, so a test
// is linear in the input whatever the pattern.
//
// | part              | how                                                              |
// |-------------------|------------------------------------------------------------------|
// | code points       | a surrogate pair is one, a lone surrogate is one, as in u mode   |
// | search            | unanchored, as RegExp#test: the start state rejoins before each  |
// |                   | code point, unless every path begins with `^`                    |
// | `^` `$` `\b` `\B` | judged while closing a state over the next code point, from the  |
// |                   | state's flags (at start, after a word character) and the code    |
// |                   | point itself; `$` at the end of the input                        |
// | transitions       | a table row for ASCII; above it, a map keyed by the code point's |
// |                   | class: code points no set of the pattern tells apart share one   |
// | memory            | bounded: past the bound the cache is emptied                     |
// | many states       | when a test twice fills the cache with its bound of states       |
// |                   | while reading fewer than ten code points per state, the states   |
// |                   | do not recur: it finishes as a plain NFA simulation, which       |
// |                   | builds nothing. A cache filled by large kernels is refilled:     |
// |                   | such states often recur (`[\s\S]{0,2000}x`), and building one    |
// |                   | costs little more than the simulation's step                     |
import type { Automaton } from "./pattern-automaton.js";
import { ASSERT, AT_INPUT_END, AT_INPUT_START, AT_WORD_BOUNDARY, CONSUME, MATCH, SPLIT } from "./pattern-automaton.js";
import { isWordCodePoint, MAX_CODE_POINT, rangesContain } from "./pattern-code-points.js";
import { schemaWork } from "./schema-work.js";

// The patterns of tool schemas need a few dozen DFA states; `[ab]*a[ab]{12}`
// needs 8,192. At the bounds the ASCII table takes 256 KB and the kernels 1 MB.
export const CACHE_BOUNDS: CacheBounds = { states: 512, kernelSize: 131_072 };
const POOR_FILLS_BEFORE_SIMULATION = 2;
const CODE_POINTS_PER_STATE = 10;
const ASCII_LIMIT = 0x80;

// A transition entry is the next state's id + 1; these mark the rest.
const UNKNOWN = 0;
const MATCHED = -1;
const DEAD = -2;

/** DFA states kept at most, and automaton states summed over their kernels. */
export interface CacheBounds {
  readonly states: number;
  readonly kernelSize: number;
}

export class PatternMatcher {
  private readonly automaton: Automaton;
  private readonly bounds: CacheBounds;
  // Starts of the intervals of non-ASCII code points that every set of the
  // pattern treats alike; a code point's class is the interval it falls in.
  private readonly classStarts: readonly number[];
  // DFA states by id: the automaton states reached but not yet closed over
  // assertions (the kernel), whether the state follows a word character, and
  // whether the end of the input may come next (-1 until known).
  // By a hash of the kernel as a set (its order does not count), with the flags.
  private readonly idsByHash = new Map<number, number[]>();
  private kernels: number[][] = [];
  private afterWord: boolean[] = [];
  private acceptsAtEnd: number[] = [];
  private beyondAscii: (Map<number, number> | undefined)[] = [];
  /** Row `id` holds the transitions of state `id` on the 128 ASCII code points. */
  private ascii = new Int32Array(0);
  private cachedKernelSize = 0;
  /** The state at the start of the input, the only one where `^` holds. */
  private start = -1;
  /** How often the cache was emptied; how many states it held the last time, if it was full of them. */
  private flushes = 0;
  private crowdAtLastFlush = 0;
  // Scratch for closures: a state is marked with the current generation when met.
  // Plain arrays: a small typed array costs microseconds to allocate, and a
  // pattern is compiled once per schema.
  private readonly marks: number[];
  private generation = 0;
  private readonly pending: number[];
  private readonly consumers: number[];
  private consumerCount = 0;

  constructor(automaton: Automaton, bounds: CacheBounds = CACHE_BOUNDS) {
    this.automaton = automaton;
    this.bounds = bounds;
    this.classStarts = classStartsOf(automaton);
    const size = automaton.kinds.length;
    this.marks = new Array<number>(size).fill(0);
    this.pending = new Array<number>(size + 1).fill(0);
    this.consumers = new Array<number>(size).fill(0);
  }

  test(input: string): boolean {
    let state = this.start >= 0 ? this.start : this.startState();
    let flushesSeen = this.flushes;
    let fillStart = 0;
    let poorFills = 0;
    const length = input.length;
    let index = 0;
    while (index < length) {
      let codePoint = input.charCodeAt(index++);
      let entry: number;
      if (codePoint < ASCII_LIMIT) {
        entry = this.ascii[state * ASCII_LIMIT + codePoint];
      } else {
        if (codePoint >= 0xd800 && codePoint <= 0xdbff && index < length) {
          const low = input.charCodeAt(index);
          if (low >= 0xdc00 && low <= 0xdfff) {
            codePoint = (codePoint - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
            index++;
          }
        }
        entry = this.beyondAscii[state]?.get(this.classOf(codePoint)) ?? UNKNOWN;
      }
      if (entry === UNKNOWN) {
        entry = this.transition(state, codePoint);
        if (this.flushes !== flushesSeen) {
          flushesSeen = this.flushes;
          if (index - fillStart < CODE_POINTS_PER_STATE * this.crowdAtLastFlush) poorFills++;
          fillStart = index;
          if (entry > 0 && poorFills >= POOR_FILLS_BEFORE_SIMULATION) return this.simulate(this.kernels[entry - 1], this.afterWord[entry - 1], input, index);
        }
      }
      if (entry < 0) return entry === MATCHED;
      state = entry - 1;
    }
    let accepts = this.acceptsAtEnd[state];
    if (accepts < 0) accepts = this.acceptsAtEnd[state] = this.close(this.kernels[state], state === this.start, this.afterWord[state], true, false) ? 1 : 0;
    return accepts === 1;
  }

  private startState(): number {
    this.start = this.intern([this.automaton.start], false, true);
    return this.start;
  }

  // Closes the state before `codePoint`, takes the code point, and keeps the
  // result as the state's transition.
  private transition(state: number, codePoint: number): number {
    const beforeWord = isWordCodePoint(codePoint);
    const flushes = this.flushes;
    let entry: number;
    if (this.close(this.kernels[state], state === this.start, this.afterWord[state], false, beforeWord)) {
      entry = MATCHED;
    } else {
      const targets = this.consume(codePoint);
      if (targets.length === 0 && this.automaton.anchoredAtStart) entry = DEAD;
      else entry = this.intern(targets, this.automaton.watchesWords && beforeWord, false) + 1;
    }
    // After a flush `state` names nothing any more: its transition is not kept.
    if (this.flushes !== flushes) return entry;
    if (codePoint < ASCII_LIMIT) this.ascii[state * ASCII_LIMIT + codePoint] = entry;
    else (this.beyondAscii[state] ??= new Map()).set(this.classOf(codePoint), entry);
    return entry;
  }

  // The same steps as the DFA, from `index` on, keeping nothing: for a pattern
  // whose states do not fit the cache, interning each one would be wasted work.
  private simulate(kernel: number[], afterWord: boolean, input: string, index: number): boolean {
    const length = input.length;
    while (index < length) {
      const codePoint = input.codePointAt(index) as number;
      index += codePoint > 0xffff ? 2 : 1;
      const beforeWord = isWordCodePoint(codePoint);
      if (this.close(kernel, false, afterWord, false, beforeWord)) return true;
      kernel = this.consume(codePoint);
      if (kernel.length === 0 && this.automaton.anchoredAtStart) return false;
      afterWord = this.automaton.watchesWords && beforeWord;
    }
    return this.close(kernel, false, afterWord, true, false);
  }

  /** The states the last closure's consumers reach on `codePoint`, each once. */
  private consume(codePoint: number): number[] {
    const { out, arg, sets } = this.automaton;
    const generation = ++this.generation;
    const targets: number[] = [];
    for (let i = 0; i < this.consumerCount; i++) {
      const consumer = this.consumers[i];
      const target = out[consumer];
      if (this.marks[target] !== generation && rangesContain(sets[arg[consumer]], codePoint)) {
        this.marks[target] = generation;
        targets.push(target);
      }
    }
    return targets;
  }

  private intern(kernel: number[], afterWord: boolean, atStart: boolean): number {
    const hash = hashState(kernel, afterWord, atStart);
    const known = this.idsByHash.get(hash);
    if (known !== undefined) {
      for (const id of known) if (this.isState(id, kernel, afterWord, atStart)) return id;
    }
    if (this.kernels.length >= this.bounds.states || this.cachedKernelSize + kernel.length > this.bounds.kernelSize) this.flush();
    const id = this.kernels.length;
    const bucket = this.idsByHash.get(hash);
    if (bucket === undefined) this.idsByHash.set(hash, [id]);
    else bucket.push(id);
    this.kernels.push(kernel);
    this.afterWord.push(afterWord);
    this.acceptsAtEnd.push(-1);
    this.beyondAscii.push(undefined);
    this.cachedKernelSize += kernel.length;
    if ((id + 1) * ASCII_LIMIT > this.ascii.length) {
      const grown = new Int32Array(Math.max(8, 2 * id) * ASCII_LIMIT);
      grown.set(this.ascii);
      this.ascii = grown;
    }
    return id;
  }

  private isState(id: number, kernel: readonly number[], afterWord: boolean, atStart: boolean): boolean {
    const other = this.kernels[id];
    if (other.length !== kernel.length || this.afterWord[id] !== afterWord || (id === this.start) !== atStart) return false;
    const generation = ++this.generation;
    for (const member of kernel) this.marks[member] = generation;
    for (const member of other) if (this.marks[member] !== generation) return false;
    return true;
  }

  private flush(): void {
    this.crowdAtLastFlush = this.kernels.length >= this.bounds.states ? this.kernels.length : 0;
    this.idsByHash.clear();
    this.kernels = [];
    this.afterWord = [];
    this.acceptsAtEnd = [];
    this.beyondAscii = [];
    this.ascii.fill(UNKNOWN);
    this.cachedKernelSize = 0;
    this.start = -1;
    this.flushes++;
  }

  // Follows splits and the assertions that hold here from the kernel (and from
  // the automaton's start, where a match may begin); collects the states that
  // take a code point into `consumers`. True when MATCH is reached.
  private close(kernel: readonly number[], atStart: boolean, afterWord: boolean, atEnd: boolean, beforeWord: boolean): boolean {
    const { kinds, out, arg, start } = this.automaton;
    const generation = ++this.generation;
    const marks = this.marks;
    const pending = this.pending;
    let top = 0;
    for (const member of kernel) {
      if (marks[member] !== generation) {
        marks[member] = generation;
        pending[top++] = member;
      }
    }
    if (!this.automaton.anchoredAtStart && marks[start] !== generation) {
      marks[start] = generation;
      pending[top++] = start;
    }
    let consumerCount = 0;
    let matched = false;
    while (top > 0) {
      const current = pending[--top];
      switch (kinds[current]) {
        case CONSUME:
          this.consumers[consumerCount++] = current;
          continue;
        case MATCH:
          matched = true;
          continue;
        case ASSERT:
          if (!assertionHolds(arg[current], atStart, atEnd, afterWord, beforeWord)) continue;
          break;
        case SPLIT:
          if (marks[arg[current]] !== generation) {
            marks[arg[current]] = generation;
            pending[top++] = arg[current];
          }
          break;
      }
      const target = out[current];
      if (marks[target] !== generation) {
        marks[target] = generation;
        pending[top++] = target;
      }
    }
    this.consumerCount = consumerCount;
    // Warm steps are table lookups; a closure walks up to the whole automaton.
    // Its cost counts toward the validation's budget (schema-work.ts), so a
    // pattern whose states never recur cannot spend it a code point at a time.
    schemaWork.chargeClosure(kernel.length + consumerCount);
    return matched;
  }

  private classOf(codePoint: number): number {
    const starts = this.classStarts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= codePoint) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

// A sum of mixed members: the same set hashes alike in any order.
function hashState(kernel: readonly number[], afterWord: boolean, atStart: boolean): number {
  let hash = (afterWord ? 0x9e3779b9 : 0) ^ (atStart ? 0x7f4a7c15 : 0);
  for (const member of kernel) {
    const mixed = Math.imul(member ^ (member >>> 15), 0x2c1b3c6d);
    hash = (hash + (mixed ^ (mixed >>> 12))) | 0;
  }
  return hash;
}

function assertionHolds(kind: number, atStart: boolean, atEnd: boolean, afterWord: boolean, beforeWord: boolean): boolean {
  switch (kind) {
    case AT_INPUT_START:
      return atStart;
    case AT_INPUT_END:
      return atEnd;
    case AT_WORD_BOUNDARY:
      return afterWord !== beforeWord;
    default:
      return afterWord === beforeWord;
  }
}

// Word characters are all ASCII, and ASCII is looked up by code point, so above
// ASCII only the sets' own range ends split the classes.
function classStartsOf(automaton: Automaton): number[] {
  const starts = new Set<number>([ASCII_LIMIT]);
  for (const ranges of automaton.sets) {
    for (let i = 0; i < ranges.length; i += 2) {
      if (ranges[i] > ASCII_LIMIT) starts.add(ranges[i]);
      if (ranges[i + 1] + 1 > ASCII_LIMIT && ranges[i + 1] < MAX_CODE_POINT) starts.add(ranges[i + 1] + 1);
    }
  }
  return [...starts].sort((a, b) => a - b);
}
