// Anthropic records through normalize, from the command line: what the items
// hold, and each field of the record that no item holds, named where it stands.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test, vi } from "vitest";
import { join } from "node:path";
import { runOrbridge } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

const golden = (name: string, file: string) => readFileSync(fileURLToPath(new URL(`../../../golden/anthropic/${name}/${file}`, import.meta.url)), "utf8");
const lines = (text: string) => text.split("\n").filter((line) => line !== "");
const left = (line: number, path: string, what: string) => ({ line, path, code: "left_behind", detail: `${what} is in no item: normalize writes items only` });

// The first run loads the command's modules; a machine shared with other runs may take a while.
vi.setConfig({ testTimeout: 60_000 });

const folder = scratchFolder("anthropic-normalize");
let runs = 0;

async function normalize(journal: string): Promise<{ items: unknown[]; report: unknown[]; stderr: string }> {
  const reportFile = join(folder, `report-${++runs}.jsonl`);
  const result = await runOrbridge(["normalize", "--report", reportFile, "-"], journal);
  const parse = (text: string) => lines(text).map((line) => JSON.parse(line) as unknown);
  return { items: parse(result.stdout), report: parse(readFileSync(reportFile, "utf8")), stderr: result.stderr };
}

describe("a stored message", () => {
  test("stopped at a stop sequence: its items completed, its stop_reason and stop_sequence left behind, as no status says them", async () => {
    const message = JSON.parse(golden("response-stop-sequence", "anthropic.json")) as Record<string, unknown>;
    const { items, report } = await normalize(JSON.stringify(message) + "\n");
    expect(items).toEqual([
      {
        id: `msg_${createHash("sha256").update(`${String(message.id)}\u0000${0}`).digest("hex").slice(0, 48)}`,
        type: "message",
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: "The capital, as everyone knows, is ", annotations: [] }],
      },
    ]);
    expect(report).toEqual([
      // The text block the item comes from: the message writes no /output.
      { line: 1, path: "/content/0", code: "synthesized", detail: expect.stringMatching(/^an Anthropic block has no item id: msg_[0-9a-f]{48} derived from the message id and the item's place \(item 0 of the response\)$/) },
      left(1, "/id", "id of the response"),
      left(1, "/model", "model of the response"),
      left(1, "/stop_reason", "stop_reason of the response"),
      left(1, "/stop_sequence", "stop_sequence of the response"),
      left(1, "/usage", "usage of the response"),
    ]);
  });

  test("that ended its turn: the stop_reason its items' status says is not left behind", async () => {
    const message = { ...(JSON.parse(golden("response-stop-sequence", "anthropic.json")) as Record<string, unknown>), stop_reason: "end_turn", stop_sequence: null };
    const { report } = await normalize(JSON.stringify(message) + "\n");
    expect((report as Array<{ path: string }>).map((entry) => entry.path)).toEqual(["/content/0", "/id", "/model", "/usage"]);
  });
});

describe("a stream", () => {
  test("its calls' arguments are the text streamed, and each field of the message is left behind on the event that said it", async () => {
    const { items, report, stderr } = await normalize(golden("stream-parallel-tools", "stream.sse"));
    expect((items as Array<Record<string, unknown>>).filter((item) => item.type === "function_call").map((item) => item.arguments)).toEqual(['{"password": "mellon"}', '{"password": "radiance"}']);
    expect((report as Array<{ line: number; path: string; code: string }>).map(({ line, path, code }) => [line, path, code])).toEqual([
      [1, "/message/model", "left_behind"],
      [1, "/message/id", "left_behind"],
      [1, "/message/usage", "left_behind"],
      [64, "/delta/stop_reason", "left_behind"],
      [64, "/usage", "left_behind"],
    ]);
    expect(stderr).toMatch(/; 0 losses, 5 record fields left behind\n$/);
  });
});

describe("a message that says it is a response of the Messages API and has no id", () => {
  const message = { type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "tool_use", id: "toolu_01", name: "get_weather", input: { city: "Oslo" } }], stop_reason: "tool_use" };
  const request = { model: "claude-sonnet-4-5", max_tokens: 64, messages: [{ role: "user", content: "Weather?" }], tools: [{ name: "get_weather", input_schema: { type: "object" } }], tool_choice: { type: "none" } };

  test("normalize reads it; convert writes the id it derives from the message's content, reported synthesized", async () => {
    const journal = JSON.stringify(message) + "\n" + JSON.stringify({ ...message, id: "" }) + "\n";
    const normalized = await runOrbridge(["normalize"], journal);
    expect(normalized.code).toBe(0);
    const items = lines(normalized.stdout).map((line) => JSON.parse(line) as { id: string; call_id: string });
    expect(items.map((item) => item.call_id)).toEqual(["toolu_01", "toolu_01"]);
    expect(items[0]!.id).not.toBe(items[1]!.id);
    const report = join(folder, "no-id.report.jsonl");
    const converted = await runOrbridge(["convert", "--to", "responses", "--report", report], journal);
    expect(converted.code).toBe(0);
    const ids = lines(converted.stdout).map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids.every((id) => /^msg_[0-9a-f]{24}$/.test(id))).toBe(true);
    const synthesized = lines(readFileSync(report, "utf8")).map((line) => JSON.parse(line) as { line: number; path: string; code: string; detail: string }).filter((loss) => loss.path === "/id");
    // The second without id takes in its rank among the journal's, so that two alike would not share an id.
    const rank = (index: number) => (index === 0 ? "" : ` and its rank (${index + 1}) among the journal's messages without one`);
    expect(synthesized).toEqual(ids.map((id, index) => ({ line: index + 1, path: "/id", code: "synthesized", detail: `an Anthropic message without an id: ${id} derived from its content${rank(index)}` })));
  });

  test.each(["1", "2"])("in an exchange, its request's tool choice still holds for the calls after it, in %s thread(s)", async (jobs) => {
    const journal = JSON.stringify({ request, response: message }) + "\n" + JSON.stringify({ ...message, id: "msg_02", content: [{ ...message.content[0], id: "toolu_02" }] }) + "\n";
    const result = await runOrbridge(["gate", "--format", "json", "--jobs", jobs], journal);
    expect(result.code).toBe(1);
    const calls = lines(result.stdout).map((line) => JSON.parse(line) as { call_id?: string; blocked: boolean; type: string }).filter((verdict) => verdict.type === "function_call");
    expect(calls.map((verdict) => [verdict.call_id, verdict.blocked])).toEqual([["toolu_01", true], ["toolu_02", true]]);
  });
});
