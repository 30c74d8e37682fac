// A limit on a request's calls written where its envelope has none: a
// `tool_choice` or a Chat `function_call` on a Gemini or Bedrock body, a
// Gemini `toolConfig` on an Anthropic one, a Bedrock `toolChoice` in a Gemini
// `toolConfig`; and tools defined where its envelope defines none: a Chat
// `functions` list, a `tools` list beside a Converse `toolConfig`; and either
// in a member whose members reach the model as its request's own
// (passed-through.ts): the `extra_body` the OpenAI and Anthropic SDKs merge into
// the top of the request they send, where it stands for the body's own member,
// or the `additionalModelRequestFields` Bedrock hands to the model. The
// envelope's reader passes the member over and reads no limit; a reader of the
// envelope that member belongs to (a gateway that takes either form, a
// replayer that translates the body, the model behind Bedrock) reads one. An
// envelope's reader asks this of its body with the members it reads, and
// refuses what each one found governs, as it refuses a part it cannot read:
// the choice, or the tools a list names.
import { isPlainObject } from "./json-value.js";
import { MERGED_INTO_BODY, PASSED_TO_MODEL } from "./passed-through.js";
import { refusedByUnreadEntries } from "./written-tool-names.js";

// The members that say which tools a request's calls may use, in any envelope.
// How many calls (`parallel_tool_calls`, `disable_parallel_tool_use`) is read
// wherever it is written (one-call-flag.ts).
const CHOICE_MEMBERS: ReadonlySet<string> = new Set([
  "tool_choice", "function_call", "toolChoice", "toolConfig", "tool_config", "functionCallingConfig", "function_calling_config",
  "allowedFunctionNames", "allowed_function_names", "allowed_tools",
]);
// The members that define a request's tools, in any envelope.
const DEFINITION_MEMBERS: ReadonlySet<string> = new Set(["tools", "functions"]);

// The members that hold such members: a google-genai SDK's `config` and the
// `http_options` in it (whose `extra_body` it merges into the request), the
// objects Gemini and Bedrock nest their choice and tools in, and the members
// passed through to the model (passed-through.ts).
const HOLDERS: ReadonlySet<string> = new Set(["config", "http_options", "httpOptions", "toolConfig", "tool_config", "functionCallingConfig", "function_calling_config", ...MERGED_INTO_BODY, ...PASSED_TO_MODEL]);
const NONE: ReadonlySet<string> = new Set();

/**
 * The choice and definition members an envelope reads, by the member that
 * holds them: "" for the top of the body, else the holder's name (`config`,
 * `toolConfig`).
 */
export type OwnLimitMembers = Readonly<Record<string, ReadonlySet<string>>>;

/** A member found where its envelope does not read it, and what it governs, as an envelope's reader names an unread part. */
export interface ForeignLimitPart {
  path: string;
  detail: string;
  governs: { tool: string } | "tools" | "choice";
}

/** The members of `body` its envelope (`envelope` names it) does not read where they are written, each with what it governs. */
export function foreignLimitParts(body: Record<string, unknown>, own: OwnLimitMembers, envelope: string): ForeignLimitPart[] {
  const parts: ForeignLimitPart[] = [];
  collect(body, "", "", own, envelope, 0, parts);
  return parts;
}

/** How the members of a holder reach the model: as the body's own, merged in by the SDK that sends it, or handed on by Bedrock. */
type Passage = "own" | "merged" | "handed";

function collect(fields: Record<string, unknown>, holder: string, path: string, own: OwnLimitMembers, envelope: string, depth: number, parts: ForeignLimitPart[], passage: Passage = "own"): void {
  // Under extra_body no member is where the envelope reads it: the SDK that sends
  // the body merges it into the top, where it replaces what the body says.
  const read = passage === "merged" ? NONE : ((Object.hasOwn(own, holder) ? own[holder] : undefined) ?? NONE);
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    if (value === undefined || value === null) continue;
    const at = path === "" ? key : `${path}.${key}`;
    if (CHOICE_MEMBERS.has(key) && !read.has(key)) {
      parts.push({ path: at, detail: `${key} ${passedDetail(passage, holder, envelope, "limits the calls of")}`, governs: "choice" });
      continue;
    }
    if (DEFINITION_MEMBERS.has(key) && !read.has(key)) {
      parts.push(...refusedByUnreadEntries(Array.isArray(value) ? value : [value], at, `${key} ${passedDetail(passage, holder, envelope, "defines the tools of")}`));
      continue;
    }
    // A holder is a level of a body or of its config: a few levels at most.
    if (depth < 3 && HOLDERS.has(key) && isPlainObject(value)) collect(value, key, at, own, envelope, depth + 1, parts, MERGED_INTO_BODY.has(key) || passage === "merged" ? "merged" : PASSED_TO_MODEL.has(key) ? "handed" : passage);
  }
}

/** Why a member found in `holder` is a limit its envelope's reader does not read, after the member's name. */
function passedDetail(passage: Passage, holder: string, envelope: string, does: string): string {
  switch (passage) {
    case "merged":
      return `in ${holder} ${does} the request the SDK sends: ${envelope} passes it over there, the SDK sending the body merges ${holder} into the request and the API reads it`;
    case "handed":
      return `in ${holder} ${does} the request the model gets: ${envelope} passes it over there, Bedrock hands ${holder} to the model as it is and the model reads it`;
    case "own":
      return does === "limits the calls of"
        ? `is how another envelope's request limits its calls: ${envelope} passes it over there, a reader of that envelope's form reads it`
        : `is where another envelope's request defines its tools: ${envelope} passes it over there, a reader of that envelope's form reads it`;
    default: {
      const never: never = passage;
      return never;
    }
  }
}
