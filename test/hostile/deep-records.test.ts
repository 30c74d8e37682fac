// A record nested 100,000 deep in a field a converter or a writer walks (an
// Anthropic tool_use `input`, a Gemini functionCall `args`, an item's content):
// every command answers with an error on its line that names the field, the
// lines after it are read as usual, and nothing crashes.
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "./support.js";

const DEPTH = 100_000;
const deepArray = "[".repeat(DEPTH) + "]".repeat(DEPTH);
const anthropicCall = `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"f","input":{"a":${deepArray}}}]}`;
const geminiCall = `{"role":"model","parts":[{"functionCall":{"name":"f","args":{"a":${deepArray}}}}]}`;
const deepItem = `{"type":"message","role":"user","content":${deepArray}}`;
const after = JSON.stringify({ role: "user", content: "next" });
const afterItem = JSON.stringify({ type: "message", role: "user", content: "next" });
const tooDeep = (step: string, what: string, depth: string, at: string) => `${step}: ${what} nests ${depth} levels deep, at ${at}, deeper than orbridge follows`;
const file = scratchFolder();

describe("an Anthropic tool_use whose input nests 100,000 deep", { timeout: 30_000 }, () => {
  const journal = file("anthropic.jsonl", `${anthropicCall}\n${after}\n`);
  const detail = tooDeep("not read", "the record", "100,004", "/content/0/input/a/0/0/…");

  test("normalize reports the line and the field, and normalizes the next line", async () => {
    expect(await runOrbridge(["normalize", journal])).toEqual({
      code: 1,
      stdout: `${afterItem}\n`,
      stderr: `orbridge normalize: line 1: ${detail}\nread 2 lines, 2 records: 1 emitted (1 item), 1 reported; 0 losses\n`,
    });
  });

  test("gate blocks the line with that error, and gates the next", async () => {
    expect(await runOrbridge(["gate", "--format", "json", journal])).toEqual({
      code: 1,
      stdout: `${JSON.stringify({ line: 1, index: 0, reason: "error", detail, blocked: true, findings: [] })}\n${JSON.stringify({ line: 2, index: 0, type: "message", reason: "not_function_call", detail: '"message" is not a function_call', path: "/type", blocked: false, findings: [] })}\n`,
      stderr: "read 2 lines: 1 item, 1 error; 1 blocked\n  blocked by: error 1\n",
    });
  });

  test("diff says which line could not be read", async () => {
    const other = file("other.jsonl", `${after}\n`);
    expect(await runOrbridge(["diff", journal, other])).toEqual({ code: 1, stdout: "", stderr: `orbridge diff: ${journal}:1: ${detail}\n0 differences; 1 line could not be read\n` });
  });

  test("restore-ids writes the line as it came, since its ids are all within reach, and restores the next", async () => {
    const map = file("ids.jsonl", `${JSON.stringify({ original: "call.1", rewritten: "call_1" })}\n`);
    const answers = file("answers.jsonl", `${anthropicCall}\n${JSON.stringify({ role: "tool", tool_call_id: "call_1", content: "ok" })}\n`);
    expect(await runOrbridge(["restore-ids", "--map", map, answers])).toEqual({
      code: 0,
      stdout: `${anthropicCall}\n${JSON.stringify({ role: "tool", tool_call_id: "call.1", content: "ok" })}\n`,
      stderr: "read 2 lines: 1 ids restored, 1 call ids not in the map, 0 errors\n",
    });
  });
});

describe("a Gemini functionCall whose args nest 100,000 deep", { timeout: 30_000 }, () => {
  test("normalize reports the line and the field", async () => {
    const journal = file("gemini.jsonl", `${geminiCall}\n${after}\n`);
    expect(await runOrbridge(["normalize", journal])).toEqual({
      code: 1,
      stdout: `${afterItem}\n`,
      stderr: `orbridge normalize: line 1: ${tooDeep("not read", "the record", "100,005", "/parts/0/functionCall/args/a/0/…")}\nread 2 lines, 2 records: 1 emitted (1 item), 1 reported; 0 losses\n`,
    });
  });
});

describe("an item whose content nests 100,000 deep", { timeout: 30_000 }, () => {
  test("normalize says which item cannot be written, and where", async () => {
    const journal = file("item.jsonl", `${deepItem}\n${afterItem}\n`);
    expect(await runOrbridge(["normalize", journal])).toEqual({
      code: 1,
      stdout: `${afterItem}\n`,
      stderr: `orbridge normalize: line 1: ${tooDeep("record cannot be written", "its item 0", "100,001", "/content/0/0/0/0/0/…")}\nread 2 lines, 2 records: 1 emitted (1 item), 1 reported; 0 losses\n`,
    });
  });
});
