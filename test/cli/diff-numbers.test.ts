// diff on arguments a record holds as an object (Anthropic input, Gemini args,
// Bedrock input): JSON.parse reads their numbers into doubles, so the text made
// of them is not always what the record wrote, and two records a tool reads as
// different must never be called the same.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

/** The lines of a one-call conversation in each envelope, the call's arguments object written as `args`. */
const ENVELOPES: Record<string, (args: string) => string[]> = {
  anthropic: (args) => ['{"role":"user","content":"hi"}', `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"pay","input":${args}}]}`],
  gemini: (args) => ['{"role":"user","parts":[{"text":"hi"}]}', `{"role":"model","parts":[{"functionCall":{"id":"g1","name":"pay","args":${args}}}]}`],
  bedrock: (args) => ['{"role":"user","content":[{"text":"hi"}]}', `{"role":"assistant","content":[{"toolUse":{"toolUseId":"t1","name":"pay","input":${args}}}]}`],
};

async function diffOf(envelope: string, origin: string, replay: string) {
  const folder = scratchFolder("diff-numbers");
  const paths = [join(folder, "origin.jsonl"), join(folder, "replay.jsonl")];
  writeFileSync(paths[0]!, ENVELOPES[envelope]!(origin).join("\n") + "\n");
  writeFileSync(paths[1]!, ENVELOPES[envelope]!(replay).join("\n") + "\n");
  const result = await runOrbridge(["diff", "--format", "json", ...paths]);
  return { code: result.code, differences: result.stdout.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as { code: string; detail: string }) };
}

describe.each(Object.keys(ENVELOPES))("diff, %s arguments objects", { timeout: 30_000 }, (envelope) => {
  test("a number a double does not stand for is never the same as the double's own: arguments_changed, saying why", async () => {
    const { code, differences } = await diffOf(envelope, '{"amount":9007199254740993}', '{"amount":9007199254740992}');
    expect(code).toBe(1);
    expect(differences).toEqual([
      expect.objectContaining({
        code: "arguments_changed",
        detail:
          "in the origin, the arguments of line 2 were written from an object holding 9007199254740993, which a double does not stand for; in the replay, the arguments of line 2 were written from an object holding 9007199254740992, which a double does not stand for: the arguments cannot be compared as written",
      }),
    ]);
  });

  test("one side alone holding such a number is reported too", async () => {
    const { code, differences } = await diffOf(envelope, '{"ratio":0.30000000000000001}', '{"ratio":0.3}');
    expect(code).toBe(1);
    expect(differences.map((difference) => difference.code)).toEqual(["arguments_changed"]);
    expect(differences[0]!.detail).toEqual("in the origin, the arguments of line 2 were written from an object holding 0.30000000000000001, which a double does not stand for: the arguments cannot be compared as written");
  });

  test("numbers are compared as the record wrote them, as in a text's arguments: 1.0 and 1 differ (a float and an integer to Python's json), the same texts are the same", async () => {
    expect((await diffOf(envelope, '{"a":1.0,"b":1e2}', '{"a":1,"b":100}')).differences).toEqual([
      expect.objectContaining({ code: "arguments_changed", detail: 'arguments "{\\"a\\":1.0,\\"b\\":1e2}" in the origin, "{\\"a\\":1,\\"b\\":100}" in the replay' }),
    ]);
    expect(await diffOf(envelope, '{"a":1.0,"b":1e2}', '{"a":1.0,"b":1e2}')).toEqual({ code: 0, differences: [] });
    expect((await diffOf(envelope, '{"a":1}', '{"a":2}')).differences.map((difference) => difference.code)).toEqual(["arguments_changed"]);
  });
});
