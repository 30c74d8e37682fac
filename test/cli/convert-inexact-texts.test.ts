// Anthropic, Gemini and Bedrock write a call's arguments as an object. Written
// as an arguments text (Open Responses, Chat), each number is its double's
// digits: a number the record wrote with more digits than a double holds
// changes, and the report says so; a text the record wrote itself is its own.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("inexact-texts");

async function convert(target: string, line: string): Promise<{ stdout: string; report: unknown[] }> {
  const input = join(folder, `${target}-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(input, line + "\n");
  const result = await runOrbridge(["convert", "--to", target, "--report", `${input}.report`, input]);
  expect(result.code).toBe(0);
  return { stdout: result.stdout, report: readFileSync(`${input}.report`, "utf8").trim().split("\n").filter(Boolean).map((text) => JSON.parse(text) as unknown) };
}

const toolUse = '{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01","name":"set_limit","input":{"limit":0.1000000000000000055,"count":2}}]}';
// Each loss points at the number where the record wrote it.
const changed = (at: string, path = "/content/0/input/limit") => ({ line: 1, path, code: "form_changed", detail: `the text written at ${at} holds the number 0.1000000000000000055 of the record as its double writes it, 0.1: a double does not stand for the number as written` });

describe("a number a double does not hold, in a call's arguments object", () => {
  test("written as Open Responses arguments: reported", async () => {
    const { stdout, report } = await convert("responses", toolUse);
    expect(stdout).toBe('{"type":"function_call","call_id":"toolu_01","name":"set_limit","arguments":"{\\"limit\\":0.1,\\"count\\":2}","status":"completed"}\n');
    expect(report).toContainEqual(changed("/arguments"));
  });

  test("several in one object: each reported", async () => {
    const { report } = await convert("chat", '{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01","name":"set_limit","input":{"account":12345678901234567890,"amount":1e400}}]}');
    expect(report.filter((loss) => (loss as { code: string }).code === "form_changed" && (loss as { detail: string }).detail.includes("as its double writes it")).map((loss) => [(loss as { path: string }).path, (loss as { detail: string }).detail.split(":")[0]])).toEqual([
      ["/content/0/input/account", "the text written at /tool_calls/0/function/arguments holds the number 12345678901234567890 of the record as its double writes it, 12345678901234567000"],
      ["/content/0/input/amount", "the text written at /tool_calls/0/function/arguments holds the number 1e400 of the record as its double writes it, null"],
    ]);
  });

  test("written as Chat arguments: reported at the field written", async () => {
    const { report } = await convert("chat", toolUse);
    expect(report).toContainEqual(changed("/tool_calls/0/function/arguments"));
  });

  test("written as another envelope's object: kept as written, nothing reported of it", async () => {
    const { stdout, report } = await convert("gemini", toolUse);
    expect(stdout).toBe('{"role":"model","parts":[{"functionCall":{"name":"set_limit","args":{"limit":0.1000000000000000055,"count":2},"id":"toolu_01"}}]}\n');
    expect(report.filter((loss) => (loss as { code: string }).code === "form_changed")).toEqual([]);
  });

  test("a text the record wrote itself, holding the double's digits, is its own: only the arguments are reported", async () => {
    const line = '{"role":"assistant","content":[{"type":"text","text":"{\\"limit\\":0.1}"},{"type":"tool_use","id":"toolu_01","name":"set_limit","input":{"limit":0.1000000000000000055}}]}';
    const { report } = await convert("responses", line);
    expect(report.filter((loss) => (loss as { code: string }).code === "form_changed")).toEqual([changed("/1/arguments", "/content/1/input/limit")]);
  });
});

describe("a number a double stands for, written in another form, in a call's arguments object", () => {
  const forms = '{"x":2.50,"y":1E3,"z":-0,"w":7.0}';
  const records: Array<[string, string]> = [
    ["gemini", `{"role":"model","parts":[{"functionCall":{"id":"g1","name":"pay","args":${forms}}}]}`],
    ["bedrock", `{"role":"assistant","content":[{"toolUse":{"toolUseId":"t1","name":"pay","input":${forms}}}]}`],
    ["anthropic", `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"pay","input":${forms}}]}`],
  ];
  const written = JSON.stringify(forms);

  test.each(records)("%s: the arguments text keeps each number as the record wrote it, in normalize and in convert", async (_envelope, line) => {
    const input = join(folder, `forms-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(input, line + "\n");
    for (const argv of [["normalize"], ["convert", "--to", "responses"], ["convert", "--to", "chat"]]) {
      const result = await runOrbridge([...argv, input]);
      expect([argv.join(" "), result.stdout.includes(`${written}`)]).toEqual([argv.join(" "), true]);
    }
  });

  test("a number the line writes two ways at one place cannot be put back: written as its double, and said", async () => {
    const input = join(folder, `forms-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(input, '{"role":"model","parts":[{"functionCall":{"id":"g1","name":"pay","args":{"a":{"x":7.0},"b":{"x":7}}}}]}\n');
    const result = await runOrbridge(["convert", "--to", "responses", "--report", `${input}.report`, input]);
    expect(result.stdout).toContain(JSON.stringify('{"a":{"x":7},"b":{"x":7}}'));
    expect(readFileSync(`${input}.report`, "utf8")).toContain("the text written at /arguments: the line writes the number 7 as 7.0 and as 7: each is written 7");
  });

  test("a number the line writes two ways at two places is written each way at its place", async () => {
    const input = join(folder, `forms-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(input, '{"role":"model","parts":[{"functionCall":{"id":"g1","name":"pay","args":{"a":7.0,"b":7}}}]}\n');
    const result = await runOrbridge(["convert", "--to", "responses", "--report", `${input}.report`, input]);
    expect(result.stdout).toContain(JSON.stringify('{"a":7.0,"b":7}'));
    expect(readFileSync(`${input}.report`, "utf8")).not.toContain("form_changed");
  });
});

describe("a number a double stands for, written in another form, in a Gemini stream's args", () => {
  const chunk = (parts: unknown[], finish?: string) => JSON.stringify({ candidates: [{ content: { role: "model", parts }, ...(finish ? { finishReason: finish } : {}), index: 0 }], responseId: "r1", modelVersion: "gemini-2.5-flash" });
  const call = (id: string, args: string) => `{"functionCall":{"id":"${id}","name":"pay","args":${args}}}`;
  const streamOf = (...lines: string[]) => {
    const input = join(folder, `stream-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(input, lines.join("\n") + "\n");
    return input;
  };
  const sse = (...lines: string[]) => lines.map((line) => `data: ${line}\n\n`).join("");

  test.each([
    ["JSON lines", (lines: string[]) => streamOf(...lines)],
    ["SSE", (lines: string[]) => streamOf(sse(...lines))],
  ])("%s: each call's arguments text keeps the numbers as its chunk wrote them, in normalize and in convert", async (_form, write) => {
    const first = chunk([]).replace('"parts":[]', `"parts":[${call("g1", '{"x":2.50,"y":1E3}')}]`);
    const second = chunk([], "STOP").replace('"parts":[]', `"parts":[${call("g2", '{"w":7.0,"v":1.5e-7}')}]`);
    const input = write([first, second]);
    for (const argv of [["normalize"], ["convert", "--to", "responses"], ["convert", "--to", "chat"]]) {
      const result = await runOrbridge([...argv, input]);
      expect([argv.join(" "), result.stdout.includes(JSON.stringify('{"x":2.50,"y":1E3}')), result.stdout.includes(JSON.stringify('{"w":7.0,"v":1.5e-7}'))]).toEqual([argv.join(" "), true, true]);
    }
  });

  test("a number of the response object is not given the form another chunk wrote a number of the same double in", async () => {
    const first = chunk([]).replace('"parts":[]', `"parts":[${call("g1", '{"a":7.0}')}]`);
    const last = JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: "done" }] }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 3, totalTokenCount: 10 }, responseId: "r1", modelVersion: "gemini-2.5-flash" });
    const result = await runOrbridge(["convert", "--to", "responses", streamOf(first, last)]);
    expect(JSON.parse(result.stdout).usage.input_tokens).toBe(7);
    expect(result.stdout).toContain('"input_tokens":7,');
  });

  test("a number two chunks of the stream write two ways at one place is written as its double, and said", async () => {
    const first = chunk([]).replace('"parts":[]', `"parts":[${call("g1", '{"a":7.0}')}]`);
    const second = chunk([], "STOP").replace('"parts":[]', `"parts":[${call("g2", '{"a":7}')}]`);
    const input = streamOf(first, second);
    const result = await runOrbridge(["convert", "--to", "responses", "--report", `${input}.report`, input]);
    expect(result.stdout).toContain(`${JSON.stringify('{"a":7}')}`);
    expect(result.stdout).not.toContain(JSON.stringify('{"a":7.0}'));
    expect(readFileSync(`${input}.report`, "utf8")).toContain("the line writes the number 7 as 7.0 and as 7: each is written 7");
  });
});
