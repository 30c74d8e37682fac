// A line whose tools the gate cannot read in full must never make a later call
// pass that what was read, or what the line meant to say, excludes. Through
// `orbridge gate`, journal by journal, with the verdicts asserted whole.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("tools-narrowing");
const objectSchema = { type: "object" };
const readFile = { type: "function", name: "read_file", parameters: objectSchema };
const deleteFile = { type: "function", name: "delete_file", parameters: objectSchema };
const onlyReadFile = { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "read_file" }] };
const call = (callId: string, name: string) => ({ type: "function_call", id: `fc_${callId}`, call_id: callId, name, arguments: "{}", status: "completed" });
const OK = "completed call with arguments valid for its schema";

let files = 0;
function toolsFile(content: unknown): string {
  const path = join(folder, `tools-${++files}.json`);
  writeFileSync(path, JSON.stringify(content));
  return path;
}
const journal = (...records: unknown[]) => {
  const path = join(folder, `journal-${++files}.jsonl`);
  writeFileSync(path, records.map((record) => JSON.stringify(record) + "\n").join(""));
  return path;
};

async function gate(path: string, tools?: string): Promise<{ code: number; verdicts: unknown[]; stderr: string }> {
  const args = ["gate", "--format", "json", ...(tools === undefined ? [] : ["--tools", tools]), path];
  const run = await runOrbridge(args);
  return { code: run.code, verdicts: run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as unknown), stderr: run.stderr };
}

const callVerdict = (line: number, callId: string, name: string, notAllowed?: string) => ({
  line,
  index: 0,
  type: "function_call",
  call_id: callId,
  name,
  reason: "ok",
  detail: OK,
  ...(notAllowed === undefined ? {} : { blocked_by: "tool_not_allowed" }),
  blocked: notAllowed !== undefined,
  findings: notAllowed === undefined ? [] : [{ code: "tool_not_allowed", detail: `"${name}" is not allowed: ${notAllowed}`, path: "/name" }],
});
const errorLine = (line: number, detail: string) => ({ line, index: 0, reason: "error", detail, blocked: true, findings: [] });
const userMessage = (line: number) => ({ line, index: 0, type: "message", reason: "not_function_call", detail: '"message" is not a function_call', path: "/type", blocked: false, findings: [] });

describe("a request body with a tools entry that cannot be read", () => {
  test("its allowed_tools still holds: the next line's call of a tool it excluded is blocked", async () => {
    const path = journal({ model: "m", input: "go", tools: [readFile, deleteFile, { type: "function", parameters: {} }], tool_choice: onlyReadFile }, call("call_1", "delete_file"), call("call_2", "read_file"));
    expect(await gate(path)).toEqual({
      code: 1,
      verdicts: [
        errorLine(1, "line 1: tools[2].name must be a non-empty string, found nothing"),
        userMessage(1),
        callVerdict(2, "call_1", "delete_file", 'tool_choice of line 1 allows only "read_file"'),
        callVerdict(3, "call_2", "read_file"),
      ],
      stderr: "read 3 lines: 3 items, 1 error; 2 blocked\n  blocked by: error 1, tool_not_allowed 1\n  findings: tool_not_allowed 1\n",
    });
  });

  test("a toolConfig no envelope's reader takes still allows no function beside a tool_choice that allows every one", async () => {
    const toolConfig = { functionCallingConfig: { mode: "NONE" } };
    for (const choice of [{ tool_choice: "auto" }, { function_call: "auto" }]) {
      const path = journal({ model: "m", input: "go", tools: [readFile], toolConfig, ...choice }, call("call_1", "read_file"));
      expect(await gate(path)).toEqual({
        code: 1,
        verdicts: [
          errorLine(1, "line 1: toolConfig is read by no envelope's reader here, so the choice it may make cannot be known"),
          userMessage(1),
          callVerdict(2, "call_1", "read_file", "toolConfig of line 1 cannot all be read, so it allows no function"),
        ],
        stderr: "read 2 lines: 2 items, 1 error; 2 blocked\n  blocked by: error 1, tool_not_allowed 1\n  findings: tool_not_allowed 1\n",
      });
    }
  });

  test("a choice member of another form than Chat's and Open Responses' (toolChoice, allowedFunctionNames) allows no function", async () => {
    for (const [member, value] of [["toolChoice", "none"], ["allowedFunctionNames", ["read_file"]]] as const) {
      const path = journal({ model: "m", input: "go", tools: [readFile, deleteFile], [member]: value }, call("call_1", "delete_file"));
      const detail = `${member} is how another envelope's request limits its calls: a Chat or Open Responses reader passes it over there, a reader of that envelope's form reads it`;
      expect(await gate(path)).toEqual({
        code: 1,
        verdicts: [errorLine(1, `line 1: ${member} of the request cannot be read: ${detail}`), userMessage(1), callVerdict(2, "call_1", "delete_file", `${member} of line 1 cannot all be read, so it allows no function`)],
        stderr: "read 2 lines: 2 items, 1 error; 2 blocked\n  blocked by: error 1, tool_not_allowed 1\n  findings: tool_not_allowed 1\n",
      });
    }
  });

  // The OpenAI and Anthropic SDKs merge extra_body into the top of the request they send.
  const sender = "a Chat or Open Responses reader passes it over there, the SDK sending the body merges extra_body into the request and the API reads it";

  test("a tool_choice in extra_body allows no function", async () => {
    const path = journal({ model: "m", input: "go", tools: [readFile, deleteFile], extra_body: { tool_choice: "none" } }, call("call_1", "delete_file"));
    expect(await gate(path)).toEqual({
      code: 1,
      verdicts: [
        errorLine(1, `line 1: extra_body.tool_choice of the request cannot be read: tool_choice in extra_body limits the calls of the request the SDK sends: ${sender}`),
        userMessage(1),
        callVerdict(2, "call_1", "delete_file", "extra_body.tool_choice of line 1 cannot all be read, so it allows no function"),
      ],
      stderr: "read 2 lines: 2 items, 1 error; 2 blocked\n  blocked by: error 1, tool_not_allowed 1\n  findings: tool_not_allowed 1\n",
    });
  });

  test("tools in extra_body refuse the calls of the names they define", async () => {
    const strict = { ...deleteFile, parameters: { type: "object", additionalProperties: false } };
    const path = journal({ model: "m", input: "go", tools: [readFile, deleteFile], extra_body: { tools: [strict] } }, call("call_1", "delete_file"));
    expect(await gate(path)).toEqual({
      code: 1,
      verdicts: [
        errorLine(1, `line 1: extra_body.tools of the request cannot be read: tools in extra_body defines the tools of the request the SDK sends: ${sender}`),
        userMessage(1),
        {
          line: 2,
          index: 0,
          type: "function_call",
          call_id: "call_1",
          name: "delete_file",
          reason: "unknown_tool",
          detail: 'no schema is known for "delete_file"',
          path: "/name",
          blocked: true,
          findings: [{ code: "tool_not_allowed", detail: '"delete_file" is not allowed: extra_body.tools of line 1 defines it in a form that cannot be read', path: "/name" }],
        },
      ],
      stderr: "read 2 lines: 2 items, 1 error; 2 blocked\n  blocked by: error 1, unknown_tool 1\n  findings: tool_not_allowed 1\n",
    });
  });

  test("without a tool_choice, only the functions it defines readably may run", async () => {
    const path = journal({ model: "m", input: "go", tools: [readFile] }, { model: "m", input: [], tools: [deleteFile, 42] }, call("call_1", "read_file"), call("call_2", "delete_file"));
    const reason = 'line 2 has tools that cannot be named; until the next request body, it allows only "delete_file"';
    expect(await gate(path)).toEqual({
      code: 1,
      verdicts: [userMessage(1), errorLine(2, "line 2: tools[1] must be an object, found number 42"), callVerdict(3, "call_1", "read_file", reason), callVerdict(4, "call_2", "delete_file")],
      stderr: "read 4 lines: 3 items, 1 error; 2 blocked\n  blocked by: error 1, tool_not_allowed 1\n  findings: tool_not_allowed 1\n",
    });
  });
});

describe("a request body whose tool_choice cannot be read", () => {
  test("allows no function until the next request body", async () => {
    const path = journal(
      { model: "m", input: "go", tools: [readFile, deleteFile], tool_choice: { type: "allowed_tools", mode: "sometimes", tools: [{ type: "function", name: "read_file" }] } },
      call("call_1", "read_file"),
      { model: "m", input: [], tools: [readFile] },
      call("call_2", "read_file"),
    );
    expect(await gate(path)).toEqual({
      code: 1,
      verdicts: [
        errorLine(1, 'line 1: tool_choice.mode must be "auto" or "required", found "sometimes"'),
        userMessage(1),
        callVerdict(2, "call_1", "read_file", "tool_choice of line 1 cannot all be read, so it allows no function"),
        callVerdict(4, "call_2", "read_file"),
      ],
      stderr: "read 4 lines: 3 items, 1 error; 2 blocked\n  blocked by: error 1, tool_not_allowed 1\n  findings: tool_not_allowed 1\n",
    });
  });
});

describe("a logged exchange whose request has a tool that cannot be read", () => {
  test("the calls of its response meet the request's narrowing", async () => {
    const request = { model: "m", input: "go", tools: [readFile, deleteFile, { type: "function" }], tool_choice: onlyReadFile };
    const response = { object: "response", id: "resp_1", status: "completed", output: [call("call_1", "delete_file")] };
    expect((await gate(journal({ request, response }))).verdicts).toEqual([
      errorLine(1, "line 1: tools[2].name must be a non-empty string, found nothing"),
      userMessage(1),
      { ...callVerdict(1, "call_1", "delete_file", 'tool_choice of line 1 allows only "read_file"'), index: 1 },
    ]);
  });
});

describe("a record that carries a tool choice but is not read as a request body", () => {
  test("its narrowing holds for the calls after it", async () => {
    const path = journal({ model: "m", messages: "lost in logging", tool_choice: { type: "function", function: { name: "read_file" } } }, call("call_1", "delete_file"));
    const run = await gate(path, toolsFile([readFile, deleteFile]));
    expect(run.verdicts).toEqual([
      { line: 1, index: 0, reason: "namespaced", detail: "the item has no type", path: "/type", blocked: true, findings: [] },
      callVerdict(2, "call_1", "delete_file", 'tool_choice of line 1, a record not read as a request body, allows only "read_file"'),
    ]);
    expect(run.code).toBe(1);
  });

  test("a Gemini toolConfig alone, at the top or in the SDK's config, narrows as its functionCallingConfig says", async () => {
    const noType = { line: 1, index: 0, reason: "namespaced", detail: "the item has no type", path: "/type", blocked: true, findings: [] };
    const tools = toolsFile([readFile, deleteFile]);
    const none = journal({ toolConfig: { functionCallingConfig: { mode: "NONE" } } }, call("call_1", "read_file"));
    expect((await gate(none, tools)).verdicts).toEqual([noType, callVerdict(2, "call_1", "read_file", "tool_choice of line 1, a record not read as a request body, allows no function")]);
    const listed = journal({ config: { tool_config: { function_calling_config: { mode: "ANY", allowed_function_names: ["read_file"] } } } }, call("call_1", "delete_file"), call("call_2", "read_file"));
    expect((await gate(listed, tools)).verdicts).toEqual([
      noType,
      callVerdict(2, "call_1", "delete_file", 'tool_choice of line 1, a record not read as a request body, allows only "read_file"'),
      callVerdict(3, "call_2", "read_file"),
    ]);
  });

  test("a toolConfig no envelope's reader takes allows no function", async () => {
    const path = journal({ toolConfig: { mode: "NONE" } }, call("call_1", "read_file"));
    expect((await gate(path, toolsFile([readFile]))).verdicts).toEqual([
      errorLine(1, "line 1: toolConfig is read by no envelope's reader here, so the choice it may make cannot be known"),
      { line: 1, index: 0, reason: "namespaced", detail: "the item has no type", path: "/type", blocked: true, findings: [] },
      callVerdict(2, "call_1", "read_file", "toolConfig of line 1, a record not read as a request body, allows no function"),
    ]);
  });

  test("a member a reader folding names takes for a tool field allows no function, as a request body's does", async () => {
    const tools = toolsFile([readFile]);
    const noType = { line: 1, index: 0, reason: "namespaced", detail: "the item has no type", path: "/type", blocked: true, findings: [] };
    const spelled = [
      [{ Tool_choice: "none" }, "/Tool_choice", "tool_choice"],
      [{ TOOLS: [readFile] }, "/TOOLS", "tools"],
      [{ ToolConfig: { functionCallingConfig: { mode: "NONE" } } }, "/ToolConfig", "toolConfig"],
      [{ config: { ToolConfig: { functionCallingConfig: { mode: "NONE" } } } }, "/config/ToolConfig", "toolConfig"],
      [{ Config: { toolConfig: { functionCallingConfig: { mode: "NONE" } } } }, "/Config", "config"],
    ] as const;
    for (const [record, pointer, name] of spelled) {
      expect((await gate(journal(record, call("call_1", "read_file")), tools)).verdicts).toEqual([
        errorLine(1, `line 1: "${pointer}" is read by no envelope, yet a reader that matches names regardless of case or width (Go's encoding/json does) reads it as the request's ${name}: which calls the request allows is not known`),
        noType,
        callVerdict(2, "call_1", "read_file", `${pointer} of line 1, a record not read as a request body, allows no function`),
      ]);
    }
  });

  test("a record whose members only look alike (Mode, a Config of other settings) narrows nothing", async () => {
    const tools = toolsFile([readFile]);
    for (const record of [{ Mode: "debug" }, { Config: { verbose: true } }]) {
      expect((await gate(journal(record, call("call_1", "read_file")), tools)).verdicts[1]).toEqual(callVerdict(2, "call_1", "read_file"));
    }
  });

  test("its tool_choice never widens the one in force", async () => {
    const path = journal({ model: "m", input: "go", tools: [readFile, deleteFile], tool_choice: onlyReadFile }, { tool_choice: "auto" }, call("call_1", "delete_file"));
    expect((await gate(path)).verdicts[2]).toEqual(callVerdict(3, "call_1", "delete_file", 'tool_choice of line 1 allows only "read_file"'));
  });
});

describe("a tools file's narrowing", () => {
  test("holds whatever a request body of the journal cannot read", async () => {
    const path = journal({ model: "m", input: "go", tools: [{ type: "function", name: "read_file", parameters: "loose" }], tool_choice: "auto" }, call("call_1", "delete_file"), call("call_2", "read_file"));
    const tools = toolsFile({ tools: [readFile, deleteFile], tool_choice: onlyReadFile });
    const run = await gate(path, tools);
    expect(run.verdicts).toEqual([
      errorLine(1, 'line 1: tools[0].parameters must be a JSON Schema (an object or a boolean), found "loose"'),
      userMessage(1),
      callVerdict(2, "call_1", "delete_file", `tool_choice of ${tools} allows only "read_file"`),
      callVerdict(3, "call_2", "read_file"),
    ]);
  });
});
