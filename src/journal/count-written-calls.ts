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
// |   or `args`, or with `name` alone where no request's | Gemini parts in snake case, whose readers run a call without args with `{}` |
// |   `messages`, `functions` or `model` stand beside it |                                                                          |
// | `functionCall`: an object                            | Gemini    |
// | `toolUse`: an object                                 | Bedrock   |
// | `type` "function_call"                               | Responses |
// | `type` "tool_use"                                    | Anthropic |
// | `type` that folds to one of these two (`Tool_use`,   | a reader  |
// |   `function_call `, `ｔｏｏｌ＿ｕｓｅ`, `tool_use\u200b`)  | that folds|
//
// A type is folded as tool names are (folded-name.ts): no envelope defines
// `Tool_use`, so its converter keeps the block as a part it cannot read, or
// drops it with a loss, while a reader that trims, folds case or normalizes
// Unicode runs it as the call it spells.
//
// A member is read by its name as a loose reader folds it (names-folded-twice.ts):
// `Tool_calls` and `functioncall` hold calls a Go replayer runs, as `tool_calls`
// and `functionCall` do. So is a `type`: `Type` beside no `type` is the type
// such a reader sees. The walk also finds the objects that name one member
// twice so folded; the line is then no record, as with a name given twice.
//
// An object one of the members above holds as a call is that one call, whatever
// its own `type` says: Bedrock writes `"type":"tool_use"` inside a server tool's
// `toolUse`, which no reader takes for a second call.
import { MAX_RECURSION } from "../models/duplicate-names.js";
import { pointerToken } from "../models/json-pointer.js";
import { comparedName, dataPlace, foldedKey, foldsOntoAnother, isOwnFoldKey, RECORD_NAMES, type DataPlace } from "../models/names-folded-twice.js";

const CALL_TYPES: ReadonlySet<string> = new Set(["function_call", "tool_use"]);

/** Whether a `type` value is a call's, as written or once folded. */
function isCallType(type: string): boolean {
  return CALL_TYPES.has(type) || CALL_TYPES.has(comparedName(type));
}

/**
 * Whether an item's own type spells a call no converter read: folded
 * (`Function_Call`), or kept with its envelope's slug (`anthropic:Tool_use`).
 * The gate blocks such an item itself, so the call it writes is judged.
 */
export function spellsUnreadCall(type: string): boolean {
  const bare = type.slice(type.lastIndexOf(":") + 1);
  return bare !== "function_call" && isCallType(bare);
}

/** What one walk of a parsed record counts. */
export interface WrittenTally {
  /** Own keys of every object: what the duplicate-name check compares with the text. */
  members: number;
  /** The tool calls written, as countWrittenCalls counts them. */
  calls: number;
  /** Whether an object of the record has a member named `parsed_arguments` (parsed-arguments-numbers.ts). */
  parsedArguments: boolean;
  /** Whether an object of the record names one member twice once names are folded, of the names RECORD_NAMES counts (firstNamesFoldedTwice says where). */
  foldedTwice: boolean;
}

/**
 * The members every object of a parsed record names, the calls it writes and
 * whether it names `parsed_arguments`, in one walk of every line. `undefined` when the record nests past the depth that
 * walk follows, or when Object.prototype holds an enumerable member; the callers
 * then count with walks of their own.
 *
 * The walk goes by each object's keys and asks each key's value once: a call is
 * known by the name of the member that holds it (or a `type` value), so no
 * object is asked for names it does not have. Reading five names of every
 * object cost twice this walk, and a test of the text for those names, made to
 * spare most lines that reading, cost as much as the walk again.
 */
export function tallyWritten(record: object): WrittenTally | undefined {
  // The walk goes by for-in, which would also count a member some code put on
  // Object.prototype as enumerable; then the callers count with walks of their own.
  if (inheritsEnumerable()) return undefined;
  const tally: WrittenTally = { members: 0, calls: 0, parsedArguments: false, foldedTwice: false };
  return tallyIn(record, 0, tally) ? tally : undefined;
}

function inheritsEnumerable(): boolean {
  for (const _ in {}) return true;
  return false;
}

/**
 * False past MAX_RECURSION. `held`: the value is a call its member counted (or,
 * for an array, holds such calls), so its own `type` adds none. `holder`: the
 * name the value is reached by, as callsHeldBy asks it; `place`: where the
 * record holds data, whose names are not compared folded (dataPlace).
 */
function tallyIn(value: object, depth: number, tally: WrittenTally, held = false, holder?: string, place?: DataPlace): boolean {
  if (depth > MAX_RECURSION) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i];
      // Only the calls of a held array are held, not what an array in it holds.
      if (child !== null && typeof child === "object" && !tallyIn(child, depth + 1, tally, held && !Array.isArray(child), holder, place === "value" ? "value" : undefined)) return false;
    }
    return true;
  }
  const fields = value as Record<string, unknown>;
  // for-in, not Object.keys: on the objects JSON.parse makes it walks the keys
  // without building an array of them, which was a twentieth of what a line
  // allocates. tallyWritten makes sure no key is inherited.
  let members = 0;
  // The keys that are not their own fold: only with one can two keys fold to one.
  let folding: string[] | undefined;
  let typed = false;
  for (const key in fields) {
    members += 1;
    // Keys JSON.parse made and this literal are both internalized: a pointer comparison, with escapes already read.
    if (key === "parsed_arguments") tally.parsedArguments = true;
    const own = isOwnFoldKey(key);
    if (!own) (folding ??= []).push(key);
    const child = fields[key];
    if (child === null) continue;
    if (typeof child === "object") {
      const member = own ? key : foldedKey(key);
      const calls = callsHeldBy(member, child, fields);
      tally.calls += calls;
      if (!tallyIn(child, depth + 1, tally, calls > 0, member, place === "value" ? "value" : dataPlace(holder, member, fields))) return false;
    } else if (!held && typeof child === "string" && (key === "type" || (!own && foldedKey(key) === "type")) && isCallType(child)) {
      typed = true;
    }
  }
  // An object is one call however many of its names read as `type`.
  if (typed) tally.calls += 1;
  if (folding !== undefined && place === undefined && !tally.foldedTwice && foldsOntoAnother(folding, fields, RECORD_NAMES)) tally.foldedTwice = true;
  tally.members += members;
  return true;
}

/**
 * The calls an object's member holds by its name alone: the one rule of the
 * table above for members, which every count here asks. `key`: the name as
 * written when it is its own fold, else folded (`functionCall` is asked as
 * `functioncall`).
 */
function callsHeldBy(key: string, child: object, parent: Record<string, unknown>): number {
  switch (key) {
    case "tool_calls": {
      if (!Array.isArray(child)) return 0;
      let calls = 0;
      for (let index = 0; index < child.length; index++) if (isObject(child[index])) calls += 1;
      return calls;
    }
    case "function_call":
      return isLegacyCall(child, parent) ? 1 : 0;
    case "functionCall":
    case "toolUse":
    case "functioncall":
    case "tooluse":
      return Array.isArray(child) ? 0 : 1;
    default:
      return 0;
  }
}

export function countWrittenCalls(record: unknown): number {
  let calls = 0;
  // An explicit stack: a record may nest far deeper than the call stack allows.
  const pending: Array<{ value: unknown; held: boolean }> = [{ value: record, held: false }];
  while (pending.length > 0) {
    const { value, held } = pending.pop()!;
    if (value === null || typeof value !== "object") continue;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) if (value[i] !== null && typeof value[i] === "object") pending.push({ value: value[i], held: held && !Array.isArray(value[i]) });
      continue;
    }
    const fields = value as Record<string, unknown>;
    calls += callsIn(fields, held);
    for (const key in fields) {
      const child = fields[key];
      if (child !== null && typeof child === "object" && Object.hasOwn(fields, key)) pending.push({ value: child, held: callsHeldBy(comparedName(key), child, fields) > 0 });
    }
  }
  return calls;
}

/** JSON Pointers to the first `limit` calls of the record, in the order the record writes them. */
export function writtenCallPaths(record: unknown, limit: number): string[] {
  const paths: string[] = [];
  const pending: Array<{ value: unknown; path: string; held: boolean }> = [{ value: record, path: "", held: false }];
  while (pending.length > 0 && paths.length < limit) {
    const { value, path, held } = pending.pop()!;
    if (value === null || typeof value !== "object") continue;
    const children: Array<{ value: unknown; path: string; held: boolean }> = [];
    if (Array.isArray(value)) {
      value.forEach((child, index) => children.push({ value: child, path: `${path}/${index}`, held: held && !Array.isArray(child) }));
    } else {
      const fields = value as Record<string, unknown>;
      const own: string[] = [];
      callsIn(fields, held, own);
      for (const at of own) if (paths.length < limit) paths.push(at === "" ? path || "the record itself" : `${path}/${at}`);
      for (const key of Object.keys(fields)) {
        const child = fields[key];
        children.push({ value: child, path: `${path}/${pointerToken(key)}`, held: child !== null && typeof child === "object" && callsHeldBy(comparedName(key), child, fields) > 0 });
      }
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
function callsIn(fields: Record<string, unknown>, held: boolean, paths?: string[]): number {
  let calls = 0;
  let typed = false;
  for (const key of Object.keys(fields)) {
    const child = fields[key];
    const member = comparedName(key);
    if (member === "type" && !held && typeof child === "string" && isCallType(child)) typed = true;
    if (child === null || typeof child !== "object") continue;
    const count = callsHeldBy(member, child, fields);
    if (count === 0) continue;
    calls += count;
    if (paths === undefined) continue;
    if (member !== "tool_calls") {
      paths.push(pointerToken(key));
      continue;
    }
    const toolCalls = child as unknown[];
    for (let index = 0; index < toolCalls.length; index++) if (isObject(toolCalls[index])) paths.push(`${pointerToken(key)}/${index}`);
  }
  // An object is one call however many of its names read as `type`.
  if (typed) {
    calls += 1;
    paths?.push("");
  }
  return calls;
}

/**
 * Chat's legacy call, or a Gemini part's call in snake case: a name and its
 * arguments or args, or a name alone anywhere but beside a request's messages.
 * There a name alone is the request forcing that function; a Gemini part's call
 * without args is one its readers run with `{}`.
 */
function isLegacyCall(value: unknown, parent: Record<string, unknown>): boolean {
  if (!isObject(value) || !("name" in value)) return false;
  if ("arguments" in value || "args" in value) return true;
  return !("messages" in parent || "functions" in parent || "model" in parent);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
