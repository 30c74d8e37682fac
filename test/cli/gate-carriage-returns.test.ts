// `gate` on a line that a lone "\r" splits into several records for Python's text
// files, Node's readline and Java's readLine: the gate judged it as one record,
// and passed its call, while a replayer that reads lines so found another record
// in it, which the gate never judged. The line is blocked; a line whose "\r"
// stands beside white space alone, or whose pieces are none of them JSON alone
// (no reader of lines replays any of it), is read as before.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { gatedBatches } from "../../src/cli/gate-jobs.js";
import { ToolRegistry } from "../../src/gate/tool-registry.js";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const tools = [{ type: "function", function: { name: "search_notes", parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } } }];
const toolsFile = join(scratchFolder("gate-carriage-returns"), "tools.json");
writeFileSync(toolsFile, JSON.stringify(tools));

const shellCall = '{"type":"local_shell_call","id":"lsh_1","call_id":"call_9","action":{"type":"exec","command":["rm","-rf","/"]},"status":"completed"}';
/** An Anthropic tool_use that passes, whose input holds, between two lone carriage returns, a shell call a line reader reads as a record. */
const hiding = `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"search_notes","input":{"query":"notes","x":\r${shellCall}\r}}]}`;
const user = '{"role":"user","content":"find my notes"}';
const several = (count: number, records: number) =>
  `line holds a carriage return with no line feed after it, where Python's text files, Node's readline and Java's readLine end a line: they read it as ${count} lines, ${records} of them JSON that the gate never judged as a record`;

async function gate(journal: string, extra: string[] = []) {
  const run = await runOrbridge(["gate", "--tools", toolsFile, "--format", "json", ...extra, "-"], journal);
  return { code: run.code, verdicts: run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("a line a lone carriage return splits", () => {
  test("hiding a shell call in a tool's input is an error line, blocked, and the lines after it are still gated", async () => {
    expect(await gate(`${hiding}\n${user}\n`)).toEqual({
      code: 1,
      verdicts: [
        { line: 1, index: 0, reason: "error", detail: several(3, 1), blocked: true, findings: [] },
        { line: 2, index: 0, type: "message", reason: "not_function_call", detail: '"message" is not a function_call', path: "/type", blocked: false, findings: [] },
      ],
    });
  });

  test("with --conversation it names no conversation: the records in it may name any", async () => {
    const keyed = hiding.replace('{"role"', '{"conversation_id":"a","role"');
    expect(await gate(`${keyed}\n`, ["--conversation", "/conversation_id"])).toEqual({
      code: 1,
      verdicts: [{ line: 1, index: 0, reason: "error", detail: several(3, 1), blocked: true, findings: [] }],
    });
  });

  test("naming a request's tools, it may be a request body: no function runs until the next one", async () => {
    const request = `{"model":"gpt-4o","messages":\r[{"role":"user","content":"hi"}]\r,"tool_choice":"auto"}`;
    const call = '{"type":"function_call","id":"fc_1","call_id":"call_1","name":"search_notes","arguments":"{\\"query\\":\\"q\\"}","status":"completed"}';
    const { verdicts } = await gate(`${request}\n${call}\n`);
    expect(verdicts.map((verdict) => [verdict.line, verdict.reason, verdict.blocked, (verdict.findings as Array<{ code: string }>).map((finding) => finding.code)])).toEqual([
      [1, "error", true, []],
      [2, "ok", true, ["tool_not_allowed"]],
    ]);
  });

  test("gives the same lines in one thread and in two", async () => {
    const journal = `${hiding}\n${user}\n${hiding.replace("toolu_1", "toolu_2")}\n`;
    const texts: string[] = [];
    for (const jobs of [1, 2]) {
      const io = { stdin: Readable.from([Buffer.from(journal)]), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
      let text = "";
      const options = { jobs, read: {}, normalize: {}, gate: { registry: ToolRegistry.fromToolsFile(tools, "tools"), omitSource: true }, format: "json" as const, colour: false, workerMinBytes: 0 };
      for await (const batch of gatedBatches(["-"], io, options)) text += batch.text;
      texts.push(text);
    }
    expect(texts[1]).toBe(texts[0]);
    expect(texts[0]!.trimEnd().split("\n").map((line) => (JSON.parse(line) as { reason: string }).reason)).toEqual(["error", "not_function_call", "error"]);
  }, 60_000);
});

describe("a line read as one by every reader", () => {
  test("a carriage return beside white space alone, or before the line feed, changes nothing", async () => {
    const call = '{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"search_notes","input":{"query":"notes"}}]}';
    const result = '{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"no notes"}]}';
    const { code, verdicts } = await gate(` \r${call}\r\r\n${result}\r\n`);
    expect(code).toBe(0);
    expect(verdicts.map((verdict) => [verdict.line, verdict.type, verdict.reason, verdict.blocked])).toEqual([
      [1, "function_call", "ok", false],
      [2, "function_call_output", "not_function_call", false],
    ]);
  });

  test("normalize still reads the split line as the one record JSON reads", async () => {
    const run = await runOrbridge(["normalize", "-"], `${hiding}\n`);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"call_id":"toolu_1"');
  });
});
