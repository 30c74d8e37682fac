// `orbridge diff` lines items up by identity and content, not by position: the
// golden cases of golden/diff, values nested past any recursion, and a stretch
// too large to align, each through the command.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("diff-align");
const jsonl = (...records: unknown[]) => records.map((record) => (typeof record === "string" ? record : JSON.stringify(record)) + "\n").join("");
function file(name: string, content: string): string {
  const path = join(folder, name);
  writeFileSync(path, content);
  return path;
}

describe("the golden cases", () => {
  for (const name of readdirSync("golden/diff").filter((entry) => !entry.endsWith(".md"))) {
    test(name, async () => {
      const at = (file: string) => join("golden/diff", name, file);
      const expected = readFileSync(at("differences.jsonl"), "utf8");
      const count = expected === "" ? 0 : expected.trimEnd().split("\n").length;
      expect(await runOrbridge(["diff", "--format", "json", at("origin.jsonl"), at("replay.jsonl")])).toEqual({
        code: count > 0 ? 1 : 0,
        stdout: expected,
        stderr: `${count} differences\n`,
      });
    });
  }
});

describe("the journals of the README", () => {
  test("arguments written with other spacing are the same call; the changed call_id is the one difference", async () => {
    expect(await runOrbridge(["diff", "golden/examples/origin.jsonl", "golden/examples/replay.jsonl"])).toEqual({
      code: 1,
      stdout:
        'call_id_mismatch  origin line 3  replay line 2.1  call_id "call_emea02" in the origin, "call_emea99" in the replay: an output written for one answers no call of the other\n',
      stderr: "1 difference\n",
    });
  });
});

describe("arguments nested deeper than any recursion goes", () => {
  const call = (args: string) => `{"type":"function_call","id":"fc_1","call_id":"call_1","name":"lookup","status":"completed","arguments":${args}}`;
  for (const depth of [6_000, 100_000]) {
    const text = JSON.stringify("[".repeat(depth) + "]".repeat(depth));
    const value = '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

    test(`${depth} deep, the same on both sides: no difference`, async () => {
      const origin = file(`same-${depth}-origin.jsonl`, jsonl(call(text), call(value).replace("call_1", "call_2").replace("fc_1", "fc_2")));
      const replay = file(`same-${depth}-replay.jsonl`, jsonl(call(text), call(value).replace("call_1", "call_2").replace("fc_1", "fc_2")));
      expect(await runOrbridge(["diff", origin, replay])).toEqual({ code: 0, stdout: "", stderr: "0 differences\n" });
    }, 60_000);

    test(`${depth} deep, a text against a value: one difference, shown in part`, async () => {
      const origin = file(`other-${depth}-origin.jsonl`, jsonl(call(text)));
      const replay = file(`other-${depth}-replay.jsonl`, jsonl(call(value)));
      expect(await runOrbridge(["diff", origin, replay])).toEqual({
        code: 1,
        stdout: `arguments_changed  origin line 1  replay line 1  arguments "${"[".repeat(79)}… in the origin, ${'{"a":'.repeat(16)}… in the replay\n`,
        stderr: "1 difference\n",
      });
    }, 60_000);
  }
});

describe("a stretch too large to align", () => {
  test("is lined up by position, and a note on stderr says where", async () => {
    // 2,100 items a side of two types, in the other order on each side, none found once: past 4 million pairs.
    const items = (first: string, second: string) => jsonl(...Array.from({ length: 2_100 }, (_, i) => ({ type: i % 2 === 0 ? first : second, summary: [] })));
    const origin = file("large-origin.jsonl", items("reasoning", "compaction"));
    const replay = file("large-replay.jsonl", items("compaction", "reasoning"));
    const run = await runOrbridge(["diff", origin, replay]);
    expect(run.code).toBe(1);
    expect(run.stdout.split("\n")[0]).toBe('type_changed  origin line 1  replay line 1  type "reasoning" in the origin, "compaction" in the replay');
    expect(run.stderr).toBe(
      "orbridge diff: note: from origin line 1 and replay line 1: 2100 origin items and 2100 replay items, too many to align (more than 4000000 pairs) and with no item found once on each side, were lined up by position: differences there may come from the lining up\n" +
        "2100 differences; 1 stretches lined up by position\n",
    );
  }, 60_000);
});
