// LangChain's `tool_call_chunks` of a streamed AIMessageChunk, joined into the
// calls they stream, as a reader that follows the chunks runs them:
//
// | chunk member | joined                                                        |
// |--------------|---------------------------------------------------------------|
// | `index`      | the call it belongs to: an integer or a string names one call for every chunk that gives it; null or absent, a call of the chunk alone |
// | `name`       | the call's name, given by one chunk of the call               |
// | `id`         | the call's id, given by one chunk, or the same by several     |
// | `args`       | a fragment of the arguments text, appended in the chunks' order; null or absent adds nothing |
// | `type`       | names the kind (`tool_call_chunk`): nothing to join           |
//
// A chunk list that cannot be joined one way (a chunk that is no object, an
// index of another kind, args that are no text, a second name or another id in
// one call, a call no chunk names) gives where, and no calls: a reader of the
// chunks and one of the message's `tool_calls` may then run other calls.
import { isPlainObject } from "../../src/models/json-value.js";

/** A call the chunks stream: its id (null when none gives one), name and arguments text, and where its chunks are. */
export interface JoinedCall {
  id: string | null;
  name: string;
  args: string;
  /** The chunk that opens the call. */
  at: string;
  /** The chunk that gives its name, its id (when one does) and its first fragment of arguments (the opening chunk when none does). */
  nameAt: string;
  idAt: string;
  argsAt: string;
}

export type JoinedChunks = { calls: JoinedCall[] } | { unjoinable: { path: string; detail: string } };

interface Open {
  id?: string;
  name?: string;
  args: string;
  at: string;
  nameAt?: string;
  idAt?: string;
  argsAt?: string;
}

/** The calls `chunks` (the member at `path`) stream, in the order their first chunks come, or why they cannot be joined. */
export function joinedCallChunks(chunks: unknown, path: string): JoinedChunks {
  if (!Array.isArray(chunks)) return unjoinable(path, "tool_call_chunks that is no list");
  const open = new Map<string, Open>();
  for (let index = 0; index < chunks.length; index++) {
    const chunk = chunks[index];
    const at = `${path}/${index}`;
    if (!isPlainObject(chunk)) return unjoinable(at, "a tool call chunk that is no object");
    const key = callKey(chunk.index, index);
    if (key === undefined) return unjoinable(`${at}/index`, "a tool call chunk whose index is neither an integer, a string nor null");
    let call = open.get(key);
    if (call === undefined) {
      call = { args: "", at };
      open.set(key, call);
    }
    const { name, id, args } = chunk;
    // An empty name or id names nothing: LangChain's merge adds it to the call's without changing it.
    if (name !== undefined && name !== null && name !== "") {
      if (typeof name !== "string") return unjoinable(`${at}/name`, "a tool call chunk whose name is no text");
      // LangChain's merge appends a second name to the first, where a reader that takes one keeps one of them.
      if (call.name !== undefined) return unjoinable(`${at}/name`, `a tool call chunk that names its call again ("${name}", after "${call.name}")`);
      call.name = name;
      call.nameAt = `${at}/name`;
    }
    if (id !== undefined && id !== null && id !== "") {
      if (typeof id !== "string") return unjoinable(`${at}/id`, "a tool call chunk whose id is no text");
      if (call.id !== undefined && call.id !== id) return unjoinable(`${at}/id`, `a tool call chunk that gives its call another id ("${id}", after "${call.id}")`);
      call.id ??= id;
      call.idAt ??= `${at}/id`;
    }
    if (args !== undefined && args !== null) {
      if (typeof args !== "string") return unjoinable(`${at}/args`, "a tool call chunk whose args are no text fragment");
      call.args += args;
      call.argsAt ??= `${at}/args`;
    }
  }
  const calls: JoinedCall[] = [];
  for (const call of open.values()) {
    if (call.name === undefined) return unjoinable(call.at, "tool call chunks of a call that none of them names");
    calls.push({ id: call.id ?? null, name: call.name, args: call.args, at: call.at, nameAt: call.nameAt!, idAt: call.idAt ?? call.at, argsAt: call.argsAt ?? call.at });
  }
  return { calls };
}

/** The call a chunk belongs to: one per integer or string index, one of its own for a chunk without any. */
function callKey(index: unknown, position: number): string | undefined {
  if (index === null || index === undefined) return `alone:${position}`;
  if (typeof index === "number" && Number.isInteger(index)) return `index:${index}`;
  if (typeof index === "string") return `name:${index}`;
  return undefined;
}

function unjoinable(path: string, what: string): JoinedChunks {
  return { unjoinable: { path, detail: what } };
}
