// A stored chat.completion that carries its request's tool_choice, tools or
// parallel_tool_calls says what its calls were allowed, as an Open Responses
// response object does: they hold for its own calls, beside the choice in force.
import { describe, expect, test } from "vitest";
import { gateJournal } from "../../src/gate/gate-journal.js";
import { ToolRegistry } from "../../src/gate/tool-registry.js";

const chatTool = (name: string) => ({ type: "function", function: { name, parameters: { type: "object" } } });
const tools = [chatTool("get_weather"), chatTool("delete_all")];
const chatCall = (n: number, name = "get_weather") => ({ id: `call_${n}`, type: "function", function: { name, arguments: "{}" } });
const choice = (index: number, calls: unknown[]) => ({ index, message: { role: "assistant", content: null, tool_calls: calls }, logprobs: null, finish_reason: "tool_calls" });
const completion = (fields: Record<string, unknown>, choices = [choice(0, [chatCall(1)])]) => ({ id: "chatcmpl_1", object: "chat.completion", created: 1, model: "gpt-4o", ...fields, choices });

interface Gated {
  line: number;
  call_id: unknown;
  blocked: boolean;
  findings: string[];
}

async function gated(...records: unknown[]): Promise<Gated[]> {
  const found: Gated[] = [];
  for await (const record of gateJournal(records.map((record) => JSON.stringify(record)), { registry: ToolRegistry.fromToolsFile(tools, "tools") })) {
    if (record.type !== "function_call") continue;
    found.push({ line: record.line, call_id: record.call_id, blocked: record.blocked, findings: record.findings.map((finding) => finding.detail) });
  }
  return found;
}

const refused = (line: number, callId: string, why: string): Gated => ({ line, call_id: callId, blocked: true, findings: [`"get_weather" is not allowed: ${why}`] });
const passed = (line: number, callId: string): Gated => ({ line, call_id: callId, blocked: false, findings: [] });

describe("a chat.completion on a line of its own", () => {
  test.each([
    [{ tool_choice: "none" }, "tool_choice of line 1, the response's own record of its request, allows no function"],
    [{ tool_choice: { type: "function", function: { name: "delete_all" } } }, 'tool_choice of line 1, the response\'s own record of its request, allows only "delete_all"'],
    [{ tool_choice: { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [{ type: "function", function: { name: "delete_all" } }] } } }, 'tool_choice of line 1, the response\'s own record of its request, allows only "delete_all"'],
    [{ tool_choice: "auto", tools: [chatTool("delete_all")] }, 'the tools of line 1, the response\'s own record of its request, allows only "delete_all"'],
  ])("%j: a call it did not allow is blocked", async (fields, why) => {
    expect(await gated(completion(fields))).toEqual([refused(1, "call_1", why)]);
  });

  test.each([[{ tool_choice: "required" }], [{ tool_choice: "auto", tools: [chatTool("get_weather")] }], [{ tool_choice: { type: "function", function: { name: "get_weather" } } }], [{ tool_choice: null, tools: [] }], [{}]])(
    "%j: a call it allowed runs",
    async (fields) => {
      expect(await gated(completion(fields))).toEqual([passed(1, "call_1")]);
    },
  );

  test.each([
    [false, "parallel_tool_calls false"],
    ["false", 'parallel_tool_calls "false" (not a boolean)'],
    [0, "parallel_tool_calls 0 (not a boolean)"],
  ])("parallel_tool_calls %j: its second call is blocked", async (flag, said) => {
    expect(await gated(completion({ parallel_tool_calls: flag }, [choice(0, [chatCall(1), chatCall(2)])]))).toEqual([
      passed(1, "call_1"),
      refused(1, "call_2", `${said} in the response's own record of its request of line 1 lets its response make one call, and this is call 2 of it`),
    ]);
  });

  test("parallel_tool_calls true or null lets both calls run", async () => {
    for (const flag of [true, null]) expect(await gated(completion({ parallel_tool_calls: flag }, [choice(0, [chatCall(1), chatCall(2)])]))).toEqual([passed(1, "call_1"), passed(1, "call_2")]);
  });

  test("parallel_tool_calls false: each choice, an answer of its own, may make its one call", async () => {
    expect(await gated(completion({ parallel_tool_calls: false }, [choice(0, [chatCall(1)]), choice(1, [chatCall(2), chatCall(3)])]))).toEqual([
      passed(1, "call_1"),
      passed(1, "call_2"),
      refused(1, "call_3", "parallel_tool_calls false in the response's own record of its request of line 1 lets its response make one call, and this is call 2 of it"),
    ]);
  });

  test("what one completion says holds for its own calls, not for the next one's", async () => {
    const next = { ...completion({}, [choice(0, [chatCall(2)])]), id: "chatcmpl_2" };
    expect(await gated(completion({ tool_choice: "none" }), next)).toEqual([refused(1, "call_1", "tool_choice of line 1, the response's own record of its request, allows no function"), passed(2, "call_2")]);
  });
});

describe("a chat.completion streamed as chunks that repeat its request's limits", () => {
  /** The completion's chunks: each choice's calls, then its finish_reason; `fields` on the chunk `at` (first or last). */
  const chunks = (fields: Record<string, unknown>, at: "first" | "last", calls = [chatCall(1)]) => {
    const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown>) => ({ id: "chatcmpl_1", object: "chat.completion.chunk", created: 1, model: "gpt-4o", ...extra, choices: [{ index: 0, delta, finish_reason: finish }] });
    return [
      chunk({ role: "assistant", content: null, tool_calls: calls.map((call, index) => ({ index, ...call })) }, null, at === "first" ? fields : {}),
      chunk({}, "tool_calls", at === "last" ? fields : {}),
    ];
  };

  test.each([["first" as const], ["last" as const]])("tool_choice \"none\" on the %s chunk: the call is blocked, as in the stored completion", async (at) => {
    expect(await gated(...chunks({ tool_choice: "none" }, at))).toEqual([refused(2, "call_1", "tool_choice of line 1, the response's own record of its request, allows no function")]);
  });

  test("parallel_tool_calls false: the second call of the choice is blocked", async () => {
    expect(await gated(...chunks({ parallel_tool_calls: false }, "first", [chatCall(1), chatCall(2)]))).toEqual([
      passed(2, "call_1"),
      refused(2, "call_2", "parallel_tool_calls false in the response's own record of its request of line 1 lets its response make one call, and this is call 2 of it"),
    ]);
  });

  test("chunks that repeat no limit let the call run", async () => {
    expect(await gated(...chunks({}, "first"))).toEqual([passed(2, "call_1")]);
  });
});

describe("a chat.completion as a logged exchange's response", () => {
  const history = [
    { role: "user", content: "Weather in Oslo?" },
    { role: "assistant", content: null, tool_calls: [chatCall(0)] },
    { role: "tool", tool_call_id: "call_0", content: "rain" },
  ];
  const exchange = (fields: Record<string, unknown>) => ({ request: { model: "gpt-4o", messages: history, tools }, response: completion(fields) });

  test("its own tool_choice blocks its call, and leaves the request's history alone", async () => {
    expect(await gated(exchange({ tool_choice: "none" }))).toEqual([passed(1, "call_0"), refused(1, "call_1", "tool_choice of line 1, the response's own record of its request, allows no function")]);
  });

  test("its own tools that list another function block its call", async () => {
    expect(await gated(exchange({ tools: [chatTool("delete_all")] }))).toEqual([passed(1, "call_0"), refused(1, "call_1", 'the tools of line 1, the response\'s own record of its request, allows only "delete_all"')]);
  });
});

describe("an Open Responses response object as a logged exchange's response", () => {
  const call = (n: number) => ({ type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: "get_weather", arguments: "{}", status: "completed" });
  const exchange = {
    request: { model: "gpt-5", input: [{ role: "user", content: "Weather in Oslo?" }, call(0), { type: "function_call_output", call_id: "call_0", output: "rain" }], tools },
    response: { id: "resp_1", object: "response", created_at: 1, status: "completed", model: "gpt-5", tool_choice: "none", output: [call(1)] },
  };

  test("its own tool_choice blocks its call, as on a line of its own, and leaves the request's history alone", async () => {
    expect(await gated(exchange)).toEqual([passed(1, "call_0"), refused(1, "call_1", "tool_choice of line 1, the response's own record of its request, allows no function")]);
  });
});
