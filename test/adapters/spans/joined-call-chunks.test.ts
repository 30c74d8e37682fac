// LangChain's tool_call_chunks joined per index into the calls they stream, or
// where they cannot be joined one way.
import { describe, expect, it } from "vitest";
import { joinedCallChunks } from "../../../adapters/spans/joined-call-chunks.js";

describe("chunks that join", () => {
  it("the fragments of one index, in order: one call, named and given its id by its first chunk", () => {
    const chunks = [
      { name: "delete_file", args: "", id: "call_1", index: 0, type: "tool_call_chunk" },
      { name: null, args: '{"pa', id: null, index: 0, type: "tool_call_chunk" },
      { name: null, args: 'th":"/tmp/x"}', id: null, index: 0, type: "tool_call_chunk" },
    ];
    expect(joinedCallChunks(chunks, "/m/tool_call_chunks")).toEqual({
      calls: [{ id: "call_1", name: "delete_file", args: '{"path":"/tmp/x"}', at: "/m/tool_call_chunks/0", nameAt: "/m/tool_call_chunks/0/name", idAt: "/m/tool_call_chunks/0/id", argsAt: "/m/tool_call_chunks/0/args" }],
    });
  });

  it("two indices interleaved: two calls, in the order their first chunks come", () => {
    const chunks = [
      { name: "list_files", args: '{"dir":', id: "call_2", index: 1 },
      { name: "delete_file", args: null, id: "call_1", index: 0 },
      { args: '"."}', index: 1 },
      { args: '{"path":"/tmp/x"}', index: 0 },
    ];
    expect(joinedCallChunks(chunks, "")).toEqual({
      calls: [
        { id: "call_2", name: "list_files", args: '{"dir":"."}', at: "/0", nameAt: "/0/name", idAt: "/0/id", argsAt: "/0/args" },
        { id: "call_1", name: "delete_file", args: '{"path":"/tmp/x"}', at: "/1", nameAt: "/1/name", idAt: "/1/id", argsAt: "/3/args" },
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

  it("the same id given again by a later chunk is the call's id", () => {
    expect(joinedCallChunks([{ name: "list_files", id: "call_2", index: 0, args: "{" }, { id: "call_2", index: 0, args: "}" }], "")).toEqual({
      calls: [{ id: "call_2", name: "list_files", args: "{}", at: "/0", nameAt: "/0/name", idAt: "/0/id", argsAt: "/0/args" }],
    });
  });
});

describe("chunks that do not join one way", () => {
  it.each([
    ["a member that is no list", { name: "delete_file" }, { path: "/c", detail: "tool_call_chunks that is no list" }],
    ["a chunk that is no object", ["delete_file"], { path: "/c/0", detail: "a tool call chunk that is no object" }],
    ["an index that is a fraction", [{ name: "delete_file", index: 0.5 }], { path: "/c/0/index", detail: "a tool call chunk whose index is neither an integer, a string nor null" }],
    ["args stored parsed", [{ name: "delete_file", args: { path: "/" }, index: 0 }], { path: "/c/0/args", detail: "a tool call chunk whose args are no text fragment" }],
    ["a name that is no text", [{ name: ["delete_file"], index: 0 }], { path: "/c/0/name", detail: "a tool call chunk whose name is no text" }],
    ["an id that is a number", [{ name: "delete_file", id: 7, index: 0 }], { path: "/c/0/id", detail: "a tool call chunk whose id is no text" }],
    ["a second name in one index", [{ name: "delete", index: 0 }, { name: "_file", index: 0 }], { path: "/c/1/name", detail: 'a tool call chunk that names its call again ("_file", after "delete")' }],
    ["another id in one index", [{ name: "delete_file", id: "call_1", index: 0 }, { id: "call_9", index: 0 }], { path: "/c/1/id", detail: 'a tool call chunk that gives its call another id ("call_9", after "call_1")' }],
    ["an index no chunk names", [{ name: "delete_file", index: 0, args: "{}" }, { args: '{"path":"/"}', index: 1 }], { path: "/c/1", detail: "tool call chunks of a call that none of them names" }],
  ])("%s", (_, chunks, unjoinable) => {
    expect(joinedCallChunks(chunks, "/c")).toEqual({ unjoinable });
  });
});
