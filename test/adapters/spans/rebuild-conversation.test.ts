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
  it("with the same name and arguments (spacing aside) is a repeat; with other arguments it is another call, kept for the gate to find the call_id twice", () => {
    const losses: ReaderLoss[] = [];
    const conversation = new ConversationBuilder("t3", losses);
    const call = (args: string) => ({ item: { type: "function_call", call_id: "call_X", name: "report", arguments: args, status: "completed" }, path: "/c" });
    conversation.addOutput([call('{"region":"apac"}')]);
    conversation.addInput([call('{"region": "apac"}')]);
    conversation.addOutput([call('{"region":"mars"}')]);
    expect(conversation.items.map(({ item }) => item.arguments)).toEqual(['{"region":"apac"}', '{"region":"mars"}']);
    expect({ emitted: conversation.emitted, repeated: conversation.repeated }).toEqual({ emitted: 2, repeated: 1 });
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
  it("a tool run's result with no call in the conversation is kept and reported", () => {
    const losses: ReaderLoss[] = [];
    const conversation = new ConversationBuilder("t4", losses);
    conversation.addToolResult({ callId: "call_9", name: "lookup", output: "42", path: "/t", span: "s9" });
    expect(conversation.items.map(({ item }) => item)).toEqual([{ type: "function_call_output", call_id: "call_9", output: "42" }]);
    expect(losses).toEqual([{ path: "/t", code: "unmatched_result", detail: 'a result of "lookup" that no call of the conversation made: kept as an output', span: "s9" }]);
  });
});
