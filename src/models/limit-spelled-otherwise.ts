// A request's limits on its calls (which tools, how many) written under a name
// that only a loose reader takes for the limit's: `Tool_choice`, `TOOL_CHOICE`,
// `parallel_tool_calls\u200b`. Go's encoding/json matches a field's name
// regardless of case and reads the limit; the envelope's reader passes the
// member over and reads no limit at all.
import { foldName } from "./folded-name.js";
import { isPlainObject } from "./json-value.js";
import { pointerToken } from "./json-pointer.js";
import { quoteVisible } from "./quote-visible.js";
import { comparedName } from "./names-folded-twice.js";
import { PASSED_THROUGH } from "./passed-through.js";

// The members of a request body (or of a response's record of its request), in
// any envelope, that say which tools its calls may use or how many, and those
// that hold such members (Gemini's `config` and `toolConfig`, a choice's object,
// the members whose members reach the model as its request's own).
const LIMIT_MEMBERS: ReadonlySet<string> = new Set([
  "tools", "functions", "tool_choice", "function_call", "parallel_tool_calls", "disable_parallel_tool_use",
  "toolConfig", "tool_config", "toolChoice", "functionCallingConfig", "function_calling_config",
  "allowedFunctionNames", "allowed_function_names", "allowed_tools", "mode", "config", ...PASSED_THROUGH,
]);
const FOLDED_LIMIT_MEMBERS: ReadonlySet<string> = new Set([...LIMIT_MEMBERS].map(foldName));
// Members whose objects hold more such members; a tool's definition does not
// (its schema's property names are the tool's own), so `tools` is not entered.
const LIMIT_HOLDERS: ReadonlySet<string> = new Set(["config", "toolConfig", "tool_config", "tool_choice", "toolChoice", "functionCallingConfig", "function_calling_config", ...PASSED_THROUGH]);

/** The first member, at the top of a body or in a member that holds limits, spelled otherwise than a limit's name it folds to; its JSON Pointer and that name. */
export function limitSpelledOtherwise(fields: Record<string, unknown>, path = "", depth = 0): { path: string; name: string } | undefined {
  for (const key of Object.keys(fields)) {
    const at = `${path}/${pointerToken(key)}`;
    if (!LIMIT_MEMBERS.has(key)) {
      // Most names are their own fold, and the others are few: folded once each (names-folded-twice.ts).
      const folded = comparedName(key);
      if (FOLDED_LIMIT_MEMBERS.has(folded)) return { path: at, name: [...LIMIT_MEMBERS].find((name) => foldName(name) === folded)! };
      continue;
    }
    const value = fields[key];
    if (depth < 3 && LIMIT_HOLDERS.has(key) && isPlainObject(value)) {
      const inner = limitSpelledOtherwise(value, at, depth + 1);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/** The sentence that reports such a member; `owner` is what wrote it ("request", "response"). */
export function describeLimitSpelledOtherwise(found: { path: string; name: string }, owner: string): string {
  return `${quoteVisible(found.path, 200)} is read by no envelope, yet a reader that matches names regardless of case or width (Go's encoding/json does) reads it as the ${owner}'s ${found.name}: which calls the ${owner} allows is not known`;
}
