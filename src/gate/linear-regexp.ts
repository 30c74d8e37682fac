// JSON Schema `pattern` runs on RE2 (re2js), whose matching time is linear in the
// input: a tool schema from a journal cannot stall the gate with a pattern like
// `^(a+)+$`. Patterns RE2 cannot express (backreferences, lookahead) fail to
// compile, and the schema is then refused, which blocks the call.
import { RE2JS } from "re2js";

export interface LinearRegExp {
  test(input: string): boolean;
  toString(): string;
}

function compileLinear(pattern: string, _flags: string): LinearRegExp {
  const matcher = RE2JS.compile(RE2JS.translateRegExp(pattern));
  return {
    test: (input: string) => matcher.test(input),
    // Ajv shares one compiled pattern between every `pattern` keyword whose engine
    // object prints the same string; each pattern must print as itself.
    toString: () => pattern,
  };
}

/** Ajv's `code.regExp` engine: a function plus the `code` Ajv needs for standalone output. */
export const linearRegExp = Object.assign(compileLinear, { code: "linearRegExp" });
