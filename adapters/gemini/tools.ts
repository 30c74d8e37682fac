// Tool definitions and toolConfig, both ways. Paths are relative to the `tools`
// value or the `toolConfig`; the body converters prefix them.
//
// | Gemini                                     | Open Responses                                         |
// |--------------------------------------------|--------------------------------------------------------|
// | tools[] {functionDeclarations: [d…]}       | one function tool per declaration, in order            |
// |   d.parametersJsonSchema                   |   parameters as written                                |
// |   d.parameters (OpenAPI subset)            |   parameters translated (schema.ts), the original kept |
// |                                            |   as `gemini:parameters` and written back exactly      |
// |   d without either                         |   no parameters                                        |
// |   d.behavior, d.response… other fields     |   `gemini:<field>`                                     |
// | a tool of another kind (googleSearch,      | extension tool `gemini:<key>` holding the whole tool   |
// |   codeExecution, urlContext…)              |                                                        |
// | snake_case spellings                       | read alike; `gemini:spelling` "snake" on each function tool, |
// |                                            |   `gemini:parametersKey` when only the schema key is snake |
// | functionCallingConfig mode AUTO / ANY /    | tool_choice "auto" / "required" / "none"               |
// |   NONE                                     |                                                        |
// |   VALIDATED                                | "auto": reported, and `gemini:mode` keeps it for the way back |
// |   allowedFunctionNames                     | {type: "allowed_tools", mode, tools: [{type: "function", name}…]} |
// | (back) {type: "function", name}            | mode ANY, allowedFunctionNames [name]                  |
// | (back) a tool of another provider          | loss unsupported_tool                                  |
//
// Consecutive function tools go back as one `functionDeclarations` object.
import type { Converted, Loss } from "../../src/models/loss.js";
import type { FunctionToolParam, ToolChoiceParam } from "../../src/models/open-responses.js";
import { carryFields, isPresent, isRecord, lossAt, ownExtensionType, PREFIX, read, restoreFields, spelled, TARGET, typeOf, type Fields, type Spelling } from "./fields.js";
import { jsonSchemaOfGemini } from "./schema.js";

export type ExtensionTool = { type: string; [key: string]: unknown };

const FUNCTION_FIELDS = ["type", "name", "description", "parameters", "strict", `${PREFIX}spelling`, `${PREFIX}parameters`, `${PREFIX}parametersKey`];
const MODES: Record<string, ToolChoiceParam> = { AUTO: "auto", ANY: "required", NONE: "none" };

export function geminiToolsToResponses(args: { tools: readonly unknown[] }): Converted<Array<FunctionToolParam | ExtensionTool>> {
  const value: Array<FunctionToolParam | ExtensionTool> = [];
  const losses: Loss[] = [];
  args.tools.forEach((tool, index) => {
    if (!isRecord(tool)) {
      losses.push(lossAt([index], "unsupported_tool", `a ${typeOf(tool)} is not a Gemini tool`));
      return;
    }
    const declarations = read(tool, "functionDeclarations");
    if (declarations.value === undefined) {
      const key = Object.keys(tool)[0] ?? "tool";
      value.push({ type: PREFIX + key, ...tool });
      return;
    }
    for (const key of Object.keys(tool)) {
      if (key !== declarations.key) losses.push(lossAt([index, key], "unsupported_tool", `"${key}" beside functionDeclarations in one tool: give it a tool of its own to keep it`));
    }
    if (!Array.isArray(declarations.value)) {
      losses.push(lossAt([index, declarations.key], "unsupported_tool", `functionDeclarations is ${typeOf(declarations.value)}, not a list`));
      return;
    }
    declarations.value.forEach((declaration: unknown, position) => {
      const at = [index, declarations.key, position];
      if (!isRecord(declaration) || typeof declaration.name !== "string") {
        losses.push(lossAt(at, "unsupported_tool", `a declaration without a name (${typeOf(declaration)}) has no Open Responses form`));
        return;
      }
      const fn: Fields = { type: "function", name: declaration.name };
      if (declaration.description !== undefined) fn.description = declaration.description;
      const jsonSchema = read(declaration, "parametersJsonSchema");
      const openApi = declaration.parameters;
      if (jsonSchema.value !== undefined) fn.parameters = jsonSchema.value;
      else if (openApi !== undefined) {
        fn.parameters = jsonSchemaOfGemini(openApi, [...at, "parameters"], losses);
        fn[`${PREFIX}parameters`] = openApi;
      }
      if (declarations.spelling === "snake") fn[`${PREFIX}spelling`] = "snake";
      if (jsonSchema.value !== undefined && jsonSchema.spelling === "snake") fn[`${PREFIX}parametersKey`] = jsonSchema.key;
      carryFields(declaration, ["name", "description", "parameters", jsonSchema.key], fn);
      value.push(fn as FunctionToolParam);
    });
  });
  return { value, losses };
}

export function responsesToolsToGemini(args: { tools: readonly unknown[] }): Converted<Fields[]> {
  const value: Fields[] = [];
  const losses: Loss[] = [];
  let group: Fields[] | undefined;
  args.tools.forEach((tool, index) => {
    if (!isRecord(tool)) {
      losses.push(lossAt([index], "unsupported_tool", `a ${typeOf(tool)} is not a tool`));
      return;
    }
    if (tool.type === "function") {
      const spelling: Spelling = tool[`${PREFIX}spelling`] === "snake" ? "snake" : "camel";
      const declaration: Fields = { name: tool.name };
      if (isPresent(tool.description)) declaration.description = tool.description;
      const original = tool[`${PREFIX}parameters`];
      if (original !== undefined) declaration.parameters = original;
      else if (isPresent(tool.parameters)) declaration[tool[`${PREFIX}parametersKey`] === "parameters_json_schema" ? "parameters_json_schema" : "parametersJsonSchema"] = tool.parameters;
      if (isPresent(tool.strict)) losses.push(lossAt([index, "strict"], "unsupported_field", `Gemini declarations have no strict mode (${String(tool.strict)})`));
      restoreFields(tool, FUNCTION_FIELDS, declaration, [index], losses);
      if (!group) {
        group = [];
        value.push({ [spelled("functionDeclarations", spelling)]: group });
      }
      group.push(declaration);
      return;
    }
    group = undefined;
    const own = ownExtensionType(tool.type);
    if (own === undefined) {
      losses.push(lossAt([index], "unsupported_tool", `a ${typeOf(tool)} tool is not one ${TARGET} has`));
      return;
    }
    const { type: _type, ...rest } = tool;
    value.push(rest);
  });
  return { value, losses };
}

/** What toolConfig gives: a tool_choice, and the rest of it kept for the same provider. */
export interface ResponsesToolChoice {
  toolChoice?: ToolChoiceParam;
  /** `gemini:` fields for the body: the mode VALIDATED, toolConfig fields beside functionCallingConfig. */
  kept: Fields;
}

export function geminiToolConfigToResponses(args: { toolConfig: unknown }): Converted<ResponsesToolChoice> {
  const losses: Loss[] = [];
  const kept: Fields = {};
  const config = args.toolConfig;
  if (!isRecord(config)) {
    losses.push(lossAt([], "unsupported_field", `toolConfig is ${typeOf(config)}: kept for Gemini only`));
    return { value: { kept: { [`${PREFIX}toolConfig`]: config } }, losses };
  }
  const calling = read(config, "functionCallingConfig");
  const rest: Fields = {};
  for (const key of Object.keys(config)) if (key !== calling.key) rest[key] = config[key];
  if (Object.keys(rest).length > 0) kept[`${PREFIX}toolConfig`] = rest;
  if (calling.spelling === "snake") kept[`${PREFIX}toolConfigSpelling`] = "snake";
  if (!isRecord(calling.value)) return { value: { kept }, losses };
  const mode = calling.value.mode;
  const allowed = read(calling.value, "allowedFunctionNames").value;
  let choice: ToolChoiceParam | undefined;
  if (typeof mode === "string" && mode in MODES) choice = MODES[mode];
  else if (mode === "VALIDATED") {
    choice = "auto";
    kept[`${PREFIX}mode`] = mode;
    losses.push(lossAt([calling.key, "mode"], "form_changed", "mode VALIDATED (calls held to their schema) written as auto; kept as gemini:mode"));
  } else if (mode !== undefined) {
    kept[`${PREFIX}mode`] = mode;
    losses.push(lossAt([calling.key, "mode"], "unsupported_field", `mode ${JSON.stringify(mode)} has no tool_choice: kept as gemini:mode`));
  }
  if (Array.isArray(allowed) && allowed.length > 0) {
    const allowedTools: Fields = { type: "allowed_tools", tools: allowed.map((name) => ({ type: "function", name })) };
    if (choice !== undefined && choice !== "none") allowedTools.mode = choice;
    choice = allowedTools as ToolChoiceParam;
  }
  return { value: choice === undefined ? { kept } : { toolChoice: choice, kept }, losses };
}

export function responsesToolChoiceToGemini(args: { toolChoice: unknown; kept?: Fields }): Converted<Fields | undefined> {
  const losses: Loss[] = [];
  const kept = args.kept ?? {};
  const spelling: Spelling = kept[`${PREFIX}toolConfigSpelling`] === "snake" ? "snake" : "camel";
  const choice = args.toolChoice;
  const calling: Fields = {};
  if (choice === "auto") calling.mode = kept[`${PREFIX}mode`] ?? "AUTO";
  else if (choice === "required") calling.mode = "ANY";
  else if (choice === "none") calling.mode = "NONE";
  else if (isRecord(choice) && choice.type === "function") {
    calling.mode = "ANY";
    calling[spelled("allowedFunctionNames", spelling)] = [choice.name];
  } else if (isRecord(choice) && choice.type === "allowed_tools" && Array.isArray(choice.tools)) {
    const mode = choice.mode === undefined ? kept[`${PREFIX}mode`] : choice.mode === "auto" ? (kept[`${PREFIX}mode`] ?? "AUTO") : choice.mode === "required" ? "ANY" : "NONE";
    if (mode !== undefined) calling.mode = mode;
    if (choice.mode === "auto" && mode === "AUTO") losses.push(lossAt([], "form_changed", "Gemini limits calls to allowedFunctionNames only in mode ANY or VALIDATED: with AUTO it may answer in text or call any tool"));
    calling[spelled("allowedFunctionNames", spelling)] = choice.tools.map((tool: unknown) => (isRecord(tool) ? tool.name : tool));
  } else if (choice !== undefined) losses.push(lossAt([], "unsupported_field", `tool_choice ${typeOf(choice)} has no Gemini mode`));
  else if (kept[`${PREFIX}mode`] !== undefined) calling.mode = kept[`${PREFIX}mode`];
  const rest = isRecord(kept[`${PREFIX}toolConfig`]) ? (kept[`${PREFIX}toolConfig`] as Fields) : {};
  if (Object.keys(calling).length === 0) return { value: Object.keys(rest).length > 0 ? { ...rest } : undefined, losses };
  return { value: { ...rest, [spelled("functionCallingConfig", spelling)]: calling }, losses };
}
