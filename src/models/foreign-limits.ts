// A limit on a request's calls written where its envelope has none: a
// `tool_choice` or a Chat `function_call` on a Gemini or Bedrock body, a
// Gemini `toolConfig` on an Anthropic one, a Bedrock `toolChoice` in a Gemini
// `toolConfig`. The envelope's reader passes the member over and reads no limit;
// a reader of the envelope that member belongs to (a gateway that takes either
// form, a replayer that translates the body) reads one. An envelope's reader
// asks this of its body with the limit members it reads, and refuses the choice
// when one is found, as it refuses one it cannot read.
import { isPlainObject } from "./json-value.js";

// The members that say which tools a request's calls may use, in any envelope.
// How many calls (`parallel_tool_calls`, `disable_parallel_tool_use`) is read
// wherever it is written (one-call-flag.ts), and `tools` is every envelope's.
const CHOICE_MEMBERS: ReadonlySet<string> = new Set([
  "tool_choice", "function_call", "toolChoice", "toolConfig", "tool_config", "functionCallingConfig", "function_calling_config",
  "allowedFunctionNames", "allowed_function_names", "allowed_tools",
]);

// The members that hold choice members: a google-genai SDK's `config`, and the
// objects Gemini and Bedrock nest their choice in.
const HOLDERS: ReadonlySet<string> = new Set(["config", "toolConfig", "tool_config", "functionCallingConfig", "function_calling_config"]);
const NONE: ReadonlySet<string> = new Set();

/**
 * The choice members an envelope reads, by the member that holds them: "" for
 * the top of the body, else the holder's name (`config`, `toolConfig`).
 */
export type OwnChoiceMembers = Readonly<Record<string, ReadonlySet<string>>>;

/** The first choice member of `body` its envelope does not read where it is written, with its path (`toolConfig.toolChoice`); undefined when there is none. */
export function foreignChoiceMember(body: Record<string, unknown>, own: OwnChoiceMembers): { path: string; name: string } | undefined {
  return foreignIn(body, "", "", own, 0);
}

function foreignIn(fields: Record<string, unknown>, holder: string, path: string, own: OwnChoiceMembers, depth: number): { path: string; name: string } | undefined {
  const read = (Object.hasOwn(own, holder) ? own[holder] : undefined) ?? NONE;
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    if (value === undefined || value === null) continue;
    const at = path === "" ? key : `${path}.${key}`;
    if (CHOICE_MEMBERS.has(key) && !read.has(key)) return { path: at, name: key };
    // A holder is a level of a body or of its config: a few levels at most.
    if (depth < 3 && HOLDERS.has(key) && isPlainObject(value)) {
      const inner = foreignIn(value, key, at, own, depth + 1);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/** Why such a member leaves the choice unread, as an unread part's detail; `envelope` names the body's. */
export function describeForeignChoiceMember(found: { name: string }, envelope: string): string {
  return `${found.name} is how another envelope's request limits its calls: ${envelope} passes it over there, a reader of that envelope's form reads it`;
}
