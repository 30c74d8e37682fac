// Messages flattened into one attribute per field, gathered back into messages:
//
// | attributes                                                   | dialect              |
// |--------------------------------------------------------------|----------------------|
// | `gen_ai.prompt.N.{role,content,tool_call_id}`, `…tool_calls.M.{id,name,arguments}` | OpenLLMetry (older GenAI) |
// | `gen_ai.completion.N.{role,content,finish_reason,tool_calls.M.*}` |                 |
// | `llm.input_messages.N.message.{role,content,name,tool_call_id}` | OpenInference      |
// | `…message.contents.K.message_content.{type,text,image.image.url}` |                 |
// | `…message.tool_calls.M.tool_call.{id,function.name,function.arguments}` |          |
//
// The result is Chat-shaped messages (with their `finish_reason`, which says
// whether a call was cut short), which read-messages.ts reads like any other.
import { isPlainObject } from "../../src/models/json-value.js";
import type { Attributes } from "./attributes.js";

export interface IndexedMessages {
  messages: unknown[];
  /** Where each message's first attribute stands in the document. */
  paths: string[];
  /** Every attribute the messages were built from. */
  keys: string[];
}

/** The messages under `prefix` (`gen_ai.prompt`, `llm.input_messages`), or undefined when there are none. */
export function indexedMessages(attributes: Attributes, prefix: string): IndexedMessages | undefined {
  const tree: unknown[] = [];
  const paths: string[] = [];
  const keys: string[] = [];
  const head = prefix + ".";
  for (const [key, located] of attributes) {
    if (!key.startsWith(head)) continue;
    const tokens = key.slice(head.length).split(".");
    if (!/^(?:0|[1-9][0-9]*)$/.test(tokens[0])) continue;
    const index = Number(tokens[0]);
    paths[index] ??= located.path;
    keys.push(key);
    setPath(tree, tokens, located.value);
  }
  if (tree.length === 0) return undefined;
  const messages: unknown[] = [];
  const kept: string[] = [];
  tree.forEach((entry, index) => {
    if (entry === undefined) return;
    messages.push(unwrap(entry));
    kept.push(paths[index]);
  });
  return { messages, paths: kept, keys };
}

function setPath(root: unknown[] | Record<string, unknown>, tokens: string[], value: unknown): void {
  let node: Record<string, unknown> | unknown[] = root;
  tokens.forEach((token, at) => {
    const last = at === tokens.length - 1;
    const key: string | number = Array.isArray(node) ? Number(token) : token;
    if (last) {
      (node as Record<string | number, unknown>)[key] = value;
      return;
    }
    const nextIsIndex = /^(?:0|[1-9][0-9]*)$/.test(tokens[at + 1]);
    let child = (node as Record<string | number, unknown>)[key];
    if (child === undefined || typeof child !== "object" || child === null) {
      child = nextIsIndex ? [] : {};
      (node as Record<string | number, unknown>)[key] = child;
    }
    node = child as Record<string, unknown> | unknown[];
  });
}

/** OpenInference wraps each level (`message`, `tool_call`, `message_content`): unwrapped to Chat's shape. */
function unwrap(entry: unknown): unknown {
  if (!isPlainObject(entry)) return entry;
  const message = isPlainObject(entry.message) ? entry.message : entry;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(message)) {
    if (key === "tool_calls" && Array.isArray(value)) {
      result.tool_calls = value.filter((call) => call !== undefined).map((call) => (isPlainObject(call) && isPlainObject(call.tool_call) ? call.tool_call : call));
    } else if (key === "contents" && Array.isArray(value)) {
      result.content = value
        .filter((part) => part !== undefined)
        .map((part) => {
          const inner = isPlainObject(part) && isPlainObject(part.message_content) ? part.message_content : part;
          if (isPlainObject(inner) && inner.type === "image" && isPlainObject(inner.image) && isPlainObject(inner.image.image)) return { type: "image_url", image_url: { url: inner.image.image.url } };
          return inner;
        });
    } else {
      result[key] = value;
    }
  }
  return result;
}
