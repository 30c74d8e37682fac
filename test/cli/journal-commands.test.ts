import { readFileSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const mixed = "golden/examples/mixed.jsonl";
const tools = "golden/examples/sales-tools.json";
const parse = (stdout: string) => stdout.trimEnd().split("\n").map((line) => JSON.parse(line));

describe("orbridge gate on a mixed journal", () => {
  test("--tools gates each call by its own schema and attaches journal-wide findings", async () => {
    const result = await runOrbridge(["gate", "--tools", tools, "--format", "json", mixed]);
    expect(result.code).toBe(1);
    expect(parse(result.stdout).map((r) => [r.line, r.index, r.type, r.call_id ?? null, r.reason, r.blocked, r.findings.map((f: { code: string }) => f.code)])).toEqual([
      [1, 0, "message", null, "not_function_call", false, []],
      [1, 1, "message", null, "not_function_call", false, []],
      [2, 0, "message", null, "not_function_call", false, []],
      [2, 1, "function_call", "call_apac01", "ok", false, []],
      [2, 2, "function_call", "call_glob02", "arguments_schema", true, []],
      [3, 0, "function_call_output", "call_apac01", "not_function_call", false, []],
      [4, 0, "function_call_output", "call_glob02", "not_function_call", true, ["output_for_blocked_call"]],
      [5, 0, "openai:web_search_call", null, "namespaced", true, []],
      [6, 0, "function_call", "call_emea03", "status", true, []],
    ]);
    expect(result.stderr).toBe("read 6 lines: 9 items, 0 errors; 4 blocked\n  blocked by: arguments_schema 1, namespaced 1, output_for_blocked_call 1, status 1\n  findings: output_for_blocked_call 1\n");
  });

  test("a call whose tool has no schema is unknown_tool (fail closed)", async () => {
    const call = { type: "function_call", call_id: "call_x", name: "delete_everything", arguments: "{}", status: "completed" };
    const result = await runOrbridge(["gate", "--tools", tools, "--format", "json"], JSON.stringify(call) + "\n");
    expect(result.code).toBe(1);
    expect(parse(result.stdout)[0]).toMatchObject({ reason: "unknown_tool", blocked: true });
  });

  test("tool_choice allowed_tools in a request body of the journal limits the names that may run", async () => {
    const request = {
      input: [],
      tools: [
        { type: "function", name: "get_latest_sales_report", parameters: { type: "object" } },
        { type: "function", name: "send_email", parameters: { type: "object" } },
      ],
      tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "get_latest_sales_report" }] },
    };
    const call = { type: "function_call", call_id: "call_m1", name: "send_email", arguments: "{}", status: "completed" };
    const result = await runOrbridge(["gate", "--format", "json"], [request, call].map((r) => JSON.stringify(r)).join("\n") + "\n");
    const [verdict] = parse(result.stdout);
    expect(verdict).toMatchObject({ line: 2, reason: "ok", blocked: true });
    expect(verdict.findings.map((f: { code: string }) => f.code)).toEqual(["tool_not_allowed"]);
    expect(result.code).toBe(1);
  });

  test("--for open-responses flags what the portable core cannot hold", async () => {
    const result = await runOrbridge(["gate", "--tools", tools, "--for", "open-responses", "--format", "json", mixed]);
    const search = parse(result.stdout).find((r) => r.type === "openai:web_search_call");
    expect(search.findings.map((f: { code: string }) => f.code)).toEqual(["target_rejects"]);
  });

  test("--schema and --tools together are a usage error", async () => {
    expect(await runOrbridge(["gate", "--schema", "golden/examples/sales-report.schema.json", "--tools", tools, mixed])).toEqual({
      code: 2,
      stdout: "",
      stderr: "orbridge gate: give --schema or --tools, not both\n",
    });
  });

  test("a tools file that is not a tools array or a request body is a usage error", async () => {
    const result = await runOrbridge(["gate", "--tools", "golden/examples/sales-report.schema.json", mixed]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("orbridge gate: tools file golden/examples/sales-report.schema.json defines no function tool\n");
  });
});

// The fields of mixed.jsonl's request body (line 1) and chat.completion (line 2) that no item holds.
const LEFT_BEHIND = [
  [1, "/model"],
  [1, "/tools"],
  [2, "/id"],
  [2, "/created"],
  [2, "/model"],
  [2, "/usage"],
];

describe("orbridge normalize", () => {
  test("turns a mixed journal into canonical items, one per line", async () => {
    const result = await runOrbridge(["normalize", mixed]);
    expect(result.code).toBe(0);
    expect(parse(result.stdout).map((item) => [item.type, item.role ?? item.call_id ?? item.id])).toEqual([
      ["message", "system"],
      ["message", "user"],
      ["message", "assistant"],
      ["function_call", "call_apac01"],
      ["function_call", "call_glob02"],
      ["function_call_output", "call_apac01"],
      ["function_call_output", "call_glob02"],
      ["openai:web_search_call", "ws_68c1a2"],
      ["function_call", "call_emea03"],
    ]);
    expect(result.stderr).toBe("read 6 lines, 6 records: 6 emitted (9 items), 0 reported; 0 losses, 6 record fields left behind\n");
  });

  test("--for chat-completions removes the extension item and reports it", async () => {
    const folder = scratchFolder("normalize");
    const report = join(folder, "report.jsonl");
    const result = await runOrbridge(["normalize", "--for", "chat-completions", "--report", report, mixed]);
    expect(result.code).toBe(0);
    expect(parse(result.stdout).some((item) => item.type === "openai:web_search_call")).toBe(false);
    const entries = parse(readFileSync(report, "utf8"));
    expect(entries.filter((entry) => entry.code !== "left_behind")).toEqual([
      { line: 5, index: 0, path: "", code: "unsupported_item", detail: "\"openai:web_search_call\" is one provider's extension and has no Chat Completions form" },
    ]);
    // The request body's and the completion's fields that no item holds are named, one entry each.
    expect(entries.filter((entry) => entry.code === "left_behind").map((entry) => [entry.line, entry.path])).toEqual(LEFT_BEHIND);
    expect(result.stderr).toBe("read 6 lines, 6 records: 6 emitted (8 items), 0 reported; 0 losses, 6 record fields left behind; 1 change for chat-completions\n");
  });

  test("--origin gives unprefixed provider types another slug", async () => {
    const result = await runOrbridge(["normalize", "--origin", "azure"], '{"type":"file_search_call","id":"fs_1","status":"completed"}\n');
    expect(parse(result.stdout)).toEqual([{ type: "azure:file_search_call", id: "fs_1", status: "completed" }]);
  });

  test("errors are reported with their line and counted, the rest emitted, exit 1", async () => {
    const result = await runOrbridge(["normalize"], '{"role":"user","content":"hi"}\nnot json\n{"hello":1}\n');
    expect(result.code).toBe(1);
    expect(parse(result.stdout)).toEqual([{ type: "message", role: "user", content: "hi" }]);
    expect(result.stderr.split("\n")).toEqual([
      expect.stringMatching(/^orbridge normalize: line 2: line is not JSON: /),
      'orbridge normalize: line 3: record of no known kind (keys: "hello")',
      "read 3 lines, 3 records: 1 emitted (1 item), 2 reported; 0 losses",
      "",
    ]);
  });

  test("--out writes the file atomically and nothing to stdout", async () => {
    const folder = scratchFolder("normalize");
    const out = join(folder, "items.jsonl");
    const result = await runOrbridge(["normalize", "--out", out, mixed]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(readFileSync(out, "utf8").trimEnd().split("\n")).toHaveLength(9);
  });

  test("a bad --origin is a usage error and writes nothing", async () => {
    const folder = scratchFolder("normalize");
    const out = join(folder, "items.jsonl");
    const result = await runOrbridge(["normalize", "--origin", "not a slug", "--out", out, mixed]);
    expect(result).toEqual({ code: 2, stdout: "", stderr: 'orbridge normalize: --origin must be a slug such as "openai" (got "not a slug")\n' });
    expect(existsSync(out)).toBe(false);
  });
});

describe("orbridge diff", () => {
  test("flags a function_call that became an extension item, and exits 1", async () => {
    const folder = scratchFolder("diff");
    const call = { type: "function_call", call_id: "call_1", name: "get_latest_sales_report", arguments: "{\"region\":\"apac\"}", status: "completed" };
    writeFileSync(join(folder, "origin.jsonl"), JSON.stringify(call) + "\n");
    writeFileSync(join(folder, "replay.jsonl"), JSON.stringify({ ...call, type: "openai:function_call" }) + "\n");
    const result = await runOrbridge(["diff", "--format", "json", join(folder, "origin.jsonl"), join(folder, "replay.jsonl")]);
    expect(result.code).toBe(1);
    expect(parse(result.stdout).map((d) => [d.code, d.path, d.origin.line, d.replay.line])).toEqual([["type_changed", "/type", 1, 1]]);
  });

  test("lines up a Responses origin with a Chat replay and finds the changed call_id, where arguments that differ only in spacing are the same call", async () => {
    const result = await runOrbridge(["diff", "golden/examples/origin.jsonl", "golden/examples/replay.jsonl"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      'call_id_mismatch  origin line 3  replay line 2.1  call_id "call_emea02" in the origin, "call_emea99" in the replay: an output written for one answers no call of the other\n',
    );
    expect(result.stderr).toBe("1 difference\n");
  });

  test("identical journals exit 0", async () => {
    const result = await runOrbridge(["diff", mixed, mixed]);
    expect(result).toEqual({ code: 0, stdout: "", stderr: "0 differences\n" });
  });

  test("needs exactly two journals", async () => {
    expect(await runOrbridge(["diff", mixed])).toEqual({ code: 2, stdout: "", stderr: "orbridge diff: diff needs two journals: ORIGIN REPLAY\n" });
  });
});
