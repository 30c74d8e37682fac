// Where a long run of loose records may be written early: only where the records
// on either side fold apart anyway.
import { describe, expect, test } from "vitest";
import { RunCalls } from "../../src/cli/run-bound.js";

const call = (callId: string) => ({ type: "function_call", call_id: callId, name: "f", arguments: "{}", status: "completed" });
const output = (callId: string) => ({ type: "function_call_output", call_id: callId, output: "done" });
const assistant = (...ids: Array<string | undefined>) => ({ role: "assistant", content: null, tool_calls: ids.map((id) => ({ ...(id === undefined ? {} : { id }), type: "function", function: { name: "f", arguments: "{}" } })) });
const tool = (id: string) => ({ role: "tool", tool_call_id: id, content: "done" });

/** settledBefore(next) after the records of `run`. */
function settled(run: unknown[], next: unknown): boolean {
  const calls = new RunCalls();
  for (const record of run) calls.add(record);
  return calls.settledBefore(next);
}

describe("items", () => {
  test("after the output of the run's only open call, before a call: settled", () => {
    expect(settled([call("a"), output("a")], call("b"))).toBe(true);
  });

  test("a call still waiting for its output: not settled, whatever comes", () => {
    expect(settled([call("a"), call("b"), output("b")], call("c"))).toBe(false);
  });

  test("before another output, which may answer a call of the run: not settled", () => {
    expect(settled([call("a"), output("a")], output("a"))).toBe(false);
  });

  test("after a call, or after reasoning that goes with the next item: not settled", () => {
    expect(settled([call("a")], call("b"))).toBe(false);
    expect(settled([call("a"), output("a"), { type: "reasoning", summary: [] }], call("b"))).toBe(false);
  });

  test("an output before its call, or a call with no call_id: the run is never settled", () => {
    expect(settled([output("a"), call("a"), output("b")], call("c"))).toBe(false);
    expect(settled([{ type: "function_call", name: "f", arguments: "{}" }, output("a")], call("c"))).toBe(false);
  });

  test("two open calls of one call_id: the run is never settled, as an output could answer either", () => {
    expect(settled([call("x"), call("y"), output("y"), call("x"), output("x")], call("z"))).toBe(false);
  });

  test("a call_id of \"\" is none, as the converters take it", () => {
    expect(settled([call(""), output("")], call("z"))).toBe(false);
    expect(settled([assistant(""), tool("")], assistant("z"))).toBe(false);
  });

  test("an extension call and its output pair by call_id as a function call does", () => {
    expect(settled([{ type: "custom_tool_call", call_id: "x", name: "g", input: "" }, { type: "custom_tool_call_output", call_id: "x", output: "" }], call("c"))).toBe(true);
    expect(settled([{ type: "custom_tool_call", call_id: "x", name: "g", input: "" }, output("a")], call("c"))).toBe(false);
  });

  test("cleared when the run is written", () => {
    const calls = new RunCalls();
    calls.add(call("a"));
    calls.clear();
    calls.add(call("b"));
    calls.add(output("b"));
    expect(calls.settledBefore(call("c"))).toBe(true);
  });
});

describe("Chat messages", () => {
  test("after the tool messages of every call, before an assistant message: settled", () => {
    expect(settled([assistant("a", "b"), tool("b"), tool("a")], assistant("c"))).toBe(true);
  });

  test("a call not yet answered, or before another tool message: not settled", () => {
    expect(settled([assistant("a", "b"), tool("b")], assistant("c"))).toBe(false);
    expect(settled([assistant("a"), tool("a")], tool("a"))).toBe(false);
  });

  test("made into items each apart: settled after any record once every call is answered", () => {
    const calls = new RunCalls();
    for (const record of [assistant("a"), tool("a"), { role: "assistant", content: "noted" }]) calls.add(record);
    expect(calls.settledBefore({ role: "assistant", content: "more" }, true)).toBe(true);
    expect(calls.settledBefore({ role: "assistant", content: "more" })).toBe(false);
    calls.add(assistant("b"));
    expect(calls.settledBefore({ role: "assistant", content: "more" }, true)).toBe(false);
  });

  test("a call with no id, a legacy function_call or a function message: not settled", () => {
    expect(settled([assistant(undefined), tool("a")], assistant("c"))).toBe(false);
    expect(settled([{ role: "assistant", content: null, function_call: { name: "f", arguments: "{}" } }, { role: "function", name: "f", content: "done" }], assistant("c"))).toBe(false);
  });
});
