// One conversation from calls that each repeat the history before them.
import { describe, expect, it } from "vitest";
import { ConversationBuilder } from "../../../adapters/spans/rebuild-conversation.js";
import type { ReaderLoss } from "../../../adapters/stored-log/reading.js";

const user = (content: string) => ({ item: { type: "message", role: "user", content }, path: "/u" });
const assistant = (content: string) => ({ item: { type: "message", role: "assistant", content }, path: "/a" });

describe("repeated history", () => {
  it("a message said twice by the user is two messages; its repeats in later calls are none", () => {
    const losses: ReaderLoss[] = [];
    const conversation = new ConversationBuilder("t1", losses);
    conversation.addInput([user("yes")]);
    conversation.addOutput([assistant("Sure?")]);
    conversation.addInput([user("yes"), assistant("Sure?"), user("yes")]);
    conversation.addOutput([assistant("Done.")]);
    conversation.addInput([user("yes"), assistant("Sure?"), user("yes"), assistant("Done.")]);
    expect(conversation.items.map(({ item }) => [item.role, item.content])).toEqual([
      ["user", "yes"],
      ["assistant", "Sure?"],
      ["user", "yes"],
      ["assistant", "Done."],
    ]);
    expect({ emitted: conversation.emitted, repeated: conversation.repeated, losses }).toEqual({ emitted: 4, repeated: 6, losses: [] });
  });
});

describe("a call_id seen before", () => {
  const call = (args: string, name = "report") => ({ item: { type: "function_call", call_id: "call_X", name, arguments: args, status: "completed" }, path: "/c" });

  it("with the same name and arguments (spacing, member order and a number's spelling aside) is a repeat", () => {
    const losses: ReaderLoss[] = [];
    const conversation = new ConversationBuilder("t3", losses);
    conversation.addOutput([call('{"region":"apac","year":2026}')]);
    conversation.addInput([call('{"year": 2026.0, "region": "apac"}')]);
    expect(conversation.settled().map(({ item }) => item.arguments)).toEqual(['{"region":"apac","year":2026}']);
    expect({ emitted: conversation.emitted, repeated: conversation.repeated, losses }).toEqual({ emitted: 1, repeated: 1, losses: [] });
  });

  it("with other arguments, or a number a double does not hold written otherwise, is a conflict: neither call is emitted, and each sighting is reported", () => {
    const first = '{"region":"apac","id":12345678901234567890}';
    for (const other of ['{"region":"mars","id":12345678901234567890}', '{"region":"apac","id":12345678901234567891}']) {
      const losses: ReaderLoss[] = [];
      const conversation = new ConversationBuilder("t3", losses);
      conversation.addOutput([call(first)]);
      conversation.addInput([{ ...call(other), path: "/later" }], "s2");
      expect(conversation.settled()).toEqual([]);
      expect(losses.map(({ path, code }) => [path, code])).toEqual([["/c", "conflict"], ["/later", "conflict"]]);
      expect(losses[1].detail).toBe(`the call "call_X" is recorded again as "report" with ${other}, where it was "report" with ${first}: two readers would run two calls, so none is read`);
      expect({ emitted: conversation.emitted, reported: conversation.reported }).toEqual({ emitted: 0, reported: 2 });
    }
  });

  it("twice in one answer is two calls, for the gate to find the call_id given twice, as in a chat.completion", () => {
    const conversation = new ConversationBuilder("t3", []);
    conversation.addOutput([call("{}"), call("{}")]);
    expect(conversation.settled()).toHaveLength(2);
    conversation.addInput([call("{}")]);
    expect({ items: conversation.settled().length, repeated: conversation.repeated }).toEqual({ items: 2, repeated: 1 });
  });

  it("under another name is a conflict", () => {
    const losses: ReaderLoss[] = [];
    const conversation = new ConversationBuilder("t3", losses);
    conversation.addOutput([call("{}")]);
    conversation.addInput([call("{}", "delete_all")]);
    expect(conversation.settled()).toEqual([]);
    expect(losses.map((loss) => loss.code)).toEqual(["conflict", "conflict"]);
  });
});

describe("a tool run that says otherwise than its call", () => {
  const call = { item: { type: "function_call", call_id: "call_T", name: "lookup", arguments: '{"id": 7}', status: "completed" }, path: "/c" };

  it("with the same arguments, however spaced, is its result", () => {
    const losses: ReaderLoss[] = [];
    const conversation = new ConversationBuilder("t5", losses);
    conversation.addOutput([call]);
    conversation.addToolResult({ callId: "call_T", name: "lookup", arguments: '{"id":7}', said: { names: [{ value: "lookup", path: "/name" }], arguments: [{ value: '{"id":7}', path: "/args" }] }, output: "found", path: "/t" });
    expect(conversation.settled().map(({ item }) => item.type)).toEqual(["function_call", "function_call_output"]);
    expect(losses).toEqual([]);
  });

  it("with other arguments or another tool name: the call is not emitted, its result is kept, and the place of the arguments the tool ran with is named", () => {
    for (const run of [{ name: "lookup", arguments: '{"id": 8}' }, { name: "delete" }]) {
      const losses: ReaderLoss[] = [];
      const conversation = new ConversationBuilder("t5", losses);
      conversation.addOutput([call]);
      conversation.addToolResult({ callId: "call_T", ...run, said: { names: [{ value: run.name, path: "/t" }], arguments: run.arguments ? [{ value: run.arguments, path: "/args" }] : [] }, output: "found", path: "/t", span: "tool1" });
      expect(conversation.settled().map(({ item }) => item)).toEqual([{ type: "function_call_output", call_id: "call_T", output: "found" }]);
      expect(losses.map(({ path, code, span }) => [path, code, span])).toEqual([["/c", "conflict", undefined], [run.arguments ? "/args" : "/t", "conflict", "tool1"]]);
    }
  });
});

describe("a second copy of a span's messages", () => {
  const call = (callId: string | undefined, args: string) => ({ item: { type: "function_call", ...(callId ? { call_id: callId } : {}), name: "lookup", arguments: args, status: "completed" }, path: "/copy" });

  it("that holds each call as the conversation does changes nothing", () => {
    const losses: ReaderLoss[] = [];
    const conversation = new ConversationBuilder("t6", losses);
    conversation.addOutput([call("call_C", '{"id":1}')]);
    conversation.compareCopy([call("call_C", '{ "id": 1 }'), user("hi")], "s1", "the copy");
    expect(conversation.settled()).toHaveLength(1);
    expect(losses).toEqual([]);
  });

  it("that holds a call otherwise, or a call the conversation lacks, is a conflict", () => {
    const cases: Array<{ copy: ReturnType<typeof call>; emitted: number; detail: string }> = [
      { copy: call("call_C", '{"id":2}'), emitted: 0, detail: 'the copy records the call "call_C" as "lookup" with {"id":2}, where it is "lookup" with {"id":1}' },
      { copy: call(undefined, '{"id":2}'), emitted: 0, detail: 'the copy records a call of "lookup" with {"id":2}, where the call "call_C" is {"id":1}' },
      { copy: call("call_D", '{"id":1}'), emitted: 1, detail: 'the copy records a call "call_D" of "lookup" with {"id":1} that no other copy holds' },
    ];
    for (const { copy, emitted, detail } of cases) {
      const losses: ReaderLoss[] = [];
      const conversation = new ConversationBuilder("t6", losses);
      conversation.addOutput([call("call_C", '{"id":1}')]);
      conversation.compareCopy([copy], "s1", "the copy");
      expect(conversation.settled()).toHaveLength(emitted);
      expect(losses.at(-1)).toEqual({ path: "/copy", code: "conflict", detail: `${detail}: two readers would run two calls, so none is read`, span: "s1" });
    }
  });
});

describe("calls without ids", () => {
  it("take the id of the tool run that names them; a repeat of the call in a later request is matched by name and arguments", () => {
    const losses: ReaderLoss[] = [];
    const conversation = new ConversationBuilder("t2", losses);
    const call = () => ({ item: { type: "function_call", name: "wave", arguments: "{}", status: "completed" }, path: "/c" });
    conversation.addInput([user("hi")]);
    conversation.addOutput([call()]);
    expect(losses.map((loss) => loss.code)).toEqual(["synthesized"]);
    conversation.addToolResult({ callId: "adk-1", name: "wave", arguments: "{ }", output: '{"greeting": "hello"}', path: "/t" });
    conversation.addInput([user("hi"), call(), { item: { type: "function_call_output", output: '{"greeting":"hello"}' }, path: "/r", pendingName: "wave" }]);
    expect(conversation.items.map(({ item }) => item)).toEqual([
      { type: "message", role: "user", content: "hi" },
      { type: "function_call", call_id: "adk-1", name: "wave", arguments: "{}", status: "completed" },
      { type: "function_call_output", call_id: "adk-1", output: '{"greeting": "hello"}' },
    ]);
    // The id the tool ran with replaces the one made up, which is then no loss.
    expect(losses).toEqual([]);
  });

  it("a later history's call of the same tool with other arguments is a conflict, not a new call", () => {
    const losses: ReaderLoss[] = [];
    const conversation = new ConversationBuilder("t2", losses);
    const call = (args: string) => ({ item: { type: "function_call", name: "wave", arguments: args, status: "completed" }, path: "/c" });
    conversation.addOutput([call('{"to":"a"}')]);
    conversation.addInput([user("hi"), call('{"to":"b"}')]);
    expect(conversation.settled().filter(({ item }) => item.type === "function_call")).toEqual([]);
    expect(losses.filter((loss) => loss.code === "conflict")).toHaveLength(2);
  });

  it("a tool run of the same tool with other arguments, naming none of them, is a conflict: the call is not emitted, its result is kept without it", () => {
    for (const callId of [undefined, "adk-2"]) {
      const losses: ReaderLoss[] = [];
      const conversation = new ConversationBuilder("t2", losses);
      conversation.addOutput([{ item: { type: "function_call", name: "write", arguments: '{"text":"Tuesday"}', status: "completed" }, path: "/c" }]);
      conversation.addToolResult({ ...(callId ? { callId } : {}), name: "write", arguments: '{"text":"rm -rf"}', said: { names: [], arguments: [{ value: '{"text":"rm -rf"}', path: "/t/args" }] }, output: "{}", path: "/t", span: "s2" });
      expect(conversation.settled().map(({ item }) => item.type)).toEqual(["function_call_output"]);
      expect(losses.filter((loss) => loss.code === "conflict").map(({ path, detail }) => [path, detail])).toEqual([
        ["/c", `the call "${String(conversation.items[0]!.item.call_id)}" of "write" is recorded in ways that disagree: two readers would run two calls, so none is read`],
        ["/t/args", `the tool span ran "write" with the arguments {"text":"rm -rf"}, those of none of the unanswered calls of that tool, and names none of them by its id (the call "${String(conversation.items[0]!.item.call_id)}" is {"text":"Tuesday"}): two readers would run two calls, so none is read`],
      ]);
    }
  });

  it("a tool run of other arguments that names another call's own id, or of another tool, leaves a call alone", () => {
    const losses: ReaderLoss[] = [];
    const conversation = new ConversationBuilder("t2", losses);
    conversation.addOutput([{ item: { type: "function_call", call_id: "call_1", name: "write", arguments: '{"text":"Tuesday"}', status: "completed" }, path: "/c" }]);
    conversation.addToolResult({ callId: "call_2", name: "write", arguments: '{"text":"Monday"}', output: "{}", path: "/t" });
    conversation.addToolResult({ name: "read", arguments: '{"text":"Monday"}', output: "{}", path: "/t" });
    expect(conversation.settled().map(({ item }) => [item.type, item.call_id])).toEqual([
      ["function_call", "call_1"],
      ["function_call_output", "call_2"],
      ["function_call_output", undefined],
    ]);
    expect(losses.filter((loss) => loss.code === "conflict")).toEqual([]);
  });

  it("made again alike in a later answer are two calls, each given the result the history gives it", () => {
    const losses: ReaderLoss[] = [];
    const conversation = new ConversationBuilder("t2", losses);
    const call = () => ({ item: { type: "function_call", name: "wave", arguments: "{}", status: "completed" }, path: "/c" });
    const result = (output: string) => ({ item: { type: "function_call_output", output }, path: "/r", pendingName: "wave" });
    conversation.addInput([user("hi")]);
    conversation.addOutput([call()]);
    conversation.addInput([user("hi"), call(), result("first")]);
    conversation.addOutput([call()]);
    conversation.addInput([user("hi"), call(), result("first"), call(), result("second")]);
    const ids = conversation.items.filter(({ item }) => item.type === "function_call").map(({ item }) => item.call_id);
    expect(conversation.settled().map(({ item }) => item)).toEqual([
      { type: "message", role: "user", content: "hi" },
      { type: "function_call", call_id: ids[0], name: "wave", arguments: "{}", status: "completed" },
      { type: "function_call_output", call_id: ids[0], output: "first" },
      { type: "function_call", call_id: ids[1], name: "wave", arguments: "{}", status: "completed" },
      { type: "function_call_output", call_id: ids[1], output: "second" },
    ]);
    expect(ids[1]).not.toBe(ids[0]);
    expect({ emitted: conversation.emitted, repeated: conversation.repeated, losses: losses.map((loss) => loss.code) }).toEqual({ emitted: 5, repeated: 6, losses: ["synthesized", "synthesized"] });
  });

  it("keep a synthesized id, the same on every run, when no tool run names them", () => {
    const ids = [1, 2].map(() => {
      const conversation = new ConversationBuilder("t3", []);
      conversation.addOutput([{ item: { type: "function_call", name: "wave", arguments: "{}", status: "completed" }, path: "/c" }]);
      return conversation.items[0].item.call_id;
    });
    expect(ids[0]).toMatch(/^call_[0-9a-f]{24}$/);
    expect(ids[1]).toBe(ids[0]);
  });
});

describe("results", () => {
  const call = { item: { type: "function_call", call_id: "call_R", name: "delete_file", arguments: '{"path":"/a"}', status: "completed" }, path: "/c" };
  const historyResult = (output: string) => ({ item: { type: "function_call_output", call_id: "call_R", output }, path: "/h" });

  it("a later history that gives a call another result than its tool span is a conflict: neither result is emitted, and each sighting is reported", () => {
    const losses: ReaderLoss[] = [];
    const conversation = new ConversationBuilder("t6", losses);
    conversation.addOutput([call]);
    conversation.addToolResult({ callId: "call_R", name: "delete_file", output: "permission denied", path: "/t", span: "s2" });
    conversation.addInput([call, historyResult("deleted")], "s3");
    expect(conversation.settled().map(({ item }) => item.type)).toEqual(["function_call"]);
    expect(losses).toEqual([
      { path: "/t", code: "conflict", detail: 'the result of the call "call_R" is recorded in ways that disagree: two readers would send two results, so none is read', span: "s2" },
      { path: "/h", code: "conflict", detail: 'the result of the call "call_R" is recorded again as "deleted", where it was "permission denied": two readers would send two results, so none is read', span: "s3" },
    ]);
    expect({ emitted: conversation.emitted, repeated: conversation.repeated, reported: conversation.reported }).toEqual({ emitted: 1, repeated: 1, reported: 2 });
  });

  it("a result given again as JSON of other spacing, or in the Microsoft Agent Framework's function_result record, is a repeat", () => {
    const losses: ReaderLoss[] = [];
    const conversation = new ConversationBuilder("t6", losses);
    conversation.addOutput([call]);
    conversation.addToolResult({ callId: "call_R", name: "delete_file", output: '{"deleted": true}', path: "/t" });
    conversation.addInput([call, historyResult('{"deleted":true}')]);
    conversation.addInput([call, historyResult('{"type": "function_result", "call_id": "call_R", "result": {"deleted": true}}')]);
    expect(conversation.settled().map(({ item }) => item)).toEqual([call.item, { type: "function_call_output", call_id: "call_R", output: '{"deleted": true}' }]);
    expect({ repeated: conversation.repeated, losses }).toEqual({ repeated: 4, losses: [] });
  });

  it("a tool run's result met before its call (a tool span whose clock runs early) answers the call, after the answer that made it", () => {
    const losses: ReaderLoss[] = [];
    const conversation = new ConversationBuilder("t7", losses);
    conversation.addToolResult({ callId: "call_R", name: "delete_file", arguments: '{"path":"/a"}', output: "deleted", path: "/t", span: "s2" });
    conversation.addInput([user("delete a")], "s1");
    conversation.addOutput([call], "s1");
    conversation.addInput([user("delete a"), call, historyResult("deleted"), assistant("Done.")], "s3");
    expect(conversation.settled().map(({ item }) => item)).toEqual([
      { type: "message", role: "user", content: "delete a" },
      call.item,
      { type: "function_call_output", call_id: "call_R", output: "deleted" },
      { type: "message", role: "assistant", content: "Done." },
    ]);
    expect(losses).toEqual([]);
  });

  it("a tool run's result with no call in the conversation is kept and reported", () => {
    const losses: ReaderLoss[] = [];
    const conversation = new ConversationBuilder("t4", losses);
    conversation.addToolResult({ callId: "call_9", name: "lookup", output: "42", path: "/t", span: "s9" });
    expect(conversation.items.map(({ item }) => item)).toEqual([{ type: "function_call_output", call_id: "call_9", output: "42" }]);
    expect(losses).toEqual([{ path: "/t", code: "unmatched_result", detail: 'a result of "lookup" that no call of the conversation made: kept as an output', span: "s9" }]);
  });
});
