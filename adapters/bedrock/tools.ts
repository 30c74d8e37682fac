// Tool definitions and toolChoice, both ways. Paths are relative to the `tools`
// array or the `toolChoice` value; the body converters prefix them.
//
// | Bedrock                                    | Open Responses                                        |
// |--------------------------------------------|-------------------------------------------------------|
// | toolSpec {name, description, inputSchema   | function tool {name, description, parameters, strict} |
// |   {json}, strict}                          |                                                       |
// |   any other field of toolSpec              |   `bedrock:<field>` (fields.ts)                       |
// | systemTool {name}, any other tool kind     | extension tool `{type: "bedrock:<kind>", <kind>: …}`   |
// | cachePoint after a tool                    | `bedrock:cachePoint` on that tool                     |
// | (back) another provider's tool             | loss unsupported_tool                                 |
// | toolChoice {auto} / {any}                  | "auto" / "required"                                   |
// | toolChoice {tool {name}}                   | {type: "function", name}                              |
// | (back) "none"                              | no toolChoice: loss (Bedrock has no way to forbid calls but to send no tools) |
// | (back) allowed_tools, "none"               | the body writes the tools they allow (tools-limit.ts) |
// | (for the gate) a tool or toolChoice that   | not taken: named as unread, with what it restricts    |
// |   converts with a loss                     |                                                       |
// | (for the gate) another envelope's choice   | the choice unread: no function may run                |
// |   member (tool_choice, functionCallingConfig…) |                                                   |
// | (for the gate) another envelope's list of  | the names it writes refused (none: only the functions |
// |   tools (tools beside toolConfig, functions) |   read here may run)                                |
// | (for the gate) additionalModelRequestFields | Claude's own choice, which Bedrock hands to the model: |
// |   .tool_choice {type: auto / any}          |   every name (its disable_parallel_tool_use is read   |
// |                                            |   by one-call-flag.ts)                                |
// |   {type: "none"} / {type: "tool", name}    |   "none" / that function, beside toolConfig's choice  |
// |   any other form                           |   the choice unread: no function may run              |
// |   other limits there (tools, toolChoice…)  |   as another envelope's members, above                |
import type { Converted, Loss } from "../../src/models/loss.js";
import type { FunctionToolParam, ToolChoiceParam } from "../../src/models/open-responses.js";
import { refusedByUnreadEntries } from "../../src/models/written-tool-names.js";
import { foreignLimitParts, type OwnLimitMembers } from "../../src/models/foreign-limits.js";
import { PASSED_TO_MODEL } from "../../src/models/passed-through.js";
import { schemaGivenTwice } from "../../src/models/schema-fields.js";
import { blockKind, CACHE_POINT, carryFields, isPresent, isRecord, lossAt, ownExtensionType, PREFIX, restoreFields, TARGET, typeOf, type Fields } from "./fields.js";
import type { ToolsReading } from "../index.js";
import type { BedrockTool, BedrockToolChoice } from "./models.js";

/** A tool only one provider has, kept whole under its slug: `{type: "bedrock:systemTool", systemTool: {name}}`. */
export type ExtensionTool = { type: string; [key: string]: unknown };

const FUNCTION_FIELDS = ["type", "name", "description", "parameters", "strict"];

export function bedrockToolsToResponses(args: { tools: readonly BedrockTool[] }): Converted<Array<FunctionToolParam | ExtensionTool>> {
  const value: Fields[] = [];
  const losses: Loss[] = [];
  args.tools.forEach((tool: unknown, index) => {
    const kind = isRecord(tool) ? blockKind(tool) : undefined;
    if (!isRecord(tool) || kind === undefined) {
      losses.push(lossAt([index], "unsupported_tool", `a ${typeOf(tool)} is not a tool of one member`));
      return;
    }
    const inner = tool[kind];
    if (kind === "cachePoint") {
      const previous = value[value.length - 1];
      if (previous && !(CACHE_POINT in previous)) previous[CACHE_POINT] = inner;
      else losses.push(lossAt([index], "unsupported_tool", "a cachePoint that follows no tool is not kept"));
      return;
    }
    if (kind !== "toolSpec" || !isRecord(inner) || typeof inner.name !== "string") {
      value.push({ type: PREFIX + kind, [kind]: inner });
      return;
    }
    const schema = isRecord(inner.inputSchema) ? inner.inputSchema.json : undefined;
    if (!isRecord(schema)) losses.push(lossAt([index, kind, "inputSchema"], "target_rejects", `inputSchema.json is ${typeOf(schema)}: written as the parameters as it is`));
    // inputSchema is a union of one member: another beside json is a schema a
    // reader of that member would take instead, and the function keeps json's.
    if (isRecord(inner.inputSchema)) {
      for (const member of Object.keys(inner.inputSchema)) {
        if (member !== "json") losses.push(lossAt([index, kind, "inputSchema", member], "unsupported_field", `inputSchema.${member} beside json is not kept: the parameters are json's`));
      }
    }
    const fn: Fields = { type: "function", name: inner.name };
    if (inner.description !== undefined) fn.description = inner.description;
    fn.parameters = schema;
    if (inner.strict !== undefined) fn.strict = inner.strict;
    carryFields(inner, ["name", "description", "inputSchema", "strict"], fn);
    value.push(fn);
  });
  return { value: value as Array<FunctionToolParam | ExtensionTool>, losses };
}

export function responsesToolsToBedrock(args: { tools: ReadonlyArray<FunctionToolParam | ExtensionTool>; leftOut?: (tool: unknown) => string | undefined }): Converted<BedrockTool[]> {
  const value: Fields[] = [];
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
      value.push(rest);
      return;
    }
    if (tool.type !== "function" || typeof tool.name !== "string") {
      losses.push(lossAt([index], "unsupported_tool", `a ${typeOf(tool)} tool has no ${TARGET} form`));
      return;
    }
    const toolSpec: Fields = { name: tool.name };
    if (isPresent(tool.description)) toolSpec.description = tool.description;
    let schema = tool.parameters;
    if (!isPresent(schema)) {
      schema = { type: "object", properties: {} };
      losses.push(lossAt([index], "synthesized", `${TARGET} requires an inputSchema: an empty object schema written`));
    }
    toolSpec.inputSchema = { json: schema };
    if (isPresent(tool.strict)) toolSpec.strict = tool.strict;
    restoreFields(tool, FUNCTION_FIELDS, toolSpec, [index], losses);
    value.push({ toolSpec });
    if (isRecord(tool[CACHE_POINT])) value.push({ cachePoint: tool[CACHE_POINT] });
  });
  return { value: value as BedrockTool[], losses };
}

export function bedrockToolChoiceToResponses(args: { toolChoice: BedrockToolChoice }): Converted<ToolChoiceParam | undefined> {
  const choice: unknown = args.toolChoice;
  const kind = isRecord(choice) ? blockKind(choice) : undefined;
  const inner = isRecord(choice) && kind !== undefined ? choice[kind] : undefined;
  switch (kind) {
    case "auto":
      return { value: "auto", losses: [] };
    case "any":
      return { value: "required", losses: [] };
    case "tool":
      if (isRecord(inner) && typeof inner.name === "string") return { value: { type: "function", name: inner.name }, losses: [] };
      return { value: undefined, losses: [lossAt(["tool"], "unsupported_field", "a toolChoice tool without a name names no function")] };
    default:
      return { value: undefined, losses: [lossAt([], "unsupported_field", `a toolChoice ${typeOf(choice)} has no Open Responses form`)] };
  }
}

export function responsesToolChoiceToBedrock(args: { toolChoice: ToolChoiceParam }): Converted<BedrockToolChoice | undefined> {
  const choice: unknown = args.toolChoice;
  if (choice === "auto") return { value: { auto: {} }, losses: [] };
  if (choice === "required") return { value: { any: {} }, losses: [] };
  if (choice === "none") return { value: undefined, losses: [lossAt([], "unsupported_field", `${TARGET} cannot forbid tool calls while it has tools: no toolChoice written`)] };
  if (isRecord(choice) && choice.type === "function" && typeof choice.name === "string") return { value: { tool: { name: choice.name } }, losses: [] };
  return { value: undefined, losses: [lossAt([], "unsupported_field", `a tool_choice ${typeOf(choice)} has no ${TARGET} form: no toolChoice written`)] };
}

/**
 * The members of a Converse body that define its tools and say which may run: a
 * tool_choice or tools beside the toolConfig, or a functionCallingConfig in it,
 * is another envelope's; Claude's tool_choice in additionalModelRequestFields is
 * read here (passedChoices).
 */
const OWN_LIMIT_MEMBERS: OwnLimitMembers = {
  "": new Set(["toolConfig"]),
  toolConfig: new Set(["tools", "toolChoice"]),
  ...Object.fromEntries([...PASSED_TO_MODEL].map((holder) => [holder, new Set(["tool_choice"])])),
};

// Claude's tool_choice types that let every tool be called, as Anthropic defines them.
const EVERY_TOOL = new Set(["auto", "any"]);
// The members of Claude's tool_choice, beside which anything else is a form not known here.
const CLAUDE_CHOICE_MEMBERS = new Set(["type", "name", "disable_parallel_tool_use"]);

/**
 * A request body's toolConfig as the gate reads it: each toolSpec that
 * converts without a loss, every other part named with what it restricts. A
 * cachePoint restricts nothing; a systemTool is a tool of its own kind, never
 * run through a function call.
 */
export function readBedrockRequestTools(args: { body: Record<string, unknown> }): ToolsReading {
  const reading: ToolsReading = { tools: [], unread: [] };
  reading.unread.push(...foreignLimitParts(args.body, OWN_LIMIT_MEMBERS, TARGET));
  const config = args.body.toolConfig;
  if (!isPresent(config)) return reading;
  if (!isRecord(config)) {
    const detail = `toolConfig is ${typeOf(config)}, not an object`;
    reading.unread.push({ path: "toolConfig", detail, governs: "tools" }, { path: "toolConfig", detail, governs: "choice" });
    return reading;
  }
  const { tools, toolChoice } = config;
  if (isPresent(tools) && !Array.isArray(tools)) reading.unread.push({ path: "toolConfig.tools", detail: `tools is ${typeOf(tools)}, not a list`, governs: "tools" });
  if (Array.isArray(tools)) {
    tools.forEach((tool: unknown, index) => {
      const kind = isRecord(tool) ? blockKind(tool) : undefined;
      if (kind === "cachePoint") return;
      const spec = isRecord(tool) && kind === "toolSpec" && isRecord(tool.toolSpec) ? tool.toolSpec : undefined;
      const name = spec !== undefined && typeof spec.name === "string" && spec.name !== "" ? spec.name : undefined;
      // inputSchema beside another envelope's schema field: each reader takes its own.
      const twice = schemaGivenTwice(spec, `toolConfig.tools[${index}]`);
      if (twice !== undefined) {
        reading.unread.push(twice);
        return;
      }
      const converted = bedrockToolsToResponses({ tools: [tool as BedrockTool] });
      if (converted.losses.length === 0 && (kind !== "toolSpec" || name !== undefined)) {
        reading.tools.push(...converted.value);
        return;
      }
      const detail = converted.losses.map((loss) => loss.detail).join("; ") || "a toolSpec without a name names no tool";
      // An entry in another envelope's form (a Chat `function`, an Anthropic `name`) still names its tool to a reader of that form.
      reading.unread.push(...refusedByUnreadEntries([tool], `toolConfig.tools[${index}]`, detail));
    });
  }
  if (isPresent(toolChoice)) {
    const converted = bedrockToolChoiceToResponses({ toolChoice: toolChoice as BedrockToolChoice });
    if (!isRecord(toolChoice) || blockKind(toolChoice) === undefined) {
      reading.unread.push({ path: "toolConfig.toolChoice", detail: `toolChoice must hold exactly one of auto, any and tool, found ${isRecord(toolChoice) ? Object.keys(toolChoice).join(", ") || "none" : typeOf(toolChoice)}`, governs: "choice" });
    } else if (converted.losses.length > 0) reading.unread.push({ path: "toolConfig.toolChoice", detail: converted.losses.map((loss) => loss.detail).join("; "), governs: "choice" });
    else reading.toolChoice = converted.value;
  }
  passedChoices(args.body, reading);
  return reading;
}

/**
 * Claude's own tool_choice in additionalModelRequestFields, which Bedrock hands
 * to the model as it is: the model's calls must meet it beside toolConfig's
 * choice. One that forbids calls or names a tool narrows the reading's choice;
 * one that names another tool than toolConfig's, or is of a form not known
 * here, is unread, and no function may run.
 */
function passedChoices(body: Record<string, unknown>, reading: ToolsReading): void {
  for (const holder of PASSED_TO_MODEL) {
    const fields = Object.hasOwn(body, holder) ? body[holder] : undefined;
    if (!isRecord(fields) || !isPresent(fields.tool_choice)) continue;
    const path = `${holder}.tool_choice`;
    const choice = fields.tool_choice;
    const unknown = isRecord(choice) ? Object.keys(choice).filter((key) => !CLAUDE_CHOICE_MEMBERS.has(key)) : [];
    const type = isRecord(choice) ? choice.type : undefined;
    const name = isRecord(choice) ? choice.name : undefined;
    const handed = `Bedrock hands it to the model as it is, and Claude reads it as its own tool_choice`;
    if (!isRecord(choice) || unknown.length > 0 || typeof type !== "string" || (type !== "tool" && isPresent(name))) {
      const found = !isRecord(choice) ? typeOf(choice) : unknown.length > 0 ? `one with ${unknown.join(", ")}` : `one of type ${typeOf(type)}${isPresent(name) ? " with a name" : ""}`;
      reading.unread.push({ path, detail: `${handed}, and it is not of a form read here (found ${found})`, governs: "choice" });
      continue;
    }
    if (EVERY_TOOL.has(type)) continue;
    if (type === "none") reading.toolChoice = "none";
    else if (type === "tool" && typeof name === "string" && name !== "") {
      const before: unknown = reading.toolChoice;
      const other = isRecord(before) && before.type === "function" && before.name !== name;
      if (other) reading.unread.push({ path, detail: `${handed}, and it names the tool ${JSON.stringify(name)} where toolConfig.toolChoice names another: a reader of either runs what the other forbids`, governs: "choice" });
      else if (before !== "none") reading.toolChoice = { type: "function", name };
    } else reading.unread.push({ path, detail: `${handed}, and ${type === "tool" ? "it names no tool" : `its type ${JSON.stringify(type)} is none Claude defines`}`, governs: "choice" });
  }
}
