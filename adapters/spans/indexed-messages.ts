// Messages flattened into one attribute per field, gathered back into messages:
//
// | attributes                                                   | dialect              |
// |--------------------------------------------------------------|----------------------|
// | `gen_ai.prompt.N.{role,content,tool_call_id}`, `…tool_calls.M.{id,name,arguments}` | OpenLLMetry (older GenAI) |
// | `gen_ai.completion.N.{role,content,finish_reason,tool_calls.M.*}` |                 |
// | `llm.input_messages.N.message.{role,content,name,tool_call_id}` | OpenInference      |
// | `…message.contents.K.message_content.{type,text,image.image.url}` |                 |
// | `…message.tool_calls.M.tool_call.{id,function.name,function.arguments}` |          |
// | `…message.{function_call_name,function_call_arguments_json}` (legacy functions) |   |
//
// The result is Chat-shaped messages (with their `finish_reason`, which says
// whether a call was cut short), which read-messages.ts reads like any other.
// A level written both inside its wrapper and beside it (`…N.message.tool_calls`
// and `…N.tool_calls`; `…M.tool_call.function.*` and `…M.function.*`) is read
// once where the two agree; where they do not, a reader of either form reads
// another message or call, so it is given as written two ways, and not read.
// Instrumentations number messages, calls and parts from 0 without a gap: an
// index left out (`…tool_calls.0`, `…tool_calls.2`) is a level whose attributes
// were dropped (an attribute limit, an exporter), said as a gap, so that what is
// left is not taken for the whole answer.
import { isPlainObject, setOwn } from "../../src/models/json-value.js";
import type { Attributes } from "./attributes.js";
import { sameArgumentsWritten, WrittenTwoWays } from "./message-parts.js";

export interface IndexedMessages {
  messages: unknown[];
  /** Where each message's first attribute stands in the document. */
  paths: string[];
  /** Every attribute the messages were built from. */
  keys: string[];
  /** Each level whose indices skip one: the attributes' common name and the indices missing, at the first attribute of the level. */
  gaps: IndexGap[];
}

export interface IndexGap {
  level: string;
  missing: number[];
  path: string;
}

/** A level of the attributes' tree: its members by token, in the order first met, or the value an attribute gave it. */
type TreeNode = Map<string, TreeNode> | { value: unknown };

/** The largest index a level of messages, calls or parts is read at: far beyond any conversation, far below an array no reader could walk. */
const MAX_INDEX = 1_000_000;

/**
 * The messages under `prefix` (`gen_ai.prompt`, `llm.input_messages`), or
 * undefined when there are none. An attribute that cannot take its place (an
 * index past MAX_INDEX, a level that is both a value and a member of another
 * attribute) is not taken, so that its reader reports it as in no item.
 */
export function indexedMessages(attributes: Attributes, prefix: string): IndexedMessages | undefined {
  const tree: TreeNode = new Map();
  const paths = new Map<string, string>();
  const firstPaths = new Map<TreeNode, string>();
  const keys: string[] = [];
  const head = prefix + ".";
  for (const [key, located] of attributes) {
    if (!key.startsWith(head)) continue;
    const tokens = key.slice(head.length).split(".");
    if (!isIndex(tokens[0]!)) continue;
    if (!place(tree, tokens, located.value, located.path, firstPaths)) continue;
    if (!paths.has(tokens[0]!)) paths.set(tokens[0]!, located.path);
    keys.push(key);
  }
  if (tree.size === 0) return undefined;
  const messages: unknown[] = [];
  const kept: string[] = [];
  for (const index of [...tree.keys()].sort((a, b) => Number(a) - Number(b))) {
    messages.push(unwrap(plain(tree.get(index)!)));
    kept.push(paths.get(index)!);
  }
  const gaps: IndexGap[] = [];
  findGaps(tree, prefix, firstPaths, gaps);
  return { messages, paths: kept, keys, gaps };
}

/** The levels of the tree whose members are all indices and skip one. */
function findGaps(node: TreeNode, name: string, firstPaths: ReadonlyMap<TreeNode, string>, gaps: IndexGap[]): void {
  if (!(node instanceof Map)) return;
  const tokens = [...node.keys()];
  if (tokens.length > 0 && tokens.every(isIndex)) {
    const present = new Set(tokens.map(Number));
    const missing: number[] = [];
    for (let index = 0; index <= Math.max(...present) && missing.length < 10; index++) if (!present.has(index)) missing.push(index);
    if (missing.length > 0) gaps.push({ level: name, missing, path: firstPaths.get(node)! });
  }
  for (const token of tokens) findGaps(node.get(token)!, `${name}.${token}`, firstPaths, gaps);
}

function isIndex(token: string): boolean {
  return /^(?:0|[1-9][0-9]{0,6})$/.test(token) && Number(token) <= MAX_INDEX;
}

/** Puts the value at its tokens; false when a level on the way is a value already, or the place holds a level or a value. */
function place(root: Map<string, TreeNode>, tokens: readonly string[], value: unknown, path: string, firstPaths: Map<TreeNode, string>): boolean {
  const levels: TreeNode[] = [root];
  let level = root;
  for (let i = 0; i < tokens.length - 1; i++) {
    const token = tokens[i]!;
    if (/^[0-9]+$/.test(token) && !isIndex(token)) return false;
    let next = level.get(token);
    if (next === undefined) level.set(token, (next = new Map()));
    if (!(next instanceof Map)) return false;
    level = next;
    levels.push(level);
  }
  const last = tokens[tokens.length - 1]!;
  if (level.has(last) || (/^[0-9]+$/.test(last) && !isIndex(last))) return false;
  level.set(last, { value });
  for (const placed of levels) if (!firstPaths.has(placed)) firstPaths.set(placed, path);
  return true;
}

/**
 * The level as a JSON value: a list in index order when every member is an
 * index (gaps closed up), else an object whose members are own data members,
 * whatever their names (`__proto__` included).
 */
function plain(node: TreeNode): unknown {
  if (!(node instanceof Map)) return node.value;
  const tokens = [...node.keys()];
  if (tokens.length > 0 && tokens.every(isIndex)) return tokens.sort((a, b) => Number(a) - Number(b)).map((token) => plain(node.get(token)!));
  const fields: Record<string, unknown> = {};
  for (const token of tokens) setOwn(fields, token, plain(node.get(token)!));
  return fields;
}

/** OpenInference wraps each level (`message`, `tool_call`, `message_content`): unwrapped to Chat's shape. */
function unwrap(entry: unknown): unknown {
  return level(entry, "message", "the message", chatMessage);
}

function chatMessage(message: unknown): unknown {
  if (!isPlainObject(message)) return message;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(message)) {
    if (key === "tool_calls" && Array.isArray(value)) {
      result.tool_calls = value.filter((call) => call !== undefined).map((call) => level(call, "tool_call", "the tool call", (inner) => inner));
    } else if (key === "function_call_name" || key === "function_call_arguments_json") {
      // Beside a function_call of its own, the flattened call is compared with it below.
      if (Object.hasOwn(message, "function_call")) continue;
      // OpenInference's legacy function call, flattened: Chat's function_call, which read-messages.ts reads as a call.
      const call = isPlainObject(result.function_call) ? result.function_call : (result.function_call = {});
      setOwn(call as Record<string, unknown>, key === "function_call_name" ? "name" : "arguments", value);
    } else if (key === "contents" && Array.isArray(value)) {
      result.content = value.filter((part) => part !== undefined).map((part) => level(part, "message_content", "the content part", contentPart));
    } else {
      setOwn(result, key, value);
    }
  }
  if (Object.hasOwn(message, "function_call") && !flattenedCallAgrees(message)) {
    result.function_call = new WrittenTwoWays("the legacy function call is written twice, as function_call and as function_call_name and function_call_arguments_json, and the two disagree");
  }
  return result;
}

/**
 * Whether the flattened legacy call, where the message writes one beside its
 * function_call, says the same call: a reader of either form runs the call it
 * finds, so two calls there are read as neither.
 */
function flattenedCallAgrees(message: Record<string, unknown>): boolean {
  const flattened: Record<string, unknown> = {};
  if (Object.hasOwn(message, "function_call_name")) flattened.name = message.function_call_name;
  if (Object.hasOwn(message, "function_call_arguments_json")) flattened.arguments = message.function_call_arguments_json;
  return Object.keys(flattened).length === 0 || agree(message.function_call, flattened, "function_call");
}

function contentPart(inner: unknown): unknown {
  if (isPlainObject(inner) && inner.type === "image" && isPlainObject(inner.image) && isPlainObject(inner.image.image)) return { type: "image_url", image_url: { url: inner.image.image.url } };
  return inner;
}

/**
 * A level read through `read`, unwrapped from its wrapper member when it has
 * one. Members written beside the wrapper must say what the wrapped level says
 * of them; else the level is written two ways.
 */
function level(node: unknown, wrapper: string, what: string, read: (inner: unknown) => unknown): unknown {
  if (!isPlainObject(node) || !isPlainObject(node[wrapper])) return read(node);
  const wrapped = read(node[wrapper]);
  const besideMembers = Object.fromEntries(Object.entries(node).filter(([key]) => key !== wrapper));
  if (Object.keys(besideMembers).length === 0) return wrapped;
  const beside = read(besideMembers);
  const differing = isPlainObject(wrapped) && isPlainObject(beside) ? Object.keys(beside).filter((key) => !agree(wrapped[key], beside[key], key)) : ["itself"];
  if (differing.length === 0) return wrapped;
  return new WrittenTwoWays(`${what} is written twice, inside ${wrapper} and beside it, and the two disagree on ${differing.join(", ")}`);
}

/** Two readings of one level that say the same: arguments by what they mean, anything else exactly. */
function agree(left: unknown, right: unknown, key: string): boolean {
  if (key === "arguments" && typeof left === "string" && typeof right === "string") return sameArgumentsWritten(left, right);
  if (left instanceof WrittenTwoWays || right instanceof WrittenTwoWays) return false;
  if (Array.isArray(left) && Array.isArray(right)) return left.length === right.length && left.every((element, index) => agree(element, right[index], key));
  if (isPlainObject(left) && isPlainObject(right)) {
    const keys = Object.keys(left);
    return keys.length === Object.keys(right).length && keys.every((inner) => Object.hasOwn(right, inner) && agree(left[inner], right[inner], inner));
  }
  return left === right;
}
