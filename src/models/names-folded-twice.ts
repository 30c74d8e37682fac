// Two member names of one object that a loose reader takes for one:
// `{"arguments":"…","Arguments":"…"}`, `{"tool_calls":[…],"Tool_calls":[…]}`.
// JSON.parse keeps both, and the gate reads the one spelled as its envelope
// spells it; Go's encoding/json matches a field's name regardless of case (and
// reads `ſ` as `s`, `K` as `k`), and keeps the last value, so a replayer written
// in Go would run the other. Names are compared as folded-name.ts folds them,
// which covers case, width and invisible characters.
//
// Only names a reader decodes as a field matter: a Go map keeps `The` and `the`
// apart, and a tool result, a word count, a map of HTTP headers or a schema's
// `properties` may hold both. So a pair counts when its fold is a name that
// decides what a call is, runs or is allowed (RECORD_NAMES, for a record of a
// journal), or, in a call's arguments, a property its tool's schema declares.
import { foldName } from "./folded-name.js";
import { pointerToken } from "./json-pointer.js";
import { quoteVisible } from "./quote-visible.js";

/** Which folded names count: a pair of names that fold to another is no reading apart. */
export type FoldedNames = (folded: string) => boolean;

/**
 * The names, folded, that the readers of every envelope take a call, its
 * arguments, its result, its stream or the tools allowed it from: two names of
 * an object of a record that fold to one of these make the record no record.
 */
const RECORD_NAME_LIST = [
  // Open Responses and Chat items, messages, bodies and streams
  "type", "id", "call_id", "name", "arguments", "status", "output", "role", "content", "namespace", "parsed_arguments", "input", "item", "items",
  "tools", "tool_choice", "parallel_tool_calls", "allowed_tools", "mode", "function", "parameters", "strict", "instructions", "model", "messages",
  "tool_calls", "tool_call_id", "function_call", "functions", "index", "delta", "choices", "finish_reason", "message", "response", "request",
  "output_index", "item_id", "content_index", "error", "incomplete_details", "refusal", "text", "summary", "encrypted_content", "event", "data",
  "custom", "sequence_number",
  // Anthropic Messages
  "tool_use", "tool_result", "tool_use_id", "is_error", "input_schema", "disable_parallel_tool_use", "stop_reason", "content_block", "partial_json", "system",
  // Gemini, folded from camelCase
  "functioncall", "functionresponse", "args", "parts", "contents", "candidates", "toolconfig", "functioncallingconfig", "allowedfunctionnames",
  "functiondeclarations", "parametersjsonschema", "finishreason", "thoughtsignature", "willcontinue", "partialargs", "responseid",
  // a streamed call's pieces, which set its args at their path
  "jsonpath", "stringvalue", "numbervalue", "boolvalue", "nullvalue",
  // Gemini in snake case, which its readers read alike (adapters/gemini/fields.ts)
  "function_response", "tool_config", "function_calling_config", "allowed_function_names", "function_declarations", "parameters_json_schema",
  "thought_signature", "will_continue", "partial_args", "response_id", "json_path", "string_value", "number_value", "bool_value", "null_value",
  // Bedrock Converse
  "tooluse", "tooluseid", "toolresult", "toolchoice", "toolspec", "inputschema", "json", "stopreason", "contentblockstart", "contentblockdelta", "start", "any", "auto", "tool",
  "contentblockindex", "contentblockstop", "messagestart", "messagestop",
  // the Vercel AI SDK's messages and calls, in a span attribute's JSON text
  "toolcallid", "toolname",
];
const RECORD_NAME_SET: ReadonlySet<string> = new Set(RECORD_NAME_LIST);
export const RECORD_NAMES: FoldedNames = (folded) => RECORD_NAME_SET.has(folded);

/**
 * The names, folded, a stored log's document is read by (OTLP, Langfuse, an
 * OpenAI list page), and those of RECORD_NAMES, which its records hold.
 */
const STORED_LOG_NAME_SET: ReadonlySet<string> = new Set([
  "resourcespans", "scopespans", "spans", "attributes", "key", "value", "stringvalue", "intvalue", "doublevalue", "boolvalue", "arrayvalue", "kvlistvalue", "values",
  "events", "traceid", "spanid", "parentspanid", "observations", "trace", "object", "has_more", "metadata", "body", "usage", "resource", "scope", "kind",
  // whether a span or an observation failed
  "code", "status_code", "statuscode", "level",
]);
export const STORED_LOG_NAMES: FoldedNames = (folded) => RECORD_NAME_SET.has(folded) || STORED_LOG_NAME_SET.has(folded);

/**
 * Where a record holds data, not fields, a reader decodes a map and keeps every
 * name apart: "keys", the member's own keys are a map's (a schema's
 * `properties`), its values read as before; "value", all of its value is data
 * (a tool's result, a call's arguments as an object, which the gate judges by
 * the names its schema declares). `holder` and `key` are as callsHeldBy asks
 * them (count-written-calls.ts): as written when their own fold, else folded.
 */
export type DataPlace = "keys" | "value" | undefined;

const NAME_MAPS: ReadonlySet<string> = new Set(["properties", "patternproperties", "$defs", "definitions", "dependentschemas", "dependentrequired"]);
const CALL_HOLDERS: ReadonlySet<string> = new Set(["functioncall", "function_call"]);
const RESULT_HOLDERS: ReadonlySet<string> = new Set(["functionresponse", "function_response"]);
// The members that hold a call's arguments or its result, by the type of the
// part or block that holds them: Anthropic's blocks, OpenTelemetry's GenAI
// parts and the Vercel AI SDK's, as a span's messages write them.
const DATA_BY_TYPE: ReadonlyMap<unknown, ReadonlySet<string>> = new Map([
  ["tool_use", new Set(["input"])],
  ["server_tool_use", new Set(["input"])],
  ["tool_call", new Set(["arguments", "args", "input"])],
  ["tool_call_response", new Set(["response", "result"])],
  ["tool-call", new Set(["input", "args"])],
  ["tool-result", new Set(["output", "result"])],
]);

export function dataPlace(holder: string | undefined, key: string, fields: Record<string, unknown>): DataPlace {
  if (NAME_MAPS.has(key)) return "keys";
  if (DATA_BY_TYPE.get(fields.type)?.has(key) === true) return "value";
  switch (key) {
    // Gemini: a call's args, a function's response.
    case "args":
      return holder !== undefined && CALL_HOLDERS.has(holder) ? "value" : undefined;
    case "response":
      return holder !== undefined && RESULT_HOLDERS.has(holder) ? "value" : undefined;
    // Bedrock's call input; a request's `input` is text or items.
    case "input":
      return holder === "tooluse" ? "value" : undefined;
    // Bedrock: a tool result's JSON; the JSON of a tool's input schema is a schema, read as before.
    case "json":
      return holder === "inputschema" ? undefined : "value";
    default:
      return undefined;
  }
}


export interface NamesFoldedTwice {
  names: [string, string];
  /** JSON Pointer to the object that holds both. */
  path: string;
}

/**
 * Whether a name is its own fold: printable ASCII without capitals. Every
 * other name is folded before it is compared, and two names that are each their
 * own fold are one only when they are equal, which no parsed object allows.
 */
export function isOwnFold(name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    // Outside 0x21-0x7e, or a capital.
    if (code - 0x21 > 0x5d || code - 0x21 < 0 || (code >= 0x41 && code <= 0x5a)) return false;
  }
  return true;
}

// The names of a journal are few: each folded once, and each asked once
// whether it is its own fold (every key of every line asks; a lookup costs a
// third of the test).
const FOLDS = new Map<string, string>();
const OWN_FOLDS = new Map<string, boolean>();
const MAX_FOLDS = 4096;
/** Up to this many keys of one object that are not their own fold are compared pairwise. */
const FEW_FOLDING = 16;

/** `isOwnFold(name)`, remembered. */
export function isOwnFoldKey(name: string): boolean {
  return remembered(OWN_FOLDS, name, isOwnFold);
}

/** `foldName(name)`, remembered. */
export function foldedKey(name: string): string {
  return remembered(FOLDS, name, foldName);
}

/** A name as two names are compared: as written when it is its own fold, else folded. */
export function comparedName(name: string): string {
  return isOwnFoldKey(name) ? name : foldedKey(name);
}

/** What `answer` gives for `name`, kept while the map holds fewer than MAX_FOLDS names. */
function remembered<T>(answers: Map<string, T>, name: string, answer: (name: string) => T): T {
  let known = answers.get(name);
  if (known !== undefined) return known;
  known = answer(name);
  if (answers.size < MAX_FOLDS) answers.set(name, known);
  return known;
}

/**
 * Whether a key of `folding`, the object's keys that are not their own fold,
 * folds to another key of it: one written as that fold, or another of `folding`.
 */
export function foldsOntoAnother(folding: readonly string[], fields: object, counts: FoldedNames): boolean {
  // Past a few keys, a set of the folds seen: comparing each with all before it
  // grew with the square of an object's keys (a line of 30,000 such names took
  // a minute), and once the cache is full each comparison folds anew.
  const seen = folding.length > FEW_FOLDING ? new Set<string>() : undefined;
  for (let i = 0; i < folding.length; i++) {
    const folded = foldedKey(folding[i]!);
    if (!counts(folded)) continue;
    if (folded !== folding[i] && Object.hasOwn(fields, folded)) return true;
    if (seen !== undefined) {
      if (seen.has(folded)) return true;
      seen.add(folded);
    } else for (let j = 0; j < i; j++) if (foldedKey(folding[j]!) === folded) return true;
  }
  return false;
}

/** Two names of the object's own keys that fold to one that `counts`, or undefined. */
export function keysFoldedTwice(fields: object, counts: FoldedNames): [string, string] | undefined {
  const keys = Object.keys(fields);
  const seen = new Map<string, string>();
  for (const key of keys) {
    const folded = comparedName(key);
    if (!counts(folded)) continue;
    const before = seen.get(folded);
    if (before !== undefined) return [before, key];
    seen.set(folded, key);
  }
  return undefined;
}

/**
 * Whether some object of a parsed value may name one member twice once folded:
 * false only when none does. Only an object with a key that is not its own fold
 * is asked, and nothing is built for the others: arguments of every call pass here.
 */
export function mayFoldTwice(value: unknown, counts: FoldedNames, depth = 0): boolean {
  if (value === null || typeof value !== "object") return false;
  // Past this depth the walk of firstNamesFoldedTwice, with a stack of its own, decides.
  if (depth > 256) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (mayFoldTwice(value[i], counts, depth + 1)) return true;
    return false;
  }
  const fields = value as Record<string, unknown>;
  let folds = false;
  // for-in over a parsed value: no array of keys built, and none inherited (JSON.parse sets own members only).
  for (const key in fields) {
    if (!folds && !isOwnFoldKey(key)) folds = true;
    if (mayFoldTwice(fields[key], counts, depth + 1)) return true;
  }
  return folds && keysFoldedTwice(fields, counts) !== undefined;
}

/**
 * The first object of a parsed value, in document order, with two names that
 * fold to one that `counts`; a stack of its own, for any depth. `records`: the
 * value is a record (or holds records), whose data places (dataPlace) are read as written.
 */
export function firstNamesFoldedTwice(value: unknown, counts: FoldedNames, records = false): NamesFoldedTwice | undefined {
  type Pending = { value: unknown; path: string; holder?: string; place?: DataPlace };
  const pending: Pending[] = [{ value, path: "" }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next.value === null || typeof next.value !== "object") continue;
    const children: Pending[] = [];
    if (Array.isArray(next.value)) {
      // Items of a list of data are data; a list of a map's values is no map.
      const place = next.place === "value" ? "value" : undefined;
      next.value.forEach((child, index) => children.push({ value: child, path: `${next.path}/${index}`, holder: next.holder, place }));
    } else {
      const fields = next.value as Record<string, unknown>;
      const keys = Object.keys(fields);
      if (next.place === undefined && !keys.every(isOwnFold)) {
        const names = keysFoldedTwice(fields, counts);
        if (names !== undefined) return { names, path: next.path };
      }
      for (const key of keys) {
        const holder = records ? comparedName(key) : undefined;
        const place = !records ? undefined : next.place === "value" ? "value" : dataPlace(next.holder, holder!, fields);
        children.push({ value: fields[key], path: `${next.path}/${pointerToken(key)}`, holder, place });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return undefined;
}

/** The sentence that reports such names: `what` is the text's subject ("line", "arguments"). */
export function describeNamesFoldedTwice(what: string, found: NamesFoldedTwice): string {
  const [first, second] = found.names.map((name) => quoteVisible(name));
  return `${what} has the names ${first} and ${second} in one object, at ${found.path === "" ? "the top level" : quoteVisible(found.path, 200)}: a reader that matches names regardless of case or width (Go's encoding/json does) takes them for one name and keeps the last value`;
}
