// LangChain's `tool_call_chunks` of a streamed AIMessageChunk, read as the calls
// they stand for. A message's list is already merged: LangChain joins the
// fragments of an index when it adds chunks, and a message it builds or loads
// makes one call of each entry of its list (its `tool_calls`), so each entry is
// read as a call of its own:
//
// | chunk member | read                                                          |
// |--------------|---------------------------------------------------------------|
// | `index`      | the call's place in the stream: an integer or a string given by no other entry, or null or absent |
// | `name`       | the call's name                                               |
// | `id`         | the call's id; null or absent, none                           |
// | `args`       | the arguments text; null or absent, none                      |
// | `type`       | names the kind (`tool_call_chunk`): nothing to read           |
//
// A list that cannot be read one way (a chunk that is no object, an index of
// another kind, an index another entry gives, args that are no text, a call no
// chunk names) gives where, and no calls: a reader of the chunks and one of the
// message's `tool_calls` may then run other calls.
import { isPlainObject } from "../../src/models/json-value.js";

/** A call a chunk stands for: its id (null when it gives none), name and arguments text, and where its members are. */
export interface JoinedCall {
  id: string | null;
  name: string;
  args: string;
  /** The chunk. */
  at: string;
  /** Its name, its id and its arguments (the chunk itself when it gives none). */
  nameAt: string;
  idAt: string;
  argsAt: string;
}

export type JoinedChunks = { calls: JoinedCall[] } | { unjoinable: { path: string; detail: string } };

/** The calls `chunks` (the member at `path`) stand for, one per entry in their order, or why they cannot be read one way. */
export function joinedCallChunks(chunks: unknown, path: string): JoinedChunks {
  if (!Array.isArray(chunks)) return unjoinable(path, "tool_call_chunks that is no list");
  // By the index's text: a reader that keys fragments by index in an object takes 0 and "0" for one call.
  const indices = new Map<string, number>();
  const calls: JoinedCall[] = [];
  for (let position = 0; position < chunks.length; position++) {
    const chunk = chunks[position];
    const at = `${path}/${position}`;
    if (!isPlainObject(chunk)) return unjoinable(at, "a tool call chunk that is no object");
    const index = chunk.index;
    if (index !== null && index !== undefined) {
      if (typeof index === "number" ? !Number.isInteger(index) : typeof index !== "string") return unjoinable(`${at}/index`, "a tool call chunk whose index is neither an integer, a string nor null");
      // A reader that takes the list for a stream's fragments joins the two into one call, where LangChain makes a call of each.
      const earlier = indices.get(String(index));
      if (earlier !== undefined) return unjoinable(`${at}/index`, `a tool call chunk whose index ${JSON.stringify(index)} chunk ${earlier} gives too (LangChain makes a call of each, a reader joining fragments by index one)`);
      indices.set(String(index), position);
    }
    const { name, id, args } = chunk;
    // An empty name names nothing: LangChain makes a call named "" of it.
    if (name === undefined || name === null || name === "") return unjoinable(at, "a tool call chunk that names no call");
    if (typeof name !== "string") return unjoinable(`${at}/name`, "a tool call chunk whose name is no text");
    if (id !== undefined && id !== null && typeof id !== "string") return unjoinable(`${at}/id`, "a tool call chunk whose id is no text");
    if (args !== undefined && args !== null && typeof args !== "string") return unjoinable(`${at}/args`, "a tool call chunk whose args are no text");
    const given = (member: unknown, field: string) => (member === undefined || member === null || member === "" ? at : `${at}/${field}`);
    calls.push({ id: typeof id === "string" && id !== "" ? id : null, name, args: typeof args === "string" ? args : "", at, nameAt: `${at}/name`, idAt: given(id, "id"), argsAt: given(args, "args") });
  }
  return { calls };
}

function unjoinable(path: string, what: string): JoinedChunks {
  return { unjoinable: { path, detail: what } };
}
