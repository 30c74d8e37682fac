// A number's text as the line wrote it goes back only at its place: a number a
// converter makes (a creation time of 0, a choice's index, a default top_p)
// never takes the text of a line's number of the same double, and a copy moved
// to another field is written as its double writes it, and said.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("number-text-places");

/** convert's output lines, and its report's lines other than values synthesized. */
async function convert(to: string, line: string): Promise<{ records: unknown[]; texts: string[]; losses: unknown[] }> {
  const report = join(folder, `report-${Math.random().toString(36).slice(2)}.jsonl`);
  const result = await runOrbridge(["convert", "--to", to, "--report", report], `${line}\n`);
  const texts = result.stdout.split("\n").filter((text) => text !== "");
  const losses = readFileSync(report, "utf8")
    .split("\n")
    .filter((text) => text !== "")
    .map((text) => JSON.parse(text) as { code: string })
    .filter((loss) => loss.code !== "synthesized");
  return { records: texts.map((text) => JSON.parse(text) as unknown), texts, losses };
}

const anthropicAnswer = (usage: string, content = '[{"type":"text","text":"hi"}]') =>
  `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":${content},"stop_reason":"end_turn","stop_sequence":null,"usage":${usage}}`;

describe("an Anthropic message", { timeout: 30_000 }, () => {
  test("its usage's -0, moved to Chat's completion_tokens, is written 0 and said; the zeros Chat's converter makes are not given it", async () => {
    const { texts, losses } = await convert("chat", anthropicAnswer('{"input_tokens":5,"output_tokens":-0}'));
    expect(texts).toEqual([
      '{"id":"msg_1","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":0,"total_tokens":5,"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":0}}}',
    ]);
    expect(losses).toEqual([
      { line: 1, path: "/usage", code: "provider_extension", detail: '"anthropic:usage" is not a field of the portable shape; Chat Completions has no place for it' },
      {
        line: 1,
        path: "/usage/output_tokens",
        code: "form_changed",
        detail: "the line writes the number 0 as -0 at /output_tokens: the output writes 0 at /created, another place, which may be it or a number of the conversion's own, and is written 0",
      },
    ]);
  });

  test("its usage's -0, written twice in a response (usage and anthropic:usage), is written 0 at both and said once", async () => {
    const { records, texts, losses } = await convert("responses", anthropicAnswer('{"input_tokens":5,"output_tokens":-0}'));
    // Every number as its double writes it: created_at, the penalties, cached_tokens and both output_tokens are 0.
    expect(texts).toEqual([JSON.stringify(records[0])]);
    expect(records[0]).toMatchObject({ created_at: 0, usage: { output_tokens: 0 }, "anthropic:usage": { output_tokens: 0 } });
    expect(losses).toEqual([
      {
        line: 1,
        path: "/usage/output_tokens",
        code: "form_changed",
        detail: "the line writes the number 0 as -0 once at /output_tokens, and the output 2 times: which are the line's is not known, so each is written 0",
      },
    ]);
  });

  test("written back as Anthropic, its -0 stays where it was, with nothing said", async () => {
    const line = anthropicAnswer('{"input_tokens":5,"output_tokens":-0}');
    const { texts, losses } = await convert("anthropic", line);
    expect(texts).toEqual([line]);
    expect(losses).toEqual([]);
  });

  test("a call's input keeps -0 and 1.0 in the arguments text, and the response's own 0s and 1s are written as they are", async () => {
    const content = '[{"type":"tool_use","id":"toolu_1","name":"count","input":{"n":-0,"limit":1.0}}]';
    const { records, texts, losses } = await convert("responses", anthropicAnswer('{"input_tokens":5,"output_tokens":3}', content).replace('"end_turn"', '"tool_use"'));
    expect(records[0]).toMatchObject({ created_at: 0, top_p: 1, temperature: 1, output: [{ arguments: '{"n":-0,"limit":1.0}' }] });
    // Every number outside the arguments text as its double writes it.
    expect(texts).toEqual([JSON.stringify(records[0])]);
    expect(losses).toEqual([]);
  });

  test("a call's input written as Gemini's args keeps -0 and 1.0 there, and the candidate's index 0 is written 0", async () => {
    const content = '[{"type":"tool_use","id":"toolu_1","name":"count","input":{"n":-0,"limit":1.0}}]';
    const { texts } = await convert("gemini", anthropicAnswer('{"input_tokens":5,"output_tokens":3}', content).replace('"end_turn"', '"tool_use"'));
    expect(texts).toEqual([
      '{"candidates":[{"content":{"parts":[{"functionCall":{"name":"count","args":{"n":-0,"limit":1.0},"id":"toolu_1"}}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":5,"candidatesTokenCount":3,"totalTokenCount":8},"modelVersion":"m","responseId":"msg_1"}',
    ]);
  });
});

describe("a chat.completion", { timeout: 30_000 }, () => {
  test("its usage's 0.0 comes back at its place only, beside the zeros a response requires, with nothing said of it", async () => {
    const line = '{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop","logprobs":null}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7,"prompt_tokens_details":{"cached_tokens":0.0}}}';
    const { records, texts, losses } = await convert("responses", line);
    expect(records[0]).toMatchObject({ presence_penalty: 0, frequency_penalty: 0, top_logprobs: 0, usage: { input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } } });
    expect(texts).toEqual([JSON.stringify(records[0]).replace('"input_tokens_details":{"cached_tokens":0}', '"input_tokens_details":{"cached_tokens":0.0}')]);
    expect(losses).toEqual([]);
  });
});

describe("a Chat stream", { timeout: 30_000 }, () => {
  test("its usage's 1.0, moved to an Anthropic message's output_tokens, is written 1 and said, with no pointer into one of its lines", async () => {
    const stream = [
      '{"id":"c1","object":"chat.completion.chunk","created":5,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"hi"},"finish_reason":null}]}',
      '{"id":"c1","object":"chat.completion.chunk","created":5,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":1.0,"total_tokens":6}}',
    ].join("\n");
    const { texts, losses } = await convert("anthropic", stream);
    expect(texts).toEqual(['{"id":"c1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":5,"cache_read_input_tokens":0,"output_tokens":1}}']);
    expect(losses.filter((loss) => (loss as { code: string }).code === "form_changed")).toEqual([{
      line: 1,
      path: "",
      code: "form_changed",
      detail: "the line writes the number 1 as 1.0 and as 1 at /completion_tokens: the output writes 1 at /usage/output_tokens, another place, which may be it or a number of the conversion's own, and is written 1",
    }]);
  });
});
