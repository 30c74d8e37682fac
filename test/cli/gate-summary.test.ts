// What a run over a large journal needs: only the blocked verdicts, or none,
// and a closing summary counted by what blocked each record and by finding.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const schema = ["--schema", "golden/examples/sales-report.schema.json"];
const journal = "golden/examples/sales-report.jsonl";
const counts = "read 8 lines: 8 items, 0 errors; 5 blocked\n";
const tally = "  blocked by: arguments_parse 1, arguments_schema 1, arguments_type 1, namespaced 1, status 1\n";
// The example, then an output for its blocked call and one for no call: two findings of two codes.
const withFindings =
  readFileSync(journal, "utf8") + '{"type":"function_call_output","call_id":"call_124","output":"global"}\n{"type":"function_call_output","call_id":"call_9","output":"done"}\n';

describe("gate's closing summary", { timeout: 30_000 }, () => {
  test("counts blocked records by what blocked them, then findings by code, beneath the totals", async () => {
    const result = await runOrbridge(["gate", ...schema, journal]);
    expect([result.code, result.stderr]).toEqual([1, counts + tally]);
    const found = await runOrbridge(["gate", ...schema], withFindings);
    expect([found.code, found.stderr]).toEqual([
      1,
      "read 10 lines: 10 items, 0 errors; 7 blocked\n  blocked by: arguments_parse 1, arguments_schema 1, arguments_type 1, namespaced 1, orphan_output 1, output_for_blocked_call 1, status 1\n  findings: orphan_output 1, output_for_blocked_call 1\n",
    ]);
  });

  test("--summary json gives the same counts as one JSON object", async () => {
    const result = await runOrbridge(["gate", ...schema, "--summary", "json", "-"], withFindings);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toEqual({
      lines: 10,
      items: 10,
      errors: 0,
      blocked: 7,
      blocked_by: { arguments_schema: 1, namespaced: 1, status: 1, arguments_type: 1, arguments_parse: 1, orphan_output: 1, output_for_blocked_call: 1 },
      findings: { orphan_output: 1, output_for_blocked_call: 1 },
    });
    expect(result.stderr.endsWith("}\n") && result.stderr.split("\n").length).toBe(2);
  });

  test("an orphan output is counted by its finding, which its headline names", async () => {
    const result = await runOrbridge(["gate"], '{"type":"function_call_output","call_id":"call_9","output":"done"}\n');
    expect(result).toEqual({
      code: 1,
      stdout:
        'line 1  function_call_output call_9  BLOCKED orphan_output: no earlier function_call has the call_id "call_9"\n    verdict not_function_call: "function_call_output" is not a function_call\n',
      stderr: "read 1 line: 1 item, 0 errors; 1 blocked\n  blocked by: orphan_output 1\n  findings: orphan_output 1\n",
    });
  });
});

describe("gate --only-blocked and --quiet", { timeout: 30_000 }, () => {
  test("--only-blocked writes the blocked verdicts, in order, and the summary counts every item", async () => {
    const all = await runOrbridge(["gate", ...schema, journal]);
    const blocked = await runOrbridge(["gate", ...schema, "--only-blocked", journal]);
    const blockedLines = all.stdout.split(/\n(?=line )/).filter((verdict) => verdict.includes("BLOCKED")).join("\n");
    expect(blocked).toEqual({ code: 1, stdout: blockedLines, stderr: counts + tally });
  });

  test("--only-blocked with --format json writes the lines whose blocked is true", async () => {
    const all = await runOrbridge(["gate", ...schema, "--format", "json", journal]);
    const blocked = await runOrbridge(["gate", ...schema, "--format", "json", "--only-blocked", journal]);
    const lines = all.stdout.trimEnd().split("\n");
    expect(blocked.stdout.trimEnd().split("\n")).toEqual(lines.filter((line) => JSON.parse(line).blocked === true));
  });

  test("--quiet writes nothing; the exit status says whether anything is blocked", async () => {
    expect(await runOrbridge(["gate", ...schema, "--quiet", journal])).toEqual({ code: 1, stdout: "", stderr: "" });
    expect(await runOrbridge(["gate", "--quiet"], '{"type":"message","role":"user","content":"hi"}\n')).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  test("--quiet with --only-blocked or --summary is a usage error", async () => {
    const both = await runOrbridge(["gate", ...schema, "--quiet", "--only-blocked", journal]);
    expect([both.code, both.stdout]).toEqual([2, ""]);
    expect(both.stderr).toContain("--quiet writes no verdict and --only-blocked writes the blocked ones: give one of them");
    const summary = await runOrbridge(["gate", ...schema, "--quiet", "--summary", "json", journal]);
    expect([summary.code, summary.stdout]).toEqual([2, ""]);
    expect(summary.stderr).toContain("--quiet writes nothing, not even a summary: give --quiet or --summary");
  });
});
