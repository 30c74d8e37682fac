// What a request body's `tool_choice` (either envelope) or legacy Chat
// `function_call` allows: the function names it lets run, read as far as it can
// be read. A part that cannot be read is a problem in `problems` and narrows to
// what was read (an allowed_tools entry) or to no function at all (anything
// else), as the table at the top of read-request-tools.ts says.
import { isDeepStrictEqual } from "node:util";
import { describeValue as describe, isPlainObject } from "../models/json-value.js";

/** The names a choice allows (`undefined`: every name), and the field they were read from ("" when the body has none). */
export interface ChoiceRead {
  names: ReadonlySet<string> | undefined;
  field: string;
  /** False when part of the choice could not be read: `names` then holds only what could be. */
  whole: boolean;
}

export const NO_NAME: ReadonlySet<string> = new Set();

/** The names a `tool_choice` allows, in either envelope. */
export function readToolChoice(choice: unknown, where: string, problems: string[]): ChoiceRead {
  const field = "tool_choice";
  const unread = (problem: string): ChoiceRead => {
    problems.push(`${where}: ${problem}`);
    return { names: NO_NAME, field, whole: false };
  };
  // "any" is Mistral's word for "required": a call must come, of any function.
  if (choice === "auto" || choice === "required" || choice === "any") return { names: undefined, field, whole: true };
  if (choice === "none") return { names: NO_NAME, field, whole: true };
  if (typeof choice === "string") return unread(`tool_choice must be "none", "auto", "required" or an object, found ${describe(choice)}`);
  if (!isPlainObject(choice)) return unread(`tool_choice must be a string or an object, found ${describe(choice)}`);
  if (typeof choice.type !== "string") return unread(`tool_choice.type must be a string, found ${describe(choice.type)}`);
  if (choice.type === "function") {
    const name = functionName(choice, "tool_choice");
    if (typeof name !== "string") return unread(name.problem);
    // The function of a namespace forced: no top-level function may run, that of its name neither.
    return { names: inNamespace(choice) ? NO_NAME : new Set([name]), field, whole: true };
  }
  // A hosted or custom tool forced: no function may run.
  if (choice.type !== "allowed_tools") return { names: NO_NAME, field, whole: true };
  // Chat nests the list in `allowed_tools`; Open Responses puts it on the choice. Both, with two lists, read two ways.
  if (choice.allowed_tools !== undefined && choice.tools !== undefined && !isDeepStrictEqual(choice.tools, isPlainObject(choice.allowed_tools) ? choice.allowed_tools.tools : undefined)) {
    return unread("tool_choice lists its allowed tools twice, in allowed_tools.tools and in tools, two ways");
  }
  // So with the mode: "none" on the choice and "auto" in allowed_tools allow nothing to one reader, the list to the other.
  if (choice.allowed_tools !== undefined && choice.mode !== undefined && !isDeepStrictEqual(choice.mode, isPlainObject(choice.allowed_tools) ? choice.allowed_tools.mode : undefined)) {
    return unread("tool_choice gives its mode twice, in allowed_tools.mode and in mode, two ways");
  }
  const holder = choice.allowed_tools !== undefined ? choice.allowed_tools : choice;
  const at = choice.allowed_tools !== undefined ? "tool_choice.allowed_tools" : "tool_choice";
  if (!isPlainObject(holder)) return unread(`${at} must be an object, found ${describe(holder)}`);
  if (!Array.isArray(holder.tools)) return unread(`${at}.tools must be an array, found ${describe(holder.tools)}`);
  if (holder.mode !== undefined && holder.mode !== "auto" && holder.mode !== "required" && holder.mode !== "none") {
    return unread(`${at}.mode must be "auto" or "required", found ${describe(holder.mode)}`);
  }
  const names = new Set<string>();
  let whole = true;
  holder.tools.forEach((tool, index) => {
    const toolAt = `${at}.tools[${index}]`;
    // An entry that cannot be read allows nothing: the names that can be read still narrow.
    const skip = (problem: string) => {
      problems.push(`${where}: ${problem}`);
      whole = false;
    };
    if (!isPlainObject(tool)) return skip(`${toolAt} must be an object, found ${describe(tool)}`);
    if (typeof tool.type !== "string") return skip(`${toolAt}.type must be a string, found ${describe(tool.type)}`);
    if (tool.type !== "function") return;
    const name = functionName(tool, toolAt);
    if (typeof name !== "string") skip(name.problem);
    // A namespace's function allowed allows no top-level one.
    else if (!inNamespace(tool)) names.add(name);
  });
  return { names: holder.mode === "none" ? NO_NAME : names, field, whole };
}

/** Whether two choices allow the same functions. */
export function sameAllowance(left: ChoiceRead, right: ChoiceRead): boolean {
  if (left.names === undefined || right.names === undefined) return left.names === right.names;
  return left.names.size === right.names.size && [...left.names].every((name) => right.names!.has(name));
}

export function readLegacyFunctionCall(choice: unknown, where: string, problems: string[]): ChoiceRead {
  const field = "function_call";
  if (choice === "auto") return { names: undefined, field, whole: true };
  if (choice === "none") return { names: NO_NAME, field, whole: true };
  if (isPlainObject(choice) && typeof choice.name === "string" && choice.name !== "") return { names: new Set([choice.name]), field, whole: true };
  problems.push(`${where}: function_call must be "none", "auto" or {"name": …}, found ${describe(choice)}`);
  return { names: NO_NAME, field, whole: false };
}

/** Whether a choice or an allowed_tools entry names a namespace (beside its name, or in its Chat `function`): its function is that namespace's. */
function inNamespace(choice: Record<string, unknown>): boolean {
  return present(choice.namespace) || (isPlainObject(choice.function) && present(choice.function.namespace));
}

/** The name of a function choice: `{type, name}` (Open Responses) or `{type, function:{name}}` (Chat). */
function functionName(choice: Record<string, unknown>, at: string): string | { problem: string } {
  if (choice.function !== undefined) {
    const fn = choice.function;
    if (!isPlainObject(fn) || typeof fn.name !== "string" || fn.name === "") {
      return { problem: `${at}.function.name must be a non-empty string, found ${describe(isPlainObject(fn) ? fn.name : fn)}` };
    }
    // Named in both forms, two ways: a reader of either runs another function.
    if (choice.name !== undefined && choice.name !== fn.name) return { problem: `${at} names the function twice, ${describe(fn.name)} in function.name and ${describe(choice.name)} in name` };
    return fn.name;
  }
  if (typeof choice.name !== "string" || choice.name === "") return { problem: `${at}.name must be a non-empty string, found ${describe(choice.name)}` };
  return choice.name;
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}
