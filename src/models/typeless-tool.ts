// Mistral writes a function tool of a Chat request without its `type`:
// `{"function": {name, description, parameters}}`, which its API reads as a
// function tool. The gate's reader of request tools and the Chat adapter both
// take it so, by this one test.

/** A Chat tool without `type` that holds only its `function` object. */
export function isTypelessFunctionTool(tool: Record<string, unknown>): boolean {
  const body = tool.function;
  return !Object.hasOwn(tool, "type") && body !== null && typeof body === "object" && !Array.isArray(body) && Object.keys(tool).length === 1;
}
