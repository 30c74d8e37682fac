// A tool result that names no call, in any envelope, is judged and blocked: it is
// never dropped, since a replay of the log would still send it. Each line of the
// journal gets its verdict.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("gate-unpaired-results");
const jsonl = (lines: readonly unknown[]) => lines.map((line) => JSON.stringify(line)).join("\n") + "\n";

const results: Array<[unknown, string]> = [
  [{ role: "tool", content: "sunny" }, "the output has no call_id: it answers no call"],
  [{ role: "tool", tool_call_id: null, content: "sunny" }, "the output has a non-string (null) call_id: it answers no call"],
  [{ role: "tool", tool_call_id: 42, content: "sunny" }, "the output has a non-string (number 42) call_id: it answers no call"],
  [{ role: "tool", tool_call_id: "", content: "sunny" }, "the output has an empty call_id: it answers no call"],
  [{ role: "user", content: [{ type: "tool_result", content: "sunny" }] }, "the output has no call_id: it answers no call"],
  [{ role: "user", content: [{ toolResult: { content: [{ text: "sunny" }] } }] }, "the output has no call_id: it answers no call"],
  [{ type: "function_call_output", output: "sunny" }, "the output has no call_id: it answers no call"],
];

describe("gate, on tool results that name no call", { timeout: 30_000 }, () => {
  test("blocks each as missing_field, one verdict a line", async () => {
    const schema = join(folder, "schema.json");
    writeFileSync(schema, "{}");
    const run = await runOrbridge(["gate", "--schema", schema, "--format", "json", "-"], jsonl(results.map(([line]) => line)));
    expect(run.code).toBe(1);
    const verdicts = run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { line: number; type: string; blocked: boolean; findings: Array<{ code: string; detail: string }> });
    expect(verdicts.map((verdict) => [verdict.line, verdict.type, verdict.blocked, verdict.findings.map((finding) => [finding.code, finding.detail])])).toEqual(
      results.map(([, detail], index) => [index + 1, "function_call_output", true, [["missing_field", detail]]]),
    );
  });
});
