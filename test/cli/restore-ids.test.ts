// normalize --for a provider with --id-map, gate --for the same provider, and
// restore-ids, from the CLI: what normalize writes for a target, the gate finds
// nothing that target refuses in, and restore-ids gives the original ids back.
import { readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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

  test("no output of restore-ids overwrites its --map, whatever name it goes by, and the map is left as it was (exit 2)", async () => {
    const map = join(folder, "kept-map.jsonl");
    const text = `${JSON.stringify({ original: "functions.get_weather:0", rewritten: "abc123def" })}\n`;
    writeFileSync(map, text);
    const link = join(folder, "kept-map-link.jsonl");
    rmSync(link, { force: true });
    symlinkSync(map, link);
    for (const [option, path] of [["--out", map], ["--report", map], ["--out", link]] as const) {
      const run = await runOrbridge(["restore-ids", "--map", map, option, path, journal]);
      expect([run.code, run.stderr]).toEqual([2, `orbridge restore-ids: ${option} ${path} is also an input; inputs are never overwritten\n`]);
    }
    expect(readFileSync(map, "utf8")).toEqual(text);
  });

  test("a map line that names a member twice is refused: which original it restores would depend on the reader (exit 2)", async () => {
    const map = join(folder, "twice-map.jsonl");
    writeFileSync(map, '{"original":"functions.get_weather:0","rewritten":"abc123def","original":"zzz"}\n');
    const run = await runOrbridge(["restore-ids", "--map", map, journal]);
    expect([run.code, run.stderr]).toEqual([2, `orbridge restore-ids: --map ${map}: line 1 has the name "original" twice in one object, at "/original"; JSON.parse keeps the last value, other readers keep the first\n`]);
  });

  test("normalize and convert refuse an --id-map that is the standard output the journal goes to, or another output (exit 2)", async () => {
    for (const command of [["normalize", "--for", "mistral"], ["convert", "--to", "chat", "--for", "mistral"]]) {
      const out = join(folder, "same-as-map.jsonl");
      const run = await runOrbridge([...command, "--id-map", out, "--out", out, journal]);
      expect([run.code, run.stderr]).toEqual([2, `orbridge ${command[0]}: --id-map ${out} is the same file as --out ${out}; each output needs a file of its own\n`]);
      const input = await runOrbridge([...command, "--id-map", journal, journal]);
      expect([input.code, input.stderr]).toEqual([2, `orbridge ${command[0]}: --id-map ${journal} is also an input; inputs are never overwritten\n`]);
    }
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

  test.each(["anthropic", "bedrock", "mistral"])("normalize --for %s passes gate --for the same target with no target_rejects, and restore-ids gives the original ids back exactly", async (target) => {
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

describe("ids that a rewrite could give twice", { timeout: 30_000 }, () => {
  // "call.1" is written as "call_1_e8b7b7b3" for anthropic, and as "e8b7b7b37" for mistral: a journal that holds those ids as well.
  const hostile = (taken: string) =>
    [
      { type: "function_call", call_id: "call.1", name: "f", arguments: "{}", status: "completed" },
      { type: "function_call_output", call_id: "call.1", output: "one" },
      { type: "function_call", call_id: taken, name: "f", arguments: "{}", status: "completed" },
      { type: "function_call_output", call_id: taken, output: "two" },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n") + "\n";

  test.each([
    ["anthropic", "call_1_e8b7b7b3", "call_1_e8b7b7b3_04e13108", "^[a-zA-Z0-9_-]+$"],
    ["mistral", "e8b7b7b37", "3972e52eb", "^[a-zA-Z0-9]{9}$"],
  ])("normalize --for %s rewrites the later id that an earlier id was written as, reports it, and restore-ids gives every id back", async (target, taken, again, pattern) => {
    const journal = join(folder, `taken-${target}.jsonl`);
    writeFileSync(journal, hostile(taken));
    const [ids, report, out] = ["ids", "report", "out"].map((name) => join(folder, `taken-${target}.${name}.jsonl`)) as [string, string, string];
    const normalized = await runOrbridge(["normalize", "--for", target, "--id-map", ids, "--report", report, "--out", out, journal]);
    expect(normalized).toEqual({ code: 0, stdout: "", stderr: `read 4 lines, 4 records: 4 emitted (4 items), 0 reported; 0 losses; 4 changes for ${target}\n` });
    expect(readFileSync(out, "utf8")).toEqual(hostile(taken).replaceAll(`"${taken}"`, `"${again}"`).replaceAll('"call.1"', `"${taken}"`));
    expect(linesOf(readFileSync(ids, "utf8"))).toEqual([
      { original: "call.1", rewritten: taken },
      { original: taken, rewritten: again },
    ]);
    const first = `call_id "call.1" does not match ${pattern}: written as "${taken}", the call and its output alike`;
    const second = `call_id "${taken}" is what "call.1" was written as: written as "${again}", the call and its output alike`;
    expect(linesOf(readFileSync(report, "utf8"))).toEqual([
      { line: 1, index: 0, path: "/call_id", code: "id_rewritten", detail: first },
      { line: 2, index: 0, path: "/call_id", code: "id_rewritten", detail: first },
      { line: 3, index: 0, path: "/call_id", code: "id_rewritten", detail: second },
      { line: 4, index: 0, path: "/call_id", code: "id_rewritten", detail: second },
    ]);
    expect(await runOrbridge(["restore-ids", "--map", ids, out])).toEqual({ code: 0, stdout: hostile(taken), stderr: "read 4 lines: 4 ids restored, 0 call ids not in the map, 0 errors\n" });
  });

  test("convert --to anthropic --for anthropic rewrites them the same way, and restore-ids gives every id back", async () => {
    const journal = join(folder, "taken-convert.jsonl");
    writeFileSync(journal, hostile("call_1_e8b7b7b3"));
    const ids = join(folder, "taken-convert.ids.jsonl");
    const converted = await runOrbridge(["convert", "--to", "anthropic", "--for", "anthropic", "--id-map", ids, journal]);
    const toolUse = (id: string) => JSON.stringify({ role: "assistant", content: [{ type: "tool_use", id, name: "f", input: {} }] });
    const toolResult = (id: string, content: string) => JSON.stringify({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content }] });
    expect(converted).toEqual({
      code: 0,
      stdout: [toolUse("call_1_e8b7b7b3"), toolResult("call_1_e8b7b7b3", "one"), toolUse("call_1_e8b7b7b3_04e13108"), toolResult("call_1_e8b7b7b3_04e13108", "two")].join("\n") + "\n",
      stderr: "read 4 lines: 4 records, 0 errors; 4 losses\n",
    });
    const restored = await runOrbridge(["restore-ids", "--map", ids, "-"], converted.stdout);
    expect(restored.stdout).toEqual([toolUse("call.1"), toolResult("call.1", "one"), toolUse("call_1_e8b7b7b3"), toolResult("call_1_e8b7b7b3", "two")].join("\n") + "\n");
  });

  test("restore-ids refuses a map that rewrites one id two ways (exit 2)", async () => {
    const ids = join(folder, "two-ways.ids.jsonl");
    writeFileSync(ids, `${JSON.stringify({ original: "call.1", rewritten: "aaaaaaaaa" })}\n${JSON.stringify({ original: "call.1", rewritten: "bbbbbbbbb" })}\n`);
    expect(await runOrbridge(["restore-ids", "--map", ids, "-"], "{}\n")).toEqual({ code: 2, stdout: "", stderr: `orbridge restore-ids: --map ${ids}: the map rewrites "call.1" two ways: as "aaaaaaaaa" and as "bbbbbbbbb"\n` });
  });

  test("restore-ids refuses a map that gives one rewritten id two originals (exit 2)", async () => {
    const ids = join(folder, "two-originals.ids.jsonl");
    writeFileSync(ids, `${JSON.stringify({ original: "call.1", rewritten: "aaaaaaaaa" })}\n${JSON.stringify({ original: "call.2", rewritten: "aaaaaaaaa" })}\n`);
    expect(await runOrbridge(["restore-ids", "--map", ids, "-"], "{}\n")).toEqual({ code: 2, stdout: "", stderr: `orbridge restore-ids: --map ${ids}: the map gives "aaaaaaaaa" two originals: "call.1" and "call.2"\n` });
  });

  test("restore-ids changes the id of a call, never an item's or a message's id that happens to hold a rewritten id", async () => {
    const ids = join(folder, "item-ids.ids.jsonl");
    writeFileSync(ids, `${JSON.stringify({ original: "call.1", rewritten: "aaaaaaaaa" })}\n`);
    const lines = [
      { type: "function_call", id: "aaaaaaaaa", call_id: "aaaaaaaaa", name: "f", arguments: "{}", status: "completed" },
      { role: "assistant", id: "aaaaaaaaa", content: null, tool_calls: [{ id: "aaaaaaaaa", type: "function", function: { name: "f", arguments: "{}" } }] },
      { role: "model", parts: [{ functionCall: { id: "aaaaaaaaa", name: "f", args: {} } }] },
      { id: "aaaaaaaaa", type: "message", role: "assistant", content: [{ type: "tool_use", id: "aaaaaaaaa", name: "f", input: {} }] },
    ];
    const restored = await runOrbridge(["restore-ids", "--map", ids, "-"], lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
    expect(restored).toEqual({
      code: 0,
      stdout:
        [
          { type: "function_call", id: "aaaaaaaaa", call_id: "call.1", name: "f", arguments: "{}", status: "completed" },
          { role: "assistant", id: "aaaaaaaaa", content: null, tool_calls: [{ id: "call.1", type: "function", function: { name: "f", arguments: "{}" } }] },
          { role: "model", parts: [{ functionCall: { id: "call.1", name: "f", args: {} } }] },
          { id: "aaaaaaaaa", type: "message", role: "assistant", content: [{ type: "tool_use", id: "call.1", name: "f", input: {} }] },
        ]
          .map((line) => JSON.stringify(line))
          .join("\n") + "\n",
      stderr: "read 4 lines: 4 ids restored, 0 call ids not in the map, 0 errors\n",
    });
  });
});
