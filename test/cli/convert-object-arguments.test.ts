// Anthropic, Gemini and Bedrock hold a call's arguments as an object. Converted
// between two of them, the object goes through its JSON text in the Open
// Responses form and comes out as the same object: nothing about the arguments
// is reported then. Only where the text reaches the record written (Chat, Open
// Responses) is it said to be made, and only where the object written differs
// (a number past the largest double) is a loss.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("object-arguments");

async function run(to: string, lines: string[]): Promise<{ stdout: unknown[]; report: unknown[]; text: string }> {
  const input = join(folder, `${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(input, lines.join("\n") + "\n");
  const result = await runOrbridge(["convert", "--to", to, "--report", `${input}.report`, input]);
  expect(result.code).toBe(0);
  const report = readFileSync(`${input}.report`, "utf8").trim().split("\n").filter(Boolean).map((text) => JSON.parse(text) as unknown);
  return { stdout: result.stdout.trim().split("\n").map((line) => JSON.parse(line) as unknown), report, text: result.stdout };
}

const MADE = "input is an object, not a text: the arguments are its JSON text as JSON.stringify writes it (no spaces, member order kept)";

// Modeled on the parallel tool round trip of pydantic-ai's Anthropic recordings.
const anthropicMessage = '{"role":"assistant","content":[{"type":"text","text":"I will look."},{"type":"tool_use","id":"toolu_0167cfEnoQaPviGdVXA95zcu","name":"retrieve_entity_info","input":{"name":"Alice","age":7.0}}]}';
const anthropicBody =
  '{"max_tokens":4096,"messages":[{"role":"user","content":[{"type":"text","text":"Who is the youngest?"}]},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_0167cfEnoQaPviGdVXA95zcu","name":"retrieve_entity_info","input":{"name":"Alice"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_0167cfEnoQaPviGdVXA95zcu","content":"twelve"}]}],"model":"claude-haiku-4-5"}';
const anthropicResponse =
  '{"content":[{"id":"toolu_01EEe2V5HD1Ac4rKiUR4HD2T","input":{"name":"Bob"},"name":"retrieve_entity_info","type":"tool_use"}],"id":"msg_011S3wxtqL5CVescWqS3zeg2","model":"claude-haiku-4-5-20251001","role":"assistant","stop_reason":"tool_use","stop_sequence":null,"type":"message","usage":{"input_tokens":423,"output_tokens":202}}';

describe("an Anthropic tool_use input written as Gemini args or a Bedrock input", () => {
  test("a loose message: the same object, nothing reported", async () => {
    expect(await run("gemini", [anthropicMessage])).toEqual({
      stdout: [{ role: "model", parts: [{ text: "I will look." }, { functionCall: { name: "retrieve_entity_info", args: { name: "Alice", age: 7 }, id: "toolu_0167cfEnoQaPviGdVXA95zcu" } }] }],
      report: [],
      text: expect.any(String) as string,
    });
    expect(await run("bedrock", [anthropicMessage])).toEqual({
      stdout: [{ role: "assistant", content: [{ text: "I will look." }, { toolUse: { toolUseId: "toolu_0167cfEnoQaPviGdVXA95zcu", name: "retrieve_entity_info", input: { name: "Alice", age: 7 } } }] }],
      report: [],
      text: expect.any(String) as string,
    });
  });

  test("a request body: the same object, nothing reported of it", async () => {
    const gemini = await run("gemini", [anthropicBody]);
    expect((gemini.stdout[0] as { contents: unknown[] }).contents[1]).toEqual({ role: "model", parts: [{ functionCall: { name: "retrieve_entity_info", args: { name: "Alice" }, id: "toolu_0167cfEnoQaPviGdVXA95zcu" } }] });
    expect(gemini.report).toEqual([]);
    const bedrock = await run("bedrock", [anthropicBody]);
    expect((bedrock.stdout[0] as { messages: unknown[] }).messages[1]).toEqual({ role: "assistant", content: [{ toolUse: { toolUseId: "toolu_0167cfEnoQaPviGdVXA95zcu", name: "retrieve_entity_info", input: { name: "Alice" } } }] });
    // The user's one text block reads back from Bedrock as a string: that is said, and nothing of the call.
    expect(bedrock.report.filter((entry) => (entry as { path: string }).path.startsWith("/messages"))).toEqual([
      { line: 1, path: "/messages/0", code: "form_changed", detail: "the parts are written as one text block alone, which Bedrock Converse reads in a system or user message as its text: it comes back as the string it holds, not as parts" },
    ]);
  });

  test("a response: the same object, nothing reported of it", async () => {
    const gemini = await run("gemini", [anthropicResponse]);
    expect((gemini.stdout[0] as { candidates: Array<{ content: unknown }> }).candidates[0]!.content).toEqual({ parts: [{ functionCall: { name: "retrieve_entity_info", args: { name: "Bob" }, id: "toolu_01EEe2V5HD1Ac4rKiUR4HD2T" } }], role: "model" });
    expect(gemini.report.filter((entry) => ["/candidates", "/content"].includes((entry as { path: string }).path))).toEqual([]);
    const bedrock = await run("bedrock", [anthropicResponse]);
    expect((bedrock.stdout[0] as { output: unknown }).output).toEqual({ message: { role: "assistant", content: [{ toolUse: { toolUseId: "toolu_01EEe2V5HD1Ac4rKiUR4HD2T", name: "retrieve_entity_info", input: { name: "Bob" } } }] } });
    expect(bedrock.report.filter((entry) => ["/output/message/content", "/content"].includes((entry as { path: string }).path))).toEqual([]);
  });

  test("written as Chat, the arguments text is still said to be made of the object", async () => {
    expect((await run("chat", [anthropicMessage])).report).toEqual([{ line: 1, path: "/content/1/input", code: "synthesized", detail: MADE }]);
    expect((await run("chat", [anthropicResponse])).report).toContainEqual({ line: 1, path: "/choices", code: "synthesized", detail: MADE });
  });
});

describe("Gemini args and Bedrock input written as each other or as an Anthropic input", () => {
  const gemini = '{"role":"model","parts":[{"functionCall":{"name":"f","args":{"city":"Paris","n":2.50},"id":"g1"}}]}';
  const bedrock = '{"role":"assistant","content":[{"toolUse":{"toolUseId":"tooluse_abc","name":"f","input":{"city":"Paris","n":2.50}}}]}';
  test.each([
    ["gemini", "anthropic", gemini, { role: "assistant", content: [{ type: "tool_use", id: "g1", name: "f", input: { city: "Paris", n: 2.5 } }] }],
    ["gemini", "bedrock", gemini, { role: "assistant", content: [{ toolUse: { toolUseId: "g1", name: "f", input: { city: "Paris", n: 2.5 } } }] }],
    ["bedrock", "anthropic", bedrock, { role: "assistant", content: [{ type: "tool_use", id: "tooluse_abc", name: "f", input: { city: "Paris", n: 2.5 } }] }],
    ["bedrock", "gemini", bedrock, { role: "model", parts: [{ functionCall: { name: "f", args: { city: "Paris", n: 2.5 }, id: "tooluse_abc" } }] }],
  ])("%s to %s: the same object, its number as written, nothing reported", async (_from, to, line, written) => {
    const result = await run(to, [line]);
    expect(result).toEqual({ stdout: [written], report: [], text: expect.stringContaining('"n":2.50}') as string });
  });
});
