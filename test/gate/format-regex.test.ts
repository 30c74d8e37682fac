// `format: "regex"`, asserted, follows the rule of `pattern`: a string is a regex
// when ECMA-262 reads it with the u flag, whatever a RegExp without flags would
// accept. Not asserted (the 2020-12 default), it is an annotation.
import { describe, expect, test } from "vitest";
import { replayGate } from "../../src/gate/replay-gate.js";
import { SchemaCache } from "../../src/gate/schema.js";

const schema = { type: "object", required: ["filter"], properties: { filter: { type: "string", format: "regex" } } };

function verdictFor(filter: string, assertFormats = true) {
  const item = { type: "function_call", call_id: "call_1", name: "search", status: "completed", arguments: JSON.stringify({ filter }) };
  return replayGate(item, schema, { cache: new SchemaCache(undefined, { assertFormats }) }).reason;
}

describe("format regex", () => {
  test.each(["^[a-z]+$", "\\p{Letter}+", "(?<year>\\d{4})-\\k<year>", "(?=a)a", "[\\u{1F600}]"])("%s is a regex with the u flag: ok", (filter) => {
    expect(verdictFor(filter)).toBe("ok");
  });
  test.each(["\\pL", "\\8", "a{,3}", "\\e", "[\\d-z]", "(?i)a", "[", "\\x{41}"])("%s, which only a RegExp without the u flag (or no engine) reads, blocks", (filter) => {
    expect(verdictFor(filter)).toBe("arguments_schema");
  });
  test.each(["\\pL", "[", "^[a-z]+$"])("%s passes when formats are annotations", (filter) => {
    expect(verdictFor(filter, false)).toBe("ok");
  });
});
