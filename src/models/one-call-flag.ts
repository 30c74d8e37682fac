// The field by which a request, or a response object's record of its request,
// lets the response make one call only: `parallel_tool_calls` false (Chat, Open
// Responses), or Anthropic's `tool_choice.disable_parallel_tool_use` true, at
// the top of the fields or in a member whose members reach the model as its
// request's own (passed-through.ts: an SDK's `extra_body`, Bedrock's
// `additionalModelRequestFields`, where LiteLLM writes Claude's one call a
// turn). A flag of another type than a boolean (the string "false", 0) is read
// as one call too: a reader that coerces it, as lax validation and proxies do,
// limits the response so, and one that does not refuses the request. The gate,
// the stored-log readers and convert read it here alike.
import { PASSED_THROUGH } from "./passed-through.js";

export interface OneCallFlag {
  /** Its pointer in the fields read: `/parallel_tool_calls`, `/extra_body/parallel_tool_calls`. */
  field: string;
  /** Its name, as a detail writes it: `parallel_tool_calls`, `extra_body.parallel_tool_calls`. */
  name: string;
  value: unknown;
  /** Whether the value is a boolean (false, or true for disable_parallel_tool_use). */
  boolean: boolean;
}

/** The flag of `fields` that lets its response make one call, or undefined when none does. */
export function oneCallFlag(fields: unknown): OneCallFlag | undefined {
  if (fields === null || typeof fields !== "object" || Array.isArray(fields)) return undefined;
  const body = fields as Record<string, unknown>;
  const own = flagOf(body, "");
  if (own !== undefined) return own;
  // Merged into the request or handed to the model, a flag there is the request's.
  for (const holder of PASSED_THROUGH) {
    const passed = Object.hasOwn(body, holder) ? body[holder] : undefined;
    if (passed === null || typeof passed !== "object" || Array.isArray(passed)) continue;
    const flag = flagOf(passed as Record<string, unknown>, holder);
    if (flag !== undefined) return flag;
  }
  return nestedFlag(body, [], 0);
}

/**
 * Members that may hold such a member further down, as loggers and SDKs nest
 * them: an `extra_body` inside an `extra_body`, google-genai's
 * `config.http_options.extra_body`, the `optional_params` (what was sent to the
 * provider) and `litellm_params` of a LiteLLM log. A flag met there limits the
 * calls too: read as one call, where passing it over would let both run.
 */
const NESTING_HOLDERS: ReadonlySet<string> = new Set([...PASSED_THROUGH, "config", "http_options", "httpOptions", "optional_params", "litellm_params"]);

/** How deep the holders are followed: deeper than any nesting an SDK or logger writes. */
const MAX_NESTING = 4;

/** The first flag in a member of `body` reached through holders only, below the top and the passed-through members read already. */
function nestedFlag(body: Record<string, unknown>, path: readonly string[], depth: number): OneCallFlag | undefined {
  if (depth >= MAX_NESTING) return undefined;
  for (const holder of NESTING_HOLDERS) {
    const inner = Object.hasOwn(body, holder) ? body[holder] : undefined;
    if (inner === null || typeof inner !== "object" || Array.isArray(inner)) continue;
    const at = [...path, holder];
    // The top's own passed-through members were read above.
    const flag = depth === 0 && PASSED_THROUGH.includes(holder) ? undefined : flagOf(inner as Record<string, unknown>, at.join("/"), at.join("."));
    if (flag !== undefined) return flag;
    const deeper = nestedFlag(inner as Record<string, unknown>, at, depth + 1);
    if (deeper !== undefined) return deeper;
  }
  return undefined;
}

/** The flag written among `body`'s own members; `holder` is the pointer's path of the member that holds them ("" for the top), `named` as a detail names it. */
function flagOf(body: Record<string, unknown>, holder: string, named = holder): OneCallFlag | undefined {
  const pointer = holder === "" ? "" : `/${holder}`;
  const prefix = holder === "" ? "" : `${named}.`;
  const parallel = body.parallel_tool_calls;
  if (parallel !== undefined && parallel !== null && parallel !== true) return { field: `${pointer}/parallel_tool_calls`, name: `${prefix}parallel_tool_calls`, value: parallel, boolean: parallel === false };
  const choice = body.tool_choice;
  const disable = choice !== null && typeof choice === "object" && !Array.isArray(choice) ? (choice as Record<string, unknown>).disable_parallel_tool_use : undefined;
  if (disable !== undefined && disable !== null && disable !== false) return { field: `${pointer}/tool_choice/disable_parallel_tool_use`, name: `${prefix}tool_choice.disable_parallel_tool_use`, value: disable, boolean: disable === true };
  return undefined;
}

/** A flag's value as a detail shows it, cut short. */
export function shownFlag(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
