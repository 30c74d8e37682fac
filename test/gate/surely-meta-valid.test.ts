import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Ajv2020 } from "ajv/dist/2020.js";
import { surelyMetaValid } from "../../src/gate/surely-meta-valid.js";
import { assertedFormats } from "../../src/gate/schema-formats.js";
import { SchemaCache } from "../../src/gate/schema.js";

// Two Ajv instances as the gate makes them, one asserting formats, each
// checking schemas against the 2020-12 meta-schema: the answer the pre-check
// must never contradict by saying "surely valid" where Ajv says invalid.
const plainAjv = new Ajv2020({ strict: false, logger: false, validateFormats: false });
const formatsAjv = new Ajv2020({ strict: false, logger: false, validateFormats: true });
for (const [name, definition] of assertedFormats()) formatsAjv.addFormat(name, definition);

// Keyword names the meta-schema constrains, a few it does not, and values of
// every form each may be given, right and wrong.
const KEYWORDS = [
  "type", "properties", "required", "additionalProperties", "items", "prefixItems", "enum", "const", "description", "title", "default",
  "examples", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems",
  "uniqueItems", "minProperties", "maxProperties", "anyOf", "oneOf", "allOf", "not", "if", "then", "else", "format", "pattern",
  "patternProperties", "$defs", "definitions", "$ref", "$id", "$schema", "$anchor", "$dynamicRef", "$dynamicAnchor", "$comment",
  "dependentRequired", "dependentSchemas", "dependencies", "contains", "minContains", "maxContains", "propertyNames", "deprecated",
  "readOnly", "writeOnly", "contentEncoding", "contentMediaType", "contentSchema", "unevaluatedItems", "unevaluatedProperties",
  "$vocabulary", "$recursiveRef", "$recursiveAnchor", "nullable", "strict", "x-extra",
];
const scalar = fc.oneof(
  fc.constantFrom("string", "object", "integer", "number", "array", "boolean", "null", "strng", "", "a(", "^[a-z]+$", "#/$defs/a", "a b", "\\p{L}", "[", "1e3"),
  fc.constantFrom(0, 1, -1, 2.5, 0.5, 1e300, -0),
  fc.boolean(),
  fc.constant(null),
);

const schemaArbitrary = fc.letrec((tie) => ({
  schema: fc.oneof({ depthSize: "small", withCrossShrink: true }, fc.boolean(), tie("object")),
  object: fc.dictionary(fc.constantFrom(...KEYWORDS), tie("value"), { maxKeys: 4 }),
  value: fc.oneof(
    { depthSize: "small" },
    scalar,
    tie("schema"),
    fc.array(fc.oneof(scalar, tie("schema")), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "b", "^x", "(", "type"), fc.oneof(tie("schema"), fc.array(scalar, { maxLength: 2 })), { maxKeys: 2 }),
  ),
}));

describe("a generated schema", () => {
  it("is never called surely valid where Ajv's meta-schema check refuses it, formats asserted or not", () => {
    let sure = 0;
    fc.assert(
      fc.property(schemaArbitrary.schema, (schema) => {
        if (!surelyMetaValid(schema)) return;
        sure += 1;
        expect(plainAjv.validateSchema(schema as object)).toBe(true);
        expect(formatsAjv.validateSchema(schema as object)).toBe(true);
      }),
      { numRuns: 4000, seed: 20261207 },
    );
    // The property says something only if the pre-check vouches for a fair share of the schemas.
    expect(sure).toBeGreaterThan(400);
  });
});

describe("a tool schema of the common kind", () => {
  it("is vouched for without the meta-schema", () => {
    const schema = {
      type: "object",
      additionalProperties: false,
      required: ["region", "limit"],
      properties: {
        region: { type: "string", enum: ["apac", "emea"], description: "where" },
        limit: { type: ["integer", "null"], minimum: 1, maximum: 50 },
        tags: { type: "array", items: { type: "string", pattern: "^[a-z]+$", maxLength: 20 }, uniqueItems: true, maxItems: 5 },
        when: { type: "string", format: "date" },
        ref: { $ref: "#/$defs/when" },
      },
      $defs: { when: { anyOf: [{ type: "string" }, { type: "null" }] } },
    };
    expect(surelyMetaValid(schema)).toBe(true);
  });
});

describe("a keyword whose value the meta-schema refuses", () => {
  const refused: Array<[string, unknown]> = [
    ["type", "strng"],
    ["type", []],
    ["type", ["string", "string"]],
    ["required", "region"],
    ["required", ["a", "a"]],
    ["properties", []],
    ["properties", { a: 5 }],
    ["items", "string"],
    ["anyOf", []],
    ["minLength", -1],
    ["minLength", 1.5],
    ["maximum", "10"],
    ["multipleOf", 0],
    ["pattern", 5],
    ["enum", "a"],
    ["uniqueItems", "yes"],
    ["dependentRequired", { a: "b" }],
  ];
  for (const [keyword, value] of refused) {
    it(`leaves ${keyword}: ${JSON.stringify(value)} to Ajv, which refuses it`, () => {
      const schema = { type: "object", properties: { x: { [keyword]: value } } };
      expect(surelyMetaValid(schema)).toBe(false);
      expect(plainAjv.validateSchema(schema)).toBe(false);
    });
  }
});

describe("the schema cache", () => {
  it("still refuses a schema the meta-schema refuses, with Ajv's message", () => {
    const compiled = new SchemaCache().compile({ type: "object", properties: { region: { type: "string", minLength: -1 } } });
    expect(compiled).toEqual({ ok: false, error: "tool schema does not compile: schema is invalid: data/properties/region/minLength must be >= 0" });
  });

  it("still refuses a pattern that is no ECMA-262 pattern, which the meta-schema leaves to the gate", () => {
    const compiled = new SchemaCache(1024, { assertFormats: true }).compile({ type: "object", $defs: { x: { pattern: "[" } } });
    expect(compiled.ok === false && compiled.error).toBe('tool schema does not compile: at /$defs/x/pattern: pattern "[" is not an ECMA-262 regular expression with the u flag (unterminated character class at offset 1); the schema is refused');
  });

  it("still refuses it when the keyword sits where only the meta-schema looks (an unused $defs entry)", () => {
    const compiled = new SchemaCache().compile({ type: "object", $defs: { unused: { required: "x" } } });
    expect(compiled.ok).toBe(false);
    expect(compiled.ok === false && compiled.error).toContain("schema is invalid: data/$defs/unused/required must be array");
  });
});
