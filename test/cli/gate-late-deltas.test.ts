// A Chat stream that goes on after its choice's finish_reason: the late fragment
// turns cut arguments into valid ones for a reader that reads on, while one that
// stops at finish_reason sees them cut. The gate blocks the call, in one thread
// and in two.
import { PassThrough, Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { gatedBatches } from "../../src/cli/gate-jobs.js";

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  JSON.stringify({ id: "chatcmpl-late", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] });
const journal =
  [
    chunk({ role: "assistant", tool_calls: [{ index: 0, id: "call_late", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"' } }] }),
    chunk({}, "tool_calls"),
    chunk({ tool_calls: [{ index: 0, function: { arguments: "}" } }] }),
  ].join("\n") + "\n";
const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

async function gated(jobs: 1 | 2, lines = journal): Promise<string> {
  const io = { stdin: Readable.from([Buffer.from(lines)]), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
  let text = "";
  for await (const batch of gatedBatches(["-"], io, { jobs, read: {}, normalize: {}, gate: { schema, omitSource: true }, format: "json", colour: false, workerMinBytes: 0 })) text += batch.text;
  return text;
}

describe("gate, on a delta after finish_reason", { timeout: 30_000 }, () => {
  test("blocks the call by its status, the same in two threads", async () => {
    const one = await gated(1);
    const verdicts = one.trimEnd().split("\n").map((line) => JSON.parse(line) as { line: number; call_id: string; reason: string; blocked: boolean });
    expect(verdicts.map(({ line, call_id, reason, blocked }) => [line, call_id, reason, blocked])).toEqual([[2, "call_late", "status", true]]);
    expect(await gated(2)).toBe(one);
  });
});

describe("gate, on a chunk whose choice holds a message beside its delta", { timeout: 30_000 }, () => {
  const withMessage = (delta: Record<string, unknown>, message: unknown, finish: string | null = null) => {
    const record = JSON.parse(chunk(delta, finish)) as { choices: Array<Record<string, unknown>> };
    record.choices[0]!.message = message;
    return JSON.stringify(record);
  };
  const fragment = { index: 0, id: "call_m", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } };
  const call = chunk({ tool_calls: [fragment] });
  const other = [{ id: "call_x", type: "function", function: { name: "get_weather", arguments: "{}" } }];
  const verdicts = (text: string) => text.trimEnd().split("\n").map((line) => JSON.parse(line) as { line: number; reason: string; blocked: boolean; detail: string });

  // A reader of deltas sees one call; one that takes the message sees another, or the same call twice.
  test.each([
    ["the first chunk, with a call of its own", [withMessage({}, { role: "assistant", tool_calls: other }), call, chunk({}, "tool_calls")], 1],
    ["the last chunk, with another call", [chunk({ role: "assistant" }), call, withMessage({}, { role: "assistant", tool_calls: other }, "tool_calls")], 3],
  ])("%s: it is read neither way, and the stream's call is blocked, the same in two threads", async (_where, lines, refused) => {
    const text = (lines as string[]).join("\n") + "\n";
    const one = await gated(1, text);
    const found = verdicts(one);
    expect(found.find((verdict) => verdict.line === refused)).toMatchObject({ reason: "error", blocked: true, detail: expect.stringMatching(/^choice 0 of the chat\.completion\.chunk holds a message beside its delta, with calls the delta does not give as they are/) });
    // No verdict is ok: the call the deltas give is blocked by its status.
    expect(found.filter((verdict) => verdict.reason !== "error").map(({ reason, blocked }) => [reason, blocked])).toEqual([["status", true]]);
    expect(await gated(2, text)).toBe(one);
  });

  test("a message that repeats the delta (Perplexity writes one in every chunk) is read as the delta: the call is judged as usual", async () => {
    const text = [withMessage({ role: "assistant", content: "Checking." }, { role: "assistant", content: "Checking." }), withMessage({ tool_calls: [fragment] }, { role: "assistant", tool_calls: [fragment] }), chunk({}, "tool_calls")].join("\n") + "\n";
    expect(verdicts(await gated(1, text)).map(({ line, reason }) => [line, reason])).toEqual([
      [3, "not_function_call"],
      [3, "ok"],
    ]);
  });
});
