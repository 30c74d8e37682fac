// normalize writes a provider's response as items, one per line, and no
// response object: a value it makes up for an item (an item id, a call id, the
// text of an argument object) is reported at the block or part of the stored
// response the item comes from, a pointer into the line the user wrote.
// `convert --to responses` writes the response object, and reports the same
// values at their place in it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("normalize-response-paths");
let runs = 0;

async function synthesized(command: "normalize" | "convert", response: unknown): Promise<string[]> {
  const report = join(folder, `report-${++runs}.jsonl`);
  const args = command === "normalize" ? ["normalize", "--report", report, "-"] : ["convert", "--to", "responses", "--report", report, "-"];
  const result = await runOrbridge(args, JSON.stringify(response) + "\n");
  expect(result.code).toBe(0);
  const losses = readFileSync(report, "utf8").trim().split("\n").map((line) => JSON.parse(line) as { path: string; code: string });
  return losses.filter((loss) => loss.code === "synthesized").map((loss) => loss.path);
}

const anthropic = {
  id: "msg_01",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-5",
  content: [
    { type: "thinking", thinking: "Two cities.", signature: "c2ln" },
    { type: "text", text: "Checking " },
    { type: "text", text: "both." },
    { type: "tool_use", id: "toolu_01", name: "get_weather", input: { city: "Paris" } },
    { type: "tool_use", id: "toolu_02", name: "get_weather", input: { city: "Lyon" } },
  ],
  stop_reason: "tool_use",
  usage: { input_tokens: 3, output_tokens: 2 },
};

const gemini = {
  responseId: "resp_g1",
  modelVersion: "gemini-2.5-flash",
  candidates: [
    {
      index: 0,
      finishReason: "STOP",
      content: { role: "model", parts: [{ text: "Checking." }, { functionCall: { name: "get_weather", args: { city: "Paris" } } }] },
    },
    {
      index: 1,
      finishReason: "STOP",
      content: { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Lyon" } } }] },
    },
  ],
};

const bedrock = {
  output: {
    message: {
      role: "assistant",
      content: [
        { reasoningContent: { reasoningText: { text: "Two cities.", signature: "c2ln" } } },
        { text: "Checking." },
        { toolUse: { toolUseId: "tooluse_01", name: "get_weather", input: { city: "Paris" } } },
      ],
    },
  },
  stopReason: "tool_use",
  usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
};

describe("normalize: what it makes up for an item is reported where the item comes from", () => {
  test("an Anthropic message: each item's block, the first of the text blocks joined into one message; an input object at its block's input", async () => {
    expect(await synthesized("normalize", anthropic)).toEqual(["/content/3/input", "/content/4/input", "/content/0", "/content/1", "/content/3", "/content/4"]);
  });

  test("a Gemini response of two candidates: each item's part in its own candidate, a call without id at its functionCall's id", async () => {
    const paths = await synthesized("normalize", gemini);
    expect(paths.filter((path) => path.startsWith("/candidates"))).toEqual([
      "/candidates/0/content/parts/1/functionCall/id",
      "/candidates/0/content/parts/0",
      "/candidates/0/content/parts/1",
      "/candidates/1/content/parts/0/functionCall/id",
      "/candidates/1/content/parts/0",
    ]);
    // No path of the record normalize wrote leaks into the report of the record the user wrote.
    expect(paths.filter((path) => path.startsWith("/output"))).toEqual([]);
  });

  test("a Bedrock response: each item's block under output.message, none at a response object's /output/N", async () => {
    const paths = await synthesized("normalize", bedrock);
    expect(paths.filter((path) => path.startsWith("/output"))).toEqual(["/output/message/content/0", "/output/message/content/1", "/output/message/content/2"]);
  });
});

describe("convert --to responses: the same values at their place in the response object written", () => {
  test.each([
    ["Anthropic", anthropic, ["/output/2/arguments", "/output/3/arguments", "/output/0/id", "/output/1/id", "/output/2/id", "/output/3/id"]],
    ["Bedrock", bedrock, ["/output/0/id", "/output/1/id", "/output/2/id"]],
  ])("%s", async (_envelope, response, expected) => {
    const paths = await synthesized("convert", response);
    expect(paths.filter((path) => /^\/output\/\d/.test(path))).toEqual(expected);
  });
});
