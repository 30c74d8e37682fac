// What a Chat or Open Responses answer may restate of its request: the members
// by which it says which calls the request allowed. A stream that gives one of
// them two ways (response.created against response.completed, one chunk against
// another) ends its calls two ways, and both stream readers look for these.

/** The members of a response object or a completion chunk that repeat what its request allowed the calls. */
export const RESTATED_LIMITS: ReadonlySet<string> = new Set(["tool_choice", "tools", "parallel_tool_calls"]);
