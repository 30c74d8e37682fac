// A Gemini function declaration takes its parameters in one field: `parameters`
// (Gemini's OpenAPI dialect) or `parametersJsonSchema` (`parameters_json_schema`).
// Given two, each reader would take its own, so the declaration is not read.
import { describe, expect, test } from "vitest";
import { geminiToolsToResponses } from "../../../adapters/gemini/tools.js";
import { gateJournal } from "../../../src/index.js";

const strict = { type: "object", properties: { path: { type: "string", pattern: "^/tmp/" } }, required: ["path"] };
const loose = { type: "object" };

describe("a declaration that gives its parameters twice", () => {
  test.each([
    [{ parameters_json_schema: strict, parametersJsonSchema: loose }, "parametersJsonSchema and parameters_json_schema"],
    [{ parameters: { type: "OBJECT" }, parametersJsonSchema: loose }, "parameters and parametersJsonSchema"],
  ])("is not converted, and the loss says which fields: %j", (schemas, fields) => {
    expect(geminiToolsToResponses({ tools: [{ functionDeclarations: [{ name: "delete_file", ...schemas }] }] })).toEqual({
      value: [],
      losses: [{ path: "/0/functionDeclarations/0", code: "unsupported_tool", detail: `the declaration of "delete_file" gives its parameters twice (${fields}): Gemini takes one, and two readers could each take another` }],
    });
  });

  test("in a journal's request body, refuses the calls of its name", async () => {
    const body = { contents: [{ role: "user", parts: [{ text: "clean up" }] }], tools: [{ functionDeclarations: [{ name: "delete_file", parameters_json_schema: strict, parametersJsonSchema: loose }] }] };
    const call = { candidates: [{ content: { role: "model", parts: [{ functionCall: { id: "g1", name: "delete_file", args: { path: "/etc/passwd" } } }] }, finishReason: "STOP" }] };
    const verdicts = [];
    for await (const verdict of gateJournal([JSON.stringify(body), JSON.stringify(call)])) verdicts.push(verdict);
    const calls = verdicts.filter((verdict) => verdict.type === "function_call");
    expect(calls.map((verdict) => [verdict.reason, verdict.blocked])).toEqual([["unknown_tool", true]]);
  });
});

describe("a declaration that gives one schema field null beside another", () => {
  // Protobuf's JSON, which Gemini reads, takes null for a field not given.
  const required = { type: "OBJECT", properties: { path: { type: "STRING" } }, required: ["path"] };

  test.each([
    [{ parametersJsonSchema: null, parameters: required }, { parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] }, "gemini:parameters": required, "gemini:parametersJsonSchema": null }],
    [{ parametersJsonSchema: null, parameters_json_schema: strict }, { parameters: strict, "gemini:parametersKey": "parameters_json_schema", "gemini:parametersJsonSchema": null }],
  ])("is read by the schema given, the null field kept: %j", (schemas, read) => {
    expect(geminiToolsToResponses({ tools: [{ functionDeclarations: [{ name: "delete_file", ...schemas }] }] })).toEqual({ value: [{ type: "function", name: "delete_file", ...read }], losses: [] });
  });

  test("in a journal's request body, judges the calls by that schema, not as a function without parameters", async () => {
    const body = { contents: [{ role: "user", parts: [{ text: "clean up" }] }], tools: [{ functionDeclarations: [{ name: "delete_file", parametersJsonSchema: null, parameters: required }] }] };
    const call = { candidates: [{ content: { role: "model", parts: [{ functionCall: { id: "g1", name: "delete_file", args: {} } }] }, finishReason: "STOP" }] };
    const verdicts = [];
    for await (const verdict of gateJournal([JSON.stringify(body), JSON.stringify(call)])) verdicts.push(verdict);
    const calls = verdicts.filter((verdict) => verdict.type === "function_call");
    expect(calls.map((verdict) => [verdict.reason, verdict.detail])).toEqual([["arguments_schema", "arguments must have required property 'path'"]]);
  });
});

describe("a declaration whose types are the enum's numbers, as Go's client sends them", () => {
  // Shaped as langchaingo's recorded Gemini request: "type": 6 for OBJECT, 1 for STRING.
  const declaration = { name: "calculate", description: "Work out a sum", parameters: { type: 6, properties: { expression: { type: 1, description: "The sum to work out" } }, required: ["expression"] } };

  test("is read as the types the numbers name", () => {
    expect(geminiToolsToResponses({ tools: [{ functionDeclarations: [declaration] }] })).toEqual({
      value: [{ type: "function", name: "calculate", description: "Work out a sum", parameters: { type: "object", properties: { expression: { type: "string", description: "The sum to work out" } }, required: ["expression"] }, "gemini:parameters": declaration.parameters }],
      losses: [],
    });
  });

  test("0, which names no type, and a number no type has still accept no value", () => {
    const converted = geminiToolsToResponses({ tools: [{ functionDeclarations: [{ ...declaration, parameters: { type: 6, properties: { expression: { type: 0 }, count: { type: 9 } } } }] }] });
    expect(converted.losses).toEqual([
      { path: "/0/functionDeclarations/0/parameters/properties/expression/type", code: "target_rejects", detail: "type 0 has no JSON Schema meaning: no value is accepted here" },
      { path: "/0/functionDeclarations/0/parameters/properties/count/type", code: "target_rejects", detail: "type 9 has no JSON Schema meaning: no value is accepted here" },
    ]);
  });
});
