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
