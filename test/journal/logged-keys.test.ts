// A logger may store a provider's message with keys of its own beside it
// (`logged_at`, `cache_control` on the message). The message's blocks still say
// whose it is: a tool result stays a call's output, and each added key is
// reported, where the message used to become an Open Responses item whose tool
// result was dropped as an unsupported part.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("logged-keys");

async function normalized(record: unknown): Promise<{ stdout: string; report: string }> {
  const report = join(folder, `${Math.random().toString(36).slice(2)}.jsonl`);
  const result = await runOrbridge(["normalize", "--report", report, "-"], JSON.stringify(record) + "\n");
  expect(result.code).toBe(0);
  return { stdout: result.stdout, report: readFileSync(report, "utf8") };
}

const reported = (what: string) => JSON.stringify({ line: 1, path: "/logged_at", code: "provider_extension", detail: `"logged_at" is not a field of ${what}; Open Responses has no place for it` }) + "\n";

describe("a tool result with a key a logger added beside it", () => {
  test("Anthropic", async () => {
    const { stdout, report } = await normalized({ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01", content: "ok" }], logged_at: "2026-01-02T03:04:05Z" });
    expect(stdout).toBe('{"type":"function_call_output","call_id":"toolu_01","output":"ok"}\n');
    expect(report).toBe(reported("an Anthropic message"));
  });

  test("Bedrock", async () => {
    const { stdout, report } = await normalized({ role: "user", content: [{ toolResult: { toolUseId: "tooluse_01", content: [{ text: "ok" }] } }], logged_at: "2026-01-02T03:04:05Z" });
    expect(stdout).toBe('{"type":"function_call_output","call_id":"tooluse_01","output":"ok"}\n');
    expect(report).toBe(reported("a Bedrock message"));
  });

  test("Gemini", async () => {
    const { stdout, report } = await normalized({ role: "user", parts: [{ functionResponse: { id: "call_01", name: "lookup", response: { total: 3 } } }], logged_at: "2026-01-02T03:04:05Z" });
    expect(stdout).toBe('{"type":"function_call_output","call_id":"call_01","output":"{\\"total\\":3}","gemini:name":"lookup"}\n');
    expect(report.split("\n")[0] + "\n").toBe(reported("a Gemini content"));
  });
});
