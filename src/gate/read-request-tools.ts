// What a request body (or a tools file) says of its tools, in either envelope,
// read as far as it can be read. Nothing here throws: each part that cannot be
// read is a problem (a sentence naming `where` and the field), and the reader
// says what that part governed, so that the registry refuses those calls rather
// than forget a restriction it could not read.
//
// | part that cannot be read                                  | what it still says                        |
// |-----------------------------------------------------------|-------------------------------------------|
// | a definition whose name can be read (bad `parameters`,    | that name: its calls are refused          |
// |   no type, a name defined twice, a name a tool of another |                                           |
// |   kind in the same list writes too)                       |                                           |
// | a definition with no name that can be read, or `tools`    | some tool, unknown: only the functions    |
// |   (or `functions`) that is not an array                   |   read here may run under this body       |
// | an entry of `allowed_tools`                               | nothing: the names read are allowed       |
// | `tool_choice` or `function_call`, or an allowed_tools     | a narrowing, unknown: no function may run |
// |   `mode` or list                                          |                                           |
//
// A body of another envelope (Anthropic, Gemini, Bedrock) is read by the
// `EnvelopeToolsReader` its caller hands over, since the gate imports no
// adapter: it gives the tools and choice as Open Responses ones, and names each
// part it could not take with what that part restricts, which the table above
// then applies.
import type { ToolSchema } from "./schema.js";
import type { InexactSchemaNumber } from "../journal/inexact-numbers.js";
import { shownLiteral } from "../models/decimal-value.js";
import { describeValue as describe, isPlainObject } from "../models/json-value.js";
import { describeLimitSpelledOtherwise, limitSpelledOtherwise } from "../models/limit-spelled-otherwise.js";
import { isTypelessFunctionTool } from "../models/typeless-tool.js";
import { writtenToolNames } from "../models/written-tool-names.js";
import { describeSchemaGivenTwice, SCHEMA_FIELDS, schemaFieldsGiven } from "../models/schema-fields.js";
import { foreignLimitParts, type ForeignLimitPart, type OwnLimitMembers } from "../models/foreign-limits.js";
import { NO_NAME, readLegacyFunctionCall, readToolChoice, sameAllowance, type ChoiceRead } from "./read-tool-choice.js";

/**
 * The schema of a function declared without `parameters`: it takes no
 * arguments, so only `{}` passes. Accepting anything would let a call with
 * arguments the tool never declared run unchecked.
 */
export const NO_PARAMETERS: ToolSchema = Object.freeze({ type: "object", properties: Object.freeze({}), additionalProperties: false });

export interface FunctionDefinition {
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

export interface ToolsRead {
  functions: FunctionDefinition[];
  others: OtherTool[];
  /** Names whose definition here cannot be read, each with why, in a sentence: their calls are refused. */
  unreadable: Map<string, string>;
  /** Some definition here names no tool that can be read, or the list is no array: which tools the body defines is not known. */
  unknownTools: boolean;
  choice: ChoiceRead;
  problems: string[];
}

/** What an envelope's reader gives: its tools and choice in Open Responses form, and the parts it could not take. */
export interface EnvelopeTools {
  /** The envelope's name, for messages. */
  envelope: string;
  tools: unknown[];
  toolChoice?: unknown;
  unread: Array<{ path: string; detail: string; governs: { tool: string } | "tools" | "choice" }>;
}

/**
 * Reads the tools of a request body (or of a tools file: a tools array, a
 * body) of an envelope the gate does not know; `undefined` for one of none (a
 * Chat or Open Responses body, read here).
 */
export type EnvelopeToolsReader = (body: unknown) => EnvelopeTools | undefined;

const EVERY_NAME: ChoiceRead = { names: undefined, field: "", whole: true };

/**
 * A request body's `tools` and legacy `functions`, and its `tool_choice` or
 * legacy `function_call`. `numbers`: those of the body's line that a schema
 * judges by and a double reads as others (the body parsed holds only the
 * doubles); a definition that holds one is refused.
 */
export function readRequestTools(body: Record<string, unknown>, where: string, readEnvelope?: EnvelopeToolsReader, numbers?: readonly InexactSchemaNumber[]): ToolsRead {
  const read = readBodyTools(body, where, readEnvelope);
  if (numbers !== undefined) for (const number of numbers) refuseInexactDefinition(read, body, number, where);
  return read;
}

function readBodyTools(body: Record<string, unknown>, where: string, readEnvelope?: EnvelopeToolsReader): ToolsRead {
  const read = readBodyToolsAsSpelled(body, where, readEnvelope);
  const misspelled = limitSpelledOtherwise(body);
  if (misspelled !== undefined) {
    read.problems.push(`${where}: ${describeLimitSpelledOtherwise(misspelled, "request")}`);
    read.choice = { names: NO_NAME, field: misspelled.path, whole: false };
  }
  return read;
}

function readBodyToolsAsSpelled(body: Record<string, unknown>, where: string, readEnvelope?: EnvelopeToolsReader): ToolsRead {
  const foreign = readEnvelope?.(body);
  if (foreign !== undefined) return readConvertedTools(foreign, where);
  const read = emptyRead();
  if (present(body.tools)) readTools(body.tools, where, "tools", read);
  if (present(body.functions)) readLegacyFunctions(body.functions, where, read);
  settleDuplicates(read, where);
  if (present(body.tool_choice)) read.choice = readToolChoice(body.tool_choice, where, read.problems);
  if (present(body.function_call)) {
    const legacy = readLegacyFunctionCall(body.function_call, where, read.problems);
    // Both, allowing other calls: a reader of either runs what the other forbids.
    if (present(body.tool_choice) && !sameAllowance(read.choice, legacy)) {
      read.problems.push(`${where}: tool_choice and the legacy function_call allow other calls, which two readers would read apart`);
      read.choice = { names: NO_NAME, field: "tool_choice", whole: false };
    } else if (!present(body.tool_choice)) read.choice = legacy;
  }
  // Gemini and Bedrock give their choice in a toolConfig: one that no envelope's
  // reader took may forbid calls (Gemini's mode NONE) in a way not read here.
  // Applied last, since a tool_choice beside it allows what it may forbid.
  const toolConfig = toolConfigField(body);
  if (toolConfig !== undefined) {
    read.problems.push(`${where}: ${toolConfig} is read by no envelope's reader here, so the choice it may make cannot be known`);
    read.choice = { names: NO_NAME, field: toolConfig, whole: false };
  } else for (const part of foreignLimitParts(body, OWN_LIMIT_MEMBERS, "a Chat or Open Responses reader")) refuseForeignPart(read, part, where);
  return read;
}

/**
 * The members of a Chat or Open Responses body that define its tools and say
 * which may run; a toolConfig, in either spelling and in a `config`, is read
 * above. Another choice member (`toolChoice`, `allowedFunctionNames`) limits
 * the calls to a reader of the form it is written in.
 */
const OWN_LIMIT_MEMBERS: OwnLimitMembers = { "": new Set(["tools", "functions", "tool_choice", "function_call", "toolConfig", "tool_config"]), config: new Set(["toolConfig", "tool_config"]) };

/** Applies a member this body's readers pass over as the table at the top says of a part that cannot be read. */
function refuseForeignPart(read: ToolsRead, part: ForeignLimitPart, where: string): void {
  read.problems.push(`${where}: ${part.path} of the request cannot be read: ${part.detail}`);
  const { governs } = part;
  if (governs === "choice") read.choice = { names: NO_NAME, field: part.path, whole: false };
  else if (governs === "tools") read.unknownTools = true;
  else {
    read.functions = read.functions.filter(({ name }) => name !== governs.tool);
    read.unreadable.set(governs.tool, `${part.path} of ${where} defines it in a form that cannot be read`);
  }
}

/**
 * Where `fields` gives a toolConfig, as Gemini and Bedrock write their choice:
 * at its top in either spelling, or in a google-genai SDK's `config`.
 */
export function toolConfigField(fields: Record<string, unknown>): string | undefined {
  return toolConfigOf(fields)?.field;
}

/** The toolConfig `fields` gives (toolConfigField), with where it is. */
export function toolConfigOf(fields: Record<string, unknown>): { field: string; value: unknown } | undefined {
  const config = isPlainObject(fields.config) ? fields.config : {};
  for (const [holder, prefix] of [[fields, ""], [config, "config."]] as const) {
    for (const key of ["toolConfig", "tool_config"]) if (present(holder[key])) return { field: `${prefix}${key}`, value: holder[key] };
  }
  return undefined;
}

/** A tools array of either envelope, without a choice. */
export function readToolsArray(tools: unknown, where: string): ToolsRead {
  const read = emptyRead();
  readTools(tools, where, "tools", read);
  settleDuplicates(read, where);
  return read;
}

/** Another envelope's tools, as converted by its reader, with the parts it could not take applied as the table at the top says. */
export function readConvertedTools(foreign: EnvelopeTools, where: string): ToolsRead {
  const read = emptyRead();
  const at = `${where} (${foreign.envelope} tools read as Open Responses ones)`;
  readTools(foreign.tools, at, "tools", read);
  settleDuplicates(read, at);
  if (present(foreign.toolChoice)) read.choice = readToolChoice(foreign.toolChoice, at, read.problems);
  for (const { path, detail, governs } of foreign.unread) {
    read.problems.push(`${where}: ${path} of the ${foreign.envelope} request cannot be read: ${detail}`);
    if (governs === "tools") read.unknownTools = true;
    else if (governs === "choice") read.choice = { names: NO_NAME, field: path, whole: false };
    else {
      read.functions = read.functions.filter(({ name }) => name !== governs.tool);
      read.unreadable.set(governs.tool, `${path} of ${where} defines it in a form that cannot be read`);
    }
  }
  return read;
}

// Where a definition, in any envelope, holds the schema of its arguments (schema-fields.ts).
const SCHEMA_FIELD_NAMES: ReadonlySet<string> = new Set(SCHEMA_FIELDS);
// The fields of a request body that hold its tools, in any envelope.
const TOOLS_FIELDS: ReadonlySet<string> = new Set(["tools", "functions", "toolConfig", "tool_config"]);

/**
 * A number of the body's line that a schema judges by (a bound, multipleOf,
 * const, enum) and whose double is another number: the body parsed holds the
 * other number, which the gate would judge arguments against (`maximum:
 * 0.29999999999999999` lets 0.3 pass). The definition whose schema holds it is
 * the first object on the way down from the tools that has a name and goes on
 * by one of the schema fields, in whichever envelope; its calls are refused.
 * A number in the tools that no named definition holds leaves which tools the
 * body defines unknown. The body's other fields (messages, an output format)
 * define no tool, and their numbers are judged elsewhere or not at all.
 */
function refuseInexactDefinition(read: ToolsRead, body: Record<string, unknown>, number: InexactSchemaNumber, where: string): void {
  const { tokens } = number;
  if (typeof tokens[0] !== "string" || !TOOLS_FIELDS.has(tokens[0])) return;
  const written = `the number ${shownLiteral(number.literal)} at ${number.path}`;
  const double = String(Number(number.literal));
  let node: unknown = body;
  for (const token of tokens) {
    if (isPlainObject(node) && typeof node.name === "string" && node.name !== "" && typeof token === "string" && SCHEMA_FIELD_NAMES.has(token)) {
      const name = node.name;
      read.problems.push(`${where}: ${written} is one a double reads as another number (${double}), so the definition of "${name}" there cannot be read as written`);
      read.functions = read.functions.filter((definition) => definition.name !== name);
      if (!read.unreadable.has(name)) read.unreadable.set(name, `${where} defines it with ${written}, which a double reads as ${double}: its calls would be judged against ${double}, not the number written`);
      return;
    }
    node = (isPlainObject(node) || Array.isArray(node)) && Object.hasOwn(node, token) ? (node as Record<string | number, unknown>)[token] : undefined;
  }
  read.problems.push(`${where}: ${written} is one a double reads as another number (${double}), in no definition whose name can be read: which tools the body defines is not known`);
  read.unknownTools = true;
}

function emptyRead(): ToolsRead {
  return { functions: [], others: [], unreadable: new Map(), unknownTools: false, choice: EVERY_NAME, problems: [] };
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function readTools(tools: unknown, where: string, field: string, read: ToolsRead): void {
  if (!Array.isArray(tools)) {
    read.problems.push(`${where}: ${field} must be an array, found ${describe(tools)}`);
    read.unknownTools = true;
    return;
  }
  // Names another kind of tool writes, each with where: a function of one of them has no single definition.
  const writtenByOthers = new Map<string, string>();
  tools.forEach((tool, index) => {
    const at = `${field}[${index}]`;
    if (!isPlainObject(tool)) return unknownTool(read, `${where}: ${at} must be an object, found ${describe(tool)}`);
    if (isTypelessFunctionTool(tool)) return readDefinition(tool.function as Record<string, unknown>, where, `${at}.function`, read);
    if (typeof tool.type !== "string" || tool.type === "") {
      return unreadableTool(read, tool, `${where}: ${at}.type must be a non-empty string, found ${describe(tool.type)}`, `${at} of ${where}`);
    }
    if (tool.type !== "function") {
      read.others.push({ name: otherToolName(tool, tool.type), type: tool.type, where: `${at} of ${where}` });
      // A tool an envelope's reader kept as its own kind (`bedrock:functionDeclarations`,
      // a Gemini list in a Converse body) is, to a reader of the form it is written
      // in, a list of definitions: the names of its list count. An Open Responses
      // tool (a namespace) keeps the names of its list to itself.
      const keptByAnotherReader = tool.type.includes(":");
      for (const name of writtenToolNames(tool, { lists: keptByAnotherReader })) if (!writtenByOthers.has(name)) writtenByOthers.set(name, `${at} (type ${describe(tool.type)})`);
      return;
    }
    if (tool.function === undefined) return readDefinition(tool, where, at, read);
    if (!isPlainObject(tool.function)) return unreadableTool(read, tool, `${where}: ${at}.function must be an object, found ${describe(tool.function)}`, `${at} of ${where}`);
    // Both forms at once: a Responses reader takes the top-level definition, a
    // Chat reader the `function` one; a schema of another envelope's field
    // beside `function` is the definition its reader takes.
    const topLevel = ["name", ...SCHEMA_FIELDS].filter((key) => tool[key] !== undefined);
    if (topLevel.length > 0) {
      const form = topLevel.every((key) => key === "name" || key === "parameters") ? "the Responses form" : "another envelope's fields";
      return unreadableTool(read, tool, `${where}: ${at} defines the function twice, in the Chat form (function) and ${form} (${topLevel.join(", ")}), which two readers would read apart`, `${at} of ${where}`);
    }
    readDefinition(tool.function, where, `${at}.function`, read);
  });
  refuseFunctionsNamedByOthers(read, writtenByOthers, where);
}

/**
 * A function whose name a tool of another kind in the same list writes is
 * defined twice: Anthropic calls its client tools (`bash_20250124`) and its
 * functions alike by `tool_use`, and an entry another envelope's reader took
 * for a hosted tool (a Gemini tool holding a Bedrock `toolSpec`) is that
 * envelope's definition of the name. A replayer that dispatches by name may run
 * either, so neither schema is taken and the calls of the name are refused.
 */
function refuseFunctionsNamedByOthers(read: ToolsRead, writtenByOthers: ReadonlyMap<string, string>, where: string): void {
  if (writtenByOthers.size === 0) return;
  const named = read.functions.filter(({ name }) => writtenByOthers.has(name));
  for (const { name, field } of named) {
    const other = writtenByOthers.get(name)!;
    read.problems.push(`${where}: ${field} defines "${name}" as a function, and ${other} names a tool of another kind so`);
    read.unreadable.set(name, `${where} defines it as a function and, at ${other}, as a tool of another kind`);
  }
  if (named.length > 0) read.functions = read.functions.filter(({ name }) => !writtenByOthers.has(name));
}

/**
 * Mistral writes its function tools without a type: a tool that holds a
 * function object and nothing else is that function, as the Mistral API and
 * SDKs read it; a reader that requires the type refuses the whole request, and
 * none reads it as another tool.
 */
function readLegacyFunctions(functions: unknown, where: string, read: ToolsRead): void {
  if (!Array.isArray(functions)) {
    read.problems.push(`${where}: functions must be an array, found ${describe(functions)}`);
    read.unknownTools = true;
    return;
  }
  functions.forEach((fn, index) => {
    if (!isPlainObject(fn)) return unknownTool(read, `${where}: functions[${index}] must be an object, found ${describe(fn)}`);
    readDefinition(fn, where, `functions[${index}]`, read);
  });
}

function readDefinition(fields: Record<string, unknown>, where: string, at: string, read: ToolsRead): void {
  const { name, parameters } = fields;
  if (typeof name !== "string" || name === "") return unknownTool(read, `${where}: ${at}.name must be a non-empty string, found ${describe(name)}`);
  // A function that names its namespace (as the OpenAI Agents SDK carries one)
  // is that namespace's, called with the namespace, to a reader that knows the
  // field, and the top-level function of its name to one that does not: a call
  // of that name is refused, read either way.
  if (present(fields.namespace)) {
    read.unreadable.set(name, `${at} of ${where} defines it in namespace ${describe(fields.namespace)}, which a reader that does not know the field takes for the top-level function`);
    return;
  }
  const schemaFields = schemaFieldsGiven(fields);
  if (schemaFields.length > 1) {
    read.problems.push(`${where}: ${at}: ${describeSchemaGivenTwice(schemaFields)}`);
    read.unreadable.set(name, `${at} of ${where} gives the schema of its arguments twice (${schemaFields.join(", ")})`);
    return;
  }
  if (!present(parameters)) {
    read.functions.push({ name, schema: NO_PARAMETERS, field: `${at}.name` });
    return;
  }
  if (typeof parameters !== "boolean" && !isPlainObject(parameters)) {
    read.problems.push(`${where}: ${at}.parameters must be a JSON Schema (an object or a boolean), found ${describe(parameters)}`);
    read.unreadable.set(name, `${at} of ${where} defines it with parameters that cannot be read`);
    return;
  }
  read.functions.push({ name, schema: parameters as ToolSchema, field: `${at}.name` });
}

/** A definition that names no tool that can be read. */
function unknownTool(read: ToolsRead, problem: string): void {
  read.problems.push(problem);
  read.unknownTools = true;
}

/** A definition that cannot be read but whose name can: calls of that name are refused; with no name, some tool is unknown. */
function unreadableTool(read: ToolsRead, tool: Record<string, unknown>, problem: string, at: string): void {
  read.problems.push(problem);
  const name = [tool.name, isPlainObject(tool.function) ? tool.function.name : undefined, isPlainObject(tool.custom) ? tool.custom.name : undefined].find(
    (candidate): candidate is string => typeof candidate === "string" && candidate !== "",
  );
  if (name === undefined) read.unknownTools = true;
  else read.unreadable.set(name, `${at} defines it in a form that cannot be read`);
}

/** A name defined twice in one body has no single definition: neither is taken, and its calls are refused. */
function settleDuplicates(read: ToolsRead, where: string): void {
  const first = new Map<string, string>();
  const twice = new Set<string>();
  for (const { name, field } of read.functions) {
    const earlier = first.get(name);
    if (earlier === undefined) {
      first.set(name, field);
      continue;
    }
    read.problems.push(`${where}: ${field} defines "${name}" again (first at ${earlier})`);
    twice.add(name);
    read.unreadable.set(name, `${where} defines it more than once`);
  }
  if (twice.size > 0) read.functions = read.functions.filter(({ name }) => !twice.has(name));
}

/** The name a call of a tool that is not a function carries: a custom tool's own name (either envelope), else its type. */
function otherToolName(tool: Record<string, unknown>, type: string): string {
  if (typeof tool.name === "string" && tool.name !== "") return tool.name;
  if (isPlainObject(tool.custom) && typeof tool.custom.name === "string" && tool.custom.name !== "") return tool.custom.name;
  return type;
}
