// A request body's tool_choice limits which functions the gate lets run: the
// calls of its own response, and those of the records after it until the next
// request body. Some choices the gate reads as a limit have no form a target
// writes: one that cannot be read (a type, mode or toolChoice no envelope
// has), which allows no function; one that forces a tool no function_call
// runs (a hosted tool); allowed_tools that name no function. A writer that
// drops such a choice writes a body that allows every function, and a call the
// source refused would then read as one that may run. So where the body
// written allows a function the source's choice does not, the choice written
// is one that allows what the source's allows, in a form every target writes
// (Anthropic and Bedrock write allowed_tools as the tools it allows, Bedrock
// "none" as no tool: tools-limit.ts).
//
// | the source's choice allows (as the gate reads it) | choice written            |
// |---------------------------------------------------|---------------------------|
// | every function                                    | what the writer wrote     |
// | only functions the body written allows too, or fewer | what the writer wrote  |
// | no function, and the body written allows some     | "none"                    |
// | some functions, and the body written allows others | allowed_tools of them    |
import type { Loss } from "../models/loss.js";
import type { ToolChoiceParam } from "../models/open-responses.js";

/** The functions a choice allows, as the gate reads it; undefined allows every one. */
export type ChoiceAllows = ReadonlySet<string> | undefined;

/**
 * The Open Responses choice to write in place of what the writer made of the
 * source's, with the loss that says so, for a target titled `target`;
 * undefined when the body written allows no function the source's choice
 * refuses.
 */
export function heldChoice(source: ChoiceAllows, written: ChoiceAllows, target: string): { choice: ToolChoiceParam; loss: Loss } | undefined {
  if (source === undefined) return undefined;
  if (written !== undefined && [...written].every((name) => source.has(name))) return undefined;
  const names = [...source];
  const allowed = names.length === 0 ? "no function" : `only ${names.map((name) => JSON.stringify(name)).join(", ")}`;
  const choice: ToolChoiceParam = names.length === 0 ? "none" : { type: "allowed_tools", mode: "auto", tools: names.map((name) => ({ type: "function", name })) };
  const detail = `the request's tool_choice allows ${allowed} as the gate reads it, and ${target} has no form of it: written without it, the request would let every function run, so it is written as tool_choice ${JSON.stringify(choice)}`;
  return { choice, loss: { path: "", code: "form_changed", detail } };
}
