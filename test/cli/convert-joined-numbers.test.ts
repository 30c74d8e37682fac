// Anthropic, Gemini and Bedrock write a call's arguments and some tool results
// as objects, which a conversion writes as JSON text. A later step may join
// that text to other text (Gemini writes a result's text parts as one
// response), read it back into an object, or the record may hold a number past
// the largest double, which JSON.stringify writes null: each number of the
// record reaches the output as written, or a loss names it.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("joined-numbers");

async function run(argv: string[], lines: string[]): Promise<{ stdout: string; report: unknown[] }> {
  const input = join(folder, `${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(input, lines.join("\n") + "\n");
  const result = await runOrbridge([...argv, "--report", `${input}.report`, input]);
  expect(result.code).toBe(0);
  return { stdout: result.stdout, report: readFileSync(`${input}.report`, "utf8").trim().split("\n").filter(Boolean).map((text) => JSON.parse(text) as unknown) };
}

const bedrockRequest =
  '{"modelId":"anthropic.claude-3-5-sonnet","messages":[{"role":"user","content":[{"text":"look up account"}]},{"role":"assistant","content":[{"toolUse":{"toolUseId":"tooluse_abc","name":"lookup","input":{"id":1}}}]},{"role":"user","content":[{"toolResult":{"toolUseId":"tooluse_abc","content":[{"json":{"account":12345678901234567890,"ratio":7.0}},{"text":"done"}],"status":"success"}}]}]}';

describe("a Bedrock json part joined to another text part, in a Gemini response", () => {
  test("its form is put back in the joined text, and the number a double does not hold is said at its place in the record", async () => {
    const { stdout, report } = await run(["convert", "--to", "gemini"], [bedrockRequest]);
    expect(JSON.parse(stdout)).toEqual({
      contents: [
        { role: "user", parts: [{ text: "look up account" }] },
        { role: "model", parts: [{ functionCall: { name: "lookup", args: { id: 1 }, id: "tooluse_abc" } }] },
        { role: "user", parts: [{ functionResponse: { name: "lookup", response: { output: '{"account":12345678901234567000,"ratio":7.0}done' }, id: "tooluse_abc" } }] },
      ],
    });
    expect(report).toEqual([
      { line: 1, path: "/modelId", code: "unsupported_field", detail: '"bedrock:modelId" has no place in a Gemini request' },
      { line: 1, path: "/messages/2/content/0", code: "form_changed", detail: "2 text parts joined into one response" },
      { line: 1, path: "/messages/2/content/0/toolResult/status", code: "provider_extension", detail: '"bedrock:status" is not a field of the portable shape; Gemini has no place for it' },
      {
        line: 1,
        path: "/messages/2/content/0/toolResult/content/0/json/account",
        code: "form_changed",
        detail: "the text written at /contents/2/parts/0/functionResponse/response/output joins a JSON text made of the record to other text, and holds the number 12345678901234567890 of the record as its double writes it, 12345678901234567000: a double does not stand for the number as written",
      },
    ]);
  });

  test("a text part that writes the json part's text itself: neither is changed, and the form not put back is said", async () => {
    const request = bedrockRequest.replace('{"json":{"account":12345678901234567890,"ratio":7.0}},{"text":"done"}', '{"json":{"ratio":7.0}},{"text":"as before: {\\"ratio\\":7}"}');
    const { stdout, report } = await run(["convert", "--to", "gemini"], [request]);
    const [, , result] = (JSON.parse(stdout) as { contents: Array<{ parts: Array<{ functionResponse?: { response: { output: string } } }> }> }).contents;
    expect(result!.parts[0]!.functionResponse!.response.output).toBe('{"ratio":7}as before: {"ratio":7}');
    expect(report).toContainEqual({
      line: 1,
      path: "/messages/2/content/0/toolResult/content/0/json/ratio",
      code: "form_changed",
      detail: "the text written at /contents/2/parts/0/functionResponse/response/output holds a JSON text made of the record among other text, and it is held more than once: which is the one made is not known, so its numbers are written as their doubles write them, not as the record wrote them",
    });
  });

  test("a text part that writes, once, the text a call's input object is made into: it is the record's own, and not changed", async () => {
    const request = '{"modelId":"m","messages":[{"role":"user","content":[{"text":"look up"}]},{"role":"assistant","content":[{"toolUse":{"toolUseId":"t1","name":"lookup","input":{"ratio":7.0}}}]},{"role":"user","content":[{"toolResult":{"toolUseId":"t1","content":[{"text":"as before: {\\"ratio\\":7}"},{"text":" done"}],"status":"success"}}]}]}';
    const { stdout, report } = await run(["convert", "--to", "gemini"], [request]);
    const [, , result] = (JSON.parse(stdout) as { contents: Array<{ parts: Array<{ functionResponse?: { response: { output: string } } }> }> }).contents;
    expect(result!.parts[0]!.functionResponse!.response.output).toBe('as before: {"ratio":7} done');
    expect(report).toContainEqual(expect.objectContaining({ path: "/messages/1/content/0/toolUse/input/ratio", code: "form_changed", detail: expect.stringContaining("the record writes that text itself too") }));
  });

  test("a loose message: the text beside the json part keeps its own numbers, the json part its forms", async () => {
    const { stdout, report } = await run(["convert", "--to", "gemini"], ['{"role":"user","content":[{"toolResult":{"toolUseId":"t1","content":[{"text":"7 items: "},{"json":{"count":7.0,"scale":1E2,"share":0.1000000000000000055}}]}}]}']);
    expect(JSON.parse(stdout)).toEqual({ role: "user", parts: [{ functionResponse: { name: "", response: { output: '7 items: {"count":7.0,"scale":1E2,"share":0.1}' }, id: "t1" } }] });
    expect(report.filter((loss) => (loss as { path: string }).path.includes("/json/"))).toEqual([
      {
        line: 1,
        path: "/content/0/toolResult/content/1/json/share",
        code: "form_changed",
        detail: "the text written at /parts/0/functionResponse/response/output joins a JSON text made of the record to other text, and holds the number 0.1000000000000000055 of the record as its double writes it, 0.1: a double does not stand for the number as written",
      },
    ]);
  });
});

describe("a number past the largest double in a call's arguments object", () => {
  test("read back into another envelope's object, it is null there, and said", async () => {
    const { stdout, report } = await run(["convert", "--to", "gemini"], ['{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01","name":"pay","input":{"amount":1e400,"rate":7.0}}]}']);
    expect(stdout).toBe('{"role":"model","parts":[{"functionCall":{"name":"pay","args":{"amount":null,"rate":7.0},"id":"toolu_01"}}]}\n');
    expect(report).toEqual([
      { line: 1, path: "/content/0/input/amount", code: "form_changed", detail: "the number 1e400 of the record is past the largest double: the JSON text made of its object writes it null, and so does the object written from that text" },
    ]);
  });

  test("a record written in its own envelope holds it as null, and says so once", async () => {
    const { stdout, report } = await run(["convert", "--to", "gemini"], ['{"contents":[{"role":"model","parts":[{"functionCall":{"id":"g1","name":"pay","args":{"amount":1e400,"rate":7.0}}}]}]}']);
    expect(stdout).toBe('{"contents":[{"role":"model","parts":[{"functionCall":{"id":"g1","name":"pay","args":{"amount":null,"rate":7.0}}}]}]}\n');
    expect(report).toEqual([
      { line: 1, path: "", code: "form_changed", detail: "the number 1e400 of the line is past the largest double: the value written at /contents/0/parts/0/functionCall/args/amount is null, as JSON.stringify writes it" },
    ]);
  });

  test("a Gemini stream's call, written as an Anthropic message: said of the stream", async () => {
    const chunk = (parts: string, finish = "") => `{"candidates":[{"content":{"role":"model","parts":[${parts}]},${finish}"index":0}],"responseId":"r1","modelVersion":"gemini-2.5-flash"}`;
    const { stdout, report } = await run(["convert", "--to", "anthropic"], [chunk('{"functionCall":{"id":"g1","name":"pay","args":{"amount":1e400}}}'), chunk('{"text":"ok"}', '"finishReason":"STOP",')]);
    expect(JSON.parse(stdout).content).toEqual([
      { type: "tool_use", id: "g1", name: "pay", input: { amount: null } },
      { type: "text", text: "ok" },
    ]);
    expect(report.filter((loss) => (loss as { code: string }).code === "form_changed")).toEqual([
      { line: 1, path: "", code: "form_changed", detail: "the number 1e400 of the record is past the largest double: the JSON text made of its object writes it null, and so does the object written from that text" },
    ]);
  });
});

describe("normalize, of a Bedrock tool result with a json part", () => {
  test("the part's text keeps the record's number forms; the number a double does not hold is said at its place", async () => {
    const { stdout, report } = await run(["normalize"], [bedrockRequest]);
    expect(stdout.trim().split("\n")[2]).toBe(
      '{"type":"function_call_output","call_id":"tooluse_abc","output":[{"type":"input_text","text":"{\\"account\\":12345678901234567000,\\"ratio\\":7.0}","bedrock:json":true},{"type":"input_text","text":"done"}],"bedrock:status":"success"}',
    );
    expect(report).toEqual([
      { line: 1, path: "/modelId", code: "left_behind", detail: "modelId of the request body is in no item: normalize writes items only" },
      { line: 1, path: "/messages/2/content/0/toolResult/content/0/json/account", code: "form_changed", detail: "the output text of item 2 holds the number 12345678901234567890 of the record as its double writes it, 12345678901234567000" },
    ]);
  });

  test("a tool result the record wrote as text keeps its numbers, where its call's object writes the same double otherwise", async () => {
    const line = '{"model":"claude","max_tokens":10,"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"lookup","input":{"r":7.0}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"7"}]}]}';
    const { stdout } = await run(["normalize"], [line]);
    expect(stdout.trim().split("\n")).toEqual([
      '{"type":"function_call","call_id":"toolu_1","name":"lookup","arguments":"{\\"r\\":7.0}","status":"completed"}',
      '{"type":"function_call_output","call_id":"toolu_1","output":"7"}',
    ]);
  });
});
