// A request body converted to another envelope goes through its Open Responses
// form. What the second step cannot write is reported at the field of the body
// the user wrote, not at a path of that form.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("convert-body-losses");
const jsonl = (lines: readonly unknown[]) => lines.map((line) => JSON.stringify(line)).join("\n") + "\n";

const anthropic = {
  model: "claude-sonnet-4",
  max_tokens: 100,
  messages: [
    { role: "user", content: "Weather in Paris?" },
    { role: "assistant", content: [{ type: "text", text: "Checking." }, { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" }, cache_control: { type: "ephemeral" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "sunny", is_error: true }] },
  ],
};
const bedrock = {
  system: [{ text: "Be brief." }],
  messages: [
    { role: "user", content: [{ text: "Weather in Paris?" }] },
    { role: "assistant", content: [{ toolUse: { toolUseId: "tu_1", name: "get_weather", input: { city: "Paris" } } }] },
    { role: "user", content: [{ toolResult: { toolUseId: "tu_1", content: [{ text: "sunny" }], status: "error" } }] },
  ],
  inferenceConfig: { maxTokens: 100 },
};
const gemini = {
  systemInstruction: { parts: [{ text: "Be brief." }] },
  contents: [
    { role: "user", parts: [{ text: "Weather in Paris?" }] },
    { role: "model", parts: [{ functionCall: { id: "g1", name: "get_weather", args: { city: "Paris" } }, thoughtSignature: "c2ln" }] },
  ],
};

async function reported(target: string, body: unknown): Promise<Array<[string, string]>> {
  const report = join(folder, `${target}.report.jsonl`);
  const run = await runOrbridge(["convert", "--to", target, "--report", report, "-"], jsonl([body]));
  expect(run.code).toBe(0);
  return readFileSync(report, "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as { path: string; detail: string })
    .map(({ path, detail }) => [path, detail.split(":")[0]!]);
}

describe("convert, a request body to another envelope", { timeout: 30_000 }, () => {
  test("Anthropic to Chat: a block's kept fields at the block, the arguments made from an object at the tool_use block", async () => {
    expect(await reported("chat", anthropic)).toEqual([
      ["/messages/1/content/1", "input is an object, not a text"],
      ["/messages/1/content/1/cache_control", '"anthropic'],
      ["/messages/2/content/0/is_error", '"anthropic'],
    ]);
  });

  test("Anthropic to Chat: results of one message with one is_error alike are each reported at their own block", async () => {
    const results = [1, 2].map((n) => ({ type: "tool_result", tool_use_id: `toolu_${n}`, content: "sunny", is_error: false }));
    const calls = [1, 2].map((n) => ({ type: "tool_use", id: `toolu_${n}`, name: "get_weather", input: { city: "Paris" } }));
    const body = { model: "claude-sonnet-4", max_tokens: 100, messages: [{ role: "user", content: "Weather?" }, { role: "assistant", content: calls }, { role: "user", content: results }] };
    expect(await reported("chat", body)).toEqual([
      ["/messages/1/content/0", "input is an object, not a text"],
      ["/messages/1/content/1", "input is an object, not a text"],
      ["/messages/2/content/0/is_error", '"anthropic'],
      ["/messages/2/content/1/is_error", '"anthropic'],
    ]);
  });

  test("Anthropic to Chat: a string system prompt, which becomes instructions and no input item, leaves the blocks at their places", async () => {
    expect(await reported("chat", { ...anthropic, system: "Be brief." })).toEqual([
      ["/messages/1/content/1", "input is an object, not a text"],
      ["/messages/1/content/1/cache_control", '"anthropic'],
      ["/messages/2/content/0/is_error", '"anthropic'],
      ["/system", "instructions written as a leading system message"],
    ]);
  });

  test("Bedrock to Anthropic: past the system prompt's items, a result's status at its toolResult; a field of the body at that field", async () => {
    expect((await reported("anthropic", bedrock)).filter(([path]) => path !== "")).toEqual([
      ["/messages/2/content/0/toolResult/status", "Bedrock's status \"error\" written as Anthropic's is_error true"],
      ["/inferenceConfig", '"bedrock'],
    ]);
  });

  test("Gemini to Chat: a part's thoughtSignature at the part", async () => {
    expect(await reported("chat", gemini)).toEqual([["/contents/1/parts/0/thoughtSignature", '"gemini']]);
  });
});

describe("convert, loose messages of a registered envelope to another, one a line", { timeout: 30_000 }, () => {
  const anthropicTurns = anthropic.messages;
  const bedrockTurns = bedrock.messages;

  async function lossesOf(target: string, messages: readonly unknown[]): Promise<Array<[number, string, string, string]>> {
    const report = join(folder, `loose-${target}.report.jsonl`);
    const run = await runOrbridge(["convert", "--to", target, "--report", report, "-"], jsonl(messages));
    expect(run.code).toBe(0);
    const text = readFileSync(report, "utf8").trimEnd();
    return text === "" ? [] : text.split("\n").map((line) => JSON.parse(line) as { line: number; path: string; code: string; detail: string }).map(({ line, path, code, detail }) => [line, path, code, detail.split(":")[0]!]);
  }

  test.each(["chat", "gemini", "bedrock"])("Anthropic to %s: each loss at the block of the message it came from, not at an item's place", async (target) => {
    const losses = (await lossesOf(target, anthropicTurns)).filter(([, , code]) => code !== "synthesized");
    expect(losses).toEqual([
      // Gemini has no string form of a message's text.
      ...(target === "gemini" ? [[1, "/content", "form_changed", "the text is written as one text part, Gemini's only form of a message's content"]] : []),
      [2, "/content/1/cache_control", "provider_extension", '"anthropic'],
      target === "bedrock" ? [3, "/content/0/is_error", "form_changed", "Anthropic's is_error true written as Bedrock's status \"error\""] : [3, "/content/0/is_error", "provider_extension", '"anthropic'],
    ]);
  });

  test("Bedrock to Anthropic: a result that answers the call on the line before is not said to answer none", async () => {
    expect(await lossesOf("anthropic", bedrockTurns)).toEqual([[3, "/content/0/toolResult/status", "form_changed", "Bedrock's status \"error\" written as Anthropic's is_error true"]]);
  });

  test("Bedrock to Anthropic: a result whose call is not on the line before is still said to be one Anthropic rejects", async () => {
    expect(await lossesOf("anthropic", [bedrockTurns[0], bedrockTurns[2]])).toContainEqual([2, "/content/0", "target_rejects", "answers no call of the items before it"]);
  });

  test("Bedrock to Anthropic: a result after another record than the message of its call is still said to be one Anthropic rejects", async () => {
    const report = join(folder, "loose-between.report.jsonl");
    const run = await runOrbridge(["convert", "--to", "anthropic", "--report", report, "-"], jsonl([bedrockTurns[1], { role: "user", content: "and?" }]) + "not json\n" + jsonl([bedrockTurns[2]]));
    expect(run.code).toBe(1);
    const losses = readFileSync(report, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line) as { line: number; path: string; code: string });
    expect(losses.filter((loss) => loss.code === "target_rejects").map((loss) => [loss.line, loss.path])).toEqual([[4, "/content/0"]]);
  });

  test("Anthropic to Bedrock: the same for a tool_result", async () => {
    expect((await lossesOf("bedrock", anthropicTurns)).filter(([, , code]) => code === "target_rejects")).toEqual([]);
  });
});
