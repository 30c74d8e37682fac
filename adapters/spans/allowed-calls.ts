// Which calls the request an LLM call was sent allowed, from the tool choice it
// recorded, in whichever form the provider writes it:
//
// | written                                                        | allows                 |
// |----------------------------------------------------------------|------------------------|
// | absent, `"auto"`, `"required"`, `{type: "auto" \| "any"}`       | every tool             |
// | `"none"`, `{type: "none"}`                                     | no tool                |
// | `{type: "function", function: {name}}` (Chat), `{type: "function", name}` (Responses), `{type: "tool", name}` (Anthropic) | that one |
// | `{type: "allowed_tools", allowed_tools: {tools}}` (Chat), `{type: "allowed_tools", tools}` (Responses) | the functions listed |
// | Gemini `{function_calling_config \| functionCallingConfig: {mode, allowed_function_names \| allowedFunctionNames}}` | `NONE` none; a mode of no other name (a number, an unknown one) none; else the names listed, else every tool |
//
// A form none of these is allows no tool: a call the request may have forbidden
// is not read as one it allowed.
//
// The tools the request offered limit it too: the model could call no other.
//
// | a tool offered                                                  | offers                 |
// |-----------------------------------------------------------------|------------------------|
// | `{type: "function", function: {name}}` (Chat), `{type: "function", name}` (Responses, OTel GenAI) | that function |
// | `{name, …}` with no type (Anthropic, a legacy Chat function)    | that function          |
// | `{function_declarations \| functionDeclarations: [{name}]}` (Gemini) | the functions declared |
// | `{type: …}` of another type (`web_search`, `custom`…), a Gemini tool of no declarations (`google_search`…) | no function |
//
// An empty list offers none. A list, or a tool in it, of no form orbridge reads
// offers none either: a reader that reads it otherwise may offer other tools.
import { isDeepStrictEqual } from "node:util";
import { isPlainObject } from "../../src/models/json-value.js";

/** The request's tool choice as written, with its place: a Gemini `toolConfig` is marked as such; choices the request states two ways that allow other calls, as `disagreeing`. */
export interface ToolChoice {
  value: unknown;
  path: string;
  gemini?: boolean;
  disagreeing?: boolean;
  /** A limit the request writes under a name only a reader folding case or width reads (`Tool_choice`): its JSON Pointer in the request. */
  misspelled?: string;
}

export type Allowed = { every: true } | { every: false; names: ReadonlySet<string>; said: string };

const EVERY: Allowed = { every: true };

export function allowedCalls(choice: ToolChoice): Allowed {
  const { value } = choice;
  if (choice.misspelled !== undefined) return { every: false, names: new Set(), said: `the request writes ${JSON.stringify(choice.misspelled)}, which only a reader that matches names regardless of case or width (Go's encoding/json does) reads as one of its limits, so it allows no tool` };
  if (choice.disagreeing) return { every: false, names: new Set(), said: `the request states its tool choice more than once, allowing other calls (${shown(value)}), so it allows no tool` };
  if (choice.gemini) return geminiAllowed(value);
  if (value === "auto" || value === "required" || value === "any") return EVERY;
  if (value === "none") return { every: false, names: new Set(), said: 'the request says tool_choice "none"' };
  if (!isPlainObject(value)) return unread(value);
  switch (value.type) {
    case "auto":
    case "any":
      return EVERY;
    case "none":
      return { every: false, names: new Set(), said: 'the request says tool_choice {"type": "none"}' };
    case "function":
    case "tool": {
      const name = isPlainObject(value.function) ? value.function.name : value.name;
      // Named in both forms, two ways: a reader of either runs another tool.
      if (isPlainObject(value.function) && value.name !== undefined && value.name !== name) return unread(value);
      return typeof name === "string" ? { every: false, names: new Set([name]), said: `the request's tool_choice names "${name}" alone` } : unread(value);
    }
    case "allowed_tools": {
      const listed = isPlainObject(value.allowed_tools) ? value.allowed_tools.tools : value.tools;
      if (isPlainObject(value.allowed_tools) && value.tools !== undefined && !isDeepStrictEqual(value.tools, listed)) return unread(value);
      if (!Array.isArray(listed)) return unread(value);
      const names = new Set<string>();
      for (const tool of listed) {
        const name = isPlainObject(tool) ? (isPlainObject(tool.function) ? tool.function.name : tool.name) : undefined;
        if (typeof name === "string") names.add(name);
      }
      return { every: false, names, said: `the request's tool_choice allows ${names.size === 0 ? "no tool" : [...names].map((one) => `"${one}"`).join(", ")} alone` };
    }
    default:
      return unread(value);
  }
}

/** Gemini's function calling modes but NONE, by name (the Python SDK reads them in any case). */
const GEMINI_MODES = new Set(["AUTO", "ANY", "VALIDATED", "MODE_UNSPECIFIED"]);

function geminiAllowed(config: unknown): Allowed {
  // Each field in both spellings, two ways: a reader of either allows other calls.
  if (twoSpellings(config, "function_calling_config", "functionCallingConfig")) return unread(config);
  const calling = isPlainObject(config) ? (config.function_calling_config ?? config.functionCallingConfig) : undefined;
  if (calling === undefined || calling === null) return EVERY;
  if (!isPlainObject(calling) || twoSpellings(calling, "allowed_function_names", "allowedFunctionNames")) return unread(config);
  const mode = typeof calling.mode === "string" ? calling.mode.toUpperCase() : calling.mode;
  if (mode === "NONE") return { every: false, names: new Set(), said: 'the request\'s function calling mode is "NONE"' };
  // A mode of no name read here (a number, which protobuf's JSON reads as the
  // enum's value: 3 is NONE) may forbid every call, whatever names it lists.
  if (mode !== undefined && !(typeof mode === "string" && GEMINI_MODES.has(mode))) return unread(config);
  const listed = calling.allowed_function_names ?? calling.allowedFunctionNames;
  if (listed === undefined || listed === null) return EVERY;
  if (!Array.isArray(listed)) return unread(config);
  const names = new Set(listed.filter((name): name is string => typeof name === "string"));
  return { every: false, names, said: `the request's function calling config allows ${[...names].map((one) => `"${one}"`).join(", ") || "no function"} alone` };
}

/** The tools a request offered, as written (an array of definitions), with its place; or why they cannot be read. */
export interface ToolsOffered {
  value: unknown;
  path: string;
  unreadable?: string;
}

export function offeredCalls(offered: ToolsOffered): Allowed {
  const { value } = offered;
  if (offered.unreadable !== undefined) return { every: false, names: new Set(), said: `the request's tools cannot be read (${offered.unreadable}), so they offer no tool` };
  if (!Array.isArray(value)) return notOffered(value);
  const names = new Set<string>();
  for (const tool of value) {
    const functions = offeredFunctions(tool);
    if (functions === undefined) return notOffered(value);
    for (const name of functions) names.add(name);
  }
  if (value.length === 0) return { every: false, names, said: "the request offered no tool (its tools are empty)" };
  return { every: false, names, said: `the request's tools offer ${names.size === 0 ? "no function" : [...names].map((one) => `"${one}"`).join(", ")} alone` };
}

/** A request's tools and legacy functions, both given: the one list of what either offers. */
export function toolsAndFunctions(tools: unknown, functions: unknown): unknown {
  if (tools === undefined || tools === null) return functions;
  if (functions === undefined || functions === null) return tools;
  // Either of no form: the list is of none either, and offers no tool.
  return Array.isArray(tools) && Array.isArray(functions) ? [...tools, ...functions] : { tools, functions };
}

/** Gemini's tools that hold no function: their calls are no function calls. */
const GEMINI_OTHER_TOOLS = new Set(["googleSearch", "googleSearchRetrieval", "codeExecution", "retrieval", "urlContext", "computerUse", "fileSearch", "googleMaps", "enterpriseWebSearch"]);

/** The functions one tool offers; `undefined` for a tool of no form orbridge reads. */
function offeredFunctions(tool: unknown): string[] | undefined {
  if (!isPlainObject(tool)) return undefined;
  if (tool.function_declarations !== undefined || tool.functionDeclarations !== undefined) {
    if (twoSpellings(tool, "function_declarations", "functionDeclarations")) return undefined;
    const declared = tool.function_declarations ?? tool.functionDeclarations;
    if (!Array.isArray(declared)) return undefined;
    const names = declared.map((declaration) => (isPlainObject(declaration) ? declaration.name : undefined));
    return names.every((name): name is string => typeof name === "string" && name !== "") ? names : undefined;
  }
  if (tool.type === "function") {
    const name = isPlainObject(tool.function) ? tool.function.name : tool.name;
    // Named in both forms, two ways: a Chat reader and a Responses reader offer other functions.
    if (isPlainObject(tool.function) && tool.name !== undefined && tool.name !== name) return undefined;
    return typeof name === "string" && name !== "" ? [name] : undefined;
  }
  if (typeof tool.type === "string" && tool.type !== "") return [];
  if (tool.type !== undefined) return undefined;
  if (typeof tool.name === "string" && tool.name !== "") return [tool.name];
  const keys = Object.keys(tool);
  return keys.length > 0 && keys.every((key) => GEMINI_OTHER_TOOLS.has(key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()))) ? [] : undefined;
}

function notOffered(value: unknown): Allowed {
  return { every: false, names: new Set(), said: `the request's tools ${shown(value)} are of no form orbridge reads, so they offer no tool` };
}

/** A limit a request puts on the calls of its answer: the names it allows, why, and where it says it. */
export interface CallLimit {
  names: ReadonlySet<string>;
  said: string;
  path: string;
}

/** The limits of a request: its tool choice and every list of tools it offered, each that narrows the calls. */
export function requestLimits(choice: ToolChoice | undefined, offered: readonly ToolsOffered[]): CallLimit[] {
  const limits: CallLimit[] = [];
  for (const [allowed, path] of [...(choice === undefined ? [] : [[allowedCalls(choice), choice.path] as const]), ...offered.map((tools) => [offeredCalls(tools), tools.path] as const)]) {
    if (!allowed.every) limits.push({ names: allowed.names, said: allowed.said, path });
  }
  return limits;
}

/** Why a call of `name` is not read: the limit of its request that leaves it out. */
export function refusal(name: string, limit: CallLimit): string {
  return `the call of "${name}" answers a request that did not allow it (${limit.said}, at ${limit.path}): not read`;
}

/** Whether an object names one field in both spellings, with two values. */
export function twoSpellings(value: unknown, snake: string, camel: string): boolean {
  return isPlainObject(value) && value[snake] !== undefined && value[camel] !== undefined && !isDeepStrictEqual(value[snake], value[camel]);
}

/** Whether tool choices allow the same calls. */
export function sameAllowance(choices: readonly ToolChoice[]): boolean {
  const allows = (choice: ToolChoice) => {
    const allowed = allowedCalls(choice);
    return allowed.every ? "every" : JSON.stringify([...allowed.names].sort());
  };
  return choices.every((choice) => allows(choice) === allows(choices[0]!));
}

/** A Chat request's legacy `function_call` ("none", "auto", `{name}`) as the tool choice it stands for. */
export function legacyFunctionCall(value: unknown): unknown {
  return isPlainObject(value) && typeof value.name === "string" && value.type === undefined ? { type: "function", name: value.name } : value;
}

function unread(value: unknown): Allowed {
  return { every: false, names: new Set(), said: `the request's tool choice ${shown(value)} is of no form orbridge reads, so it allows no tool` };
}

function shown(value: unknown): string {
  const written = JSON.stringify(value) ?? String(value);
  return written.length > 120 ? `${written.slice(0, 120)}…` : written;
}
