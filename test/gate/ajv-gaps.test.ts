// Constructs plain Ajv (8.x, draft 2020-12) evaluates wrong: it gives ok to values
// these schemas forbid, and blocks some they allow. The gate validates schemas
// that use them with its own evaluator (schema-evaluator.ts). Each test holds a
// value the gate must block and one it must pass.
import { describe, expect, test } from "vitest";
import { replayGate, type Verdict } from "../../src/gate/replay-gate.js";
import { SchemaCache, type ToolSchema } from "../../src/gate/schema.js";
import { call, OK_DETAIL } from "../hostile/support.js";

const gate = (schema: ToolSchema, args: unknown): Verdict => replayGate(call("call_1", JSON.stringify(args)), schema, { cache: new SchemaCache() });
const blocked = (detail: string): Verdict => ({ reason: "arguments_schema", detail, path: "/arguments" });
const ok: Verdict = { reason: "ok", detail: OK_DETAIL };

describe("$dynamicRef", () => {
  // One generic "series" schema whose readings take their type from the resource
  // that refers to it: integers through "counts", strings through "labels". Ajv
  // resolves the dynamic reference once, whichever path reached it.
  const exportSchema = {
    $id: "https://tools.example/export",
    type: "object",
    required: ["unit", "readings"],
    if: { properties: { unit: { const: "count" } } },
    then: { $ref: "counts" },
    else: { $ref: "labels" },
    $defs: {
      series: { $id: "series", properties: { readings: { type: "array", items: { $dynamicRef: "#reading" } } }, $defs: { open: { $dynamicAnchor: "reading" } } },
      counts: { $id: "counts", $ref: "series", $defs: { reading: { $dynamicAnchor: "reading", type: "integer" } } },
      labels: { $id: "labels", $ref: "series", $defs: { reading: { $dynamicAnchor: "reading", type: "string" } } },
    },
  };

  test("reached by two paths, each path resolves it to its own anchor: a string among counts is blocked", () => {
    expect(gate(exportSchema, { unit: "count", readings: ["seven"] })).toEqual(blocked("arguments/readings/0 must be integer"));
  });
  test("reached by two paths: a number among labels is blocked", () => {
    expect(gate(exportSchema, { unit: "label", readings: [7] })).toEqual(blocked("arguments/readings/0 must be string"));
  });
  test("reached by two paths: readings of the right type pass on both", () => {
    expect(gate(exportSchema, { unit: "count", readings: [1, 2] })).toEqual(ok);
    expect(gate(exportSchema, { unit: "label", readings: ["a", "b"] })).toEqual(ok);
  });

  // A JSON Pointer $dynamicRef is a plain reference; Ajv takes it for a missing
  // anchor and applies the root schema instead of the false schema it names.
  const reservedSchema = { properties: { reserved: { $dynamicRef: "#/$defs/nothing" }, note: { $dynamicRef: "#/$defs/anything" } }, $defs: { nothing: false, anything: true } };

  test("to a false schema: any value there is blocked", () => {
    expect(gate(reservedSchema, { reserved: 1 })).toEqual(blocked("arguments/reserved boolean schema is false"));
  });
  test("to a true schema: any value there passes", () => {
    expect(gate(reservedSchema, { note: 1 })).toEqual(ok);
  });
});

describe("unevaluatedItems", () => {
  // Only the items `contains` matched are evaluated by it; Ajv counts every item.
  const taggedRow = { type: "array", prefixItems: [{ type: "string" }], contains: { type: "number" }, unevaluatedItems: false };

  test("next to contains: an item contains did not match is still unevaluated, and blocked", () => {
    expect(gate(taggedRow, ["id", 1, true])).toEqual(blocked("arguments must NOT have unevaluated items"));
  });
  test("next to contains: items the prefix and contains cover pass", () => {
    expect(gate(taggedRow, ["id", 1, 2])).toEqual(ok);
  });

  const twoMarkers = { allOf: [{ contains: { const: "x" } }, { contains: { const: "y" } }], unevaluatedItems: { type: "number" } };

  test("with contains in allOf: an item neither matched goes to unevaluatedItems, and is blocked", () => {
    expect(gate(twoMarkers, ["x", "y", "z"])).toEqual(blocked("arguments/2 must be number"));
  });
  test("with contains in allOf: the rest passes unevaluatedItems", () => {
    expect(gate(twoMarkers, ["x", "y", 3])).toEqual(ok);
  });

  // A branch of anyOf that fails evaluates nothing; Ajv keeps the items it looked at.
  const stringsOrFlags = { anyOf: [{ items: { type: "string" } }, true], unevaluatedItems: { type: "boolean" } };

  test("after a failing anyOf branch: its items are unevaluated, and a string among flags is blocked", () => {
    expect(gate(stringsOrFlags, ["a", false])).toEqual(blocked("arguments/0 must be boolean"));
  });
  test("after a passing anyOf branch: its items are evaluated", () => {
    expect(gate(stringsOrFlags, ["a", "b"])).toEqual(ok);
    expect(gate(stringsOrFlags, [true, false])).toEqual(ok);
  });

  // With minContains 0 the array may match nothing, and the items it does match are still evaluated; Ajv blocks them.
  const optionalNames = { contains: { type: "string" }, minContains: 0, unevaluatedItems: false };

  test("with minContains 0: an item contains did not match is blocked", () => {
    expect(gate(optionalNames, ["a", 1])).toEqual(blocked("arguments must NOT have unevaluated items"));
  });
  test("with minContains 0: items contains matched pass", () => {
    expect(gate(optionalNames, ["a", "b"])).toEqual(ok);
  });

  // `if` without `then` or `else` still evaluates what it applies to, when it passes.
  const versioned = { type: "array", if: { prefixItems: [{ const: "v1" }] }, unevaluatedItems: false };

  test("next to if alone: a failing if evaluates nothing, so its item is blocked", () => {
    expect(gate(versioned, ["v2"])).toEqual(blocked("arguments must NOT have unevaluated items"));
  });
  test("next to if alone: a passing if evaluates its item", () => {
    expect(gate(versioned, ["v1"])).toEqual(ok);
  });
});

describe("unevaluatedProperties", () => {
  // When `if` fails, its properties are not evaluated; Ajv keeps them when there is no `then`.
  const document = {
    type: "object",
    if: { properties: { kind: { const: "pdf" } }, required: ["kind"] },
    else: { properties: { pages: { type: "integer" } }, required: ["pages"] },
    unevaluatedProperties: false,
  };

  test("with if and else, no then: a property only the failing if named is blocked", () => {
    expect(gate(document, { kind: "png", pages: 3 })).toEqual(blocked("arguments must NOT have unevaluated properties"));
  });
  test("with if and else, no then: a passing if evaluates its properties", () => {
    expect(gate(document, { kind: "pdf" })).toEqual(ok);
  });
  test("with if and else, no then: else evaluates its own", () => {
    expect(gate(document, { pages: 3 })).toEqual(ok);
  });

  const headers = { type: "object", if: { patternProperties: { "^x-": { type: "string" } } }, unevaluatedProperties: false };

  test("next to if alone: a name no subschema evaluated is blocked", () => {
    expect(gate(headers, { other: "abc" })).toEqual(blocked("arguments must NOT have unevaluated properties"));
  });
  test("next to if alone: a name the passing if evaluated passes", () => {
    expect(gate(headers, { "x-trace": "abc" })).toEqual(ok);
  });

  // `dependencies` is no applicator of 2019-09 or 2020-12: the gate applies it, but what it evaluates is not kept.
  const modes = { type: "object", properties: { mode: { type: "string" } }, dependencies: { mode: { properties: { sudo: { const: true } } } }, unevaluatedProperties: false };

  test("a property only a dependencies schema named is unevaluated", () => {
    expect(gate(modes, { mode: "x", sudo: true })).toEqual(blocked("arguments must NOT have unevaluated properties"));
  });
  test("a dependencies schema still applies", () => {
    expect(gate(modes, { mode: "x", sudo: false })).toEqual(blocked("arguments/sudo must be equal to constant"));
    expect(gate(modes, { mode: "x" })).toEqual(ok);
  });
  test("dependentSchemas, an applicator, evaluates its properties", () => {
    const { dependencies, ...rest } = modes;
    expect(gate({ ...rest, dependentSchemas: dependencies }, { mode: "x", sudo: true })).toEqual(ok);
  });
});

describe("subschemas the meta-schema does not read", () => {
  // A $ref may land under a keyword of no meaning, which the meta-schema check of
  // the whole schema never reads: each keyword there must still have its type,
  // whichever validator runs the schema, or the schema is refused.
  const reached = (target: Record<string, unknown>, evaluator: boolean) => ({ type: "object", "x-lib": { target }, properties: { a: { $ref: "#/x-lib/target" } }, ...(evaluator ? { unevaluatedProperties: false } : {}) });
  const misTyped: Array<[Record<string, unknown>, unknown, string]> = [
    [{ enum: "user" }, "admin", '"enum" is string "user", where JSON Schema 2020-12 asks for an array'],
    [{ type: "string", maxLength: "3" }, "abcdefgh", '"maxLength" is string "3", where JSON Schema 2020-12 asks for an integer, 0 or more'],
    [{ type: "object", required: "k" }, {}, '"required" is string "k", where JSON Schema 2020-12 asks for a list of distinct strings'],
    [{ maximum: "3" }, 9, '"maximum" is string "3", where JSON Schema 2020-12 asks for a number'],
    [{ allOf: { type: "string" } }, 1, '"allOf" is an object, where JSON Schema 2020-12 asks for a non-empty list of schemas'],
    [{ type: "OBJECT" }, 1, '"type" is string "OBJECT", where JSON Schema 2020-12 asks for a type name or a non-empty list of distinct type names'],
  ];
  test.each(misTyped)("the gate's evaluator refuses %j, as Ajv does", (target, value, why) => {
    expect(gate(reached(target, true), { a: value })).toEqual(blocked(`tool schema does not compile: schema is invalid: a subschema's ${why}`));
    expect(gate(reached(target, false), { a: value }).reason).toBe("arguments_schema");
  });
  test("keywords of the right type there are applied", () => {
    expect(gate(reached({ enum: ["user"] }, true), { a: "user" })).toEqual(ok);
    expect(gate(reached({ enum: ["user"] }, true), { a: "admin" })).toEqual(blocked(`arguments/a must be equal to one of the allowed values ("user")`));
  });
});

describe("contains", () => {
  // Ajv keeps contains' outcome in one variable that its loop over the items sets:
  // an empty array took the outcome the array before it left.
  const groups = { type: "object", properties: { groups: { type: "array", items: { type: "array", contains: { const: "owner" } } } } };

  test("an empty array after one that holds a match is blocked, as it is first", () => {
    expect(gate(groups, { groups: [["owner"], []] })).toEqual(blocked("arguments/groups/1 must contain at least 1 valid item(s)"));
    expect(gate(groups, { groups: [[], ["owner"]] })).toEqual(blocked("arguments/groups/0 must contain at least 1 valid item(s)"));
  });
  test("under additionalProperties and an outer contains alike", () => {
    expect(gate({ additionalProperties: { type: "array", contains: { const: "owner" } } }, { a: ["owner"], b: [] })).toEqual(blocked("arguments/b must contain at least 1 valid item(s)"));
    expect(gate({ type: "array", contains: { type: "array", contains: {} }, minContains: 2 }, [[1], []]).reason).toBe("arguments_schema");
  });
  test("every array that holds a match passes, and maxContains is held to per array", () => {
    expect(gate(groups, { groups: [["owner"], ["x", "owner"]] })).toEqual(ok);
    expect(gate({ type: "array", items: { type: "array", contains: { const: 1 }, maxContains: 1 } }, [[1, 1], [1]]).reason).toBe("arguments_schema");
    expect(gate({ type: "array", items: { type: "array", contains: { const: 1 }, maxContains: 1 } }, [[1], [1, 2]])).toEqual(ok);
  });
});

describe("prefixItems", () => {
  // On an array shorter than the first entry that is not `true`, Ajv skipped the
  // array keywords after prefixItems.
  test("contains and uniqueItems still hold on a short array", () => {
    expect(gate({ type: "array", prefixItems: [{ type: "string" }], contains: { const: "admin" } }, [])).toEqual(blocked("arguments must contain at least 1 valid item(s)"));
    expect(gate({ type: "array", prefixItems: [true, true, { type: "string" }], uniqueItems: true }, [1, 1])).toEqual(blocked("arguments must NOT have duplicate items (items ## 0 and 1 are identical)"));
    expect(gate({ if: { prefixItems: [{}], contains: true }, else: false }, [])).toEqual(blocked("arguments boolean schema is false"));
  });
  test("a short array that meets them passes", () => {
    expect(gate({ type: "array", prefixItems: [{ type: "string" }], contains: { const: "admin" } }, ["admin"])).toEqual(ok);
    expect(gate({ type: "array", prefixItems: [true, true, { type: "string" }], uniqueItems: true }, [1, 2])).toEqual(ok);
  });
});

describe('a required property named ""', () => {
  // Ajv's test for a missing name took "" for no name missing.
  test("required, dependentRequired and dependencies block an object without it", () => {
    expect(gate({ type: "object", required: [""] }, {})).toEqual(blocked("arguments must have required property ''"));
    expect(gate({ type: "object", dependentRequired: { a: [""] } }, { a: 1 }).reason).toBe("arguments_schema");
    expect(gate({ type: "object", dependencies: { a: [""] } }, { a: 1 }).reason).toBe("arguments_schema");
  });
  test("an object that has it passes", () => {
    expect(gate({ type: "object", required: [""] }, { "": 0 })).toEqual(ok);
    expect(gate({ type: "object", dependentRequired: { a: [""] } }, { a: 1, "": 2 })).toEqual(ok);
  });
});

describe("a reference that Ajv and a URL parser resolve apart is refused", () => {
  const refused = (keyword: string, value: string, at: string, why: string): Verdict =>
    blocked(`tool schema is refused: ${keyword} ${JSON.stringify(value)} at ${at} ${why}`);
  const notUri = "is not a URI reference (RFC 3986), which Ajv and a URL parser resolve apart";

  test("a second # in the fragment: Ajv drops it, the pointer keeps it", () => {
    const schema = { $defs: { a: { type: "string" }, "a#": { type: "integer" } }, $ref: "#/$defs/a#" };
    expect(gate(schema, "x")).toEqual(refused("$ref", "#/$defs/a#", "/$ref", notUri));
  });
  test("a tab, a newline or a space in a name: a URL parser drops or trims it, Ajv keeps it", () => {
    for (const name of ["a\tb", "a\nb", "a "]) {
      const schema = { $defs: { ab: { type: "string" }, a: { type: "string" }, [name]: { type: "integer" } }, $ref: `#/$defs/${name}`, unevaluatedProperties: false };
      expect(gate(schema, "x")).toEqual(refused("$ref", `#/$defs/${name}`, "/$ref", notUri));
    }
  });
  test("an encoded / in the fragment, and an $id written with a space, wherever they sit", () => {
    expect(gate({ $defs: { "a/": { type: "integer" } }, properties: { n: { $ref: "#/$defs/a%2F" } } }, { n: "x" })).toEqual(
      refused("$ref", "#/$defs/a%2F", "/properties/n/$ref", 'encodes a "/" in its fragment, which Ajv reads as part of a name and a JSON Pointer as a separator'),
    );
    expect(gate({ $defs: { unit: { $id: "unit schema", type: "string" } } }, {})).toEqual(refused("$id", "unit schema", "/$defs/unit/$id", notUri));
  });
  test("escapes a URI reference allows still resolve: ~1, ~0 and a percent-encoded quote", () => {
    const schema = { properties: { a: { $ref: "#/$defs/x~1y" }, b: { $ref: "#/$defs/t~0z" }, c: { $ref: "#/$defs/q%22r" } }, $defs: { "x/y": { type: "integer" }, "t~z": { type: "integer" }, 'q"r': { type: "integer" } } };
    expect(gate(schema, { a: 1, b: 2, c: 3 })).toEqual(ok);
    expect(gate(schema, { c: "three" })).toEqual(blocked("arguments/c must be integer"));
  });
});

describe("an identifier under a keyword that holds no schema", () => {
  // JSON Schema 2020-12 reads `$id` and `$anchor` in subschemas only; Ajv registers
  // every one its walk meets, under a keyword of no meaning too, and resolved a
  // reference there to a schema that lets anything through.
  const why = "names no schema of the document as JSON Schema 2020-12 reads it (which reads $id and $anchor in subschemas only, never under a keyword that holds none), where Ajv resolves it";

  test("a $ref to an $id there names nothing: the schema is refused", () => {
    const schema = { type: "object", "x-lib": { account: { $id: "https://tools.example/account" } }, properties: { to: { $ref: "https://tools.example/account" } } };
    expect(gate(schema, { to: 7 })).toEqual(blocked(`tool schema is refused: $ref "https://tools.example/account" at /properties/to/$ref ${why}`));
  });
  test("a $ref to an $anchor there names nothing: the schema is refused", () => {
    const schema = { type: "object", "x-lib": { account: { $anchor: "account" } }, properties: { to: { $ref: "#account" } } };
    expect(gate(schema, { to: 7 })).toEqual(blocked(`tool schema is refused: $ref "#account" at /properties/to/$ref ${why}`));
  });
  test("a JSON Pointer into such a keyword still reaches the schema it holds", () => {
    const schema = { type: "object", "x-lib": { account: { type: "string" } }, properties: { to: { $ref: "#/x-lib/account" } } };
    expect(gate(schema, { to: "acct_1" })).toEqual(ok);
    expect(gate(schema, { to: 7 })).toEqual(blocked("arguments/to must be string"));
  });
});

describe("two identifiers that read as one URI once normalized", () => {
  // JSON Schema asks for an error where two schemas claim one URI. Ajv keeps the
  // root's `$id`, and a first-level `$id` under a root without one, as written,
  // but looks every reference up as its resolver writes it: a reference written as
  // the bounded schema's identifier reached the other, which lets anything through.
  const twice = (first: string, firstAt: string, second: string, secondAt: string): Verdict =>
    blocked(`tool schema is refused: $id ${JSON.stringify(first)} at ${firstAt} and $id ${JSON.stringify(second)} at ${secondAt} name one URI once normalized (RFC 3986), which JSON Schema refuses and Ajv resolves to either`);
  const written: Array<[string, string]> = [
    ["https://Tools.example/amount", "https://tools.example/amount"],
    ["HTTPS://tools.example/amount", "https://tools.example/amount"],
    ["https://tools.example/%61mount", "https://tools.example/amount"],
    ["https://tools.example/./amount", "https://tools.example/amount"],
    ["urn:example:%61mount", "urn:example:amount"],
  ];
  test.each(written)("%s beside %s is refused, in either order", (bounded, open) => {
    const schema = { type: "object", $defs: { amount: { $id: bounded, type: "integer", maximum: 100 }, any: { $id: open } }, properties: { amount: { $ref: bounded } } };
    expect(gate(schema, { amount: "all" })).toEqual(twice(open, "/$defs/any/$id", bounded, "/$defs/amount/$id"));
    const reordered = { type: "object", $defs: { any: { $id: open }, amount: { $id: bounded, type: "integer", maximum: 100 } }, properties: { amount: { $ref: bounded } } };
    expect(gate(reordered, { amount: "all" })).toEqual(twice(bounded, "/$defs/amount/$id", open, "/$defs/any/$id"));
  });
  test("the root's own identifier and one inside it", () => {
    const schema = { $id: "https://Tools.example/transfer", type: "object", properties: { next: { $ref: "https://Tools.example/transfer" } }, $defs: { any: { $id: "https://tools.example/transfer" } } };
    expect(gate(schema, { next: "x" })).toEqual(twice("https://Tools.example/transfer", "/$id", "https://tools.example/transfer", "/$defs/any/$id"));
  });
  test("a default port the URL parser drops", () => {
    const schema = { type: "object", $defs: { amount: { $id: "https://tools.example/amount", type: "integer" }, any: { $id: "https://tools.example:443/amount" } }, properties: { amount: { $ref: "https://tools.example:443/amount" } } };
    expect(gate(schema, { amount: "all" })).toEqual(
      blocked('tool schema is refused: $id "https://tools.example:443/amount" names two schemas once normalized (RFC 3986), which JSON Schema refuses and Ajv resolves to either'),
    );
  });
  test("one schema per identifier still resolves, however the reference writes it", () => {
    const schema = { type: "object", $defs: { amount: { $id: "https://tools.example/amount", type: "integer" } }, properties: { amount: { $ref: "https://Tools.example/./amount" } } };
    expect(gate(schema, { amount: 7 })).toEqual(ok);
    expect(gate(schema, { amount: "all" })).toEqual(blocked("arguments/amount must be integer"));
  });
});

describe("a JSON Pointer reference to what no schema of the document is", () => {
  // Ajv walks a pointer with plain member reads: a name no object holds but every
  // object inherits (`constructor`, `toString`, `__proto__`) gave it a function or
  // a prototype, and an array's `length` a number; it took each for a schema with
  // no keyword, which passes everything.
  const named = (reference: string): Verdict =>
    blocked(`tool schema is refused: $ref ${JSON.stringify(reference)} at /properties/path/$ref names no schema of the document as JSON Schema 2020-12 reads it (which reads $id and $anchor in subschemas only, never under a keyword that holds none), where Ajv resolves it`);
  test.each(["#/$defs/constructor", "#/$defs/toString", "#/$defs/__proto__", "#/constructor", "#/$defs/safe/valueOf", "#/$defs/safe/constructor/prototype"])("%s, a member objects inherit, is refused", (reference) => {
    const schema = { type: "object", properties: { path: { $ref: reference } }, $defs: { safe: { type: "string", pattern: "^/srv/" } } };
    expect(gate(schema, { path: "/etc/shadow" })).toEqual(named(reference));
  });
  test("an array's length is refused", () => {
    const schema = { type: "object", properties: { path: { $ref: "#/allOf/length" } }, allOf: [{ required: ["path"] }] };
    expect(gate(schema, { path: "/etc/shadow" })).toEqual(blocked('tool schema is refused: $ref "#/allOf/length" at /properties/path/$ref lands on number, not on a schema'));
  });
  test("a pointer to a schema the document holds still reaches it", () => {
    const schema = { type: "object", properties: { path: { $ref: "#/$defs/safe" } }, $defs: { safe: { type: "string", pattern: "^/srv/" } } };
    expect(gate(schema, { path: "/srv/report.csv" })).toEqual(ok);
    expect(gate(schema, { path: "/etc/shadow" })).toEqual(blocked('arguments/path must match pattern "^/srv/"'));
  });
});
