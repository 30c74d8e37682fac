// Counts the tool calls a record holds, in the form of any envelope and wherever
// they sit in it. Each envelope's converter reads the calls where its envelope
// puts them; a call written anywhere else (a Chat `tool_calls` on a message of
// no role, a Gemini `functionCall` beside a part's text, a Responses item inside
// a Chat request's messages, a `choices` array on a response object) is read by
// no converter, yet an SDK of its envelope would run it. The gate compares this
// count with the calls the record gave: fewer means a call went unjudged.
//
// | counted, in any object of the record                 | envelope  |
// |------------------------------------------------------|-----------|
// | each object in a `tool_calls` array                  | Chat      |
// | `function_call`: an object with `name` and `arguments` | Chat (legacy); a request's `function_call` forcing a name has no arguments |
// |   or `args`                                          | Gemini parts in snake case                                               |
// | `functionCall`: an object                            | Gemini    |
// | `toolUse`: an object                                 | Bedrock   |
// | `type` "function_call"                               | Responses |
// | `type` "tool_use"                                    | Anthropic |
import { membersParsed } from "../models/duplicate-names.js";
import { pointerToken } from "../models/json-pointer.js";

const CALL_TYPES: ReadonlySet<string> = new Set(["function_call", "tool_use"]);
/** Members that hold one call each, in the order a path lists them. */
const CALL_MEMBERS = ["function_call", "functionCall", "toolUse"] as const;

// Every form above writes one of these names, as a member or as a `type`, and
// the only way to write one without these exact characters is a \u escape.
const CALL_NAMES = /"(?:tool_calls|function_call|functionCall|toolUse|tool_use)"|\\u/;

/**
 * True when the text a record was parsed from can hold no call in any form: it
 * writes none of the names above, and no \u escape that could spell one. Most
 * lines of a journal (messages, outputs, events) pass this test, and are then
 * not walked.
 */
export function writesNoCall(text: string): boolean {
  return !CALL_NAMES.test(text);
}

/**
 * The members every object of a parsed record names (what the duplicate-name
 * check compares with its text) and the calls it writes, in one walk: a line
 * that may hold a call is walked once for both. `undefined` when the record nests
 * past the depth that walk follows.
 */
export function tallyWritten(record: object): { members: number; calls: number } | undefined {
  let calls = 0;
  const members = membersParsed(record, (fields) => {
    calls += callsIn(fields);
  });
  return members === undefined ? undefined : { members, calls };
}

export function countWrittenCalls(record: unknown): number {
  let calls = 0;
  // An explicit stack: a record may nest far deeper than the call stack allows.
  const pending: unknown[] = [record];
  while (pending.length > 0) {
    const value = pending.pop();
    if (value === null || typeof value !== "object") continue;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) if (value[i] !== null && typeof value[i] === "object") pending.push(value[i]);
      continue;
    }
    const fields = value as Record<string, unknown>;
    calls += callsIn(fields);
    for (const key in fields) {
      const child = fields[key];
      if (child !== null && typeof child === "object" && Object.hasOwn(fields, key)) pending.push(child);
    }
  }
  return calls;
}

/** JSON Pointers to the first `limit` calls of the record, in the order the record writes them. */
export function writtenCallPaths(record: unknown, limit: number): string[] {
  const paths: string[] = [];
  const pending: Array<{ value: unknown; path: string }> = [{ value: record, path: "" }];
  while (pending.length > 0 && paths.length < limit) {
    const { value, path } = pending.pop()!;
    if (value === null || typeof value !== "object") continue;
    const children: Array<{ value: unknown; path: string }> = [];
    if (Array.isArray(value)) {
      value.forEach((child, index) => children.push({ value: child, path: `${path}/${index}` }));
    } else {
      const fields = value as Record<string, unknown>;
      const own: string[] = [];
      callsIn(fields, own);
      for (const at of own) if (paths.length < limit) paths.push(at === "" ? path || "the record itself" : `${path}/${at}`);
      for (const key of Object.keys(fields)) children.push({ value: fields[key], path: `${path}/${pointerToken(key)}` });
    }
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return paths;
}

/**
 * How many calls the object writes itself; with `paths`, where each sits
 * relative to the object ("" for the object itself) is added to it. Counting
 * alone builds nothing: every object of every record is asked.
 */
function callsIn(fields: Record<string, unknown>, paths?: string[]): number {
  let calls = 0;
  const toolCalls = fields.tool_calls;
  if (Array.isArray(toolCalls)) {
    for (let index = 0; index < toolCalls.length; index++) {
      const call: unknown = toolCalls[index];
      if (!isObject(call)) continue;
      calls += 1;
      paths?.push(`tool_calls/${index}`);
    }
  }
  for (const member of CALL_MEMBERS) {
    if (member === "function_call" ? !isLegacyCall(fields.function_call) : !isObject(fields[member])) continue;
    calls += 1;
    paths?.push(member);
  }
  if (typeof fields.type === "string" && CALL_TYPES.has(fields.type)) {
    calls += 1;
    paths?.push("");
  }
  return calls;
}

/** Chat's legacy call, or a Gemini part's call in snake case: a name and its arguments or args. A request's `function_call` forcing a name has neither. */
function isLegacyCall(value: unknown): boolean {
  return isObject(value) && "name" in value && ("arguments" in value || "args" in value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
