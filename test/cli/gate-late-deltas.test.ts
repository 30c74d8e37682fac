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

async function gated(jobs: 1 | 2): Promise<string> {
  const io = { stdin: Readable.from([Buffer.from(journal)]), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
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
