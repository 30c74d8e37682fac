// The field by which a request, or a response object's record of its request,
// lets the response make one call only: `parallel_tool_calls` false (Chat, Open
// Responses), or Anthropic's `tool_choice.disable_parallel_tool_use` true. A
// flag of another type than a boolean (the string "false", 0) is read as one
// call too: a reader that coerces it, as lax validation and proxies do, limits
// the response so, and one that does not refuses the request. The gate, the
// stored-log readers and convert read it here alike.

export interface OneCallFlag {
  /** Its pointer in the fields read. */
  field: "/parallel_tool_calls" | "/tool_choice/disable_parallel_tool_use";
  /** Its name, as a detail writes it. */
  name: "parallel_tool_calls" | "tool_choice.disable_parallel_tool_use";
  value: unknown;
  /** Whether the value is a boolean (false, or true for disable_parallel_tool_use). */
  boolean: boolean;
}

/** The flag of `fields` that lets its response make one call, or undefined when none does. */
export function oneCallFlag(fields: unknown): OneCallFlag | undefined {
  if (fields === null || typeof fields !== "object") return undefined;
  const body = fields as Record<string, unknown>;
  const parallel = body.parallel_tool_calls;
  if (parallel !== undefined && parallel !== null && parallel !== true) return { field: "/parallel_tool_calls", name: "parallel_tool_calls", value: parallel, boolean: parallel === false };
  const choice = body.tool_choice;
  const disable = choice !== null && typeof choice === "object" && !Array.isArray(choice) ? (choice as Record<string, unknown>).disable_parallel_tool_use : undefined;
  if (disable !== undefined && disable !== null && disable !== false) return { field: "/tool_choice/disable_parallel_tool_use", name: "tool_choice.disable_parallel_tool_use", value: disable, boolean: disable === true };
  return undefined;
}

/** A flag's value as a detail shows it, cut short. */
export function shownFlag(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
