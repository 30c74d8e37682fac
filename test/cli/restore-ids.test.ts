// normalize --for a provider with --id-map, gate --for the same provider, and
// restore-ids, from the CLI: what normalize writes for a target, the gate finds
// nothing that target refuses in, and restore-ids gives the original ids back.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

type Json = Record<string, unknown>;
const folder = scratchFolder("restore-ids");
const linesOf = (text: string): Json[] => text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as Json);
const callIdsOf = (items: readonly Json[]) => items.flatMap((item) => (typeof item.call_id === "string" ? [item.call_id] : []));

/** A Chat journal: each turn a user question, an assistant message with its calls, a tool message for each. */
function chatJournal(turns: ReadonlyArray<readonly string[]>): string {
  const lines: unknown[] = [];
  turns.forEach((ids, turn) => {
    lines.push({ role: "user", content: `Question ${turn}` });
    lines.push({ role: "assistant", content: "", tool_calls: ids.map((id, k) => ({ id, type: "function", function: { name: "get_weather", arguments: JSON.stringify({ city: `c${turn}${k}` }) } })) });
    for (const id of ids) lines.push({ role: "tool", tool_call_id: id, content: `answer for ${id}` });
  });
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

describe("restore-ids", () => {
  const journal = join(folder, "kimi.jsonl");
  writeFileSync(journal, chatJournal([["functions.get_weather:0", "functions.get_weather:1"]]));

  test("puts back the ids normalize --for mistral rewrote, and reports an id the map does not know", async () => {
    const normalized = await runOrbridge(["normalize", "--for", "mistral", "--id-map", join(folder, "ids.jsonl"), "--out", join(folder, "for-mistral.jsonl"), journal]);
    expect(normalized.code).toBe(0);
    const map = linesOf(readFileSync(join(folder, "ids.jsonl"), "utf8"));
    expect(map.map((entry) => entry.original)).toEqual(["functions.get_weather:0", "functions.get_weather:1"]);
    expect(map.every((entry) => /^[a-zA-Z0-9]{9}$/.test(String(entry.rewritten)))).toBe(true);
    const answers = join(folder, "answers.jsonl");
    writeFileSync(answers, [JSON.stringify({ role: "tool", tool_call_id: map[0]!.rewritten, content: "sunny" }), JSON.stringify({ role: "tool", tool_call_id: "abcdefghi", content: "rain" })].join("\n") + "\n");
    const restored = await runOrbridge(["restore-ids", "--map", join(folder, "ids.jsonl"), "--report", join(folder, "unknown.jsonl"), answers]);
    expect(restored).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ role: "tool", tool_call_id: "functions.get_weather:0", content: "sunny" })}\n${JSON.stringify({ role: "tool", tool_call_id: "abcdefghi", content: "rain" })}\n`,
      stderr: "read 2 lines: 1 ids restored, 1 call ids not in the map, 0 errors\n",
    });
    expect(linesOf(readFileSync(join(folder, "unknown.jsonl"), "utf8"))).toEqual([{ line: 2, path: "/tool_call_id", code: "id_not_in_map", detail: 'call id "abcdefghi" is not in the map: kept as it is' }]);
  });

  test("without --map, it is a usage error (exit 2)", async () => {
    const run = await runOrbridge(["restore-ids", journal]);
    expect([run.code, run.stderr]).toEqual([2, "orbridge restore-ids: restore-ids needs --map FILE, the id map normalize --id-map wrote\n"]);
  });

  test("--id-map without --for is a usage error (exit 2)", async () => {
    const run = await runOrbridge(["normalize", "--id-map", join(folder, "unused.jsonl"), journal]);
    expect([run.code, run.stderr]).toEqual([2, "orbridge normalize: --id-map writes the call ids --for rewrites: it goes with --for\n"]);
  });
});

describe("convert --to ENVELOPE --for TARGET", () => {
  const journal = join(folder, "kimi-convert.jsonl");
  writeFileSync(journal, chatJournal([["functions.get_weather:0", "functions.get_weather:1"]]));

  test.each([
    ["anthropic", "anthropic"],
    ["chat", "mistral"],
    ["bedrock", "bedrock"],
  ])("--to %s --for %s writes what gate --for accepts, and restore-ids gives the original ids back", async (envelope, target) => {
    const out = join(folder, `kimi.${target}.jsonl`);
    const ids = join(folder, `kimi.${target}.ids.jsonl`);
    const converted = await runOrbridge(["convert", "--to", envelope, "--for", target, "--id-map", ids, "--out", out, journal]);
    expect(converted.code).toBe(0);
    expect(linesOf(readFileSync(ids, "utf8")).map((entry) => entry.original)).toEqual(["functions.get_weather:0", "functions.get_weather:1"]);
    const gated = await runOrbridge(["gate", "--for", target, "--format", "json", out]);
    expect(linesOf(gated.stdout).flatMap((verdict) => (verdict.findings as Json[]).filter((finding) => finding.code === "target_rejects"))).toEqual([]);
    const restored = await runOrbridge(["restore-ids", "--map", ids, out]);
    const back = await runOrbridge(["normalize", "-"], restored.stdout);
    expect(callIdsOf(linesOf(back.stdout))).toEqual(["functions.get_weather:0", "functions.get_weather:1", "functions.get_weather:0", "functions.get_weather:1"]);
  });
});

describe("for generated journals", () => {
  // Ids as providers and converters write them: Kimi's, Codex's pairs, OpenAI's, Anthropic's, and ones only a log would hold.
  const hex = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength, maxLength });
  const callId = fc.oneof(
    fc.nat({ max: 9 }).map((n) => `functions.get_weather:${n}`),
    fc.tuple(hex(4, 8), hex(4, 8)).map(([a, b]) => `call_${a}|fc_${b}`),
    hex(6, 24).map((hex) => `call_${hex}`),
    hex(6, 24).map((hex) => `toolu_${hex}`),
    fc.string({ minLength: 1, maxLength: 12 }),
  );
  const turns = fc.array(fc.uniqueArray(callId, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }).filter((all) => new Set(all.flat()).size === all.flat().length);

  test.each(["anthropic", "bedrock", "mistral"])("normalize --for %s passes gate --for %s with no target_rejects, and restore-ids gives the original ids back exactly", async (target) => {
    await fc.assert(
      fc.asyncProperty(turns, async (generated) => {
        const journal = join(folder, `generated-${target}.jsonl`);
        writeFileSync(journal, chatJournal(generated));
        const rewritten = join(folder, `generated-${target}.out.jsonl`);
        const ids = join(folder, `generated-${target}.ids.jsonl`);
        expect((await runOrbridge(["normalize", "--for", target, "--id-map", ids, "--out", rewritten, journal])).code).toBe(0);
        const gated = await runOrbridge(["gate", "--for", target, "--format", "json", rewritten]);
        expect(linesOf(gated.stdout).flatMap((verdict) => (verdict.findings as Json[]).filter((finding) => finding.code === "target_rejects"))).toEqual([]);
        const restored = await runOrbridge(["restore-ids", "--map", ids, rewritten]);
        expect(callIdsOf(linesOf(restored.stdout))).toEqual(callIdsOf(linesOf((await runOrbridge(["normalize", journal])).stdout)));
      }),
      { numRuns: 15, seed: 25 },
    );
  });
});
