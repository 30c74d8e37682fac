// LangChain's tool_call_chunks read as the calls they stand for, one per entry
// of a message's merged list, or where they cannot be read one way.
import { describe, expect, it } from "vitest";
import { joinedCallChunks } from "../../../adapters/spans/joined-call-chunks.js";

describe("chunks read one way", () => {
  it("one entry per index, in the list's order: a call each, with its name, id and arguments", () => {
    const chunks = [
      { name: "list_files", args: '{"dir":"."}', id: "call_2", index: 1, type: "tool_call_chunk" },
      { name: "delete_file", args: '{"path":"/tmp/x"}', id: "call_1", index: 0, type: "tool_call_chunk" },
    ];
    expect(joinedCallChunks(chunks, "/m/tool_call_chunks")).toEqual({
      calls: [
        { id: "call_2", name: "list_files", args: '{"dir":"."}', at: "/m/tool_call_chunks/0", nameAt: "/m/tool_call_chunks/0/name", idAt: "/m/tool_call_chunks/0/id", argsAt: "/m/tool_call_chunks/0/args" },
        { id: "call_1", name: "delete_file", args: '{"path":"/tmp/x"}', at: "/m/tool_call_chunks/1", nameAt: "/m/tool_call_chunks/1/name", idAt: "/m/tool_call_chunks/1/id", argsAt: "/m/tool_call_chunks/1/args" },
      ],
    });
  });

  it("chunks without an index are a call each, and a call without id or args keeps none", () => {
    expect(joinedCallChunks([{ name: "list_files", index: null }, { name: "list_files", args: "{}" }], "")).toEqual({
      calls: [
        { id: null, name: "list_files", args: "", at: "/0", nameAt: "/0/name", idAt: "/0", argsAt: "/0" },
        { id: null, name: "list_files", args: "{}", at: "/1", nameAt: "/1/name", idAt: "/1", argsAt: "/1/args" },
      ],
    });
  });
});

describe("chunks that cannot be read one way", () => {
  it.each([
    ["a member that is no list", { name: "delete_file" }, { path: "/c", detail: "tool_call_chunks that is no list" }],
    ["a chunk that is no object", ["delete_file"], { path: "/c/0", detail: "a tool call chunk that is no object" }],
    ["an index that is a fraction", [{ name: "delete_file", index: 0.5 }], { path: "/c/0/index", detail: "a tool call chunk whose index is neither an integer, a string nor null" }],
    ["args stored parsed", [{ name: "delete_file", args: { path: "/" }, index: 0 }], { path: "/c/0/args", detail: "a tool call chunk whose args are no text" }],
    ["a name that is no text", [{ name: ["delete_file"], index: 0 }], { path: "/c/0/name", detail: "a tool call chunk whose name is no text" }],
    ["an id that is a number", [{ name: "delete_file", id: 7, index: 0 }], { path: "/c/0/id", detail: "a tool call chunk whose id is no text" }],
    ["a chunk that names no call", [{ name: "delete_file", index: 0, args: "{}" }, { name: "", args: '{"path":"/"}', index: 1 }], { path: "/c/1", detail: "a tool call chunk that names no call" }],
    [
      "the fragments of one index, which LangChain reads as a call each",
      [{ name: "delete_file", id: "call_1", index: 0, args: '{"path":"/tmp/x' }, { name: null, id: null, index: 0, args: '/keep"}' }],
      { path: "/c/1/index", detail: 'a tool call chunk whose index 0 chunk 0 gives too (LangChain makes a call of each, a reader joining fragments by index one)' },
    ],
    [
      "an index written as a number and as its text",
      [{ name: "delete_file", id: "call_1", index: 0, args: "{}" }, { name: "list_files", id: "call_2", index: "0", args: "{}" }],
      { path: "/c/1/index", detail: 'a tool call chunk whose index "0" chunk 0 gives too (LangChain makes a call of each, a reader joining fragments by index one)' },
    ],
  ])("%s", (_, chunks, unjoinable) => {
    expect(joinedCallChunks(chunks, "/c")).toEqual({ unjoinable });
  });
});
