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
// fails to compile the schema, which blocks the call. So do the patterns of one
// schema that together pass the bounds of one compile (withPatternBounds).
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
const matcherByPattern = new Map<string, CompiledPattern>();

interface CompiledPattern {
  matcher: PatternMatcher;
  /** Automaton states: building them is the compile's cost. */
  states: number;
  /** The distinct Unicode properties it names, as pattern-syntax.ts lists them. */
  properties: readonly string[];
}

/**
 * Automaton states the distinct patterns of one schema may hold together: ten
 * patterns at the bound of one. Each pattern is within its own bound, but a
 * schema of a thousand of them took seconds to compile.
 */
export const SCHEMA_STATE_BOUND = 200_000;

/**
 * Distinct Unicode properties the patterns of one schema may name together. The
 * set of each is built the first time by testing every code point (about 25 ms,
 * pattern-properties.ts): a schema naming the engine's 1,700 spellings of them
 * took half a minute to compile, deaf to signals. Counted whether or not a set
 * was built before, so that the verdict does not depend on what ran first.
 */
export const SCHEMA_PROPERTY_BOUND = 16;

/** What the patterns of the schema being compiled hold so far. */
interface PatternTally {
  readonly patterns: Set<string>;
  readonly properties: Set<string>;
  states: number;
}

let tally: PatternTally | undefined;

/**
 * Runs the compile of one schema, refusing a pattern (which refuses the schema)
 * once its distinct patterns together pass SCHEMA_STATE_BOUND or
 * SCHEMA_PROPERTY_BOUND. A compile nested in another keeps its own count.
 */
export function withPatternBounds<T>(compile: () => T): T {
  const outer = tally;
  tally = { patterns: new Set(), properties: new Set(), states: 0 };
  try {
    return compile();
  } finally {
    tally = outer;
  }
}

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
  return new LinearPattern(pattern, compiledFor(pattern).matcher);
}

function compiledFor(pattern: string): CompiledPattern {
  let compiled = matcherByPattern.get(pattern);
  if (compiled !== undefined) {
    matcherByPattern.delete(pattern);
    countProperties(pattern, compiled.properties);
    countStates(pattern, compiled.states);
  } else {
    const parsed = parseEcmaPattern(pattern);
    if (!parsed.ok) throw new Error(`pattern "${pattern}" ${parsed.reason}; the schema is refused`);
    // Before the automaton: building it builds the sets of the properties.
    countProperties(pattern, parsed.properties);
    const automaton = buildAutomaton(pattern, parsed.tree);
    countStates(pattern, automaton.kinds.length);
    compiled = { matcher: new PatternMatcher(automaton), states: automaton.kinds.length, properties: parsed.properties };
    if (matcherByPattern.size >= MATCHER_CACHE_LIMIT) matcherByPattern.delete(matcherByPattern.keys().next().value as string);
  }
  // Map order is insertion order: re-inserting marks the pattern as recently used.
  matcherByPattern.set(pattern, compiled);
  return compiled;
}

/** Adds a pattern's properties to those of the schema being compiled; throws past the bound. */
function countProperties(pattern: string, properties: readonly string[]): void {
  if (tally === undefined) return;
  for (const property of properties) tally.properties.add(property);
  if (tally.properties.size > SCHEMA_PROPERTY_BOUND) {
    throw new Error(`pattern "${shown(pattern)}" brings the distinct Unicode properties the schema's patterns name past ${SCHEMA_PROPERTY_BOUND}, the bound that keeps its compile short (each one's set is built by testing every code point); the schema is refused`);
  }
}

/** Adds a pattern's states to those of the schema being compiled, once per pattern; throws past the bound. */
function countStates(pattern: string, states: number): void {
  if (tally === undefined || tally.patterns.has(pattern)) return;
  tally.patterns.add(pattern);
  tally.states += states;
  if (tally.states > SCHEMA_STATE_BOUND) {
    throw new Error(`pattern "${shown(pattern)}" brings the automaton states of the schema's patterns past ${SCHEMA_STATE_BOUND}, the bound that keeps its compile short; the schema is refused`);
  }
}

/** A pattern as a refusal quotes it: a long one is cut. */
function shown(pattern: string): string {
  return pattern.length > 200 ? `${pattern.slice(0, 200)}…` : pattern;
}

/** Ajv's `code.regExp` engine: a function plus the `code` Ajv needs for standalone output. */
export const linearRegExp = Object.assign(compileLinear, { code: "linearRegExp" });
