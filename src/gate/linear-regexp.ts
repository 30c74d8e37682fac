// JSON Schema `pattern` with the meaning ECMA-262 gives it under the u flag, run in
// time linear in the input: a tool schema from a journal cannot stall the gate with
// a pattern like `^(a+)+$`.
//
// | step    | done by                                                                   |
// |---------|---------------------------------------------------------------------------|
// | read    | pattern-syntax: regexpp's u-mode grammar, and this engine's RegExp agrees |
// | build   | pattern-automaton: a Thompson automaton over code points, or a refusal    |
// | run     | pattern-matcher: a lazily built DFA over the input's code points          |
//
// A pattern that is not ECMA-262, or that the automaton cannot express exactly
// (lookaround, backreferences, modifiers, too many states), throws; Ajv then
// fails to compile the schema, which blocks the call.
import { buildAutomaton } from "./pattern-automaton.js";
import { PatternMatcher } from "./pattern-matcher.js";
import { parseEcmaPattern } from "./pattern-syntax.js";

export { isEcmaPattern } from "./pattern-syntax.js";

export interface LinearRegExp {
  test(input: string): boolean;
  toString(): string;
}

// The same pattern comes back in many tools and after each refresh of the schema
// cache; its matcher (and the DFA states it has learned) is kept for it.
const MATCHER_CACHE_LIMIT = 256;
const matcherByPattern = new Map<string, PatternMatcher>();

class LinearPattern implements LinearRegExp {
  constructor(
    private readonly source: string,
    private readonly matcher: PatternMatcher,
  ) {}

  test(input: string): boolean {
    return this.matcher.test(input);
  }

  // Ajv shares one compiled pattern between every `pattern` keyword whose engine
  // object prints the same string; each pattern must print as itself.
  toString(): string {
    return this.source;
  }
}

function compileLinear(pattern: string, flags: string): LinearRegExp {
  // Ajv passes "u" unless told `unicodeRegExp: false`; any other reading of the
  // pattern would not be the one JSON Schema gives it.
  if (flags !== "u") throw new Error(`pattern "${pattern}" was given the flags "${flags}"; a JSON Schema pattern is read with the u flag only, so the schema is refused`);
  return new LinearPattern(pattern, matcherFor(pattern));
}

function matcherFor(pattern: string): PatternMatcher {
  let matcher = matcherByPattern.get(pattern);
  if (matcher !== undefined) {
    matcherByPattern.delete(pattern);
  } else {
    const parsed = parseEcmaPattern(pattern);
    if (!parsed.ok) throw new Error(`pattern "${pattern}" ${parsed.reason}; the schema is refused`);
    matcher = new PatternMatcher(buildAutomaton(pattern, parsed.tree));
    if (matcherByPattern.size >= MATCHER_CACHE_LIMIT) matcherByPattern.delete(matcherByPattern.keys().next().value as string);
  }
  // Map order is insertion order: re-inserting marks the pattern as recently used.
  matcherByPattern.set(pattern, matcher);
  return matcher;
}

/** Ajv's `code.regExp` engine: a function plus the `code` Ajv needs for standalone output. */
export const linearRegExp = Object.assign(compileLinear, { code: "linearRegExp" });
