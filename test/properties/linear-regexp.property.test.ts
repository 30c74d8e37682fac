// Random ECMA-262 patterns against random strings: whenever the linear-time engine
// compiles a pattern it answers exactly as this process's RegExp with the u flag,
// and it refuses a pattern RegExp accepts only for a construct it cannot run.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { linearRegExp } from "../../src/gate/linear-regexp.js";
import { buildAutomaton } from "../../src/gate/pattern-automaton.js";
import { PatternMatcher, type CacheBounds } from "../../src/gate/pattern-matcher.js";
import { parseEcmaPattern } from "../../src/gate/pattern-syntax.js";

const RUNS = 4_000;
const CRAMPED_RUNS = 1_000;
// A fixed seed: a failure reproduces from the printed seed and path alone.
const SEED = 20_260_424;

const literal = fc.constantFrom(
  "a", "b", "A", "z", "0", "9", "_", "-", " ", "é", "\u03b1",
  "\\.", "\\/", "\\*", "\\(", "\\[", "\\]", "\\{", "\\}", "\\|", "\\^", "\\$", "\\\\",
  "\\t", "\\n", "\\r", "\\v", "\\f", "\\0", "\\x41", "\\u00a0", "\\cJ", "\\u2028", "\\u3000", "\\uFEFF",
  "\u{1f600}", "\\u{1F600}", "\\uD83D\\uDE00", "\\u{10FFFF}",
  "\\uD83D", "\\uDE00", "\\uDBFF", "\\uDC00", "\\u{D83D}", "\ud83d", "\ude00",
);
const classEscape = fc.constantFrom("\\s", "\\S", "\\d", "\\D", "\\w", "\\W");
const property = fc.constantFrom("\\p{L}", "\\P{L}", "\\p{Lu}", "\\p{Script=Greek}", "\\p{White_Space}", "\\P{White_Space}", "\\p{Nd}");
const classAtom = fc.constantFrom("a", "b", "z", "A", "0", "_", "-", " ", "\\-", "\\]", "\\b", "é", "\u{1f600}", "\\u{1F600}", "\\uD83D\\uDE00", "\\uD83D", "\\uDE00", "\\u00a0", "\\u2028");
const classRange = fc.constantFrom("a-z", "A-Z", "0-9", "a-c", "\\0-\\x1f", "\\u00a0-\\u3000", "\\uD800-\\uDBFF", "\\uDC00-\\uDFFF", "\\u{1F600}-\\u{1F64F}", "\\uD83D\\uDE00-\\u{1F6FF}", " -~");
const characterClass = fc
  .tuple(fc.boolean(), fc.array(fc.oneof(classAtom, classRange, classEscape, property), { maxLength: 4 }))
  .map(([negate, items]) => `[${negate ? "^" : ""}${items.join("")}]`);
const assertion = fc.constantFrom("^", "$", "\\b", "\\B");
// Rare on purpose: the engine must refuse each of these.
const unrunnable = fc.constantFrom("(?=a)", "(?!b)", "(?<=a)", "(?<!\\s)", "(a)\\1", "(?<r>a)\\k<r>");
const quantifier = fc
  .tuple(
    fc.oneof(
      fc.constantFrom("*", "+", "?"),
      fc.nat(3).map((n) => `{${n}}`),
      fc.nat(3).map((n) => `{${n},}`),
      fc.tuple(fc.nat(2), fc.nat(2)).map(([n, extra]) => `{${n},${n + extra}}`),
    ),
    fc.boolean(),
  )
  .map(([count, lazy]) => `${count}${lazy ? "?" : ""}`);

const { pattern } = fc.letrec<{ pattern: string; alternative: string; term: string; atom: string; group: string }>((tie) => ({
  pattern: fc.array(tie("alternative"), { minLength: 1, maxLength: 3 }).map((alternatives) => alternatives.join("|")),
  alternative: fc.array(tie("term"), { maxLength: 4 }).map((terms) => terms.join("")),
  term: fc.oneof(
    { depthSize: "small", maxDepth: 3, depthIdentifier: "pattern" },
    { arbitrary: tie("atom"), weight: 6 },
    { arbitrary: fc.tuple(tie("atom"), quantifier).map(([atom, count]) => atom + count), weight: 4 },
    { arbitrary: assertion, weight: 2 },
    { arbitrary: unrunnable, weight: 1 },
  ),
  atom: fc.oneof(
    { depthSize: "small", maxDepth: 3, depthIdentifier: "pattern" },
    { arbitrary: literal, weight: 6 },
    { arbitrary: characterClass, weight: 3 },
    { arbitrary: classEscape, weight: 2 },
    { arbitrary: fc.constant("."), weight: 2 },
    { arbitrary: property, weight: 1 },
    { arbitrary: tie("group"), weight: 2 },
  ),
  group: fc
    .tuple(fc.constantFrom("(", "(?:", "(?<g>"), tie("pattern"))
    .map(([open, body]) => `${open}${body})`),
}));

// Pieces of input: every Unicode whitespace and line terminator, ASCII, letters
// beyond it, astral characters, and lone surrogates (two lone halves side by
// side make a pair, as they would in any string).
const piece = fc.oneof(
  fc.constantFrom("\t", "\n", "\u000b", "\f", "\r", " ", "\u0085", "\u00a0", "\u1680", "\u180e", "\u2000", "\u2005", "\u200a", "\u200b", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff"),
  fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)),
  fc.constantFrom("a", "b", "z", "A", "0", "_", "-", "é", "\u03b1", "\u03a9", "\u0663"),
  fc.constantFrom("\u{1f600}", "\u{1f64f}", "\u{10000}", "\u{10ffff}", "\u{1d400}"),
  fc.constantFrom("\ud83d", "\ud800", "\udbff"),
  fc.constantFrom("\ude00", "\udc00", "\udfff"),
);
const input = fc.array(piece, { maxLength: 10 }).map((pieces) => pieces.join(""));
const longInput = fc.array(piece, { maxLength: 24 }).map((pieces) => pieces.join(""));

const REFUSED_ON_PURPOSE = /^pattern ".*" (uses an? (negative )?(lookahead|lookbehind|backreference|named backreference) |uses the modifier group |needs more than \d+ automaton states)/s;

function compiled(source: string): { test(text: string): boolean } | Error {
  try {
    return linearRegExp(source, "u");
  } catch (error) {
    return error as Error;
  }
}

// DFA caches so small that runs empty them again and again: one full after two
// states (a run that keeps filling it finishes in the NFA simulation), one full
// after a few kernel members (it is refilled).
const crampedBounds = fc.constantFrom({ states: 2, kernelSize: 1_000 }, { states: 1_000, kernelSize: 6 });

function crampedOf(source: string, bounds: CacheBounds): PatternMatcher | undefined {
  const parsed = parseEcmaPattern(source);
  if (!parsed.ok) return undefined;
  try {
    return new PatternMatcher(buildAutomaton(source, parsed.tree), bounds);
  } catch {
    return undefined;
  }
}

function nativeOf(source: string): RegExp | undefined {
  try {
    return new RegExp(source, "uy");
  } catch {
    return undefined;
  }
}

// RegExp#test as ECMA-262 defines it with the u flag: a match is tried at each
// code point boundary. V8's #test also tries between the halves of a surrogate
// pair when a match starts with an empty assertion (`/\B/u.test("0\u{1F600}a")`
// is true on Node 20), so each start is tried with the sticky flag instead.
function regExpTest(sticky: RegExp, text: string): boolean {
  for (let index = 0; ; index += isPairAt(text, index) ? 2 : 1) {
    sticky.lastIndex = index;
    if (sticky.test(text)) return true;
    if (index >= text.length) return false;
  }
}

function isPairAt(text: string, index: number): boolean {
  const high = text.charCodeAt(index);
  return high >= 0xd800 && high <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00;
}

describe("random patterns against random strings", () => {
  test("the engine answers as RegExp, or refuses only what it cannot run", () => {
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 12 }), (source, texts) => {
        const engine = compiled(source);
        const native = nativeOf(source);
        if (native === undefined) {
          expect(engine).toBeInstanceOf(Error);
          return;
        }
        if (engine instanceof Error) {
          expect(engine.message).toMatch(REFUSED_ON_PURPOSE);
          return;
        }
        expect(texts.map((text) => engine.test(text))).toEqual(texts.map((text) => regExpTest(native, text)));
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // A few seconds alone; more on a busy machine, where the default 5 s is short.
  }, 60_000);
});

describe("random patterns with a cramped DFA cache", () => {
  test("emptying the cache and finishing in the NFA simulation change no answer", () => {
    fc.assert(
      fc.property(pattern, crampedBounds, fc.array(longInput, { minLength: 1, maxLength: 6 }), (source, bounds, texts) => {
        const cramped = crampedOf(source, bounds);
        const native = nativeOf(source);
        if (cramped === undefined || native === undefined) return;
        expect(texts.map((text) => cramped.test(text))).toEqual(texts.map((text) => regExpTest(native, text)));
      }),
      { numRuns: CRAMPED_RUNS, seed: SEED },
    );
  }, 60_000);
});
