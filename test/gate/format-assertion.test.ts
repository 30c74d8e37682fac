// With formats asserted (`gate --assert-formats`), a format means its RFC's
// grammar and nothing looser, and a format the gate has no checker for refuses
// the schema, naming the format and its JSON Pointer. Without assertion a format
// is an annotation, as JSON Schema 2020-12 has it, and nothing here blocks.
import { describe, expect, test } from "vitest";
import { replayGate, type Verdict } from "../../src/gate/replay-gate.js";
import { SchemaCache, type ToolSchema } from "../../src/gate/schema.js";
import { call, OK_DETAIL } from "../hostile/support.js";

const gate = (schema: ToolSchema, args: unknown, assertFormats = true): Verdict => replayGate(call("call_1", JSON.stringify(args)), schema, { cache: new SchemaCache(undefined, { assertFormats }) });
const blocked = (detail: string): Verdict => ({ reason: "arguments_schema", detail, path: "/arguments" });
const ok: Verdict = { reason: "ok", detail: OK_DETAIL };
const field = (format: string): ToolSchema => ({ type: "object", properties: { at: { type: "string", format } } });

describe("date-time, by RFC 3339 section 5.6", () => {
  test.each([
    ["a space for the T", "2026-01-01 10:00:00Z"],
    ["a newline for the T", "2026-01-01\n10:00:00Z"],
    ["an offset without its colon", "2026-01-01T10:00:00+0100"],
    ["an offset without minutes", "2026-01-01T10:00:00+01"],
    ["no offset", "2026-01-01T10:00:00"],
    ["February 29 of a year that is not leap", "2026-02-29T10:00:00Z"],
    ["second 60 away from 23:59 UTC", "2026-06-30T22:59:60Z"],
    ["hour 24", "2026-06-30T24:00:00Z"],
    ["an offset hour of 24", "2026-06-30T10:00:00+24:00"],
    ["digits of another script", "2026-01-0\u09e7T10:00:00Z"],
  ])("%s blocks", (_label, value) => {
    expect(gate(field("date-time"), { at: value })).toEqual(blocked('arguments/at must match format "date-time"'));
  });
  test.each([
    ["a Z offset", "2026-01-01T10:00:00Z"],
    ["lower-case t and z, which ABNF literals allow", "2026-01-01t10:00:00z"],
    ["an offset with its colon", "2026-01-01T10:00:00+01:00"],
    ["fifteen digits of a second's fraction", "2026-01-01T10:00:00.999999999999999Z"],
    ["second 60 at 23:59 UTC, written with an offset", "1998-12-31T15:59:60-08:00"],
    ["February 29 of a leap year", "2028-02-29T10:00:00Z"],
  ])("%s passes", (_label, value) => {
    expect(gate(field("date-time"), { at: value })).toEqual(ok);
  });
});

describe("other formats, by their RFC grammars", () => {
  test.each([
    ["uuid", "urn:uuid:123e4567-e89b-12d3-a456-426614174000"],
    ["uuid", "123e4567e89b12d3a456426614174000"],
    ["duration", "P1Y2D"],
    ["duration", "PT1H2S"],
    ["time", "10:00:00"],
    ["date", "2026-13-01"],
    ["hostname", "example."],
    ["hostname", "xn--hello-zed"],
    ["ipv4", "127.0.0.01"],
    ["ipv6", "::ffff:192.168.0.01"],
    ["email", "joe.bloggs@[127.0.0.300]"],
    ["email", "joe.bloggs@[IPv6:1:2:3:4:5:6:7::]"],
    ["email", "joe.bloggs@[IPv6:1:2:3::4:5:1.2.3.4]"],
    ["email", "joe.bloggs@[x-tag:anything]"],
    ["uri", "http://example.com:abc/path"],
    ["uri", "http:/[::1]"],
    ["uri-reference", "1:b"],
    ["uri-reference", "//a@b@example.com/"],
    ["uri-template", "a\u007fb"],
    ["json-pointer", "/a~2"],
    ["relative-json-pointer", "01/a"],
    ["regex", "(?i)a"],
  ])("%s refuses %j", (format, value) => {
    expect(gate(field(format), { at: value })).toEqual(blocked(`arguments/at must match format "${format}"`));
  });
  test.each([
    ["uuid", "123E4567-E89B-12D3-A456-426614174000"],
    ["duration", "P1Y2M3DT4H5M6S"],
    ["duration", "P4W"],
    ["time", "10:00:00.5+05:30"],
    ["hostname", "build-7.example.org"],
    ["ipv6", "::ffff:192.168.0.1"],
    ["email", '"joe bloggs"@example.com'],
    ["email", "joe.bloggs@[IPv6:::1]"],
    ["email", "joe.bloggs@[ipv6:1:2:3:4:5:6::]"],
    ["email", "joe.bloggs@[IPv6:::ffff:001.2.3.4]"],
    ["uri", "urn:example:resource"],
    ["uri-reference", "../a?b#c"],
    ["uri-template", "/search{?q,lang}{/path*}{a.b}"],
    ["json-pointer", "/a~1b/0"],
    ["relative-json-pointer", "1-1/a"],
  ])("%s takes %j", (format, value) => {
    expect(gate(field(format), { at: value })).toEqual(ok);
  });
  test("a format judges strings only: a number under a bare date-time passes", () => {
    expect(gate(field("date-time"), { at: 7 })).toEqual(blocked("arguments/at must be string"));
    expect(gate({ format: "date-time" }, 7)).toEqual(ok);
  });
});

describe("a format the gate has no checker for", () => {
  test.each(["idn-email", "idn-hostname", "iri", "iri-reference", "int64", "made-up"])("%s refuses the schema, naming the format and where it is", (format) => {
    expect(gate(field(format), { at: "x" })).toEqual(
      blocked(`tool schema is refused: format "${format}" at /properties/at/format is asserted (formats are checked) but the gate has no checker for it, so its values could not be judged`),
    );
  });
  test("in a part no value reaches, it refuses the schema too", () => {
    expect(gate({ type: "object", $defs: { unused: { format: "iri" } } }, {})).toEqual(
      blocked('tool schema is refused: format "iri" at /$defs/unused/format is asserted (formats are checked) but the gate has no checker for it, so its values could not be judged'),
    );
  });
  test("a property named format is a property, not a format", () => {
    expect(gate({ type: "object", properties: { format: { type: "string" } } }, { format: "anything" })).toEqual(ok);
  });
});

describe("formats as annotations (the default)", () => {
  test.each([
    ["date-time", "2026-01-01 10:00:00+0100"],
    ["uuid", "urn:uuid:123e4567-e89b-12d3-a456-426614174000"],
    ["idn-email", "not an address"],
    ["made-up", "x"],
  ])("%s passes %j", (format, value) => {
    expect(gate(field(format), { at: value }, false)).toEqual(ok);
  });
});

describe("the same rules wherever the schema is judged", () => {
  test("under the project's evaluator (a schema with unevaluatedProperties), date-time follows RFC 3339 too", () => {
    const schema = { type: "object", properties: { at: { type: "string", format: "date-time" } }, unevaluatedProperties: false };
    expect(gate(schema, { at: "2026-01-01 10:00:00Z" })).toEqual(blocked('arguments/at must match format "date-time"'));
    expect(gate(schema, { at: "2026-01-01T10:00:00Z" })).toEqual(ok);
  });
  test("under the project's evaluator, a format without a checker refuses the schema", () => {
    expect(gate({ type: "object", properties: { to: { format: "idn-email" } }, unevaluatedProperties: false }, {})).toEqual(
      blocked('tool schema is refused: format "idn-email" at /properties/to/format is asserted (formats are checked) but the gate has no checker for it, so its values could not be judged'),
    );
  });
  test("the library's assertFormats option, without a cache of its own, asserts the same way", () => {
    const item = call("call_1", JSON.stringify({ at: "2026-01-01T10:00:00+0100" }));
    expect(replayGate(item, field("date-time"), { assertFormats: true })).toEqual(blocked('arguments/at must match format "date-time"'));
    expect(replayGate(item, field("date-time"))).toEqual(ok);
  });
});

describe("a pattern nested deeper than the gate reads", () => {
  // "(" × 3000 then ")" × 3000 is a pattern to V8; regexpp runs out of stack on it,
  // at a depth that changes with what ran before: the gate stops at a bound of its own.
  const nested = (depth: number) => "(".repeat(depth) + ")".repeat(depth);
  const notRead = (depth: number) => `the pattern ${JSON.stringify(nested(depth).slice(0, 40))}… could not be checked (it nests groups ${depth} deep, more than the 500 the gate reads), so whether it is an ECMA-262 regular expression is not known`;
  test("as a value of format: regex, is neither a pattern nor not one: the call is blocked either way", () => {
    for (const depth of [501, 1451, 3000]) {
      for (const schema of [{ not: { format: "regex" } }, { format: "regex" }, { format: "regex", $defs: { a: { $dynamicAnchor: "a" } } }, { not: { format: "regex" }, unevaluatedProperties: true }]) {
        expect(gate(schema, nested(depth)), `${depth} ${JSON.stringify(schema)}`).toEqual({ reason: "arguments_schema", detail: `the gate could not finish the arguments_schema check: ${notRead(depth)}` });
      }
    }
    expect(gate({ not: { format: "regex" } }, "(a)")).toEqual(blocked("arguments must NOT be valid"));
  });
  test("up to the bound, it is read, whatever ran before", () => {
    for (let round = 0; round < 3; round++) expect(gate({ format: "regex" }, nested(500))).toEqual(ok);
    expect(gate({ not: { format: "regex" } }, "[((((]" + nested(500))).toEqual(blocked("arguments must NOT be valid"));
  });
  test("as a schema's pattern, refuses the schema with that reason", () => {
    expect(gate({ type: "string", pattern: nested(3000) }, "x")).toEqual(blocked(`tool schema does not compile: ${notRead(3000)}`));
  });
});

describe("patterns that would cost seconds to check", () => {
  // This engine's RegExp builds each \p{…} set anew, about a millisecond apiece.
  const many = "[^\\p{L}\\p{Ll}]".repeat(200);
  test("more than 256 property escapes in one pattern: the check is not made, and the call is blocked", () => {
    expect(gate({ type: "string", pattern: many }, "x").detail).toBe(
      `tool schema does not compile: the pattern ${JSON.stringify(many.slice(0, 40))}… could not be checked (it holds 400 Unicode property escapes, more than the 256 the gate reads in one pattern), so whether it is an ECMA-262 regular expression is not known`,
    );
    expect(gate({ not: { format: "regex" } }, many).reason).toBe("arguments_schema");
    expect(gate({ format: "regex" }, many).reason).toBe("arguments_schema");
  });
  test("up to 256 are read, each distinct class's set built once", () => {
    expect(gate({ type: "string", pattern: `^${"[^\\p{L}\\p{Ll}]".repeat(128)}$` }, "1".repeat(128))).toEqual(ok);
    expect(gate({ type: "string", pattern: `^${"[^\\p{L}\\p{Ll}]".repeat(128)}$` }, "a".repeat(128))).toEqual(blocked(`arguments must match pattern "^${"[^\\p{L}\\p{Ll}]".repeat(128)}$"`));
  });
});
