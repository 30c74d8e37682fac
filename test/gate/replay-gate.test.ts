import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { readFileSync } from "node:fs";
import { isKnownBareType, SPEC_ITEM_TYPES } from "../../src/gate/item-kind.js";
import { replayGate, isBlocked, type GateReason } from "../../src/gate/replay-gate.js";
import { SchemaCache } from "../../src/gate/schema.js";
import { OPENAI_ITEM_TYPES } from "../../src/models/provider-item-types.js";

const salesSchema = {
  type: "object",
  additionalProperties: false,
  required: ["region"],
  properties: { region: { type: "string", enum: ["apac", "emea", "amer"] } },
};
const okCall = {
  type: "function_call",
  id: "fc_001",
  name: "get_latest_sales_report",
  call_id: "call_123",
  status: "completed",
  arguments: "{\"region\":\"apac\"}",
};

describe("the examples of the design", () => {
  const cases: Array<[string, unknown, GateReason]> = [
    ["a completed call with valid arguments", okCall, "ok"],
    ["a region outside the enum", { ...okCall, arguments: "{\"region\":\"global\"}" }, "arguments_schema"],
    ["an extension item", { type: "openai:web_search_call", id: "ws_001", status: "completed", action: { type: "search", query: "apac sales report" } }, "namespaced"],
    ["a function_call_output", { type: "function_call_output", call_id: "call_123", output: "sales report for apac" }, "not_function_call"],
    ["a call still in progress", { ...okCall, status: "in_progress" }, "status"],
    ["an incomplete call", { ...okCall, status: "incomplete" }, "status"],
    ["object arguments", { ...okCall, arguments: { region: "apac" } }, "arguments_type"],
    ["truncated arguments", { ...okCall, arguments: "{\"region\":\"apac\"" }, "arguments_parse"],
  ];
  test.each(cases)("%s", (_label, item, reason) => {
    expect(replayGate(item, salesSchema).reason).toBe(reason);
  });

  test("a value outside the enum is reported, never repaired", () => {
    const item = { ...okCall, arguments: "{\"region\":\"global\"}" };
    const before = JSON.stringify(item);
    expect(replayGate(item, salesSchema)).toEqual({
      reason: "arguments_schema",
      detail: "arguments/region must be equal to one of the allowed values (\"apac\", \"emea\", \"amer\")",
      path: "/arguments",
    });
    expect(JSON.stringify(item)).toBe(before);
  });
});

describe("the type check", () => {
  test.each([
    ["no type", { call_id: "c", arguments: "{}" }],
    ["a numeric type", { type: 3 }],
    ["a null type", { type: null }],
    ["an array record", [okCall]],
    ["a string record", "function_call"],
    ["null", null],
  ])("%s is namespaced", (_label, item) => {
    expect(replayGate(item, salesSchema).reason).toBe("namespaced");
  });
  test("an unprefixed provider type is not a function_call", () => {
    expect(replayGate({ type: "web_search_call", status: "completed" }, salesSchema).reason).toBe("not_function_call");
  });
  test("a prefixed function_call is still an extension", () => {
    expect(replayGate({ ...okCall, type: "openai:function_call" }, salesSchema).reason).toBe("namespaced");
  });
  test("an extension type is named in its detail cut short, its invisible characters shown", () => {
    const verdict = replayGate({ ...okCall, type: `acme:${"x".repeat(1_000_000)}` }, salesSchema);
    expect([verdict.reason, verdict.detail.length < 300, verdict.detail.startsWith('"acme:xxx')]).toEqual(["namespaced", true, true]);
    expect(replayGate({ ...okCall, type: "acme:call\u202e\n" }, salesSchema).detail).toBe('"acme:call\\u202e\\n" is an extension item, never a portable call');
  });
});

describe("the status check", () => {
  test.each([["missing", undefined], ["null", null], ["upper case", "COMPLETED"], ["padded", "completed "]])("status %s blocks", (_label, status) => {
    const item: Record<string, unknown> = { ...okCall, status };
    if (status === undefined) delete item.status;
    expect(replayGate(item, salesSchema).reason).toBe("status");
  });
});

describe("the parse check follows RFC 8259", () => {
  test.each([["NaN", "{\"n\":NaN}"], ["Infinity", "{\"n\":Infinity}"], ["single quotes", "{'region':'apac'}"], ["a trailing comma", "{\"region\":\"apac\",}"], ["an empty string", ""], ["a comment", "{} // done"]])("%s fails", (_label, args) => {
    expect(replayGate({ ...okCall, arguments: args }, true).reason).toBe("arguments_parse");
  });
});

describe("the schema check is full JSON Schema 2020-12", () => {
  const check = (schema: object, value: unknown) => replayGate({ ...okCall, arguments: JSON.stringify(value) }, schema).reason;
  test("required holds where properties is absent", () => {
    expect(check({ type: "object", required: ["region"] }, {})).toBe("arguments_schema");
    expect(check({ type: "object", required: ["region"] }, { region: 1 })).toBe("ok");
  });
  test("1.0 is an integer", () => {
    expect(replayGate({ ...okCall, arguments: "{\"n\":1.0}" }, { type: "object", properties: { n: { type: "integer" } } }).reason).toBe("ok");
    expect(check({ type: "object", properties: { n: { type: "integer" } } }, { n: 1.5 })).toBe("arguments_schema");
  });
  test("true is not equal to 1 in enum", () => {
    expect(check({ enum: [1] }, true)).toBe("arguments_schema");
    expect(check({ enum: [1] }, 1)).toBe("ok");
  });
  test("$ref into $defs", () => {
    const schema = { $defs: { region: { enum: ["apac"] } }, type: "object", properties: { region: { $ref: "#/$defs/region" } } };
    expect(check(schema, { region: "emea" })).toBe("arguments_schema");
    expect(check(schema, { region: "apac" })).toBe("ok");
  });
  test("oneOf, anyOf, const", () => {
    const schema = { oneOf: [{ const: "a" }, { type: "number" }], anyOf: [{ type: "string" }, { minimum: 3 }] };
    expect(check(schema, "a")).toBe("ok");
    expect(check(schema, 2)).toBe("arguments_schema");
    expect(check(schema, 4)).toBe("ok");
  });
  test("prefixItems", () => {
    const schema = { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false };
    expect(check(schema, ["a", 1])).toBe("ok");
    expect(check(schema, [1, "a"])).toBe("arguments_schema");
    expect(check(schema, ["a", 1, 2])).toBe("arguments_schema");
  });
  test("format date, asserted when asked", () => {
    const asserted = (value: unknown) => replayGate({ ...okCall, arguments: JSON.stringify(value) }, { type: "string", format: "date" }, { assertFormats: true }).reason;
    expect(asserted("2026-12-02")).toBe("ok");
    expect(asserted("2026-13-40")).toBe("arguments_schema");
  });
  test("format date, an annotation by default, as 2020-12 says", () => {
    expect(check({ type: "string", format: "date" }, "2026-12-02")).toBe("ok");
    expect(check({ type: "string", format: "date" }, "2026-13-40")).toBe("ok");
  });
  test("a cache given brings its own choice", () => {
    const asserting = new SchemaCache(undefined, { assertFormats: true });
    const item = { ...okCall, arguments: JSON.stringify("2026-13-40") };
    expect(replayGate(item, { type: "string", format: "date" }, { cache: asserting }).reason).toBe("arguments_schema");
    expect(replayGate(item, { type: "string", format: "date" }, { cache: new SchemaCache(), assertFormats: true }).reason).toBe("ok");
  });
  test("minLength and minimum", () => {
    expect(check({ type: "string", minLength: 2 }, "a")).toBe("arguments_schema");
    expect(check({ type: "number", minimum: 0 }, -1)).toBe("arguments_schema");
  });
  test("two patterns in one schema keep their own matchers", () => {
    const schema = { type: "object", properties: { a: { type: "string", pattern: "^x$" }, b: { type: "string", pattern: "^y$" } } };
    expect(check(schema, { a: "x", b: "x" })).toBe("arguments_schema");
    expect(check(schema, { a: "x", b: "y" })).toBe("ok");
  });
  test("a catastrophic pattern runs in linear time and still rejects", () => {
    expect(check({ type: "string", pattern: "^(a+)+$" }, "a".repeat(50) + "!")).toBe("arguments_schema");
  });
});

describe("fail closed", () => {
  test("a schema that does not compile blocks with the compile error", () => {
    const verdict = replayGate(okCall, { type: "object", properties: { region: { $ref: "#/$defs/missing" } } });
    expect(verdict.reason).toBe("arguments_schema");
    expect(verdict.detail).toMatch(/^tool schema does not compile: .*missing/);
  });
  test("a remote $ref is never fetched and blocks", () => {
    const verdict = replayGate(okCall, { $ref: "https://example.com/schema.json" });
    expect(verdict.reason).toBe("arguments_schema");
    expect(verdict.detail).toMatch(/does not compile/);
  });
  test("a schema that is not a schema blocks", () => {
    expect(replayGate(okCall, [] as unknown as object).reason).toBe("arguments_schema");
  });
  test("no schema for the tool is unknown_tool", () => {
    expect(replayGate(okCall, undefined)).toEqual({ reason: "unknown_tool", detail: "no schema is known for \"get_latest_sales_report\"", path: "/name" });
  });
  test("a name that only looks like a declared one shows the characters that differ", () => {
    // A Cyrillic a in place of the Latin one, and a zero-width space.
    expect(replayGate({ ...okCall, name: "get_latest_s\u0430les_report" }, undefined).detail).toBe('no schema is known for "get_latest_s\\u0430les_report"');
    expect(replayGate({ ...okCall, name: "get_latest_sales_report\u200b" }, undefined).detail).toBe('no schema is known for "get_latest_sales_report\\u200b"');
  });
  test("an item whose fields throw is blocked, not passed", () => {
    const hostile = new Proxy({}, { get() { throw new Error("boom"); }, getOwnPropertyDescriptor() { throw new Error("boom"); } });
    const verdict = replayGate(hostile, salesSchema);
    expect(verdict.reason).toBe("namespaced");
    expect(verdict.detail).toMatch(/boom/);
    expect(isBlocked(verdict)).toBe(true);
  });
  test("a validator that throws blocks the call with the error", () => {
    const cache = new SchemaCache();
    const compiled = cache.compile(salesSchema);
    if (!compiled.ok) throw new Error("schema should compile");
    const original = compiled.validate;
    (compiled as { validate: unknown }).validate = Object.assign(() => { throw new RangeError("Maximum call stack size exceeded"); }, { errors: null });
    const verdict = replayGate(okCall, salesSchema, { cache });
    expect(verdict).toEqual({ reason: "arguments_schema", detail: "the gate could not finish the arguments_schema check: Maximum call stack size exceeded" });
    (compiled as { validate: unknown }).validate = original;
  });
});

describe("the schema cache", () => {
  test("compiles each distinct schema once, found again by content", () => {
    const cache = new SchemaCache();
    const first = cache.compile({ type: "string" });
    expect(cache.compile({ type: "string" })).toBe(first);
    expect(cache.size).toBe(1);
  });
  test("keeps at most its limit", () => {
    const cache = new SchemaCache(3);
    for (let i = 0; i < 10; i++) cache.compile({ const: i });
    expect(cache.size).toBe(3);
  });
  test("two tools may reuse one $id", () => {
    const cache = new SchemaCache();
    expect(cache.compile({ $id: "https://example.com/tool.json", type: "string" }).ok).toBe(true);
    expect(cache.compile({ $id: "https://example.com/tool.json", type: "number" }).ok).toBe(true);
  });
  test("no tool's $ref reaches a resource another tool's schema declared: a remote $ref is refused whatever was gated before", () => {
    const verdict = (cache: SchemaCache, schema: Record<string, unknown>, args: unknown) => {
      const item = { type: "function_call", call_id: "call_1", name: "t", status: "completed", arguments: JSON.stringify(args) };
      const { reason, detail } = replayGate(item, schema, { cache });
      return `${reason}: ${detail}`;
    };
    // Each declares a resource with an $id of its own, inside, and refers to it.
    const declaring = [
      { type: "object", $defs: { ids: { $id: "https://json-schema.org/draft/2020-12/ids", type: "array", uniqueItems: true } }, properties: { a: { $ref: "#/$defs/ids" } } },
      { type: "object", $defs: { x: { $id: "http://ex.test/emb", type: "string" } }, properties: { a: { $ref: "http://ex.test/emb" } } },
    ];
    // Each refers to one of those resources, which it does not hold: a remote $ref.
    const referring: Array<[Record<string, unknown>, unknown]> = [
      [{ type: "object", properties: { c: { $ref: "https://json-schema.org/draft/2020-12/ids" } }, unevaluatedProperties: false }, { c: [1, 1] }],
      [{ type: "object", $defs: { ids: { type: "array" } }, properties: { d: { $ref: "https://json-schema.org/draft/2020-12/ids" } } }, { d: [1, 1] }],
      [{ type: "object", $defs: { x: { type: "integer" } }, properties: { b: { $ref: "http://ex.test/emb" } } }, { b: 5 }],
      [{ type: "object", properties: { b: { $ref: "http://ex.test/emb" } } }, { b: "x" }],
    ];
    const alone = referring.map(([schema, args]) => verdict(new SchemaCache(), schema, args));
    const cache = new SchemaCache();
    expect(declaring.map((schema) => verdict(cache, schema, { a: ["x"] }))).toEqual(["ok: completed call with arguments valid for its schema", "arguments_schema: arguments/a must be string"]);
    expect(referring.map(([schema, args]) => verdict(cache, schema, args))).toEqual(alone);
    expect(alone.every((answer) => answer.startsWith("arguments_schema: tool schema does not compile: can't resolve reference"))).toBe(true);
  });
});

describe("the order of the checks (property)", () => {
  // Each field is drawn from values that pass or fail its own check; the gate must
  // answer with the first failing check of the table.
  const typeField = fc.constantFrom<[unknown, GateReason | null]>([undefined, "namespaced"], [7, "namespaced"], ["openai:web_search_call", "namespaced"], ["message", "not_function_call"], ["function_call", null]);
  const statusField = fc.constantFrom<[unknown, GateReason | null]>([undefined, "status"], ["in_progress", "status"], ["incomplete", "status"], ["completed", null]);
  const argumentsField = fc.constantFrom<[unknown, GateReason | null]>([{ region: "apac" }, "arguments_type"], [undefined, "arguments_type"], ["{\"region\":", "arguments_parse"], ["{\"region\":\"global\"}", "arguments_schema"], ["{\"region\":\"emea\"}", null]);
  test("the first failing check wins", () => {
    fc.assert(
      fc.property(typeField, statusField, argumentsField, fc.string(), ([type, typeFails], [status, statusFails], [args, argsFail], callId) => {
        const item: Record<string, unknown> = { call_id: callId, name: "get_latest_sales_report" };
        if (type !== undefined) item.type = type;
        if (status !== undefined) item.status = status;
        if (args !== undefined) item.arguments = args;
        const expected = typeFails ?? statusFails ?? argsFail ?? "ok";
        expect(replayGate(item, salesSchema).reason).toBe(expected);
      }),
    );
  });
  test("any JSON value gets a reason and never throws", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(["namespaced", "not_function_call", "status", "arguments_type", "arguments_parse", "arguments_schema", "ok"]).toContain(replayGate(value, salesSchema).reason);
      }),
    );
  });
});

describe("a type the spec does not define", () => {
  const unknownDetail = (quoted: string) => `${quoted} is not a type the Open Responses spec defines, nor a provider type with a slug; it is never a portable call`;
  test.each([
    ["a fullwidth colon", "openai\uff1ashell_call", '"openai\\uff1ashell_call"'],
    ["a zero-width space", "function_call\u200b", '"function_call\\u200b"'],
    ["another case", "Function_Call", '"Function_Call"'],
    ["a trailing space", "function_call ", '"function_call "'],
    ["a no-break space", "function_call\u00a0", '"function_call\\u00a0"'],
    ["a leading tab", "\tmessage", '"\\tmessage"'],
    ["an empty string", "", '""'],
    ["a made-up type", "tool_call", '"tool_call"'],
  ])("%s is namespaced, named with its invisible characters shown", (_label, type, quoted) => {
    const verdict = replayGate({ ...okCall, type }, salesSchema);
    expect(verdict).toEqual({ reason: "namespaced", detail: unknownDetail(quoted), path: "/type" });
    expect(isBlocked(verdict)).toBe(true);
  });

  test("a long type is cut in the detail", () => {
    expect(replayGate({ ...okCall, type: "x".repeat(100) }, salesSchema).detail).toBe(unknownDetail(`"${"x".repeat(60)}"…`));
  });

  test.each([...SPEC_ITEM_TYPES].filter((type) => type !== "function_call"))("the spec's %s is not a function_call, and not blocked", (type) => {
    const verdict = replayGate({ type }, salesSchema);
    expect(verdict).toEqual({ reason: "not_function_call", detail: `"${type}" is not a function_call`, path: "/type" });
    expect(isBlocked(verdict)).toBe(false);
  });

  test.each([...OPENAI_ITEM_TYPES])("OpenAI's unprefixed %s, which normalization gives its slug, is not a function_call", (type) => {
    expect(replayGate({ type, status: "completed" }, salesSchema).reason).toBe("not_function_call");
  });

  test("the spec's item types are the types of the items in its ItemParam and ItemField unions", () => {
    type Schemas = Record<string, { oneOf?: Array<{ $ref: string }>; properties?: { type?: { enum?: string[]; anyOf?: Array<{ enum?: string[] }> } } }>;
    const schemas = (JSON.parse(readFileSync("src/models/spec/open-responses.components.json", "utf8")) as { components: { schemas: Schemas } }).components.schemas;
    const types = new Set<string>();
    for (const union of ["ItemParam", "ItemField"]) {
      for (const { $ref } of schemas[union].oneOf!) {
        const type = schemas[$ref.split("/").pop()!].properties!.type!;
        for (const value of type.enum ?? type.anyOf!.flatMap((choice) => choice.enum ?? [])) types.add(value);
      }
    }
    expect([...SPEC_ITEM_TYPES].sort()).toEqual([...types].sort());
  });

  test("known bare types are the spec's and OpenAI's, spelled exactly", () => {
    expect(isKnownBareType("function_call")).toBe(true);
    expect(isKnownBareType("web_search_call")).toBe(true);
    expect(isKnownBareType("FUNCTION_CALL")).toBe(false);
    expect(isKnownBareType("function_call\u200b")).toBe(false);
  });
});

describe("a member named twice in the arguments", () => {
  const args = (text: string) => replayGate({ ...okCall, arguments: text }, true);
  const twice = (name: string, path: string) => ({
    reason: "arguments_parse",
    detail: `arguments has the name ${name} twice in one object, at ${path}; JSON.parse keeps the last value, other readers keep the first`,
    path: "/arguments",
  });

  test("blocks the value JSON.parse kept, which the schema passes", () => {
    expect(replayGate({ ...okCall, arguments: '{"region":"global","region":"apac"}' }, salesSchema)).toEqual(twice('"region"', '"/region"'));
  });
  test("blocks the other order too", () => {
    expect(replayGate({ ...okCall, arguments: '{"region":"apac","region":"global"}' }, salesSchema)).toEqual(twice('"region"', '"/region"'));
  });
  test("is found deep inside, with its JSON Pointer", () => {
    expect(args('{"orders":[{"id":1},{"id":2,"ship":{"to":"a","to":"b"}}]}')).toEqual(twice('"to"', '"/orders/1/ship/to"'));
  });
  test("is one name however it is escaped", () => {
    expect(args('{"a":1,"\\u0061":2}')).toEqual(twice('"a"', '"/a"'));
    expect(args('{"a/b~":1,"a\\/b~":2}')).toEqual(twice('"a/b~"', '"/a~1b~0"'));
  });
  test("__proto__, which JSON.parse makes an own key, counts as a name", () => {
    expect(args('{"__proto__":{"admin":true},"__proto__":{}}')).toEqual(twice('"__proto__"', '"/__proto__"'));
    expect(args('{"__proto__":{"admin":true}}').reason).toBe("ok");
  });
  test("a name whose characters do not show is written with escapes", () => {
    expect(args('{"a\u200b":1,"a\u200b":2}')).toEqual(twice('"a\\u200b"', '"/a\\u200b"'));
  });
  test("the same name in two objects, and names or quotes inside strings, are not twice", () => {
    expect(args('{"a":{"x":1},"b":{"x":2},"c":[{"x":3},{"x":4}]}').reason).toBe("ok");
    expect(args('{"a":"\\"a\\":1","b":"a:","c":"\\\\"}').reason).toBe("ok");
  });
  test("comes before the unknown tool: the call is unreadable before it is unknown", () => {
    expect(replayGate({ ...okCall, arguments: '{"a":1,"a":1}' }, undefined).reason).toBe("arguments_parse");
  });
  test("is found 100,000 levels deep without running out of stack", () => {
    const deep = '{"a":'.repeat(100_000) + '{"z":1,"z":2}' + "}".repeat(100_000);
    const verdict = args(deep);
    expect(verdict.reason).toBe("arguments_parse");
    expect(verdict.detail).toMatch(/^arguments has the name "z" twice in one object, at "(\/a){100}/);
  });
});

describe("two names of the arguments that a reader folding case letter by letter reads as one declared field", () => {
  const folded = (first: string, second: string) => ({
    reason: "arguments_parse",
    detail: `arguments has the names ${first} and ${second} in one object, at the top level: a reader that matches names regardless of case or width (Go's encoding/json does) takes them for one name and keeps the last value`,
    path: "/arguments",
  });
  const declaring = (name: string) => ({ type: "object", properties: { [name]: { enum: ["apac"] } } });
  // Folding case letter by letter, as Go and Java do, makes one letter of these, where lower case leaves two.
  test.each([
    ["a final sigma", "τύπος", "τύποσ", '"\\u03c4\\u03cd\\u03c0\\u03bf\\u03c2"', '"\\u03c4\\u03cd\\u03c0\\u03bf\\u03c3"'],
    ["a sigma and a final sigma standing alone", "σ", "ς", '"\\u03c3"', '"\\u03c2"'],
    ["iota and the combining ypogegrammeni", "ι", "\u0345", '"\\u03b9"', '"\\u0345"'],
    ["a Cyrillic letter and its old form", "вид", "\u1c80ид", '"\\u0432\\u0438\\u0434"', '"\\u1c80\\u0438\\u0434"'],
    ["i and a dotless i, one letter in upper case", "file", "f\u0131le", '"file"', '"f\\u0131le"'],
  ])("%s", (_label, declared, other, first, second) => {
    const args = `{${JSON.stringify(declared)}:"apac",${JSON.stringify(other)}:"global"}`;
    expect(replayGate({ ...okCall, arguments: args }, declaring(declared))).toEqual(folded(first, second));
  });
});

describe("members an item would only inherit", () => {
  test("are not its own: a call whose status and arguments come through its prototype is blocked", () => {
    const inherited = Object.create({ status: "completed", arguments: "{}" }) as Record<string, unknown>;
    Object.assign(inherited, { type: "function_call", call_id: "call_1", name: "t" });
    expect(replayGate(inherited, { type: "object" }).reason).toBe("status");
    const typed = Object.create({ type: "function_call" }) as Record<string, unknown>;
    Object.assign(typed, { status: "completed", arguments: "{}", name: "t" });
    expect(replayGate(typed, { type: "object" }).reason).toBe("namespaced");
  });
});

describe("the arguments given once more, read, as parsed_arguments", () => {
  // The OpenAI SDKs' parse helpers write `parsed_arguments` beside the text (null
  // for a tool they do not parse); a runner built on them runs that value.
  const other = {
    reason: "arguments_parse",
    detail: "parsed_arguments holds other arguments than the arguments text: a runner that takes either runs its own",
    path: "/parsed_arguments",
  };
  test("another value there is blocked, though the text passes the schema", () => {
    expect(replayGate({ ...okCall, parsed_arguments: { region: "global" } }, salesSchema)).toEqual(other);
    expect(replayGate({ ...okCall, parsed_arguments: "{\"region\":\"apac\"}" }, salesSchema)).toEqual(other);
  });
  test("a number the text writes past a double cannot be shown to be the one parsed_arguments holds", () => {
    expect(replayGate({ ...okCall, arguments: '{"id":9007199254740993}', parsed_arguments: { id: 9007199254740992 } }, true)).toEqual({
      reason: "arguments_parse",
      detail: "parsed_arguments cannot be shown to hold the arguments text: arguments/id is 9007199254740993, which a double reads as another number",
      path: "/parsed_arguments",
    });
  });
  test("the same value, in any member order or number form, or null, passes", () => {
    expect(replayGate({ ...okCall, parsed_arguments: { region: "apac" } }, salesSchema).reason).toBe("ok");
    expect(replayGate({ ...okCall, parsed_arguments: null }, salesSchema).reason).toBe("ok");
    expect(replayGate({ ...okCall, arguments: '{"b":1.0,"a":[2]}', parsed_arguments: { a: [2], b: 1 } }, true).reason).toBe("ok");
  });
});
