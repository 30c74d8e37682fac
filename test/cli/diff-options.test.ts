// diff takes the reading options the other commands take.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

describe("diff --max-line-bytes N", { timeout: 30_000 }, () => {
  test("reports a longer line on either side as a line that could not be read, and lines up the rest", async () => {
    const folder = scratchFolder("diff-options");
    const origin = join(folder, "origin.jsonl");
    const replay = join(folder, "replay.jsonl");
    const long = JSON.stringify({ type: "message", role: "user", content: "x".repeat(500) });
    writeFileSync(origin, `${JSON.stringify({ type: "message", role: "user", content: "hi" })}\n${long}\n`);
    writeFileSync(replay, `${JSON.stringify({ type: "message", role: "user", content: "hi" })}\n`);
    const result = await runOrbridge(["diff", "--max-line-bytes", "100", origin, replay]);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: `orbridge diff: ${origin}:2: line is ${long.length} bytes, over the limit of 100 bytes; it was not read\n0 differences; 1 line could not be read\n`,
    });
  });

  test("refuses a limit that is not a positive whole number", async () => {
    const result = await runOrbridge(["diff", "--max-line-bytes", "0", "golden/examples/origin.jsonl", "golden/examples/replay.jsonl"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--max-line-bytes must be a positive whole number of bytes (got "0")');
  });
});
