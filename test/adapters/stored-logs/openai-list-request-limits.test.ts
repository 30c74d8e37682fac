// A stored chat.completion keeps what its request said of the tools: `tools`,
// `tool_choice`, `parallel_tool_calls`. A call of its answer they did not allow
// is taken out of the record and reported `conflict`, as the gate blocks the
// same call in a recorded {request, response} exchange.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { READERS } from "../../../adapters/index.js";
import { runOrbridge } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

const tool = (name: string) => ({ type: "function", function: { name, parameters: {} } });
const call = (id: string, name: string, args: string) => ({ id, type: "function", function: { name, arguments: args } });
const DELETE = call("call_1", "delete_file", '{"path":"/tmp/x"}');
const DELETE_TOO = call("call_2", "delete_file", '{"path":"/tmp/y"}');

/** A page of one stored completion whose answer makes the calls given, with the request's fields given. */
function page(request: Record<string, unknown>, calls: unknown[]) {
  const completion = { id: "chatcmpl-1", object: "chat.completion", created: 1, model: "m", request_id: "r", tool_choice: null, tools: null, ...request, choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null, tool_calls: calls } }] };
  return { object: "list", data: [completion], first_id: "chatcmpl-1", last_id: "chatcmpl-1", has_more: false };
}

const callsOf = (record: unknown) => ((record as { choices: { message: { tool_calls?: { id: string }[] } }[] }).choices[0]!.message.tool_calls ?? []).map((one) => one.id);
const conflicts = (reading: ReturnType<typeof READERS["openai-list"]["read"]>) => reading.losses.filter((loss) => loss.code === "conflict").map(({ path, detail }) => [path, detail]);

describe("a stored completion whose request limited its calls", () => {
  it("that offered other tools: the call is taken out, reported at its place", () => {
    const reading = READERS["openai-list"].read(page({ tools: [tool("get_weather")] }, [DELETE]));
    expect(reading.records.map(({ record }) => callsOf(record))).toEqual([[]]);
    expect(conflicts(reading)).toEqual([["/data/0/choices/0/message/tool_calls/0", 'the call of "delete_file" answers a request that did not allow it (the request\'s tools offer "get_weather" alone, at /data/0/tools): not read']]);
    expect(reading.messages).toEqual({ read: 2, emitted: 1, repeated: 0, reported: 1 });
  });

  it("that offered an empty list of tools: no call is read", () => {
    const reading = READERS["openai-list"].read(page({ tools: [] }, [DELETE]));
    expect(reading.records.map(({ record }) => callsOf(record))).toEqual([[]]);
    expect(conflicts(reading).map(([, detail]) => detail)).toEqual(['the call of "delete_file" answers a request that did not allow it (the request offered no tool (its tools are empty), at /data/0/tools): not read']);
  });

  it('whose tool_choice is "none", or names another function: the call is taken out', () => {
    for (const [toolChoice, said] of [
      ["none", 'the request says tool_choice "none"'],
      [{ type: "function", function: { name: "get_weather" } }, 'the request\'s tool_choice names "get_weather" alone'],
    ] as const) {
      const reading = READERS["openai-list"].read(page({ tools: [tool("delete_file"), tool("get_weather")], tool_choice: toolChoice }, [DELETE]));
      expect(reading.records.map(({ record }) => callsOf(record))).toEqual([[]]);
      expect(conflicts(reading).map(([, detail]) => detail)).toEqual([`the call of "delete_file" answers a request that did not allow it (${said}, at /data/0/tool_choice): not read`]);
    }
  });

  it("whose parallel_tool_calls is false: the first call is read, the second taken out", () => {
    const reading = READERS["openai-list"].read(page({ tools: [tool("delete_file")], parallel_tool_calls: false }, [DELETE, DELETE_TOO]));
    expect(reading.records.map(({ record }) => callsOf(record))).toEqual([["call_1"]]);
    expect(conflicts(reading)).toEqual([["/data/0/choices/0/message/tool_calls/1", 'the call of "delete_file" is call 2 of an answer whose request let it make one (parallel_tool_calls false, at /data/0/parallel_tool_calls): not read']]);
  });

  it("that allowed its calls: the completion is read as it is stored", () => {
    const stored = page({ tools: [tool("delete_file")], tool_choice: "auto", parallel_tool_calls: true }, [DELETE, DELETE_TOO]);
    const reading = READERS["openai-list"].read(stored);
    expect(reading.records.map(({ record }) => record)).toEqual(stored.data);
    expect(conflicts(reading)).toEqual([]);
  });
});

describe("the gate on a stored completion whose request limited its calls", () => {
  it("blocks the calls the request did not allow, as in the recorded exchange", async () => {
    const folder = scratchFolder("openai-list-limits");
    const file = join(folder, "page.json");
    writeFileSync(file, JSON.stringify(page({ tools: [tool("delete_file")], parallel_tool_calls: false }, [DELETE, DELETE_TOO])));
    const exchange = join(folder, "exchange.jsonl");
    const completion = page({}, [DELETE, DELETE_TOO]).data[0];
    writeFileSync(exchange, `${JSON.stringify({ request: { model: "m", messages: [{ role: "user", content: "clean up" }], tools: [tool("delete_file")], parallel_tool_calls: false }, response: completion })}\n`);
    const tools = join(folder, "tools.json");
    writeFileSync(tools, JSON.stringify([{ type: "function", function: { name: "delete_file", parameters: { type: "object", required: ["path"], properties: { path: { type: "string" } } } } }]));
    const fromPage = await runOrbridge(["gate", "--format", "json", "--tools", tools, file]);
    const fromExchange = await runOrbridge(["gate", "--format", "json", "--tools", tools, exchange]);
    const verdicts = (stdout: string) => stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { call_id?: string; reason: string; blocked: boolean }).filter(({ reason }) => reason !== "not_function_call");
    expect(fromPage.code).toBe(1);
    expect(verdicts(fromPage.stdout).map(({ call_id, reason, blocked }) => [call_id ?? null, reason, blocked])).toEqual([
      ["call_1", "ok", false],
      [null, "error", true],
    ]);
    expect(fromExchange.code).toBe(1);
    expect(verdicts(fromExchange.stdout).map(({ call_id, blocked }) => [call_id, blocked])).toEqual([
      ["call_1", false],
      ["call_2", true],
    ]);
  });
});
