// Builds a Thompson automaton (an NFA over code points) from a pattern's syntax
// tree. Only what a finite automaton expresses exactly is built; the rest refuses
// the pattern, because an approximation would accept values the schema rejects.
//
// | syntax                                   | automaton                                        |
// |------------------------------------------|--------------------------------------------------|
// | character, class, `.`, `\d \s \w \p{…}`  | one state consuming a code point of a set        |
// | `^` `$` `\b` `\B`                        | an assertion state, judged between code points   |
// | alternation, `?`, `*`, `{n,m}`           | split states; `{n,m}` repeats its atom's states  |
// | groups (capturing, named or not)         | their contents: captures mean nothing to a test  |
// | greedy or lazy                           | the same: a test asks whether any match exists   |
// | lookahead, lookbehind, backreference     | refused: this automaton has no state for them    |
// | modifiers `(?i:…)`                       | refused: flags inside a pattern are not built    |
// | more than STATE_BOUND states             | refused: the run costs states × input length     |
// | sets of more than SET_BOUND range bounds | refused: each distinct class is a set to build   |
import type { AST } from "@eslint-community/regexpp";
import {
  complementRanges,
  DIGIT_RANGES,
  DOT_RANGES,
  normalizeRanges,
  SPACE_RANGES,
  WORD_RANGES,
  type CodePointRanges,
} from "./pattern-code-points.js";
import { propertyRanges } from "./pattern-properties.js";

/** Most states an automaton may have; `(a{1000}){1000}` would need a million. */
export const STATE_BOUND = 20_000;

/**
 * Most range bounds the distinct code point sets of one pattern may hold: a class
 * with `\p{L}` holds about 1,400, so this is some seventy such classes. Each set is
 * built and kept once per class text, and a pattern of thousands of distinct
 * classes would otherwise take seconds and hundreds of megabytes to build.
 */
export const SET_BOUND = 100_000;

export const CONSUME = 0;
export const SPLIT = 1;
export const ASSERT = 2;
export const MATCH = 3;

export const AT_INPUT_START = 0;
export const AT_INPUT_END = 1;
export const AT_WORD_BOUNDARY = 2;
export const AT_NON_BOUNDARY = 3;

/**
 * State `s` is `kinds[s]`; it goes on to `out[s]`. `arg[s]` is the other branch of a
 * SPLIT, the index in `sets` of the code points a CONSUME takes, or the kind of an
 * ASSERT.
 */
export interface Automaton {
  readonly kinds: readonly number[];
  readonly out: readonly number[];
  readonly arg: readonly number[];
  readonly sets: readonly CodePointRanges[];
  readonly start: number;
  /** Every path meets `^` before it takes a code point: a match can only begin at 0. */
  readonly anchoredAtStart: boolean;
  /** `\b` or `\B` appears: whether the previous code point is a word character matters. */
  readonly watchesWords: boolean;
}

/** The automaton of a parsed pattern; throws an Error saying why when it is refused. */
export function buildAutomaton(pattern: string, tree: AST.Pattern): Automaton {
  refuseUnrunnable(pattern, tree);
  const builder = new AutomatonBuilder(pattern);
  const match = builder.add(MATCH, -1, 0);
  const start = builder.alternatives(tree.alternatives, match);
  const { kinds, out, arg } = builder;
  return {
    kinds,
    out,
    arg,
    sets: builder.sets,
    start,
    anchoredAtStart: isAnchoredAtStart(kinds, out, arg, start),
    watchesWords: builder.watchesWords,
  };
}

function refusal(pattern: string, what: string): Error {
  return new Error(`pattern "${pattern}" uses ${what}, which a linear-time engine cannot run; the schema is refused`);
}

// Refuses the leftmost construct the automaton cannot express, before any state
// is built, so the message names the first one a reader meets.
function refuseUnrunnable(pattern: string, node: AST.Node): void {
  switch (node.type) {
    case "Pattern":
    case "CapturingGroup":
      return node.alternatives.forEach((alternative) => refuseUnrunnable(pattern, alternative));
    case "Group":
      if (node.modifiers !== null) throw refusal(pattern, `the modifier group "${node.modifiers.raw}"`);
      return node.alternatives.forEach((alternative) => refuseUnrunnable(pattern, alternative));
    case "Alternative":
      return node.elements.forEach((element) => refuseUnrunnable(pattern, element));
    case "Quantifier":
      return refuseUnrunnable(pattern, node.element);
    case "Assertion":
      if (node.kind === "lookahead") throw refusal(pattern, `a ${node.negate ? "negative " : ""}lookahead "${node.raw}"`);
      if (node.kind === "lookbehind") throw refusal(pattern, `a ${node.negate ? "negative " : ""}lookbehind "${node.raw}"`);
      return;
    case "Backreference":
      throw refusal(pattern, `a ${typeof node.ref === "string" ? "named " : ""}backreference "${node.raw}"`);
    default:
      return;
  }
}

class AutomatonBuilder {
  readonly kinds: number[] = [];
  readonly out: number[] = [];
  readonly arg: number[] = [];
  readonly sets: CodePointRanges[] = [];
  watchesWords = false;
  /** Each class's set, by the class's text: under the u flag alone, one text is one set. */
  private readonly setOfText = new Map<string, number>();
  private setBounds = 0;
  // A repeated atom may add no state (`(?:){9999999}`); each copy still counts.
  private copies = 0;

  constructor(private readonly pattern: string) {}

  add(kind: number, out: number, arg: number): number {
    if (this.kinds.length >= STATE_BOUND) throw this.tooLarge();
    this.kinds.push(kind);
    this.out.push(out);
    this.arg.push(arg);
    return this.kinds.length - 1;
  }

  // Built back to front: each piece is given the state that follows it.
  alternatives(alternatives: readonly AST.Alternative[], next: number): number {
    let entry = this.sequence(alternatives[alternatives.length - 1].elements, next);
    for (let i = alternatives.length - 2; i >= 0; i--) entry = this.add(SPLIT, this.sequence(alternatives[i].elements, next), entry);
    return entry;
  }

  private sequence(elements: readonly AST.Element[], next: number): number {
    let entry = next;
    for (let i = elements.length - 1; i >= 0; i--) entry = this.element(elements[i], entry);
    return entry;
  }

  private element(element: AST.Element, next: number): number {
    switch (element.type) {
      case "Character":
      case "CharacterClass":
      case "CharacterSet":
      case "ExpressionCharacterClass":
        return this.add(CONSUME, next, this.setIndexOf(element));
      case "Group":
      case "CapturingGroup":
        return this.alternatives(element.alternatives, next);
      case "Quantifier":
        return this.quantifier(element, next);
      case "Assertion":
        return this.assertion(element, next);
      case "Backreference":
        throw refusal(this.pattern, `a backreference "${element.raw}"`);
      default:
        return assertNever(element);
    }
  }

  private assertion(assertion: AST.Assertion, next: number): number {
    switch (assertion.kind) {
      case "start":
        return this.add(ASSERT, next, AT_INPUT_START);
      case "end":
        return this.add(ASSERT, next, AT_INPUT_END);
      case "word":
        this.watchesWords = true;
        return this.add(ASSERT, next, assertion.negate ? AT_NON_BOUNDARY : AT_WORD_BOUNDARY);
      case "lookahead":
      case "lookbehind":
        throw refusal(this.pattern, `a ${assertion.kind} "${assertion.raw}"`);
      default:
        return assertNever(assertion);
    }
  }

  // x{n,m} is n copies of x, then m - n nested optional copies: x x (x (x)?)?.
  // x{n,} ends in a loop instead.
  private quantifier(quantifier: AST.Quantifier, next: number): number {
    const { min, max, element } = quantifier;
    let entry = next;
    if (max === Infinity) {
      const loop = this.add(SPLIT, -1, next);
      this.out[loop] = this.copy(element, loop);
      entry = loop;
    } else {
      for (let i = min; i < max; i++) {
        this.countCopy();
        entry = this.add(SPLIT, this.element(element, entry), next);
      }
    }
    for (let i = 0; i < min; i++) entry = this.copy(element, entry);
    return entry;
  }

  private copy(element: AST.QuantifiableElement, next: number): number {
    this.countCopy();
    return this.element(element, next);
  }

  private countCopy(): void {
    if (++this.copies > STATE_BOUND) throw this.tooLarge();
  }

  private tooLarge(): Error {
    return new Error(`pattern "${this.pattern}" needs more than ${STATE_BOUND} automaton states, past the bound that keeps its run linear and short; the schema is refused`);
  }

  private setIndexOf(node: AST.Character | AST.CharacterClass | AST.CharacterSet | AST.ExpressionCharacterClass): number {
    let index = this.setOfText.get(node.raw);
    if (index === undefined) {
      const set = codePointsOf(node);
      this.setBounds += set.length;
      if (this.setBounds > SET_BOUND) throw new Error(`pattern "${this.pattern}" needs code point sets of more than ${SET_BOUND} range bounds, past the bound that keeps its compile short; the schema is refused`);
      index = this.sets.push(set) - 1;
      this.setOfText.set(node.raw, index);
    }
    return index;
  }
}

type SetNode = AST.Character | AST.CharacterClass | AST.CharacterClassRange | AST.CharacterSet | AST.ExpressionCharacterClass | AST.ClassStringDisjunction;

function codePointsOf(node: SetNode): CodePointRanges {
  switch (node.type) {
    case "Character":
      return [node.value, node.value];
    case "CharacterClassRange":
      return [node.min.value, node.max.value];
    case "CharacterClass": {
      const union = normalizeRanges(node.elements.flatMap((element) => [...codePointsOf(element)]));
      return node.negate ? complementRanges(union) : union;
    }
    case "CharacterSet":
      return characterSetOf(node);
    case "ExpressionCharacterClass":
    case "ClassStringDisjunction":
      // Set operations and strings exist only with the v flag, never in a JSON Schema pattern.
      throw new Error(`the v-flag class "${node.raw}" cannot appear with the u flag`);
    default:
      return assertNever(node);
  }
}

function characterSetOf(node: AST.CharacterSet): CodePointRanges {
  switch (node.kind) {
    case "any":
      return DOT_RANGES;
    case "digit":
      return node.negate ? complementRanges(DIGIT_RANGES) : DIGIT_RANGES;
    case "space":
      return node.negate ? complementRanges(SPACE_RANGES) : SPACE_RANGES;
    case "word":
      return node.negate ? complementRanges(WORD_RANGES) : WORD_RANGES;
    case "property": {
      if (node.strings) throw new Error(`the property of strings "${node.raw}" cannot appear with the u flag`);
      const ranges = propertyRanges(node.key, node.value);
      return node.negate ? complementRanges(ranges) : ranges;
    }
    default:
      return assertNever(node);
  }
}

// A match can begin after position 0 if some path from the start reaches a code
// point or the end of the pattern without passing `^`.
function isAnchoredAtStart(kinds: readonly number[], out: readonly number[], arg: readonly number[], start: number): boolean {
  const seen = new Array<boolean>(kinds.length).fill(false);
  const pending = [start];
  seen[start] = true;
  while (pending.length > 0) {
    const state = pending.pop() as number;
    const kind = kinds[state];
    if (kind === CONSUME || kind === MATCH) return false;
    if (kind === ASSERT && arg[state] === AT_INPUT_START) continue;
    const targets = kind === SPLIT ? [out[state], arg[state]] : [out[state]];
    for (const target of targets) {
      if (!seen[target]) {
        seen[target] = true;
        pending.push(target);
      }
    }
  }
  return true;
}

function assertNever(value: never): never {
  throw new Error(`unexpected pattern node ${JSON.stringify((value as { type?: unknown }).type)}`);
}
