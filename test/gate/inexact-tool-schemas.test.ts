// A tool defined in a journal's request body, whose schema writes a bound,
// multipleOf, const or enum number that its double reads as another number: the
// body parsed holds the other number, and a call judged against it could pass
// where the schema as written refuses it (`maximum: 0.29999999999999999` reads
// as 0.3). The tool is refused, in every envelope; through `orbridge gate`,
// with the journals written as text, since JSON.stringify would write the doubles.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("inexact-tool-schemas");
let files = 0;
function file(text: string, extension = "jsonl"): string {
  const path = join(folder, `file-${++files}.${extension}`);
  writeFileSync(path, text);
  return path;
}
const journal = (...lines: string[]) => file(lines.map((line) => line + "\n").join(""));

async function gate(path: string, options: string[] = []): Promise<{ code: number; verdicts: unknown[]; stderr: string }> {
  const one = await runOrbridge(["gate", "--format", "json", "--jobs", "1", ...options, path]);
  const two = await runOrbridge(["gate", "--format", "json", "--jobs", "2", ...options, path]);
  // Two threads read the tools in force as one does, byte for byte.
  expect(two).toEqual(one);
  return { code: one.code, verdicts: one.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as unknown), stderr: one.stderr };
}

const level = (bound: string) => `{"type":"object","properties":{"level":{"type":"number","maximum":${bound}}},"required":["level"]}`;
const responsesBody = (schema: string) => `{"model":"m","input":"go","tools":[{"type":"function","name":"set_level","parameters":${schema}}]}`;
const responsesCall = (callId: string, args: string) => JSON.stringify({ type: "function_call", id: `fc_${callId}`, call_id: callId, name: "set_level", status: "completed", arguments: args });

const OK = "completed call with arguments valid for its schema";
const errorLine = (line: number, detail: string) => ({ line, index: 0, reason: "error", detail, blocked: true, findings: [] });
const message = (line: number, index = 0) => ({ line, index, type: "message", reason: "not_function_call", detail: '"message" is not a function_call', path: "/type", blocked: false, findings: [] });
const passed = (line: number, callId: string, name: string, index = 0) => ({ line, index, type: "function_call", call_id: callId, name, reason: "ok", detail: OK, blocked: false, findings: [] });
const refused = (line: number, callId: string, name: string, why: string, index = 0) => ({
  line,
  index,
  type: "function_call",
  call_id: callId,
  name,
  reason: "unknown_tool",
  detail: `no schema is known for "${name}"`,
  path: "/name",
  blocked: true,
  findings: [{ code: "tool_not_allowed", detail: `"${name}" is not allowed: ${why}`, path: "/name" }],
});
const unreadLine = (line: number, literal: string, pointer: string, double: string, name: string) =>
  errorLine(line, `line ${line}: the number ${literal} at ${pointer} is one a double reads as another number (${double}), so the definition of "${name}" there cannot be read as written`);
const judgedOther = (line: number, literal: string, pointer: string, double: string) => `line ${line} defines it with the number ${literal} at ${pointer}, which a double reads as ${double}: its calls would be judged against ${double}, not the number written`;

describe("an Open Responses request body", () => {
  test("a bound a double reads as another refuses its tool: the call the other bound would let pass is blocked", async () => {
    const pointer = "/tools/0/parameters/properties/level/maximum";
    expect(await gate(journal(responsesBody(level("0.29999999999999999")), responsesCall("call_1", '{"level":0.3}')))).toEqual({
      code: 1,
      verdicts: [unreadLine(1, "0.29999999999999999", pointer, "0.3", "set_level"), message(1), refused(2, "call_1", "set_level", judgedOther(1, "0.29999999999999999", pointer, "0.3"))],
      stderr: "read 2 lines: 2 items, 1 error; 2 blocked\n  blocked by: error 1, unknown_tool 1\n  findings: tool_not_allowed 1\n",
    });
  });

  test("a bound written with more digits than its double needs is the double's own number: the call is judged as usual", async () => {
    expect(await gate(journal(responsesBody(level("0.30000000000000000")), responsesCall("call_1", '{"level":0.3}')))).toEqual({
      code: 0,
      verdicts: [message(1), passed(2, "call_1", "set_level")],
      stderr: "read 2 lines: 2 items, 0 errors; 0 blocked\n",
    });
  });

  test("a later body that redefines the tool so refuses it, where an earlier exact definition was in force", async () => {
    const pointer = "/tools/0/parameters/properties/level/maximum";
    const output = '{"type":"function_call_output","call_id":"call_1","output":"done"}';
    const path = journal(responsesBody(level("0.3")), responsesCall("call_1", '{"level":0.3}'), output, responsesBody(level("1e-400")), responsesCall("call_2", '{"level":0}'));
    const outputVerdict = { line: 3, index: 0, type: "function_call_output", call_id: "call_1", reason: "not_function_call", detail: '"function_call_output" is not a function_call', path: "/type", blocked: false, findings: [] };
    expect(await gate(path)).toEqual({
      code: 1,
      verdicts: [message(1), passed(2, "call_1", "set_level"), outputVerdict, unreadLine(4, "1e-400", pointer, "0", "set_level"), message(4), refused(5, "call_2", "set_level", judgedOther(4, "1e-400", pointer, "0"))],
      stderr: "read 5 lines: 5 items, 1 error; 2 blocked\n  blocked by: error 1, unknown_tool 1\n  findings: tool_not_allowed 1\n",
    });
  });

  test("a --tools file's definition of the name stays in force: the call is judged against the file's bound", async () => {
    const tools = file(`[{"type":"function","name":"set_level","parameters":${level("0.1")}}]`, "json");
    const pointer = "/tools/0/parameters/properties/level/maximum";
    expect(await gate(journal(responsesBody(level("0.29999999999999999")), responsesCall("call_1", '{"level":0.3}')), ["--tools", tools])).toEqual({
      code: 1,
      verdicts: [
        unreadLine(1, "0.29999999999999999", pointer, "0.3", "set_level"),
        message(1),
        { line: 2, index: 0, type: "function_call", call_id: "call_1", name: "set_level", reason: "arguments_schema", detail: "arguments/level must be <= 0.1", path: "/arguments", blocked: true, findings: [] },
      ],
      stderr: "read 2 lines: 2 items, 1 error; 2 blocked\n  blocked by: arguments_schema 1, error 1\n",
    });
  });

  test("such a number outside the tools (the schema of the answer's format) defines no tool: the body is read as usual", async () => {
    const body = `{"model":"m","input":"go","text":{"format":{"type":"json_schema","name":"answer","schema":${level("0.29999999999999999")}}},"tools":[{"type":"function","name":"set_level","parameters":${level("0.3")}}]}`;
    expect(await gate(journal(body, responsesCall("call_1", '{"level":0.3}')))).toEqual({
      code: 0,
      verdicts: [message(1), passed(2, "call_1", "set_level")],
      stderr: "read 2 lines: 2 items, 0 errors; 0 blocked\n",
    });
  });
});

describe("where the number is written", () => {
  test("a keyword spelled with escapes is the keyword: the number under it is found", async () => {
    const schema = String.raw`{"type":"object","properties":{"level":{"type":"number","maxim\u0075m":0.29999999999999999}}}`;
    const pointer = "/tools/0/parameters/properties/level/maximum";
    expect((await gate(journal(responsesBody(schema), responsesCall("call_1", '{"level":0.3}')))).verdicts).toEqual([
      unreadLine(1, "0.29999999999999999", pointer, "0.3", "set_level"),
      message(1),
      refused(2, "call_1", "set_level", judgedOther(1, "0.29999999999999999", pointer, "0.3")),
    ]);
  });

  test("in the tools but in no definition's schema: which tools the body defines is not known, and only those read may run", async () => {
    const body = `{"model":"m","input":"go","tools":[{"type":"function","name":"set_level","parameters":${level("0.3")},"x-limits":{"maximum":0.29999999999999999}}]}`;
    const other = JSON.stringify({ type: "function_call", id: "fc_2", call_id: "call_2", name: "ping", status: "completed", arguments: "{}" });
    expect((await gate(journal(body, responsesCall("call_1", '{"level":0.3}'), other))).verdicts).toEqual([
      errorLine(1, "line 1: the number 0.29999999999999999 at /tools/0/x-limits/maximum is one a double reads as another number (0.3), in no definition whose name can be read: which tools the body defines is not known"),
      message(1),
      passed(2, "call_1", "set_level"),
      refused(3, "call_2", "ping", 'line 1 has tools that cannot be named; until the next request body, it allows only "set_level"'),
    ]);
  });
});

describe("each envelope's request body names the tool whose schema holds the number", () => {
  const cases: Array<{ envelope: string; body: string; call: string; pointer: string; literal: string; double: string; items: number }> = [
    {
      envelope: "Chat, an enum value, beside a tool that stays",
      body: `{"model":"m","messages":[{"role":"user","content":"go"}],"tools":[{"type":"function","function":{"name":"set_level","parameters":{"type":"object","properties":{"level":{"enum":[1,0.29999999999999999]}}}}},{"type":"function","function":{"name":"ping","parameters":{"type":"object"}}}]}`,
      call: '{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"set_level","arguments":"{\\"level\\":0.3}"}},{"id":"call_2","type":"function","function":{"name":"ping","arguments":"{}"}}]}',
      pointer: "/tools/0/function/parameters/properties/level/enum/1",
      literal: "0.29999999999999999",
      double: "0.3",
      items: 2,
    },
    {
      envelope: "Anthropic input_schema",
      body: `{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"go"}],"tools":[{"name":"set_level","input_schema":${level("0.29999999999999999")}}]}`,
      call: '{"role":"assistant","content":[{"type":"tool_use","id":"call_1","name":"set_level","input":{"level":0.3}}]}',
      pointer: "/tools/0/input_schema/properties/level/maximum",
      literal: "0.29999999999999999",
      double: "0.3",
      items: 1,
    },
    {
      envelope: "Gemini parameters in its OpenAPI form",
      body: '{"contents":[{"role":"user","parts":[{"text":"go"}]}],"tools":[{"functionDeclarations":[{"name":"set_level","parameters":{"type":"OBJECT","properties":{"level":{"type":"NUMBER","minimum":0.10000000000000000555}}}}]}]}',
      call: '{"role":"model","parts":[{"functionCall":{"id":"call_1","name":"set_level","args":{"level":0.3}}}]}',
      pointer: "/tools/0/functionDeclarations/0/parameters/properties/level/minimum",
      literal: "0.10000000000000000555",
      double: "0.1",
      items: 1,
    },
    {
      envelope: "Gemini parametersJsonSchema",
      body: `{"contents":[{"role":"user","parts":[{"text":"go"}]}],"tools":[{"functionDeclarations":[{"name":"set_level","parametersJsonSchema":${level("0.29999999999999999")}}]}]}`,
      call: '{"role":"model","parts":[{"functionCall":{"id":"call_1","name":"set_level","args":{"level":0.3}}}]}',
      pointer: "/tools/0/functionDeclarations/0/parametersJsonSchema/properties/level/maximum",
      literal: "0.29999999999999999",
      double: "0.3",
      items: 1,
    },
    {
      envelope: "Bedrock inputSchema.json",
      body: `{"modelId":"m","messages":[{"role":"user","content":[{"text":"go"}]}],"toolConfig":{"tools":[{"toolSpec":{"name":"set_level","inputSchema":{"json":${level("0.29999999999999999")}}}}]}}`,
      call: '{"role":"assistant","content":[{"toolUse":{"toolUseId":"call_1","name":"set_level","input":{"level":0.3}}}]}',
      pointer: "/toolConfig/tools/0/toolSpec/inputSchema/json/properties/level/maximum",
      literal: "0.29999999999999999",
      double: "0.3",
      items: 1,
    },
  ];
  for (const { envelope, body, call, pointer, literal, double, items } of cases) {
    test(envelope, async () => {
      const result = await gate(journal(body, call));
      expect(result.verdicts).toEqual([
        unreadLine(1, literal, pointer, double, "set_level"),
        message(1),
        refused(2, "call_1", "set_level", judgedOther(1, literal, pointer, double)),
        ...(items === 2 ? [passed(2, "call_2", "ping", 1)] : []),
      ]);
      expect(result.code).toBe(1);
    });
  }

  test("a logged exchange: the pointer goes through its request, and the call of its response is refused", async () => {
    const exchange = `{"request":${responsesBody(level("0.29999999999999999"))},"response":{"id":"resp_1","object":"response","status":"completed","output":[${responsesCall("call_1", '{"level":0.3}')}]}}`;
    const pointer = "/request/tools/0/parameters/properties/level/maximum";
    expect((await gate(journal(exchange))).verdicts).toEqual([
      unreadLine(1, "0.29999999999999999", pointer, "0.3", "set_level"),
      message(1),
      refused(1, "call_1", "set_level", judgedOther(1, "0.29999999999999999", pointer, "0.3"), 1),
    ]);
  });
});
