// A call's namespace decides which tool runs: diff and report --replay say so.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const deleteFile = { type: "function_call", id: "fc_1", name: "delete_file", call_id: "call_1", status: "completed", arguments: '{"path":"/tmp/a"}' };
const tools = [{ type: "function", function: { name: "delete_file", parameters: { type: "object", required: ["path"], properties: { path: { type: "string" } } } } }];

function journals(): { origin: string; replay: string; tools: string } {
  const folder = scratchFolder("diff-namespaces");
  const files = { origin: join(folder, "origin.jsonl"), replay: join(folder, "replay.jsonl"), tools: join(folder, "tools.json") };
  writeFileSync(files.origin, JSON.stringify({ ...deleteFile, namespace: "sandbox" }) + "\n");
  writeFileSync(files.replay, JSON.stringify(deleteFile) + "\n");
  writeFileSync(files.tools, JSON.stringify(tools));
  return files;
}

const detail = 'name "delete_file" of namespace "sandbox" in the origin, "delete_file" with no namespace in the replay: a namespace\'s function is another tool than the top-level function of its name';

describe("a namespace's call replayed as the top-level function", { timeout: 30_000 }, () => {
  test("diff reports it name_changed and exits 1", async () => {
    const { origin, replay } = journals();
    expect(await runOrbridge(["diff", origin, replay])).toEqual({ code: 1, stdout: `name_changed  origin line 1  replay line 1  ${detail}\n`, stderr: "1 difference\n" });
  });

  test("diff --format json points at /namespace", async () => {
    const { origin, replay } = journals();
    const result = await runOrbridge(["diff", "--format", "json", origin, replay]);
    expect({ ...result, stdout: JSON.parse(result.stdout) }).toEqual({
      code: 1,
      stdout: { code: "name_changed", detail, path: "/namespace", origin: { source: origin, line: 1, index: 0 }, replay: { source: replay, line: 1, index: 0 } },
      stderr: "1 difference\n",
    });
  });

  test("report --replay counts it and marks the origin's namespace", async () => {
    const files = journals();
    const out = join(files.origin, "..", "report.html");
    const result = await runOrbridge(["report", "--tools", files.tools, "--replay", files.replay, "--out", out, files.origin]);
    expect(result).toEqual({ code: 0, stdout: "", stderr: "read 1 line: 1 item, 0 errors; 1 blocked; 1 difference with the replay\n  blocked by: unknown_tool 1\n" });
    const page = readFileSync(out, "utf8");
    expect(page).toContain('<tr><td><code>name_changed</code></td><td class="n"><a href="#difference-0">1</a></td></tr>');
    expect(page).toContain("&quot;namespace&quot;: <mark>&quot;sandbox&quot;</mark>");
  });
});
