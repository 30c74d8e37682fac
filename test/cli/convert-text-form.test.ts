// A message's text is a string or a list of parts. Gemini and Bedrock write it
// as parts only, and their readers give it back in one form: Gemini as parts,
// Bedrock a system or user message of one text block as the string it holds
// and an assistant's as parts. Converted there, a text comes back in the form
// it had, or the change is reported; where the source itself wrote parts
// (Gemini, Bedrock), parts are what the target writes, and nothing is said.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("text-form");

async function run(to: string, records: unknown[]): Promise<{ records: unknown[]; report: unknown[] }> {
  const input = join(folder, `${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(input, records.map((record) => JSON.stringify(record)).join("\n") + "\n");
  const result = await runOrbridge(["convert", "--to", to, "--report", `${input}.report`, input]);
  expect(result.code).toBe(0);
  const report = readFileSync(`${input}.report`, "utf8").trim().split("\n").filter(Boolean).map((text) => JSON.parse(text) as unknown);
  return { records: result.stdout.trim().split("\n").map((line) => JSON.parse(line) as unknown), report };
}

const GEMINI_PART = "the text is written as one text part, Gemini's only form of a message's content: it comes back as parts, not as a string";
const BEDROCK_STRING = "the parts are written as one text block alone, which Bedrock Converse reads in a system or user message as its text: it comes back as the string it holds, not as parts";
const BEDROCK_PARTS = "the text is written as one text block, the only form Bedrock Converse has for an assistant's: it comes back as parts, not as a string";

describe("a message's text written to Gemini", () => {
  test("loose Chat messages: a string becomes one part, said; the system line keeps its string", async () => {
    expect(await run("gemini", [{ role: "system", content: "Be brief." }, { role: "user", content: "Weather in Oslo?" }, { role: "assistant", content: [{ type: "text", text: "Checking." }] }])).toEqual({
      records: [{ role: "system", content: "Be brief." }, { role: "user", parts: [{ text: "Weather in Oslo?" }] }, { role: "model", parts: [{ text: "Checking." }] }],
      report: [{ line: 2, path: "/content", code: "form_changed", detail: GEMINI_PART }],
    });
  });

  test("loose items: a system message of parts keeps its parts on the system line", async () => {
    expect(await run("gemini", [{ type: "message", role: "system", content: [{ type: "input_text", text: "Be brief." }] }])).toEqual({
      records: [{ role: "system", content: [{ type: "text", text: "Be brief." }] }],
      report: [],
    });
  });

  test("an Open Responses body: instructions and a string input come back as messages of parts, and two system messages as one, each said", async () => {
    const body = { model: "gemini-2.5-flash", instructions: "Be brief.", input: [{ type: "message", role: "system", content: [{ type: "input_text", text: "Be kind." }] }, { type: "message", role: "user", content: "Weather in Oslo?" }] };
    expect(await run("gemini", [body])).toEqual({
      records: [{ model: "gemini-2.5-flash", systemInstruction: { parts: [{ text: "Be brief." }, { text: "Be kind." }] }, contents: [{ role: "user", parts: [{ text: "Weather in Oslo?" }] }] }],
      report: [
        { line: 1, path: "/input/1/content", code: "form_changed", detail: GEMINI_PART },
        { line: 1, path: "/instructions", code: "form_changed", detail: "instructions written as the first text part of systemInstruction, a system message of input when read: it comes back as parts, not as a string" },
      ],
    });
  });

  test("an Anthropic body: its system string becomes a part, said", async () => {
    const body = { model: "claude-haiku-4-5", max_tokens: 100, system: "Be brief.", messages: [{ role: "user", content: [{ type: "text", text: "Weather in Oslo?" }] }] };
    expect(await run("gemini", [body])).toEqual({
      records: [{ model: "claude-haiku-4-5", systemInstruction: { parts: [{ text: "Be brief." }] }, contents: [{ role: "user", parts: [{ text: "Weather in Oslo?" }] }], generationConfig: { maxOutputTokens: 100 } }],
      report: [{ line: 1, path: "/system", code: "form_changed", detail: "instructions written as the first text part of systemInstruction, a system message of input when read: it comes back as parts, not as a string" }],
    });
  });

  test("a Bedrock body: blocks become parts, nothing said of them", async () => {
    const body = { messages: [{ role: "user", content: [{ text: "Weather in Oslo?" }] }, { role: "assistant", content: [{ text: "Checking." }] }], system: [{ text: "Be brief." }] };
    expect(await run("gemini", [body])).toEqual({
      records: [{ systemInstruction: { parts: [{ text: "Be brief." }] }, contents: [{ role: "user", parts: [{ text: "Weather in Oslo?" }] }, { role: "model", parts: [{ text: "Checking." }] }] }],
      report: [],
    });
  });
});

describe("a message's text written to Bedrock", () => {
  test("an Open Responses body: a user's one text part and an assistant's string change form, each said", async () => {
    const body = { input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "Weather in Oslo?" }] }, { type: "message", role: "assistant", content: "Checking." }] };
    expect(await run("bedrock", [body])).toEqual({
      records: [{ messages: [{ role: "user", content: [{ text: "Weather in Oslo?" }] }, { role: "assistant", content: [{ text: "Checking." }] }] }],
      report: [
        { line: 1, path: "/input/0/content", code: "form_changed", detail: BEDROCK_STRING },
        { line: 1, path: "/input/1/content", code: "form_changed", detail: BEDROCK_PARTS },
      ],
    });
  });

  test("an Open Responses body: instructions and two system messages come back as one system message, each said", async () => {
    const body = { instructions: "Be brief.", input: [{ type: "message", role: "system", content: "Be kind." }, { type: "message", role: "user", content: "Weather in Oslo?" }] };
    expect(await run("bedrock", [body])).toEqual({
      records: [{ messages: [{ role: "user", content: [{ text: "Weather in Oslo?" }] }], system: [{ text: "Be brief." }, { text: "Be kind." }] }],
      report: [{ line: 1, path: "/instructions", code: "form_changed", detail: "instructions written as the first text block of system, which comes back as a system message of input, not as instructions" }],
    });
    const two = { input: [{ type: "message", role: "system", content: "Be brief." }, { type: "message", role: "developer", content: "Be kind." }, { type: "message", role: "user", content: "Weather in Oslo?" }] };
    expect((await run("bedrock", [two])).report).toEqual([
      { line: 1, path: "/input/1/role", code: "form_changed", detail: "Bedrock Converse has no developer role: written as system" },
      { line: 1, path: "/input/1", code: "form_changed", detail: "joined with the system text before it: Bedrock Converse has one system prompt, which comes back as one message" },
    ]);
  });

  test("a Gemini body: parts become blocks, nothing said of them", async () => {
    const body = { contents: [{ role: "user", parts: [{ text: "Weather in Oslo?" }] }, { role: "model", parts: [{ text: "Checking." }] }], systemInstruction: { parts: [{ text: "Be brief." }] } };
    expect(await run("bedrock", [body])).toEqual({
      records: [{ messages: [{ role: "user", content: [{ text: "Weather in Oslo?" }] }, { role: "assistant", content: [{ text: "Checking." }] }], system: [{ text: "Be brief." }] }],
      report: [],
    });
  });

  test("an Anthropic body: its system string stays the system prompt, nothing said", async () => {
    const body = { model: "claude-haiku-4-5", max_tokens: 100, system: "Be brief.", messages: [{ role: "user", content: "Weather in Oslo?" }] };
    expect(await run("bedrock", [body])).toEqual({
      records: [{ messages: [{ role: "user", content: [{ text: "Weather in Oslo?" }] }], system: [{ text: "Be brief." }], inferenceConfig: { maxTokens: 100 } }],
      report: [{ line: 1, path: "/model", code: "unsupported_field", detail: "Bedrock Converse takes the model in the request URL, not in the body" }],
    });
  });
});

describe("a system message written to Anthropic", () => {
  test("from an Open Responses body, one of text alone comes back as instructions: said", async () => {
    const body = { model: "claude-haiku-4-5", max_output_tokens: 100, input: [{ type: "message", role: "system", content: "Be brief." }, { type: "message", role: "user", content: "Weather in Oslo?" }] };
    expect(await run("anthropic", [body])).toEqual({
      records: [{ model: "claude-haiku-4-5", max_tokens: 100, system: "Be brief.", messages: [{ role: "user", content: "Weather in Oslo?" }] }],
      report: [{ line: 1, path: "/input/0/content", code: "form_changed", detail: "the system message's text is written as system, a string, which comes back as instructions, not as a message of input" }],
    });
  });

  test("from a Chat body, it comes back to Chat as the system message it was: nothing said", async () => {
    const body = { model: "claude-haiku-4-5", max_completion_tokens: 100, messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Weather in Oslo?" }] };
    expect(await run("anthropic", [body])).toEqual({
      records: [{ model: "claude-haiku-4-5", max_tokens: 100, system: "Be brief.", messages: [{ role: "user", content: "Weather in Oslo?" }] }],
      report: [],
    });
  });
});
