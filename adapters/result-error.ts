// Anthropic's `is_error` and Bedrock's `status` of a tool result say the same
// thing, whether the tool failed, and Open Responses has no place for it: each
// adapter keeps its own under its slug. Written for the other of the two, the
// flag goes to that one's field, rather than being lost.
//
// | kept                      | Anthropic tool_result | Bedrock toolResult |
// |---------------------------|-----------------------|--------------------|
// | `anthropic:is_error` true | is_error true         | status "error"     |
// | `anthropic:is_error` false| is_error false        | status "success"   |
// | `bedrock:status` "error"  | is_error true         | status "error"     |
// | `bedrock:status` "success"| is_error false        | status "success"   |
// Any other value stays the field of its own envelope, and the other reports it.

/** The failure flag that `output` keeps for the other envelope, as that envelope writes it; undefined when it keeps none that reads as one. */
export function foreignResultError(output: Record<string, unknown>, target: "anthropic" | "bedrock"): { key: string; value: boolean | string; detail: string } | undefined {
  if (target === "anthropic") {
    if (output["anthropic:is_error"] !== undefined) return undefined;
    const status = output["bedrock:status"];
    if (status !== "error" && status !== "success") return undefined;
    return { key: "bedrock:status", value: status === "error", detail: `Bedrock's status "${status}" written as Anthropic's is_error ${status === "error"}` };
  }
  if (output["bedrock:status"] !== undefined) return undefined;
  const isError = output["anthropic:is_error"];
  if (typeof isError !== "boolean") return undefined;
  const status = isError ? "error" : "success";
  return { key: "anthropic:is_error", value: status, detail: `Anthropic's is_error ${isError} written as Bedrock's status "${status}"` };
}
