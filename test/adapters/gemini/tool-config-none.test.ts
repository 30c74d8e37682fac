import { describe, expect, test } from "vitest";
import { geminiToolConfigToResponses } from "../../../adapters/gemini/tools.js";

describe("Gemini toolConfig to tool_choice", () => {
  test("mode NONE with allowedFunctionNames allows no call: tool_choice none, and the dropped names are a loss", () => {
    expect(geminiToolConfigToResponses({ toolConfig: { functionCallingConfig: { mode: "NONE", allowedFunctionNames: ["get_user_country"] } } })).toEqual({
      value: { toolChoice: "none", kept: {} },
      losses: [{ path: "/functionCallingConfig/allowedFunctionNames", code: "unsupported_field", detail: 'allowedFunctionNames beside mode NONE: tool_choice "none" written, the names dropped' }],
    });
  });

  test("mode ANY with allowedFunctionNames narrows to them", () => {
    expect(geminiToolConfigToResponses({ toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_user_country"] } } })).toEqual({
      value: { toolChoice: { type: "allowed_tools", mode: "required", tools: [{ type: "function", name: "get_user_country" }] }, kept: {} },
      losses: [],
    });
  });
});
