// A conversation read from a stored log is gated as the same conversation
// written in Chat Completions: each call once, with its result, and the same
// verdicts, a cut call blocked in both.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { chatSpanExport } from "../support/otlp-export.js";
import { scratchFolder } from "../support/scratch.js";

interface Verdict {
  type: string;
  call_id?: string;
  reason: string;
  blocked: boolean;
  findings: { code: string }[];
}

async function verdicts(args: string[], stdin = ""): Promise<{ code: number; verdicts: [string, string | null, string, boolean, string[]][] }> {
  const result = await runOrbridge(["gate", "--format", "json", ...args], stdin);
  const lines = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Verdict);
  return { code: result.code, verdicts: lines.map((verdict) => [verdict.type, verdict.call_id ?? null, verdict.reason, verdict.blocked, verdict.findings.map((finding) => finding.code)]) };
}

function toolsFile(tools: unknown[]): string {
  const file = join(scratchFolder("stored-logs-gate"), "tools.json");
  writeFileSync(file, JSON.stringify(tools));
  return file;
}

const chatLines = (records: unknown[]) => records.map((record) => JSON.stringify(record)).join("\n") + "\n";

describe("the gate on a stored log and on the same conversation in Chat Completions", () => {
  test("a Jaeger trace: a call and its result, once each", async () => {
    const tools = toolsFile([{ type: "function", function: { name: "list_releases", parameters: { type: "object", required: ["namespace"], properties: { namespace: { type: "string" } } } } }]);
    const chat = chatLines([
      { role: "system", content: "You look after the Helm releases of the orchard cluster." },
      { role: "user", content: "which releases run in the cider namespace?" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_Xq2mB7rVt0LkP4sN", type: "function", function: { name: "list_releases", arguments: '{"namespace": "cider"}' } }] },
      { role: "tool", tool_call_id: "call_Xq2mB7rVt0LkP4sN", content: '{"releases": ["cider-press", "apple-store"]}' },
      { role: "assistant", content: "Two releases run there: cider-press and apple-store." },
    ]);
    const fromTrace = await verdicts(["--tools", tools, "golden/jaeger/indexed-tool-call/export.json"]);
    expect(fromTrace).toEqual(await verdicts(["--tools", tools, "-"], chat));
    expect(fromTrace).toEqual({
      code: 0,
      verdicts: [
        ["message", null, "not_function_call", false, []],
        ["message", null, "not_function_call", false, []],
        ["function_call", "call_Xq2mB7rVt0LkP4sN", "ok", false, []],
        ["function_call_output", "call_Xq2mB7rVt0LkP4sN", "not_function_call", false, []],
        ["message", null, "not_function_call", false, []],
      ],
    });
  });

  test("a Vercel call cut at the length limit is blocked as the cut Chat completion's is", async () => {
    const tools = toolsFile([{ type: "function", function: { name: "planRound", parameters: { type: "object" } } }]);
    const chat = chatLines([
      { role: "system", content: "You plan picking rounds." },
      { role: "user", content: [{ type: "text", text: "Plan a picking round for rows 1 to 3." }] },
      {
        id: "chatcmpl-cut",
        object: "chat.completion",
        created: 1763391318,
        model: "gpt-5",
        choices: [{ index: 0, finish_reason: "length", message: { role: "assistant", content: null, tool_calls: [{ id: "call_DgKARp7a7IhJPDczfifMp6Ra", type: "function", function: { name: "planRound", arguments: '{"rows":[1,2,3],"order":"asc' } }] } }],
      },
      { role: "tool", tool_call_id: "call_DgKARp7a7IhJPDczfifMp6Ra", content: '{"error": "arguments were cut"}' },
    ]);
    const fromTrace = await verdicts(["--tools", tools, "golden/otlp/tempo-vercel-cut-call/export.json"]);
    const fromChat = await verdicts(["--tools", tools, "-"], chat);
    expect(fromTrace).toEqual(fromChat);
    expect(fromTrace.code).toBe(1);
    expect(fromTrace.verdicts.filter(([type]) => type.startsWith("function_call"))).toEqual([
      ["function_call", "call_DgKARp7a7IhJPDczfifMp6Ra", "status", true, []],
      ["function_call_output", "call_DgKARp7a7IhJPDczfifMp6Ra", "not_function_call", true, ["output_for_blocked_call"]],
    ]);
  });
});

describe("a message of a stored log that the reader cannot read", () => {
  test("blocks a line of its own after the records: a call in it would go unjudged", async () => {
    const file = join(scratchFolder("stored-logs-gate"), "wizard.json");
    writeFileSync(
      file,
      chatSpanExport({
        input: [{ role: "user", parts: [{ type: "text", content: "APAC?" }] }],
        output: [{ role: "wizard", parts: [{ type: "tool_call", id: "c4", name: "list_releases", arguments: { namespace: "cider" } }] }],
      }),
    );
    const result = await verdicts([file]);
    expect(result.code).toBe(1);
    expect(result.verdicts).toEqual([
      ["message", null, "not_function_call", false, []],
      [undefined, null, "error", true, []],
    ]);
  });
});

describe("an object of a stored list seen twice", () => {
  test("the same object again is a repeat; objects of one id that say different things are versions of one object, and none is read", async () => {
    const completion = (created: number, region: string) => ({
      id: "chatcmpl-1",
      object: "chat.completion",
      created,
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: `call_${region}`, type: "function", function: { name: "list_releases", arguments: JSON.stringify({ namespace: region }) } }] }, finish_reason: "tool_calls" }],
    });
    const tools = toolsFile([{ type: "function", function: { name: "list_releases", parameters: { type: "object", properties: { namespace: { enum: ["cider"] } } } } }]);
    const page = (data: unknown[]) => JSON.stringify({ object: "list", data, has_more: false }) + "\n";
    expect((await verdicts(["--tools", tools, "-"], page([completion(1, "cider"), completion(1, "cider")]))).verdicts).toEqual([["function_call", "call_cider", "ok", false, []]]);
    // The same object with its members in another order is the same object: a repeat.
    const reordered = (created: number, region: string) => Object.fromEntries(Object.entries(completion(created, region)).reverse());
    expect((await verdicts(["--tools", tools, "-"], page([completion(1, "cider"), reordered(1, "cider")]))).verdicts).toEqual([["function_call", "call_cider", "ok", false, []]]);
    // A reader that keeps one version of chatcmpl-1 sees one call, another reader the other.
    const changed = await verdicts(["--tools", tools, "-"], page([completion(1, "cider"), completion(2, "cider-press")]));
    expect(changed.code).toBe(1);
    expect(changed.verdicts).toEqual([
      [undefined, null, "error", true, []],
      [undefined, null, "error", true, []],
    ]);
  });

  test("arguments stored as an object, holding a number a double reads as another: the call is not read, and normalize says so", async () => {
    const tools = toolsFile([{ type: "function", function: { name: "set_level", parameters: { type: "object", properties: { level: { type: "number", maximum: 1 } } } } }]);
    const trace = (level: string) => `{"trace":{"id":"T"},"observations":[{"id":"g1","traceId":"T","type":"GENERATION","name":"chat","startTime":"2025-08-28T07:32:30.306Z","input":[{"role":"user","content":"x"}],"output":{"role":"assistant","content":"","tool_calls":[{"id":"call_1","type":"function","function":{"name":"set_level","arguments":{"level":${level}}}}]}}]}\n`;
    const cut = await verdicts(["--tools", tools, "-"], trace("1.0000000000000001"));
    expect(cut.code).toBe(1);
    expect(cut.verdicts).toEqual([["message", null, "not_function_call", false, []], [undefined, null, "error", true, []]]);
    expect((await verdicts(["--tools", tools, "-"], trace("1.0"))).verdicts).toEqual([["message", null, "not_function_call", false, []], ["function_call", "call_1", "ok", false, []]]);
    const normalized = await runOrbridge(["normalize", "-"], trace("9007199254740993"));
    expect(normalized.stderr).toContain("orbridge: -#/0/observations/0/output/tool_calls/0: inexact_number: the call holds the number 9007199254740993 at /0/observations/0/output/tool_calls/0/function/arguments/level, which a double reads as another number: its arguments would not be the ones the store holds\n");
  });

  test("a Jaeger trace whose tool span ran the call with other arguments: no call is ok, and the disagreement is a blocked line", async () => {
    const tools = toolsFile([{ type: "function", function: { name: "list_releases", parameters: { type: "object", required: ["namespace"], properties: { namespace: { type: "string", enum: ["cider"] } } } } }]);
    const document = JSON.parse(readFileSync("golden/jaeger/indexed-tool-call/export.json", "utf8")) as { data: { spans: { tags: { key: string; value: string }[] }[] }[] };
    const tag = document.data[0].spans.flatMap((span) => span.tags).find((one) => one.key === "gcp.vertex.agent.tool_call_args")!;
    tag.value = '{"namespace": "kube-system"}';
    const file = join(scratchFolder("stored-logs-gate"), "tool-ran-otherwise.json");
    writeFileSync(file, JSON.stringify(document));
    const result = await runOrbridge(["gate", "--tools", tools, file]);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(/ ok\b/);
    expect(result.stdout.split("\n").filter((line) => line.includes("BLOCKED error: conflict:"))).toHaveLength(2);
    expect(result.stdout).toContain('the tool span ran the call "call_Xq2mB7rVt0LkP4sN" with the arguments {"namespace": "kube-system"}, where the call says "list_releases" with {"namespace": "cider"}');
  });
});
