// A request body on a line of its own, then its answer on the next line: a
// response (a chat.completion, a response object, an Anthropic message) or an
// assistant message. The answer is held to what that request allowed, as the
// same pair logged as one {request, response} exchange is: the tools it offered
// the model, and its one call a turn (an assistant message is one answer,
// however many calls it makes). Two function_call items on lines of their own
// may be two answers, and are not counted together.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

type Fields = Record<string, unknown>;

const jsonl = (records: unknown[]) => records.map((record) => JSON.stringify(record)).join("\n") + "\n";
const regionSchema = { type: "object", properties: { region: { type: "string" } }, required: ["region"] };
const pathSchema = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };

/** Each call's line, name and findings, in journal order, and the exit code. */
async function callFindings(records: unknown[], tools?: unknown): Promise<{ code: number; calls: unknown[] }> {
  const folder = tools === undefined ? undefined : await mkdtemp(join(tmpdir(), "orbridge-loose-answers-"));
  try {
    const args = ["gate", "--format", "json"];
    if (folder !== undefined) {
      await writeFile(join(folder, "tools.json"), JSON.stringify(tools));
      args.push("--tools", join(folder, "tools.json"));
    }
    const run = await runOrbridge([...args, "-"], jsonl(records));
    const verdicts = run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Fields);
    const calls = verdicts.filter((verdict) => verdict.type === "function_call").map((verdict) => [verdict.line, verdict.name, (verdict.findings as Array<{ detail: string }>).map((finding) => finding.detail)]);
    return { code: run.code, calls };
  } finally {
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  }
}

const chatTool = (name: string, parameters: unknown) => ({ type: "function", function: { name, parameters } });
const chatBody = (tools: unknown[], extra: Fields = {}) => ({ model: "gpt-4o", messages: [{ role: "user", content: "sales?" }], tools, ...extra });
const chatCall = (id: string, name: string, args: unknown) => ({ id, type: "function", function: { name, arguments: JSON.stringify(args) } });
const completion = (calls: unknown[]) => ({ id: "chatcmpl-1", object: "chat.completion", created: 1, model: "gpt-4o", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: calls }, finish_reason: "tool_calls" }] });
const deleteFiles = chatTool("delete_files", pathSchema);
const salesReport = chatTool("get_latest_sales_report", regionSchema);
const notOffered = (line: number, name: string) => `"${name}" is not allowed: the request of line ${line}, which its response answers, lists the tools it offered the model; for that response's calls, it allows only "get_latest_sales_report"`;
const offeredNone = (line: number, name: string) => `"${name}" is not allowed: the request of line ${line}, which its response answers, lists no tool: it offered the model none, and for that response's calls it allows no function`;

describe("a response on a line of its own after a request body on a line of its own", { timeout: 30_000 }, () => {
  test("a chat.completion calling a tool an earlier request offered and its own did not is refused", async () => {
    const records = [chatBody([deleteFiles]), chatBody([salesReport]), completion([chatCall("call_1", "delete_files", { path: "/" })])];
    expect(await callFindings(records)).toEqual({ code: 1, calls: [[3, "delete_files", [notOffered(2, "delete_files")]]] });
  });

  test("an Anthropic message answering a request that offered no tool is refused", async () => {
    const body = (extra: Fields) => ({ model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: "clean up" }], ...extra });
    const message = { id: "msg_01", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "tool_use", id: "toolu_01", name: "delete_files", input: { path: "/" } }], stop_reason: "tool_use", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
    const records = [body({ tools: [{ name: "delete_files", input_schema: pathSchema }] }), body({}), message];
    expect(await callFindings(records)).toEqual({ code: 1, calls: [[3, "delete_files", [offeredNone(2, "delete_files")]]] });
  });

  test("a response object whose tools: [] says nothing of its own is held to its request's tools", async () => {
    const body = (name: string, parameters: unknown) => ({ model: "gpt-4o", input: "go", tools: [{ type: "function", name, parameters }] });
    const response = { id: "resp_2", object: "response", created_at: 1, status: "completed", model: "gpt-4o", output: [{ type: "function_call", id: "fc_1", call_id: "call_1", name: "delete_files", arguments: '{"path":"/"}', status: "completed" }], tool_choice: "auto", tools: [], parallel_tool_calls: true };
    expect(await callFindings([body("delete_files", pathSchema), body("get_latest_sales_report", regionSchema), response])).toEqual({ code: 1, calls: [[3, "delete_files", [notOffered(2, "delete_files")]]] });
  });

  test("a tool the --tools file defines for the whole journal, which the request did not offer, is refused", async () => {
    const records = [chatBody([chatTool("report", regionSchema)]), completion([chatCall("call_9", "get_latest_sales_report", { region: "apac" })])];
    expect(await callFindings(records, [salesReport, chatTool("report", regionSchema)])).toEqual({
      code: 1,
      calls: [[2, "get_latest_sales_report", ['"get_latest_sales_report" is not allowed: the request of line 1, which its response answers, lists the tools it offered the model; for that response\'s calls, it allows only "report"']]],
    });
  });

  test("every response until the next request body answers it; the next body's tools then hold", async () => {
    const call = completion([chatCall("call_1", "delete_files", { path: "/tmp" })]);
    const later = { ...completion([chatCall("call_2", "delete_files", { path: "/var" })]), id: "chatcmpl-2" };
    expect(await callFindings([chatBody([salesReport]), call, chatBody([deleteFiles, salesReport]), later])).toEqual({
      code: 1,
      calls: [
        [2, "delete_files", [notOffered(1, "delete_files")]],
        [4, "delete_files", []],
      ],
    });
  });

  test("two conversations interleaved are blocked read as one, and each answer runs with --conversation", async () => {
    const records = [
      { ...chatBody([deleteFiles]), conversation_id: "a" },
      { ...chatBody([salesReport]), conversation_id: "b" },
      { ...completion([chatCall("call_1", "delete_files", { path: "/tmp" })]), conversation_id: "a" },
    ];
    expect(await callFindings(records)).toEqual({ code: 1, calls: [[3, "delete_files", [notOffered(2, "delete_files")]]] });
    const run = await runOrbridge(["gate", "--format", "json", "--conversation", "/conversation_id", "-"], jsonl(records));
    const calls = run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Fields).filter((verdict) => verdict.type === "function_call");
    expect({ code: run.code, calls: calls.map((verdict) => [verdict.line, verdict.name, verdict.findings]) }).toEqual({ code: 0, calls: [[3, "delete_files", []]] });
  });

  test("a call to a tool the request offered runs", async () => {
    expect(await callFindings([chatBody([deleteFiles]), chatBody([salesReport]), completion([chatCall("call_1", "get_latest_sales_report", { region: "apac" })])])).toEqual({ code: 0, calls: [[3, "get_latest_sales_report", []]] });
  });
});

describe("an assistant message on a line of its own after a request body", { timeout: 30_000 }, () => {
  const twoCalls = { role: "assistant", content: null, tool_calls: [chatCall("call_1", "get_latest_sales_report", { region: "apac" }), chatCall("call_2", "get_latest_sales_report", { region: "emea" })] };
  const second = (said: string) => `"get_latest_sales_report" is not allowed: ${said} lets its response make one call, and this is call 2 of it`;

  test("a Chat message's second call is refused under parallel_tool_calls false", async () => {
    expect(await callFindings([chatBody([salesReport], { parallel_tool_calls: false }), twoCalls])).toEqual({
      code: 1,
      calls: [
        [2, "get_latest_sales_report", []],
        [2, "get_latest_sales_report", [second("parallel_tool_calls false in the request of line 1")]],
      ],
    });
  });

  test("an Anthropic message's second tool_use is refused under disable_parallel_tool_use", async () => {
    const body = { model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: "sales?" }], tool_choice: { type: "auto", disable_parallel_tool_use: true }, tools: [{ name: "get_latest_sales_report", input_schema: regionSchema }] };
    const message = { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "get_latest_sales_report", input: { region: "apac" } }, { type: "tool_use", id: "toolu_2", name: "get_latest_sales_report", input: { region: "emea" } }] };
    expect(await callFindings([body, message])).toEqual({
      code: 1,
      calls: [
        [2, "get_latest_sales_report", []],
        [2, "get_latest_sales_report", [second("tool_choice.disable_parallel_tool_use in the request of line 1")]],
      ],
    });
  });

  test("a --tools file that lets each response make one call holds a message to it, with no request body in the journal", async () => {
    expect(await callFindings([twoCalls], chatBody([salesReport], { parallel_tool_calls: false }))).toMatchObject({
      code: 1,
      calls: [
        [1, "get_latest_sales_report", []],
        [1, "get_latest_sales_report", [expect.stringMatching(/^"get_latest_sales_report" is not allowed: parallel_tool_calls false in the tools file .*tools\.json lets its response make one call, and this is call 2 of it$/)]],
      ],
    });
  });

  test("a message calling a tool an earlier request offered and the last did not is refused", async () => {
    const message = { role: "assistant", content: null, tool_calls: [chatCall("call_1", "delete_files", { path: "/" })] };
    expect(await callFindings([chatBody([deleteFiles]), chatBody([salesReport]), message])).toEqual({ code: 1, calls: [[3, "delete_files", [notOffered(2, "delete_files")]]] });
  });

  test("one call a message, or parallel calls allowed, run", async () => {
    const one = { role: "assistant", content: null, tool_calls: [chatCall("call_1", "get_latest_sales_report", { region: "apac" })] };
    const other = { role: "assistant", content: null, tool_calls: [chatCall("call_2", "get_latest_sales_report", { region: "emea" })] };
    expect(await callFindings([chatBody([salesReport], { parallel_tool_calls: false }), one, { role: "tool", tool_call_id: "call_1", content: "ok" }, other])).toEqual({
      code: 0,
      calls: [
        [2, "get_latest_sales_report", []],
        [4, "get_latest_sales_report", []],
      ],
    });
    expect(await callFindings([chatBody([salesReport]), twoCalls])).toEqual({
      code: 0,
      calls: [
        [2, "get_latest_sales_report", []],
        [2, "get_latest_sales_report", []],
      ],
    });
  });

  test("a function_call item on a line of its own calling a tool an earlier request offered and the last did not is refused", async () => {
    const item = { type: "function_call", id: "fc_1", call_id: "call_1", name: "delete_files", arguments: JSON.stringify({ path: "/" }), status: "completed" };
    const body = { model: "gpt-4o", input: "sales?", tools: [{ type: "function", name: "get_latest_sales_report", parameters: regionSchema }] };
    expect(await callFindings([chatBody([deleteFiles]), body, item])).toEqual({ code: 1, calls: [[3, "delete_files", [notOffered(2, "delete_files")]]] });
  });

  test("two function_call items on lines of their own may be two answers: both run", async () => {
    const item = (n: number, region: string) => ({ type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: "get_latest_sales_report", arguments: JSON.stringify({ region }), status: "completed" });
    expect(await callFindings([item(1, "apac"), item(2, "emea")], chatBody([salesReport], { parallel_tool_calls: false }))).toEqual({
      code: 0,
      calls: [
        [1, "get_latest_sales_report", []],
        [2, "get_latest_sales_report", []],
      ],
    });
  });
});
