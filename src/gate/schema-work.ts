// The work budget of one validation. A schema can ask for work exponential in its
// size (a chain of anyOf, each branch a $ref to the level below, tries every path
// on a value that fails), and no bound on the schema's size alone can stop that.
// So every subschema evaluation adds its cost, in steps, to one counter; past the
// budget the validation stops and the call is blocked. Steps are counted, not
// timed, so a verdict is the same on every run and with any number of threads.
//
// The budget grows with the arguments: a fixed number of steps, plus a number per
// unit of the arguments (each JSON value, each 64 characters of a string or a
// property name). An ordinary schema spends a few steps per unit, so large valid
// arguments pass, while a schema that revisits the same values again and again
// runs out.

export const BASE_STEPS = 2_000;
export const STEPS_PER_UNIT = 64;

// A pattern's matcher (pattern-matcher.ts) costs a table lookup a code point
// once its states recur, and a walk over automaton states while it learns them.
// A validation's walks are free up to a number of states (about 40 ms of work,
// which an ordinary pattern never nears: a few thousand states for a string of
// thousands of characters); past it, every CLOSURE_STATES_PER_STEP states are a
// step. So a pattern whose states never recur (`^[ab]*a[ab]{9000}c`) stops at
// the budget instead of walking 9,000 states a code point.
export const FREE_CLOSURE_STATES = 4_000_000;
export const CLOSURE_STATES_PER_STEP = 64;
// The budget grows with the arguments, and a string may be hundreds of
// megabytes: whatever their size, a validation's walks stop here (about 0.6 s),
// so that no call keeps the process from its signals for long.
export const MAX_CLOSURE_STATES = 64_000_000;

/** Thrown from inside a validator when its call spent its budget; caught by `runWithinBudget`. */
export class SchemaWorkExceeded extends Error {
  /** `detail`: why, where it is another bound than the steps for arguments of this size. */
  constructor(
    readonly limit: number,
    readonly detail = `schema work exceeded ${limit} steps, the bound for arguments of this size`,
  ) {
    super(detail);
    this.name = "SchemaWorkExceeded";
  }
}

/**
 * The counter that compiled validators add to. Validation is synchronous and a
 * validator never runs another one, so one counter serves every schema.
 */
export class SchemaWork {
  steps = 0;
  limit = Infinity;
  private value: unknown;
  private grown = true;

  /** Automaton states the current validation's pattern matchers walked. */
  closureStates = 0;

  /** Adds a matcher's walk over `states` automaton states; past the free ones, as steps. */
  chargeClosure(states: number): void {
    const before = this.closureStates;
    this.closureStates = before + states;
    if (this.closureStates <= FREE_CLOSURE_STATES) return;
    // Outside a validation the limit is Infinity, and nothing is bounded there.
    if (this.closureStates > MAX_CLOSURE_STATES && this.limit !== Infinity) {
      throw new SchemaWorkExceeded(this.limit, `its patterns walked more than ${MAX_CLOSURE_STATES.toLocaleString("en-US")} automaton states, the bound for arguments of any size`);
    }
    this.charge((this.closureStates - Math.max(before, FREE_CLOSURE_STATES)) / CLOSURE_STATES_PER_STEP);
  }

  /** Adds steps; past the budget, throws `SchemaWorkExceeded`. */
  charge(steps: number): void {
    this.steps += steps;
    if (this.steps > this.limit) this.exceeded();
  }

  /**
   * Called when the steps pass the limit. The first time, the limit grows from the
   * fixed part to the whole budget for these arguments: measuring them costs a walk
   * over the value, paid only by a validation that needed more than the fixed part.
   */
  exceeded(): void {
    if (!this.grown) {
      this.grown = true;
      this.limit = BASE_STEPS + STEPS_PER_UNIT * argumentUnits(this.value);
      if (this.steps <= this.limit) return;
    }
    throw new SchemaWorkExceeded(this.limit);
  }

  /**
   * Runs one validation of `value` within its budget, or other work the gate does
   * on the arguments by the schema (the folded reading matches their names
   * against its patterns); a run nested in another keeps its own count.
   */
  run<T>(validate: (value: unknown) => T, value: unknown): T {
    const steps = this.steps;
    const limit = this.limit;
    const outer = this.value;
    const grown = this.grown;
    const closureStates = this.closureStates;
    this.steps = 0;
    this.closureStates = 0;
    this.limit = BASE_STEPS;
    this.value = value;
    this.grown = false;
    try {
      return validate(value);
    } finally {
      this.steps = steps;
      this.limit = limit;
      this.value = outer;
      this.grown = grown;
      this.closureStates = closureStates;
    }
  }
}

export const schemaWork = new SchemaWork();

/** The size of a JSON value in budget units: one per value, one more per 64 characters of each string and property name. */
export function argumentUnits(value: unknown): number {
  let units = 0;
  // An explicit stack: arguments may be nested far deeper than the call stack allows.
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    units += 1;
    if (typeof next === "string") units += next.length >> 6;
    else if (Array.isArray(next)) for (const item of next) stack.push(item);
    else if (next !== null && typeof next === "object") {
      for (const [key, item] of Object.entries(next)) {
        units += key.length >> 6;
        stack.push(item);
      }
    }
  }
  return units;
}

/** What a validator reports: Ajv's error objects, or ones of the same shape. */
export interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A compiled tool schema: true when the value is valid; otherwise `errors` says why. */
export type SchemaValidator = ((value: unknown) => boolean) & { errors?: SchemaError[] | null };

/**
 * The validator run within the budget: past it, the value is invalid with one
 * error that states the bound, so the gate blocks the call and says why.
 */
export function runWithinBudget(validate: SchemaValidator): SchemaValidator {
  const bounded: SchemaValidator = (value: unknown) => {
    try {
      const valid: unknown = schemaWork.run(validate, value);
      // Only `true` is valid: anything else a validator might answer (a promise) blocks.
      if (valid !== true && valid !== false) {
        bounded.errors = [{ instancePath: "", schemaPath: "#", keyword: "orbridge:answer", params: {}, message: "could not be checked: the validator gave no answer of valid or invalid" }];
        return false;
      }
      bounded.errors = validate.errors;
      return valid;
    } catch (error) {
      if (!(error instanceof SchemaWorkExceeded)) throw error;
      bounded.errors = [
        {
          instancePath: "",
          schemaPath: "#",
          keyword: "orbridge:steps",
          params: { limit: error.limit },
          message: `could not be checked: ${error.detail}`,
        },
      ];
      return false;
    }
  };
  bounded.errors = null;
  return bounded;
}
