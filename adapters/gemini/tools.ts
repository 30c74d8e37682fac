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
// |   a schema field null beside another       |   the other's schema (null is no field to protobuf's JSON) |
// |   d.behavior, d.response… other fields     |   `gemini:<field>`                                     |
// | a tool of another kind (googleSearch,      | extension tool `gemini:<key>` holding the whole tool   |
// |   codeExecution, urlContext…)              |                                                        |
// | snake_case spellings                       | read alike; `gemini:spelling` "snake" on each function tool, |
// |                                            |   `gemini:parametersKey` when only the schema key is snake |
// | functionCallingConfig mode AUTO / ANY /    | tool_choice "auto" / "required" / "none"               |
// |   NONE                                     |                                                        |
// |   VALIDATED                                | "auto": reported, and `gemini:mode` keeps it for the way back |
// |   allowedFunctionNames                     | {type: "allowed_tools", mode, tools: [{type: "function", name}…]} |
// |   allowedFunctionNames beside NONE         | "none": the names dropped, a loss                      |
// | (back) {type: "function", name}            | mode ANY, allowedFunctionNames [name]                  |
// | (back) a tool of another provider          | loss unsupported_tool                                  |
//
// Consecutive function tools go back as one `functionDeclarations` object.
//
// For the gate (readGeminiRequestTools): a declaration whose schema does not
// translate whole is not taken but named, with its calls refused; mode NONE
// allows no function even beside allowedFunctionNames; a mode or a list that
// cannot be read allows no function. A field given in both spellings
// (`toolConfig` and `tool_config`) is read neither way: a reader of either sees
// its own, so the choice allows no function, the declarations no tool. So is
// `tools` or `toolConfig` given both at the top of the body and in its
// `config`, where the google-genai SDKs take them. Another envelope's choice
// member (`tool_choice`, a Bedrock `toolChoice` in the toolConfig) allows no
// function, and its list of tools (Chat's `functions`, a Bedrock `tools` in the
// toolConfig) refuses the names it writes: Gemini passes them over, a reader of
// their own envelope's form does not.
import type { Converted, Loss } from "../../src/models/loss.js";
import type { FunctionToolParam, ToolChoiceParam } from "../../src/models/open-responses.js";
import { carryFields, givenTwice, isPresent, isRecord, lossAt, ownExtensionType, PREFIX, read, restoreFields, snakeOf, spelled, TARGET, typeOf, type Fields, type Spelling } from "./fields.js";
import type { ToolsReading } from "../index.js";
import { foreignLimitParts, type OwnLimitMembers } from "../../src/models/foreign-limits.js";
import { schemaGivenTwice } from "../../src/models/schema-fields.js";
import { jsonSchemaOfGemini } from "./schema.js";

export type ExtensionTool = { type: string; [key: string]: unknown };

const FUNCTION_FIELDS = ["type", "name", "description", "parameters", "strict", `${PREFIX}spelling`, `${PREFIX}parameters`, `${PREFIX}parametersKey`];
/** The fields a declaration gives its parameters' schema in; given all null, the first is read (as no parameters). */
const SCHEMA_FIELDS = ["parametersJsonSchema", "parameters_json_schema", "parameters"];
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
      // Gemini takes one schema a declaration, in one field: given two ways, each
      // reader would take its own, and the API refuses the declaration.
      const schemaFields = ["parameters", "parametersJsonSchema", "parameters_json_schema"].filter((key) => isPresent(declaration[key]));
      if (schemaFields.length > 1) {
        losses.push(lossAt(at, "unsupported_tool", `the declaration of "${declaration.name}" gives its parameters twice (${schemaFields.join(" and ")}): Gemini takes one, and two readers could each take another`));
        return;
      }
      const fn: Fields = { type: "function", name: declaration.name };
      if (declaration.description !== undefined) fn.description = declaration.description;
      // Protobuf's JSON, which Gemini reads, takes a field given null for one not
      // given: beside a schema in another field, a null one is not the schema.
      const schemaKey = schemaFields[0] ?? SCHEMA_FIELDS.find((key) => declaration[key] !== undefined);
      if (schemaKey === "parameters") {
        fn.parameters = jsonSchemaOfGemini(declaration.parameters, [...at, "parameters"], losses);
        fn[`${PREFIX}parameters`] = declaration.parameters;
      } else if (schemaKey !== undefined) {
        fn.parameters = declaration[schemaKey];
        if (schemaKey === "parameters_json_schema") fn[`${PREFIX}parametersKey`] = schemaKey;
      }
      if (declarations.spelling === "snake") fn[`${PREFIX}spelling`] = "snake";
      carryFields(declaration, ["name", "description", "parameters", schemaKey ?? "parametersJsonSchema"], fn);
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
  // A field in both spellings is a choice read two ways: none allows no call, which each reading's calls then are not.
  const twice: string[][] = [];
  if (givenTwice(config, "functionCallingConfig")) twice.push([snakeOf("functionCallingConfig")]);
  if (givenTwice(calling.value, "allowedFunctionNames")) twice.push([calling.key, snakeOf("allowedFunctionNames")]);
  if (twice.length > 0) {
    for (const path of twice) losses.push(lossAt(path, "unsupported_field", `${path.at(-1)} is given in both spellings, which a reader of either reads its own way: tool_choice "none" written`));
    if (calling.value.mode === "VALIDATED" || (typeof calling.value.mode === "string" && !(calling.value.mode in MODES))) kept[`${PREFIX}mode`] = calling.value.mode;
    return { value: { toolChoice: "none", kept }, losses };
  }
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
  if (Array.isArray(allowed) && allowed.length > 0 && choice === "none") {
    // NONE allows no call whatever the list says: an allowed_tools choice would allow the names.
    losses.push(lossAt([calling.key, read(calling.value, "allowedFunctionNames").key], "unsupported_field", 'allowedFunctionNames beside mode NONE: tool_choice "none" written, the names dropped'));
  } else if (Array.isArray(allowed) && allowed.length > 0) {
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

/**
 * The members of a Gemini body that define its tools and say which may run, at
 * its top and in a google-genai SDK's config, in either spelling: a tool_choice
 * or functions beside them, or a Bedrock toolChoice or tools in the toolConfig,
 * is another envelope's.
 */
const OWN_LIMIT_MEMBERS: OwnLimitMembers = {
  "": new Set(["tools", "toolConfig", "tool_config"]),
  config: new Set(["tools", "toolConfig", "tool_config"]),
  toolConfig: new Set(["functionCallingConfig", "function_calling_config"]),
  tool_config: new Set(["functionCallingConfig", "function_calling_config"]),
  functionCallingConfig: new Set(["allowedFunctionNames", "allowed_function_names"]),
  function_calling_config: new Set(["allowedFunctionNames", "allowed_function_names"]),
};

/**
 * A request body's tools and toolConfig as the gate reads them: each
 * declaration that converts without a loss (a `parameters` schema in Gemini's
 * dialect only when every keyword of it translates), every other part named
 * with what it restricts. `tools` written as one tool object rather than a
 * list, as older clients send it, is read as that one tool.
 */
export function readGeminiRequestTools(args: { body: Record<string, unknown> }): ToolsReading {
  const reading: ToolsReading = { tools: [], unread: [] };
  reading.unread.push(...foreignLimitParts(args.body, OWN_LIMIT_MEMBERS, TARGET));
  const toolsAt = placeOf(args.body, "tools", reading, "tools");
  if (toolsAt !== undefined) {
    const tools = read(toolsAt.record, "tools");
    const at = `${toolsAt.prefix}${tools.key}`;
    const list = isRecord(tools.value) ? [tools.value] : tools.value;
    if (isPresent(list) && !Array.isArray(list)) reading.unread.push({ path: at, detail: `tools is ${typeOf(list)}, not a list`, governs: "tools" });
    if (Array.isArray(list)) list.forEach((tool: unknown, index) => readGeminiTool(tool, Array.isArray(tools.value) ? `${at}[${index}]` : at, reading));
  }
  const configAt = placeOf(args.body, "toolConfig", reading, "choice");
  const config = configAt && readOnce(configAt.record, "toolConfig", configAt.prefix, reading, "choice");
  if (configAt && config && isPresent(config.value)) readFunctionCallingConfig(config.value, `${configAt.prefix}${config.key}`, reading);
  return reading;
}

/**
 * Where a body gives `key`: at its top, as the API takes it, or in `config`, as
 * the google-genai SDKs take it (GenerateContentConfig) and a log of the SDK's
 * call keeps it. Given in both places, it is unread with what it governs: a
 * reader of either place sees its own.
 */
function placeOf(body: Fields, key: string, reading: ToolsReading, governs: "tools" | "choice"): { record: Fields; prefix: string } | undefined {
  const config = isRecord(body.config) ? body.config : undefined;
  const inConfig = config !== undefined && isPresent(read(config, key).value);
  if (!inConfig) return { record: body, prefix: "" };
  if (!isPresent(read(body, key).value)) return { record: config, prefix: "config." };
  reading.unread.push({ path: `config.${key}`, detail: `${key} is given at the top of the body and in its config: a reader of either sees its own`, governs });
  return undefined;
}

function readGeminiTool(tool: unknown, path: string, reading: ToolsReading): void {
  if (!isRecord(tool)) {
    reading.unread.push({ path, detail: `a ${typeOf(tool)} is not a Gemini tool`, governs: "tools" });
    return;
  }
  const declarations = read(tool, "functionDeclarations");
  const twice = !readOnce(tool, "functionDeclarations", `${path}.`, reading, "tools");
  // Every other member is a hosted tool of its own (googleSearch, codeExecution…).
  for (const key of Object.keys(tool)) if (key !== declarations.key && !(twice && key === snakeOf(declarations.key))) reading.tools.push(...geminiToolsToResponses({ tools: [{ [key]: tool[key] }] }).value);
  if (declarations.value === undefined || twice) return;
  if (!Array.isArray(declarations.value)) {
    reading.unread.push({ path: `${path}.${declarations.key}`, detail: `functionDeclarations is ${typeOf(declarations.value)}, not a list`, governs: "tools" });
    return;
  }
  declarations.value.forEach((declaration: unknown, position) => {
    const converted = geminiToolsToResponses({ tools: [{ [declarations.key]: [declaration] }] });
    if (converted.losses.length === 0) {
      // Its own two schema fields are a loss of the conversion; one of another envelope beside them is read by that envelope's reader.
      const twice = schemaGivenTwice(declaration, `${path}.${declarations.key}[${position}]`);
      if (twice !== undefined) reading.unread.push(twice);
      else reading.tools.push(...converted.value);
      return;
    }
    const name = isRecord(declaration) && typeof declaration.name === "string" && declaration.name !== "" ? declaration.name : undefined;
    const detail = converted.losses.map((loss) => loss.detail).join("; ");
    reading.unread.push({ path: `${path}.${declarations.key}[${position}]`, detail, governs: name === undefined ? "tools" : { tool: name } });
  });
}

/**
 * `key` of `record` in either spelling, as `read` gives it; undefined, and the
 * field unread with what it governs, when both spellings are given: a reader
 * that takes one and a reader that takes the other see different tools.
 */
function readOnce(record: Fields, key: string, prefix: string, reading: ToolsReading, governs: "tools" | "choice"): { value: unknown; key: string } | undefined {
  if (!givenTwice(record, key)) return read(record, key);
  reading.unread.push({ path: `${prefix}${key}`, detail: `${key} is given twice, also as ${snakeOf(key)}: a reader of either spelling sees its own`, governs });
  return undefined;
}

const READ_MODES = new Set(["AUTO", "ANY", "NONE", "VALIDATED", "MODE_UNSPECIFIED"]);

/** functionCallingConfig as a tool_choice: NONE allows nothing whatever the names; names narrow in every other mode. */
function readFunctionCallingConfig(config: unknown, path: string, reading: ToolsReading): void {
  const unread = (at: string, detail: string): void => {
    reading.unread.push({ path: at, detail, governs: "choice" });
  };
  if (!isRecord(config)) return unread(path, `toolConfig is ${typeOf(config)}, not an object`);
  const calling = readOnce(config, "functionCallingConfig", `${path}.`, reading, "choice");
  if (calling === undefined || calling.value === undefined || calling.value === null) return;
  const at = `${path}.${calling.key}`;
  if (!isRecord(calling.value)) return unread(at, `functionCallingConfig is ${typeOf(calling.value)}, not an object`);
  const mode = calling.value.mode;
  if (mode !== undefined && (typeof mode !== "string" || !READ_MODES.has(mode))) return unread(`${at}.mode`, `mode ${JSON.stringify(mode)} is not one of ${[...READ_MODES].join(", ")}`);
  if (mode === "NONE") {
    reading.toolChoice = "none";
    return;
  }
  const allowed = readOnce(calling.value, "allowedFunctionNames", `${at}.`, reading, "choice");
  if (allowed === undefined) return;
  const listed = allowed.value;
  if (listed !== undefined && (!Array.isArray(listed) || !listed.every((name) => typeof name === "string" && name !== ""))) {
    return unread(`${at}.${allowed.key}`, `allowedFunctionNames must be a list of names, found ${typeOf(listed)}`);
  }
  const required = mode === "ANY" || mode === "VALIDATED";
  if (Array.isArray(listed)) reading.toolChoice = { type: "allowed_tools", mode: required ? "required" : "auto", tools: listed.map((name) => ({ type: "function", name })) };
  else reading.toolChoice = required ? "required" : "auto";
}
