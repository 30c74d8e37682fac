// Tools, tool_choice and response_format between Chat Completions and Open
// Responses. Loss paths are relative to the value passed in ("" is the whole
// value); the body converters re-root them under `/tools`, `/tool_choice`…
//
// | Chat Completions                                         | Open Responses                                  |
// |----------------------------------------------------------|-------------------------------------------------|
// | tools[] {type:"function", function:{name, description,   | tools[] {type:"function", name, description,    |
// |   parameters, strict}}                                   |   parameters, strict} (flat)                    |
// | function.strict: null                                    | omitted (the spec's strict is a boolean): loss  |
// | (back) description / parameters: null                    | omitted (Chat has no null there): loss          |
// | tools[] {type:"custom"}                                  | loss unsupported_tool                           |
// | (back) tools[] of any other type                         | loss unsupported_tool                           |
// | legacy functions[] {name, description, parameters}       | function tools: loss form_changed               |
// | tool_choice "none" / "auto" / "required"                 | the same string                                 |
// | tool_choice "any" (Mistral)                              | "required": loss form_changed                   |
// | tool_choice {type:"function", function:{name}}           | {type:"function", name}                         |
// | tool_choice {type:"custom"}                              | omitted: loss unsupported_tool                  |
// | tool_choice {type:"allowed_tools", allowed_tools:        | {type:"allowed_tools", mode, tools:[{type:      |
// |   {mode, tools:[{type:"function", function:{name}}]}}    |   "function", name}]}; custom entries are losses |
// | (back) allowed_tools without mode                        | mode "auto": loss synthesized                   |
// | (back) allowed_tools with mode "none"                    | tool_choice "none": loss form_changed           |
// | legacy function_call "none" / "auto" / {name}            | tool_choice the same: loss form_changed         |
// | response_format {type:"text"}                            | text.format {type:"text"}                       |
// | response_format {type:"json_schema", json_schema:{name,  | text.format {type:"json_schema", name,          |
// |   description, schema, strict}}                          |   description, schema, strict} (flat)           |
// | response_format {type:"json_object"}                     | omitted (not in the spec's TextFormatParam): loss |
// | (back) text.format {type:"json_object"}                  | response_format {type:"json_object"}            |
// | (back) json_schema format without a name                 | name "response": loss synthesized               |
// Every other key of these objects is a provider field: loss provider_extension.
import type { z } from "zod";
import type {
  ChatResponseFormat,
  ChatTool,
  ChatToolChoice,
  chatFunctionToolSchema,
} from "../../src/models/chat-completions.js";
import type { Converted, Loss } from "../../src/models/loss.js";
import { pointer } from "../../src/models/json-pointer.js";
import type { FunctionToolParam, ToolChoiceParam, textFormatParamSchema } from "../../src/models/open-responses.js";
import { extraKeyLosses, isRecord } from "./params.js";
import { isTypelessFunctionTool } from "../../src/models/typeless-tool.js";

export type ChatFunctionTool = z.infer<typeof chatFunctionToolSchema>;
export type TextFormatParam = z.infer<typeof textFormatParamSchema>;
/** What an Open Responses `text.format` may hold, the response object's `json_object` included. */
export type TextFormat = TextFormatParam | { type: "json_object"; [key: string]: unknown };
/** A legacy `functions[]` entry of a Chat request. */
export interface ChatLegacyFunction {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
  [key: string]: unknown;
}

const FUNCTION_KEYS = new Set(["name", "description", "parameters", "strict"]);

// ---------------------------------------------------------------- tools

export function chatToolsToResponses(args: { tools: readonly ChatTool[] }): Converted<FunctionToolParam[]> {
  const value: FunctionToolParam[] = [];
  const losses: Loss[] = [];
  args.tools.forEach((written, index) => {
    const tool = typedTool(written, pointer(index, "type"), losses);
    switch (tool.type) {
      case "function": {
        losses.push(...extraKeyLosses(tool, new Set(["type", "function"]), pointer(index), "Open Responses"));
        value.push(flatFunction(tool.function, pointer(index, "function"), losses));
        return;
      }
      case "custom":
        losses.push({ path: pointer(index), code: "unsupported_tool", detail: `custom tool "${tool.custom.name}" has no counterpart in Open Responses` });
        return;
      default: {
        const unknown: never = tool;
        losses.push({ path: pointer(index), code: "unsupported_tool", detail: `tool of type ${describeType(unknown)} has no counterpart in Open Responses` });
      }
    }
  });
  return { value, losses };
}

/**
 * Mistral writes its function tools without a type: one that holds a function
 * object and nothing else is that function, as its API reads it.
 */
function typedTool(tool: ChatTool, typePath: string, losses: Loss[]): ChatTool {
  const fields = tool as unknown as Record<string, unknown>;
  if (!isRecord(fields) || !isTypelessFunctionTool(fields)) return tool;
  losses.push({ path: typePath, code: "synthesized", detail: 'a tool without type that holds a function object is read as a function tool ("type": "function"), as Mistral writes its tools and its API reads them' });
  return { type: "function", ...fields } as unknown as ChatTool;
}

/** The legacy `functions[]` of a Chat request, as function tools. */
export function chatFunctionsToResponses(args: { functions: readonly ChatLegacyFunction[] }): Converted<FunctionToolParam[]> {
  const losses: Loss[] = [];
  const value = args.functions.map((fn, index) => flatFunction(fn, pointer(index), losses));
  if (value.length > 0) losses.unshift({ path: "", code: "form_changed", detail: "legacy functions written as function tools" });
  return { value, losses };
}

function flatFunction(fn: Record<string, unknown> & { name: string }, path: string, losses: Loss[]): FunctionToolParam {
  const tool: FunctionToolParam = { type: "function", name: fn.name };
  if (fn.description !== undefined) tool.description = fn.description as string;
  if (fn.parameters !== undefined) tool.parameters = fn.parameters as Record<string, unknown>;
  if (fn.strict === null) losses.push({ path: path + "/strict", code: "form_changed", detail: "strict: null omitted (the spec's strict is a boolean; absent means the same)" });
  else if (fn.strict !== undefined) tool.strict = fn.strict as boolean;
  losses.push(...extraKeyLosses(fn, FUNCTION_KEYS, path, "Open Responses"));
  return tool;
}

export function responsesToolsToChat(args: { tools: readonly FunctionToolParam[] }): Converted<ChatFunctionTool[]> {
  const value: ChatFunctionTool[] = [];
  const losses: Loss[] = [];
  args.tools.forEach((tool, index) => {
    const type: string = tool.type;
    if (type !== "function") {
      losses.push({ path: pointer(index), code: "unsupported_tool", detail: `tool of type ${describeType(tool)} has no counterpart in Chat Completions` });
      return;
    }
    const fn: ChatFunctionTool["function"] = { name: tool.name };
    for (const key of ["description", "parameters"] as const) {
      if (tool[key] === null) losses.push({ path: pointer(index, key), code: "form_changed", detail: `${key}: null omitted (Chat has no null ${key}; absent means the same)` });
      else if (tool[key] !== undefined) (fn as Record<string, unknown>)[key] = tool[key];
    }
    if (tool.strict !== undefined) fn.strict = tool.strict;
    losses.push(...extraKeyLosses(tool, new Set(["type", ...FUNCTION_KEYS]), pointer(index), "Chat Completions"));
    value.push({ type: "function", function: fn });
  });
  return { value, losses };
}

// ---------------------------------------------------------------- tool_choice

export function chatToolChoiceToResponses(args: { toolChoice: ChatToolChoice }): Converted<ToolChoiceParam | undefined> {
  const choice = args.toolChoice;
  if (isMistralAny(choice)) return { value: "required", losses: [{ path: "", code: "form_changed", detail: 'tool_choice "any", Mistral\'s word for "required", read as "required", which each envelope writes in its own form' }] };
  if (typeof choice === "string") return { value: choice, losses: [] };
  const losses: Loss[] = [];
  switch (choice.type) {
    case "function":
    case "custom": {
      const named = namedChatChoice(choice, "", losses);
      return { value: named, losses };
    }
    case "allowed_tools": {
      losses.push(...extraKeyLosses(choice, new Set(["type", "allowed_tools"]), "", "Open Responses"));
      losses.push(...extraKeyLosses(choice.allowed_tools, new Set(["mode", "tools"]), "/allowed_tools", "Open Responses"));
      const tools = choice.allowed_tools.tools.flatMap((tool, index) => namedChatChoice(tool, pointer("allowed_tools", "tools", index), losses) ?? []);
      if (tools.length === 0) {
        losses.push({ path: "", code: "unsupported_tool", detail: "allowed_tools names no function tool; tool_choice omitted" });
        return { value: undefined, losses };
      }
      return { value: { type: "allowed_tools", mode: choice.allowed_tools.mode, tools }, losses };
    }
    default: {
      const unknown: never = choice;
      losses.push({ path: "", code: "unsupported_tool", detail: `tool_choice of type ${describeType(unknown)} has no counterpart in Open Responses` });
      return { value: undefined, losses };
    }
  }
}

/** Mistral's tool_choice "any": a call must come, of any function, which Chat and Open Responses say "required". */
function isMistralAny(choice: ChatToolChoice): boolean {
  return (choice as unknown) === "any";
}

type ChatNamedChoice = Extract<ChatToolChoice, { type: "function" | "custom" }>;

function namedChatChoice(choice: ChatNamedChoice, path: string, losses: Loss[]): { type: "function"; name: string } | undefined {
  switch (choice.type) {
    case "function":
      losses.push(...extraKeyLosses(choice, new Set(["type", "function"]), path, "Open Responses"));
      losses.push(...extraKeyLosses(choice.function, new Set(["name"]), path + "/function", "Open Responses"));
      return { type: "function", name: choice.function.name };
    case "custom":
      losses.push({ path, code: "unsupported_tool", detail: `custom tool "${choice.custom.name}" has no counterpart in Open Responses` });
      return undefined;
    default: {
      const unknown: never = choice;
      losses.push({ path, code: "unsupported_tool", detail: `tool of type ${describeType(unknown)} has no counterpart in Open Responses` });
      return undefined;
    }
  }
}

/** The legacy request-level `function_call` of a Chat request, as a tool_choice. */
export function chatFunctionCallToResponses(args: { functionCall: unknown }): Converted<ToolChoiceParam | undefined> {
  const choice = args.functionCall;
  if (choice === "none" || choice === "auto") {
    return { value: choice, losses: [{ path: "", code: "form_changed", detail: "legacy function_call written as tool_choice" }] };
  }
  if (isRecord(choice) && typeof choice.name === "string") {
    return {
      value: { type: "function", name: choice.name },
      losses: [{ path: "", code: "form_changed", detail: "legacy function_call written as tool_choice" }, ...extraKeyLosses(choice, new Set(["name"]), "", "Open Responses")],
    };
  }
  return { value: undefined, losses: [{ path: "", code: "unsupported_field", detail: "legacy function_call is neither \"none\", \"auto\" nor {name}" }] };
}

export function responsesToolChoiceToChat(args: { toolChoice: ToolChoiceParam }): Converted<ChatToolChoice | undefined> {
  const choice = args.toolChoice;
  if (typeof choice === "string") return { value: choice, losses: [] };
  const losses: Loss[] = [];
  switch (choice.type) {
    case "function":
      losses.push(...extraKeyLosses(choice, new Set(["type", "name"]), "", "Chat Completions"));
      return { value: { type: "function", function: { name: choice.name } }, losses };
    case "allowed_tools": {
      losses.push(...extraKeyLosses(choice, new Set(["type", "mode", "tools"]), "", "Chat Completions"));
      const tools: Array<{ type: "function"; function: { name: string } }> = [];
      choice.tools.forEach((tool, index) => {
        const type: string = tool.type;
        if (type !== "function" || typeof tool.name !== "string") {
          losses.push({ path: pointer("tools", index), code: "unsupported_tool", detail: `allowed tool of type ${describeType(tool)} has no counterpart in Chat Completions` });
          return;
        }
        losses.push(...extraKeyLosses(tool, new Set(["type", "name"]), pointer("tools", index), "Chat Completions"));
        tools.push({ type: "function", function: { name: tool.name } });
      });
      if (choice.mode === "none") {
        losses.push({ path: "/mode", code: "form_changed", detail: "allowed_tools with mode none written as tool_choice \"none\"" });
        return { value: "none", losses };
      }
      if (tools.length === 0) {
        losses.push({ path: "", code: "unsupported_tool", detail: "allowed_tools names no function tool; tool_choice omitted" });
        return { value: undefined, losses };
      }
      let mode = choice.mode;
      if (mode === undefined) {
        mode = "auto";
        losses.push({ path: "", code: "synthesized", detail: "allowed_tools without mode: Chat requires one, \"auto\" written" });
      }
      return { value: { type: "allowed_tools", allowed_tools: { mode, tools } }, losses };
    }
    default: {
      const unknown: never = choice;
      losses.push({ path: "", code: "unsupported_tool", detail: `tool_choice of type ${describeType(unknown)} has no counterpart in Chat Completions` });
      return { value: undefined, losses };
    }
  }
}

// ---------------------------------------------------------------- response_format ⇄ text.format

export function responseFormatToTextFormat(args: { responseFormat: ChatResponseFormat }): Converted<TextFormatParam | undefined> {
  const format = args.responseFormat;
  const losses: Loss[] = [];
  switch (format.type) {
    case "text":
      losses.push(...extraKeyLosses(format, new Set(["type"]), "", "Open Responses"));
      return { value: { type: "text" }, losses };
    case "json_object":
      losses.push({ path: "", code: "unsupported_field", detail: "response_format json_object has no counterpart in the spec's text.format (only text and json_schema)" });
      return { value: undefined, losses };
    case "json_schema": {
      losses.push(...extraKeyLosses(format, new Set(["type", "json_schema"]), "", "Open Responses"));
      const { json_schema: schema } = format;
      const flat: TextFormatParam = { type: "json_schema", name: schema.name };
      if (schema.description !== undefined) flat.description = schema.description;
      if (schema.schema !== undefined) flat.schema = schema.schema;
      if (schema.strict !== undefined) flat.strict = schema.strict;
      losses.push(...extraKeyLosses(schema, new Set(["name", "description", "schema", "strict"]), "/json_schema", "Open Responses"));
      return { value: flat, losses };
    }
    default: {
      const unknown: never = format;
      losses.push({ path: "", code: "unsupported_field", detail: `response_format of type ${describeType(unknown)} has no counterpart in Open Responses` });
      return { value: undefined, losses };
    }
  }
}

export function textFormatToResponseFormat(args: { format: TextFormat }): Converted<ChatResponseFormat | undefined> {
  const format = args.format;
  const losses: Loss[] = [];
  // The spec lets a json_schema format leave out its `type`.
  const type = format.type ?? "json_schema";
  switch (type) {
    case "text":
    case "json_object":
      losses.push(...extraKeyLosses(format, new Set(["type"]), "", "Chat Completions"));
      return { value: { type }, losses };
    case "json_schema": {
      const flat = format as Exclude<TextFormatParam, { type: "text" }>;
      losses.push(...extraKeyLosses(flat, new Set(["type", "name", "description", "schema", "strict"]), "", "Chat Completions"));
      let name = flat.name;
      if (name === undefined) {
        name = "response";
        losses.push({ path: "", code: "synthesized", detail: "json_schema format without a name: Chat requires one, \"response\" written" });
      }
      const schema: Extract<ChatResponseFormat, { type: "json_schema" }>["json_schema"] = { name };
      if (flat.description !== undefined) schema.description = flat.description;
      if (flat.schema !== undefined) schema.schema = flat.schema;
      if (flat.strict !== undefined) schema.strict = flat.strict;
      return { value: { type: "json_schema", json_schema: schema }, losses };
    }
    default: {
      const unknown: never = type;
      losses.push({ path: "", code: "unsupported_field", detail: `text.format of type ${JSON.stringify(unknown)} has no counterpart in Chat Completions` });
      return { value: undefined, losses };
    }
  }
}

function describeType(value: unknown): string {
  return isRecord(value) ? JSON.stringify(value.type) : typeof value;
}
