// The tools a journal's calls are checked against: a JSON Schema per function
// name, and the names the `tool_choice` in force allows.
//
// | source                                                    | gives                                 |
// |-----------------------------------------------------------|---------------------------------------|
// | tools[] Chat `{type:"function", function:{name, parameters}}` | name -> parameters                 |
// | tools[] Open Responses `{type:"function", name, parameters}`  | name -> parameters                 |
// | tools[] of another kind (`web_search`, `custom`, `mcp`,   | a tool no function_call can run: a    |
// |   an extension `acme:search`)                             |   call naming it is refused, and why  |
// | legacy Chat `functions[]` `{name, parameters}`            | name -> parameters                    |
// | a function without `parameters` (or `null`)               | NO_PARAMETERS: only `{}` validates     |
// | tool_choice absent, null, "auto", "required"              | every name                            |
// | tool_choice "none"                                        | no name                               |
// | `{type:"function", name}` / `{type:"function", function:{name}}` | that name only                 |
// | allowed_tools, either form                                | its function names (mode "none": none) |
// | a hosted or custom tool choice (`{type:"file_search"}`…)  | no name: the model was forced to another tool |
// | legacy Chat `function_call` (when no tool_choice)         | "none", "auto" or `{name}` as above   |
//
// Two scopes. What is added before `pin()` (the `--tools FILE` of the gate) holds
// for the whole journal: a journal request body can neither redefine a pinned
// tool nor widen the pinned allowed set; its own choice narrows it until the next
// request body. Everything after `pin()` is the journal's: a later definition of
// a name replaces an earlier one, and each request body's choice replaces the
// previous one (a body without tool_choice means "auto").
//
// A malformed definition throws an Error naming `where` and the field; nothing
// of that tools array or request body is applied then.
import type { ToolSchema } from "./schema.js";
import { describeValue as describe, isPlainObject } from "../models/json-value.js";

/**
 * The schema of a function declared without `parameters`: it takes no
 * arguments, so only `{}` passes. Accepting anything would let a call with
 * arguments the tool never declared run unchecked.
 */
export const NO_PARAMETERS: ToolSchema = Object.freeze({ type: "object", properties: Object.freeze({}), additionalProperties: false });

interface ToolDefinition {
  name: string;
  schema: ToolSchema;
  /** Where the definition was read, for messages: `tools[2].function.name`. */
  field: string;
}

/**
 * A hosted, custom, MCP or extension tool: a tool, but one that is called
 * through items of its own (`web_search_call`, `custom_tool_call`…), never
 * through a function_call. Known by the name a call would carry: its `name`
 * when it has one (a custom tool), else its type.
 */
export interface OtherTool {
  name: string;
  type: string;
  /** Where it was read: `tools[0] of tools.json`. */
  where: string;
}

/** The names a choice allows; `undefined` allows every name. */
export interface Choice {
  names: ReadonlySet<string> | undefined;
  where: string;
}

/** What a registry holds: `ToolRegistry.data()`. */
export interface ToolRegistryData {
  schemas: ReadonlyMap<string, ToolSchema>;
  otherTools: ReadonlyMap<string, OtherTool>;
  pinnedNames: ReadonlySet<string>;
  pinnedChoice: Choice;
  choice: Choice;
}

const EVERY_NAME: Choice = { names: undefined, where: "" };
const LISTED_NAMES_IN_DETAIL = 5;

export class ToolRegistry {
  private readonly schemas = new Map<string, ToolSchema>();
  private readonly otherTools = new Map<string, OtherTool>();
  private readonly pinnedNames = new Set<string>();
  private pinnedChoice: Choice = EVERY_NAME;
  private choice: Choice = EVERY_NAME;

  /** A registry holding what `data()` gave, in this thread or another (`gate --jobs`). */
  static fromData(data: ToolRegistryData): ToolRegistry {
    const registry = new ToolRegistry();
    for (const [name, schema] of data.schemas) registry.schemas.set(name, schema);
    for (const [name, tool] of data.otherTools) registry.otherTools.set(name, tool);
    for (const name of data.pinnedNames) registry.pinnedNames.add(name);
    registry.pinnedChoice = data.pinnedChoice;
    registry.choice = data.choice;
    return registry;
  }

  /** What the registry holds, as data a thread can be sent (Maps, Sets and plain objects). */
  data(): ToolRegistryData {
    return { schemas: new Map(this.schemas), otherTools: new Map(this.otherTools), pinnedNames: new Set(this.pinnedNames), pinnedChoice: this.pinnedChoice, choice: this.choice };
  }

  /**
   * A registry built from the `--tools FILE` of the gate: a tools array in either
   * envelope, or a request body of either envelope. It is pinned.
   */
  static fromToolsFile(value: unknown, where: string): ToolRegistry {
    const registry = new ToolRegistry();
    if (Array.isArray(value)) registry.addTools(value, where);
    else if (isPlainObject(value)) registry.addRequestBody(value, where);
    else throw new Error(`${where}: expected a tools array or a request body (a JSON object), found ${describe(value)}`);
    registry.pin();
    return registry;
  }

  /** Adds the tools of a tools array, in either envelope. */
  addTools(tools: unknown, where: string): void {
    const { definitions, others } = parseTools(tools, where, "tools");
    this.define(definitions, others);
  }

  /**
   * Applies a request body of either envelope: its `tools` (and legacy
   * `functions`) are added, and its `tool_choice` (or legacy `function_call`)
   * becomes the choice in force.
   */
  addRequestBody(body: unknown, where: string): void {
    if (!isPlainObject(body)) throw new Error(`${where}: a request body must be a JSON object, found ${describe(body)}`);
    const definitions: ToolDefinition[] = [];
    const others: OtherTool[] = [];
    if (body.tools !== undefined && body.tools !== null) {
      const tools = parseTools(body.tools, where, "tools");
      definitions.push(...tools.definitions);
      others.push(...tools.others);
    }
    if (body.functions !== undefined && body.functions !== null) definitions.push(...parseLegacyFunctions(body.functions, where));
    rejectDuplicates(definitions, where);
    const hasToolChoice = body.tool_choice !== undefined && body.tool_choice !== null;
    const names = hasToolChoice
      ? parseToolChoice(body.tool_choice, where)
      : body.function_call !== undefined && body.function_call !== null
        ? parseLegacyFunctionCall(body.function_call, where)
        : undefined;
    const field = hasToolChoice ? "tool_choice" : body.function_call !== undefined && body.function_call !== null ? "function_call" : "";
    this.define(definitions, others);
    this.choice = { names, where: field ? `${field} of ${where}` : where };
  }

  /** From now on, what is defined holds for the whole journal (see the top of this file). */
  pin(): void {
    for (const name of this.names()) this.pinnedNames.add(name);
    this.pinnedChoice = this.choice;
    this.choice = EVERY_NAME;
  }

  /** The JSON Schema of a function's parameters, or `undefined` when no tool of that name is known. */
  schemaFor(name: string): ToolSchema | undefined {
    return this.schemas.get(name);
  }

  /** Whether the choices in force let a call of `name` run. */
  isAllowed(name: string): boolean {
    return this.notAllowedReason(name) === undefined;
  }

  /** Why `name` may not run, in a sentence; `undefined` when it may. */
  notAllowedReason(name: string): string | undefined {
    const other = this.schemas.has(name) ? undefined : this.otherTools.get(name);
    if (other !== undefined) return describeOtherTool(other);
    for (const choice of [this.pinnedChoice, this.choice]) {
      if (choice.names !== undefined && !choice.names.has(name)) return `${choice.where} ${describeNames(choice.names)}`;
    }
    return undefined;
  }

  /**
   * The names of the known tools: every function, then every other tool (by
   * the name its calls carry) that no function shares a name with.
   */
  names(): string[] {
    const names = [...this.schemas.keys()];
    for (const name of this.otherTools.keys()) if (!this.schemas.has(name)) names.push(name);
    return names;
  }

  /** The hosted, custom, MCP and extension tools: tools that no function_call runs. */
  others(): OtherTool[] {
    return [...this.otherTools.values()];
  }

  get size(): number {
    return this.schemas.size;
  }

  private define(definitions: readonly ToolDefinition[], others: readonly OtherTool[]): void {
    // Within one tools array a function wins over another tool of its name: a
    // function_call of that name is the function's.
    for (const tool of others) {
      if (this.pinnedNames.has(tool.name)) continue;
      this.otherTools.set(tool.name, tool);
      this.schemas.delete(tool.name);
    }
    for (const { name, schema } of definitions) {
      if (this.pinnedNames.has(name)) continue;
      this.schemas.set(name, schema);
      this.otherTools.delete(name);
    }
  }

}

function parseTools(tools: unknown, where: string, field: string): { definitions: ToolDefinition[]; others: OtherTool[] } {
  if (!Array.isArray(tools)) throw new Error(`${where}: ${field} must be an array, found ${describe(tools)}`);
  const definitions: ToolDefinition[] = [];
  const others: OtherTool[] = [];
  tools.forEach((tool, index) => {
    const at = `${field}[${index}]`;
    if (!isPlainObject(tool)) throw new Error(`${where}: ${at} must be an object, found ${describe(tool)}`);
    if (typeof tool.type !== "string" || tool.type === "") throw new Error(`${where}: ${at}.type must be a non-empty string, found ${describe(tool.type)}`);
    if (tool.type !== "function") {
      others.push({ name: otherToolName(tool, tool.type), type: tool.type, where: `${at} of ${where}` });
      return;
    }
    if (tool.function !== undefined) {
      if (!isPlainObject(tool.function)) throw new Error(`${where}: ${at}.function must be an object, found ${describe(tool.function)}`);
      definitions.push(definition(tool.function, where, `${at}.function`));
    } else {
      definitions.push(definition(tool, where, at));
    }
  });
  rejectDuplicates(definitions, where);
  return { definitions, others };
}

/** The name a call of a tool that is not a function carries: a custom tool's own name (either envelope), else its type. */
function otherToolName(tool: Record<string, unknown>, type: string): string {
  if (typeof tool.name === "string" && tool.name !== "") return tool.name;
  if (isPlainObject(tool.custom) && typeof tool.custom.name === "string" && tool.custom.name !== "") return tool.custom.name;
  return type;
}

function describeOtherTool(tool: OtherTool): string {
  const kind = tool.type === "custom" ? "a custom tool" : tool.type.includes(":") ? "an extension tool" : tool.type === "mcp" ? "an MCP tool" : "a hosted tool";
  return `${tool.where} defines it as ${kind} (type "${tool.type}"), which is called through items of its own, never through a function_call`;
}

function parseLegacyFunctions(functions: unknown, where: string): ToolDefinition[] {
  if (!Array.isArray(functions)) throw new Error(`${where}: functions must be an array, found ${describe(functions)}`);
  return functions.map((fn, index) => {
    if (!isPlainObject(fn)) throw new Error(`${where}: functions[${index}] must be an object, found ${describe(fn)}`);
    return definition(fn, where, `functions[${index}]`);
  });
}

function definition(fields: Record<string, unknown>, where: string, at: string): ToolDefinition {
  const { name, parameters } = fields;
  if (typeof name !== "string" || name === "") throw new Error(`${where}: ${at}.name must be a non-empty string, found ${describe(name)}`);
  if (parameters === undefined || parameters === null) return { name, schema: NO_PARAMETERS, field: `${at}.name` };
  if (typeof parameters !== "boolean" && !isPlainObject(parameters)) {
    throw new Error(`${where}: ${at}.parameters must be a JSON Schema (an object or a boolean), found ${describe(parameters)}`);
  }
  return { name, schema: parameters, field: `${at}.name` };
}

function rejectDuplicates(definitions: readonly ToolDefinition[], where: string): void {
  const seen = new Map<string, string>();
  for (const { name, field } of definitions) {
    const first = seen.get(name);
    if (first !== undefined) throw new Error(`${where}: ${field} defines "${name}" again (first at ${first})`);
    seen.set(name, field);
  }
}

/** The names a `tool_choice` allows, in either envelope; `undefined` allows every name. */
function parseToolChoice(choice: unknown, where: string): ReadonlySet<string> | undefined {
  if (choice === "auto" || choice === "required") return undefined;
  if (choice === "none") return new Set();
  if (typeof choice === "string") throw new Error(`${where}: tool_choice must be "none", "auto", "required" or an object, found ${describe(choice)}`);
  if (!isPlainObject(choice)) throw new Error(`${where}: tool_choice must be a string or an object, found ${describe(choice)}`);
  if (typeof choice.type !== "string") throw new Error(`${where}: tool_choice.type must be a string, found ${describe(choice.type)}`);
  if (choice.type === "function") return new Set([functionName(choice, where, "tool_choice")]);
  if (choice.type !== "allowed_tools") return new Set();
  // Chat nests the list in `allowed_tools`; Open Responses puts it on the choice.
  const holder = choice.allowed_tools !== undefined ? choice.allowed_tools : choice;
  const at = choice.allowed_tools !== undefined ? "tool_choice.allowed_tools" : "tool_choice";
  if (!isPlainObject(holder)) throw new Error(`${where}: ${at} must be an object, found ${describe(holder)}`);
  if (!Array.isArray(holder.tools)) throw new Error(`${where}: ${at}.tools must be an array, found ${describe(holder.tools)}`);
  if (holder.mode !== undefined && holder.mode !== "auto" && holder.mode !== "required" && holder.mode !== "none") {
    throw new Error(`${where}: ${at}.mode must be "auto" or "required", found ${describe(holder.mode)}`);
  }
  const names = new Set<string>();
  holder.tools.forEach((tool, index) => {
    const toolAt = `${at}.tools[${index}]`;
    if (!isPlainObject(tool)) throw new Error(`${where}: ${toolAt} must be an object, found ${describe(tool)}`);
    if (typeof tool.type !== "string") throw new Error(`${where}: ${toolAt}.type must be a string, found ${describe(tool.type)}`);
    if (tool.type === "function") names.add(functionName(tool, where, toolAt));
  });
  return holder.mode === "none" ? new Set() : names;
}

function parseLegacyFunctionCall(choice: unknown, where: string): ReadonlySet<string> | undefined {
  if (choice === "auto") return undefined;
  if (choice === "none") return new Set();
  if (isPlainObject(choice) && typeof choice.name === "string" && choice.name !== "") return new Set([choice.name]);
  throw new Error(`${where}: function_call must be "none", "auto" or {"name": …}, found ${describe(choice)}`);
}

/** The name of a function choice: `{type, name}` (Open Responses) or `{type, function:{name}}` (Chat). */
function functionName(choice: Record<string, unknown>, where: string, at: string): string {
  if (choice.function !== undefined) {
    const fn = choice.function;
    if (!isPlainObject(fn) || typeof fn.name !== "string" || fn.name === "") {
      throw new Error(`${where}: ${at}.function.name must be a non-empty string, found ${describe(isPlainObject(fn) ? fn.name : fn)}`);
    }
    return fn.name;
  }
  if (typeof choice.name !== "string" || choice.name === "") throw new Error(`${where}: ${at}.name must be a non-empty string, found ${describe(choice.name)}`);
  return choice.name;
}

function describeNames(names: ReadonlySet<string>): string {
  if (names.size === 0) return "allows no function";
  const listed = [...names].slice(0, LISTED_NAMES_IN_DETAIL).map((name) => `"${name}"`);
  const more = names.size > LISTED_NAMES_IN_DETAIL ? ` and ${names.size - LISTED_NAMES_IN_DETAIL} more` : "";
  return `allows only ${listed.join(", ")}${more}`;
}

