// Tool definitions and tool_choice, both ways. Paths are relative to the
// `tools` array or the `tool_choice` value; the body converters prefix them.
//
// | Anthropic                                  | Open Responses                                        |
// |--------------------------------------------|-------------------------------------------------------|
// | custom tool {name, description,            | function tool {name, description, parameters, strict} |
// |   input_schema, strict}                    |                                                       |
// |   cache_control, defer_loading, type…      |   `anthropic:<field>` (fields.ts)                     |
// | server tool {type: web_search_20250305…}   | extension tool `anthropic:<type>` holding every field |
// | (back) function tool without parameters   | input_schema {type: "object", properties: {}}: loss synthesized |
// | (back) another provider's tool             | loss unsupported_tool                                 |
// | tool_choice auto / any / none              | "auto" / "required" / "none"                          |
// | tool_choice tool {name}                    | {type: "function", name}                              |
// | disable_parallel_tool_use                  | parallel_tool_calls, negated                          |
// | (back) allowed_tools                       | the body writes the tools it allows (tools-limit.ts)  |
// | (back) parallel_tool_calls false without   | {type: "auto", disable_parallel_tool_use: true}: loss |
// |   tool_choice                              |   synthesized                                         |
// | (back) parallel_tool_calls true without    | omitted (Anthropic's default): loss form_changed      |
// |   tool_choice, or beside "none"            |                                                       |
// | (for the gate) a tool or tool_choice that  | not taken: named as unread, with what it restricts    |
// |   converts with a loss                     |                                                       |
// | (for the gate) another envelope's choice   | the choice unread: no function may run                |
// |   member (toolConfig, function_call…)      |                                                       |
// | (for the gate) another envelope's list of  | the names it writes refused (none: only the functions |
// |   tools (functions)                        |   read here may run)                                  |
import type { Converted, Loss } from "../../src/models/loss.js";
import type { FunctionToolParam, ToolChoiceParam } from "../../src/models/open-responses.js";
import { refusedByUnreadEntries } from "../../src/models/written-tool-names.js";
import { foreignLimitParts, type OwnLimitMembers } from "../../src/models/foreign-limits.js";
import { schemaGivenTwice } from "../../src/models/schema-fields.js";
import { carryFields, isPresent, isRecord, lossAt, ownExtensionType, PREFIX, restoreFields, TARGET, typeOf, type Fields } from "./fields.js";
import type { ToolsReading } from "../index.js";
import type { AnthropicTool, AnthropicToolChoice } from "./models.js";

/** A tool only one provider has, kept whole under its slug: `{type: "anthropic:web_search_20250305", name, …}`. */
export type ExtensionTool = { type: string; [key: string]: unknown };

const FUNCTION_FIELDS = ["type", "name", "description", "parameters", "strict"];

export function anthropicToolsToResponses(args: { tools: readonly AnthropicTool[] }): Converted<Array<FunctionToolParam | ExtensionTool>> {
  const value: Array<FunctionToolParam | ExtensionTool> = [];
  const losses: Loss[] = [];
  args.tools.forEach((tool: unknown, index) => {
    if (!isRecord(tool) || typeof tool.name !== "string") {
      losses.push(lossAt([index], "unsupported_tool", `a tool without a name (${typeOf(tool)}) has no Open Responses form`));
      return;
    }
    const custom = tool.type === undefined || tool.type === null || tool.type === "custom";
    if (!custom && typeof tool.type === "string") {
      const { type, ...rest } = tool;
      value.push({ type: PREFIX + type, ...rest });
      return;
    }
    if (!isRecord(tool.input_schema)) losses.push(lossAt([index, "input_schema"], "target_rejects", `input_schema is ${typeOf(tool.input_schema)}: written as the parameters as it is`));
    const fn: Fields = { type: "function", name: tool.name };
    if (tool.description !== undefined) fn.description = tool.description;
    fn.parameters = tool.input_schema;
    if (tool.strict !== undefined) fn.strict = tool.strict;
    carryFields(tool, ["name", "description", "input_schema", "strict"], fn);
    value.push(fn as FunctionToolParam);
  });
  return { value, losses };
}

export function responsesToolsToAnthropic(args: { tools: ReadonlyArray<FunctionToolParam | ExtensionTool>; leftOut?: (tool: unknown) => string | undefined }): Converted<AnthropicTool[]> {
  const value: AnthropicTool[] = [];
  const losses: Loss[] = [];
  args.tools.forEach((tool: unknown, index) => {
    const leftOut = args.leftOut?.(tool);
    if (leftOut !== undefined) {
      losses.push(lossAt([index], "form_changed", leftOut));
      return;
    }
    if (!isRecord(tool)) {
      losses.push(lossAt([index], "unsupported_tool", `a ${typeOf(tool)} is not a tool`));
      return;
    }
    const own = ownExtensionType(tool.type);
    if (own !== undefined) {
      const { type: _type, ...rest } = tool;
      value.push({ type: own, ...rest } as AnthropicTool);
      return;
    }
    if (tool.type !== "function") {
      losses.push(lossAt([index], "unsupported_tool", `a tool of type ${typeOf(tool)} has no counterpart in ${TARGET}`));
      return;
    }
    const custom: Fields = { name: tool.name };
    if (typeof tool.description === "string") custom.description = tool.description;
    else if (tool.description === null) losses.push(lossAt([index, "description"], "form_changed", "description: null omitted (absent means the same)"));
    if (isPresent(tool.parameters)) custom.input_schema = tool.parameters;
    else {
      custom.input_schema = { type: "object", properties: {} };
      losses.push(lossAt(tool.parameters === null ? [index, "parameters"] : [index], "synthesized", 'Anthropic requires an input_schema: {"type":"object","properties":{}} written for a function without parameters'));
    }
    if (tool.strict !== undefined) custom.strict = tool.strict;
    restoreFields(tool, FUNCTION_FIELDS, custom, [index], losses);
    value.push(custom as AnthropicTool);
  });
  return { value, losses };
}

export interface ResponsesToolChoice {
  toolChoice?: ToolChoiceParam;
  parallelToolCalls?: boolean;
}

export function anthropicToolChoiceToResponses(args: { toolChoice: AnthropicToolChoice }): Converted<ResponsesToolChoice> {
  const choice: unknown = args.toolChoice;
  const losses: Loss[] = [];
  if (!isRecord(choice)) return { value: {}, losses: [lossAt([], "unsupported_field", `tool_choice is ${typeOf(choice)}, not an object: omitted`)] };
  const value: ResponsesToolChoice = {};
  const known = ["type", "disable_parallel_tool_use"];
  const type = (choice as AnthropicToolChoice).type;
  switch (type) {
    case "auto":
      value.toolChoice = "auto";
      break;
    case "any":
      value.toolChoice = "required";
      break;
    case "none":
      value.toolChoice = "none";
      break;
    case "tool":
      known.push("name");
      value.toolChoice = { type: "function", name: choice.name as string };
      break;
    default: {
      const unknownType: never = type;
      losses.push(lossAt(["type"], "unsupported_field", `tool_choice of type ${JSON.stringify(unknownType)} has no Open Responses counterpart: omitted`));
      return { value, losses };
    }
  }
  if (typeof choice.disable_parallel_tool_use === "boolean") value.parallelToolCalls = !choice.disable_parallel_tool_use;
  for (const key of Object.keys(choice)) {
    if (!known.includes(key) && isPresent(choice[key])) losses.push(lossAt([key], "provider_extension", `"${key}" of tool_choice has no Open Responses place`));
  }
  return { value, losses };
}

/** tool_choice and parallel_tool_calls of an Open Responses body, as one Anthropic tool_choice. Paths are from the body's root. */
export function responsesToolChoiceToAnthropic(args: ResponsesToolChoice): Converted<AnthropicToolChoice | undefined> {
  const { toolChoice, parallelToolCalls } = args;
  const losses: Loss[] = [];
  let value: Fields | undefined;
  if (typeof toolChoice === "string") {
    value = { type: toolChoice === "required" ? "any" : toolChoice };
  } else if (isRecord(toolChoice)) {
    const type: string = toolChoice.type;
    if (type === "function" && typeof toolChoice.name === "string") {
      value = { type: "tool", name: toolChoice.name };
      for (const key of Object.keys(toolChoice)) {
        if (key !== "type" && key !== "name" && isPresent(toolChoice[key])) losses.push(lossAt(["tool_choice", key], "provider_extension", `"${key}" of tool_choice has no Anthropic place`));
      }
    } else {
      const detail = type === "allowed_tools" ? "Anthropic cannot limit the tools a turn may call to some of them: tool_choice omitted" : `tool_choice of type ${JSON.stringify(type)} has no Anthropic counterpart: omitted`;
      losses.push(lossAt(["tool_choice"], "unsupported_field", detail));
    }
  } else if (toolChoice !== undefined) {
    losses.push(lossAt(["tool_choice"], "unsupported_field", `tool_choice is ${typeOf(toolChoice)}: omitted`));
  }
  if (parallelToolCalls !== undefined) {
    if (value !== undefined && value.type !== "none") value.disable_parallel_tool_use = !parallelToolCalls;
    else if (value === undefined && parallelToolCalls === false && toolChoice === undefined) {
      value = { type: "auto", disable_parallel_tool_use: true };
      losses.push(lossAt(["parallel_tool_calls"], "synthesized", 'parallel_tool_calls false written as tool_choice {"type":"auto","disable_parallel_tool_use":true}'));
    } else {
      losses.push(lossAt(["parallel_tool_calls"], "form_changed", `parallel_tool_calls ${parallelToolCalls} has no tool_choice to go on: omitted`));
    }
  }
  return { value: value as AnthropicToolChoice | undefined, losses };
}

/** The members of a Messages body that define its tools and say which may run: a Gemini toolConfig, a Chat function_call or functions beside them is another envelope's. */
const OWN_LIMIT_MEMBERS: OwnLimitMembers = { "": new Set(["tools", "tool_choice"]) };

/**
 * A request body's tools and tool_choice as the gate reads them: each tool
 * that converts without a loss, and every other part named with what it
 * restricts. A server tool (`web_search_20250305`) is a tool of its own kind,
 * never run through a function call.
 */
export function readAnthropicRequestTools(args: { body: Record<string, unknown> }): ToolsReading {
  const reading: ToolsReading = { tools: [], unread: [] };
  reading.unread.push(...foreignLimitParts(args.body, OWN_LIMIT_MEMBERS, TARGET));
  const { tools, tool_choice: toolChoice } = args.body;
  if (isPresent(tools) && !Array.isArray(tools)) reading.unread.push({ path: "tools", detail: `tools is ${typeOf(tools)}, not a list`, governs: "tools" });
  if (Array.isArray(tools)) {
    tools.forEach((tool: unknown, index) => {
      // input_schema beside another envelope's schema field: each reader takes its own.
      const twice = schemaGivenTwice(tool, `tools[${index}]`);
      if (twice !== undefined) {
        reading.unread.push(twice);
        return;
      }
      const converted = anthropicToolsToResponses({ tools: [tool as AnthropicTool] });
      if (converted.losses.length === 0) {
        reading.tools.push(...converted.value);
        return;
      }
      // An entry in another envelope's form still names its tool to a reader of that form.
      reading.unread.push(...refusedByUnreadEntries([tool], `tools[${index}]`, converted.losses.map((loss) => loss.detail).join("; ")));
    });
  }
  if (isPresent(toolChoice)) {
    const converted = anthropicToolChoiceToResponses({ toolChoice: toolChoice as AnthropicToolChoice });
    const name = isRecord(toolChoice) ? toolChoice.name : undefined;
    if (converted.losses.length > 0 || (isRecord(toolChoice) && toolChoice.type === "tool" && (typeof name !== "string" || name === ""))) {
      const detail = converted.losses.map((loss) => loss.detail).join("; ") || `a tool_choice of type "tool" names no tool (name is ${typeOf(name)})`;
      reading.unread.push({ path: "tool_choice", detail, governs: "choice" });
    } else if (converted.value.toolChoice !== undefined) reading.toolChoice = converted.value.toolChoice;
  }
  return reading;
}
