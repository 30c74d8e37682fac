// Runs an automaton over a string's code points as a lazily built DFA: each set of
// automaton states met during a run becomes one DFA state, and each transition is
// worked out the first time it is taken and then kept. A test therefore costs one
// table lookup per code point once warm, and at most one pass over the automaton
// per code point when cold, so its time is linear in the input whatever the pattern.
//
// | part              | how                                                              |
// |-------------------|------------------------------------------------------------------|
// | code points       | a surrogate pair is one, a lone surrogate is one, as in u mode   |
// | search            | unanchored, as RegExp#test: the start state rejoins before each  |
// |                   | code point, unless every path begins with `^`                    |
// | `^` `$` `\b` `\B` | judged while closing a DFA state over the next code point, from  |
// |                   | the state's flags (at start, after a word character) and the     |
// |                   | code point itself; `$` at the end of the input                   |
// | transitions       | an array for ASCII; above it, a map keyed by the code point's    |
// |                   | class: code points no set of the pattern tells apart share one   |
// | memory            | bounded: past the bound the cache is emptied and refilled,       |
// |                   | which keeps the time linear                                      |
import type { Automaton } from "./pattern-automaton.js";
import { ASSERT, AT_INPUT_END, AT_INPUT_START, AT_WORD_BOUNDARY, CONSUME, MATCH, SPLIT } from "./pattern-automaton.js";
import { isWordCodePoint, MAX_CODE_POINT, rangesContain } from "./pattern-code-points.js";

// A pattern that needs more DFA states than this (`[ab]*a[ab]{12}` needs 8,192)
// runs with a cache that is emptied now and then; the patterns of tool schemas
// need a few dozen. At the bound a matcher holds about 256 KB of ASCII rows.
const MAX_CACHED_STATES = 512;
const MAX_CACHED_KERNEL_SIZE = 65_536;
const ASCII_LIMIT = 0x80;

// A transition entry is the next state's id + 1; these mark the rest.
const UNKNOWN = 0;
const MATCHED = -1;
const DEAD = -2;

export class PatternMatcher {
  private readonly automaton: Automaton;
  // Starts of the intervals of non-ASCII code points that every set of the
  // pattern treats alike; a code point's class is the interval it falls in.
  private readonly classStarts: readonly number[];
  // DFA states by id: the automaton states reached but not yet closed over
  // assertions (the kernel), whether the state is the start of the input or
  // follows a word character, and whether the end of the input may follow.
  private readonly ids = new Map<string, number>();
  private kernels: number[][] = [];
  private afterWord: boolean[] = [];
  private acceptsAtEnd: number[] = [];
  private beyondAscii: (Map<number, number> | undefined)[] = [];
  /** Row `id` holds the transitions of state `id` on the 128 ASCII code points. */
  private ascii: number[] = [];
  private cachedKernelSize = 0;
  private start = -1;
  private flushes = 0;
  // Scratch for closures: a state is marked with the current generation when met.
  // Plain arrays: a typed array costs microseconds to allocate, and a pattern is
  // compiled once per schema.
  private readonly marks: number[];
  private generation = 0;
  private readonly pending: number[];
  private readonly consumers: number[];
  private consumerCount = 0;

  constructor(automaton: Automaton) {
    this.automaton = automaton;
    this.classStarts = classStartsOf(automaton);
    const size = automaton.kinds.length;
    this.marks = new Array<number>(size).fill(0);
    this.pending = new Array<number>(size + 1).fill(0);
    this.consumers = new Array<number>(size).fill(0);
  }

  test(input: string): boolean {
    let state = this.start >= 0 ? this.start : this.startState();
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
      if (entry === UNKNOWN) entry = this.transition(state, codePoint);
      if (entry < 0) return entry === MATCHED;
      state = entry - 1;
    }
    let accepts = this.acceptsAtEnd[state];
    if (accepts < 0) accepts = this.acceptsAtEnd[state] = this.close(state, true, false) ? 1 : 0;
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
    if (this.close(state, false, beforeWord)) {
      entry = MATCHED;
    } else {
      const { out, arg, sets } = this.automaton;
      const targets: number[] = [];
      this.generation++;
      for (let i = 0; i < this.consumerCount; i++) {
        const consumer = this.consumers[i];
        const target = out[consumer];
        if (this.marks[target] !== this.generation && rangesContain(sets[arg[consumer]], codePoint)) {
          this.marks[target] = this.generation;
          targets.push(target);
        }
      }
      if (targets.length === 0 && this.automaton.anchoredAtStart) entry = DEAD;
      else entry = this.intern(targets.sort((a, b) => a - b), this.automaton.watchesWords && beforeWord, false) + 1;
    }
    // After a flush `state` names nothing any more: its transition is not kept.
    if (this.flushes !== flushes) return entry;
    if (codePoint < ASCII_LIMIT) this.ascii[state * ASCII_LIMIT + codePoint] = entry;
    else (this.beyondAscii[state] ??= new Map()).set(this.classOf(codePoint), entry);
    return entry;
  }

  private intern(kernel: number[], afterWord: boolean, atStart: boolean): number {
    const key = `${atStart ? "^" : ""}${afterWord ? "w" : ""}${kernel.join(",")}`;
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    if (this.kernels.length >= MAX_CACHED_STATES || this.cachedKernelSize + kernel.length > MAX_CACHED_KERNEL_SIZE) this.flush();
    const id = this.kernels.length;
    this.ids.set(key, id);
    this.kernels.push(kernel);
    this.afterWord.push(afterWord);
    this.acceptsAtEnd.push(-1);
    this.beyondAscii.push(undefined);
    this.cachedKernelSize += kernel.length;
    for (let i = 0; i < ASCII_LIMIT; i++) this.ascii.push(UNKNOWN);
    return id;
  }

  private flush(): void {
    this.ids.clear();
    this.kernels = [];
    this.afterWord = [];
    this.acceptsAtEnd = [];
    this.beyondAscii = [];
    this.ascii = [];
    this.cachedKernelSize = 0;
    this.start = -1;
    this.flushes++;
  }

  // Follows splits and the assertions that hold here from the state's kernel (and
  // from the start state, where a match may begin); collects the states that take
  // a code point into `consumers`. True when MATCH is reached. The start state of
  // the DFA is the only one at the start of the input.
  private close(state: number, atEnd: boolean, beforeWord: boolean): boolean {
    const { kinds, out, arg, start } = this.automaton;
    const atStart = state === this.start;
    const afterWord = this.afterWord[state];
    const generation = ++this.generation;
    const marks = this.marks;
    const pending = this.pending;
    let top = 0;
    for (const member of this.kernels[state]) {
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
