// Loose Anthropic and Bedrock messages, one a line: a tool result names only its
// call's id, and a target whose results name the function (Gemini's
// functionResponse) gets the name of the call on an earlier line of the journal.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("tool-result-names");
const jsonl = (lines: readonly unknown[]) => lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
const reportOf = (path: string) => readFileSync(path, "utf8").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as unknown);
const NAMED = "a functionResponse names the function whose call it answers";

const anthropic = jsonl([
  { role: "user", content: "Weather in Paris?" },
  { role: "assistant", content: [{ type: "tool_use", id: "toolu_01", name: "get_weather", input: { city: "Paris" } }] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01", content: "sunny" }] },
]);
const bedrock = jsonl([
  { role: "user", content: [{ text: "Weather in Paris?" }] },
  { role: "assistant", content: [{ toolUse: { toolUseId: "tooluse_01", name: "get_weather", input: { city: "Paris" } } }] },
  { role: "user", content: [{ toolResult: { toolUseId: "tooluse_01", content: [{ text: "sunny" }] } }] },
]);

describe("normalize --for gemini", { timeout: 30_000 }, () => {
  test("an Anthropic tool_result on a later line gets its call's name, reported", async () => {
    const report = join(folder, "anthropic.report.jsonl");
    expect(await runOrbridge(["normalize", "--for", "gemini", "--report", report, "-"], anthropic)).toEqual({
      code: 0,
      stdout: jsonl([
        { type: "message", role: "user", content: "Weather in Paris?" },
        { type: "function_call", call_id: "toolu_01", name: "get_weather", arguments: '{"city":"Paris"}', status: "completed" },
        { type: "function_call_output", call_id: "toolu_01", output: "sunny", "gemini:name": "get_weather" },
      ]),
      stderr: "read 3 lines, 3 records: 3 emitted (3 items), 0 reported; 0 losses, 1 value synthesized; 1 change for gemini\n",
    });
    expect(reportOf(report)).toEqual([
      { line: 2, path: "/content/0/input", code: "synthesized", detail: "input is an object, not a text: the arguments are its JSON text as JSON.stringify writes it (no spaces, member order kept)" },
      { line: 3, index: 0, path: "/gemini:name", code: "synthesized", detail: `${NAMED}: the output gets the name of its call on line 2, "get_weather"` },
    ]);
  });

  test("a result whose call the journal never showed gets no name; one that names its function keeps its own", async () => {
    const journal = jsonl([
      { type: "function_call", call_id: "call_1", name: "get_weather", arguments: "{}", status: "completed" },
      { type: "function_call_output", call_id: "call_1", output: "sunny", "gemini:name": "get_forecast" },
      { type: "function_call_output", call_id: "call_2", output: "rain" },
    ]);
    const report = join(folder, "unnamed.report.jsonl");
    const run = await runOrbridge(["normalize", "--for", "gemini", "--report", report, "-"], journal);
    expect(run).toEqual({ code: 0, stdout: journal, stderr: "read 3 lines, 3 records: 3 emitted (3 items), 0 reported; 0 losses; 0 changes for gemini\n" });
    expect(readFileSync(report, "utf8")).toEqual("");
  });
});

describe("convert --to gemini --for gemini", { timeout: 30_000 }, () => {
  test("a Bedrock toolResult on a later line is written with its call's name, not an empty one", async () => {
    const report = join(folder, "bedrock.report.jsonl");
    expect(await runOrbridge(["convert", "--to", "gemini", "--for", "gemini", "--report", report, "-"], bedrock)).toEqual({
      code: 0,
      stdout: jsonl([
        { role: "user", parts: [{ text: "Weather in Paris?" }] },
        { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" }, id: "tooluse_01" } }] },
        { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { output: "sunny" }, id: "tooluse_01" } }] },
      ]),
      stderr: "read 3 lines: 3 records, 0 errors; 0 losses, 1 value synthesized\n",
    });
    expect(reportOf(report)).toEqual([{ line: 3, path: "/gemini:name", code: "synthesized", detail: `${NAMED}: the output gets the name of its call on line 2, "get_weather"` }]);
  });

  test("an Anthropic tool_result on a later line is written with its call's name", async () => {
    const run = await runOrbridge(["convert", "--to", "gemini", "--for", "gemini", "-"], anthropic);
    expect(run.stdout.split("\n")[2]).toEqual(JSON.stringify({ role: "user", parts: [{ functionResponse: { name: "get_weather", response: { output: "sunny" }, id: "toolu_01" } }] }));
  });
});
