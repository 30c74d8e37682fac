// A call a trace holds is read, or said not read: never dropped unsaid. A
// Responses item that carries a role besides its type is the item its type
// says. A Langfuse observation read as no LLM call (an EVENT, a CHAIN) that
// holds a call no LLM call of the trace holds is a call no reading judged: it
// is said unreadable, which the gate blocks; one that says another call under a
// call's id withdraws that call.
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { DELETE_FILE, gateVerdicts, generation, lossesOf, records } from "../../support/span-documents.js";

const user = [{ role: "user", content: "clean up" }];
const chatCall = (args: string) => ({ role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "delete_file", arguments: args } }] });

describe("a Responses item with a role", () => {
  const document = generation(user, [{ type: "function_call", role: "assistant", call_id: "call_1", name: "delete_file", arguments: '{"path":"/tmp/x"}', status: "completed" }]);

  test("is read as its type says, its role reported", () => {
    expect(records("langfuse", document)).toEqual([
      { type: "message", role: "user", content: "clean up" },
      { type: "function_call", call_id: "call_1", name: "delete_file", arguments: '{"path":"/tmp/x"}', status: "completed" },
    ]);
    expect(lossesOf("langfuse", document, "left_behind").filter((loss) => loss.path.includes("/output"))).toEqual([
      { path: "/observations/0/output/0/role", code: "left_behind", detail: "role of the function_call item is in no item", span: "o1" },
    ]);
  });

  test("and gated", async () => {
    expect(await gateVerdicts(document, [DELETE_FILE])).toEqual({ code: 0, verdicts: [["not_function_call", false], ["ok", false]] });
  });
});

describe("a call in an observation read as no LLM call", () => {
  const event = (output: unknown) => ({ trace: { id: "tr1" }, observations: [{ id: "o2", traceId: "tr1", type: "EVENT", startTime: "2026-01-01T00:00:00.000Z", input: user, output }] });

  test("an EVENT that alone holds it: unreadable, not read", () => {
    const document = event(chatCall('{"path":"/tmp/x"}'));
    expect(records("langfuse", document)).toEqual([]);
    expect(lossesOf("langfuse", document, "unreadable")).toEqual([
      { path: "/observations/0/output", code: "unreadable", detail: 'the EVENT observation\'s output holds a call of "delete_file" with {"path":"/tmp/x"} that no LLM call of the trace holds, and an observation of type EVENT is read as no LLM call: not read', span: "o2" },
    ]);
  });

  test("the gate blocks it as a line of its own", async () => {
    expect(await gateVerdicts(event(chatCall('{"path":"/tmp/x"}')), [DELETE_FILE])).toEqual({ code: 1, verdicts: [["error", true]] });
  });

  const chain = (args: string) => ({ id: "o3", traceId: "tr1", type: "CHAIN", startTime: "2026-01-01T00:00:01.000Z", input: user, output: chatCall(args) });

  test("a CHAIN that repeats the generation's call: nothing more said", () => {
    const document = generation(user, chatCall('{"path":"/tmp/x"}'), [chain('{ "path": "/tmp/x" }')]);
    expect(records("langfuse", document).filter((record) => record.type === "function_call")).toEqual([{ type: "function_call", call_id: "call_1", name: "delete_file", arguments: '{"path":"/tmp/x"}', status: "completed" }]);
    expect(lossesOf("langfuse", document, "unreadable", "conflict")).toEqual([]);
  });

  test("a CHAIN that gives the call's id other arguments: the call is withdrawn, each copy a conflict", () => {
    const document = generation(user, chatCall('{"path":"/tmp/x"}'), [chain('{"path":"/etc/passwd"}')]);
    expect(records("langfuse", document).filter((record) => record.type === "function_call")).toEqual([]);
    expect(lossesOf("langfuse", document, "conflict").map(({ path, span }) => [path, span])).toEqual([
      ["/observations/0/output/tool_calls/0", "o1"],
      ["/observations/1/output", "o3"],
    ]);
    expect(READERS.langfuse.read(document).messages).toEqual({ read: 2, emitted: 1, repeated: 0, reported: 1 });
  });
});
