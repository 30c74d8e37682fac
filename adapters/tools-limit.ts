// A tool_choice that limits a turn to some of its tools (`allowed_tools`), or
// to none of them, written for an envelope that cannot say so: Anthropic and
// Bedrock have no subset of tools, and Bedrock has no "none". Dropping the
// limit would offer the model every tool, and a call to one the source did not
// allow would then read as allowed: the gate refuses a call only to a tool the
// request does not list. So the limit is kept in the one place these
// envelopes have: the tools written are those it allows.
//
// | tool_choice (Open Responses)           | tools written                  | choice written in its place |
// |----------------------------------------|--------------------------------|-----------------------------|
// | allowed_tools, mode "required"         | the functions it names, and the other tools whose type it names | "required"; that function, where it names one function only |
// | allowed_tools, any other mode          | the same                       | "auto"                      |
// | allowed_tools whose tools is no list   | none                           | none written                |
// | allowed_tools of mode "none"           | every tool, or none where the target has no "none" | "none", or none written |
// | "none", where the target has no "none" | none                           | none written                |
// | anything else                          | every tool (no limit)          | the choice itself           |
import { isPlainObject } from "../src/models/json-value.js";

export interface ToolsLimit {
  /** Why `tool` is left out of the tools written, or undefined when the limit allows it. */
  leftOut(tool: unknown): string | undefined;
  /** The choice written in the limit's place, or undefined for none. */
  choice: "auto" | "required" | "none" | { type: "function"; name: string } | undefined;
  /** What the loss at the body's tool_choice says. */
  detail: string;
}

/**
 * The limit `toolChoice` sets on the tools an envelope titled `target` writes,
 * when that envelope cannot write the choice itself; undefined when it can, or
 * when the choice limits nothing. `hasNone`: the envelope has a choice that
 * forbids every call.
 */
export function toolsLimitOf(toolChoice: unknown, target: string, hasNone: boolean): ToolsLimit | undefined {
  if (toolChoice === "none" && !hasNone) {
    const why = `tool_choice "none" allows no tool, and ${target} cannot forbid calls while it offers tools`;
    return { leftOut: () => `left out: ${why}`, choice: undefined, detail: `${why}: every tool is left out, so that none may be called` };
  }
  if (!isPlainObject(toolChoice) || toolChoice.type !== "allowed_tools") return undefined;
  const cannot = `${target} cannot limit a turn to some of its tools`;
  // Of mode "none", it allows no call, whatever tools it names.
  if (toolChoice.mode === "none") {
    if (hasNone) return { leftOut: () => undefined, choice: "none", detail: `allowed_tools of mode "none" written as tool_choice "none": ${cannot}` };
    return { leftOut: () => `left out: the allowed_tools of tool_choice has mode "none", and ${target} cannot forbid calls while it offers tools`, choice: undefined, detail: `allowed_tools of mode "none" allows no tool: every tool is left out, so that none may be called` };
  }
  if (!Array.isArray(toolChoice.tools)) {
    return { leftOut: () => `left out: the allowed_tools of tool_choice list nothing that can be read, and ${cannot}`, choice: undefined, detail: `allowed_tools whose tools is not a list allows no tool that can be named: every tool is left out` };
  }
  const functions = new Set<unknown>();
  const others = new Set<unknown>();
  for (const allowed of toolChoice.tools as unknown[]) {
    if (!isPlainObject(allowed)) continue;
    if (allowed.type === "function") functions.add(allowed.name);
    else others.add(allowed.type);
  }
  const allows = (tool: unknown) => isPlainObject(tool) && (tool.type === "function" ? typeof tool.name === "string" && functions.has(tool.name) : others.has(tool.type));
  // One function that must be called is a choice every envelope can write, and one a reader of the body sees as a limit.
  const [only] = functions;
  const choice = toolChoice.mode !== "required" ? "auto" : functions.size === 1 && others.size === 0 && typeof only === "string" ? { type: "function" as const, name: only } : "required";
  return {
    leftOut: (tool) => (allows(tool) ? undefined : `left out: not among the tools that the allowed_tools of tool_choice allow, and ${cannot}`),
    choice,
    detail: `allowed_tools written as the tools it allows and tool_choice ${JSON.stringify(choice)}: ${cannot}, so the tools it does not allow are left out`,
  };
}
