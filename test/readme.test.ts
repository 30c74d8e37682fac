// The README shows the main job with its output; this keeps that output true.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "./support/run-cli.js";

const readme = readFileSync("README.md", "utf8");

/** The output block the README prints right after the shell block holding `command`. */
function shownOutput(command: string): string {
  const at = readme.indexOf("```sh\n" + command + "\n```\n");
  if (at === -1) throw new Error(`the README does not show ${command}`);
  const start = readme.indexOf("```\n", at + command.length + 10) + 4;
  return readme.slice(start, readme.indexOf("```\n", start));
}

describe("the README's examples", () => {
  test.each([
    "npx orbridge gate --schema golden/examples/sales-report.schema.json golden/examples/sales-report.jsonl",
    "npx orbridge gate --tools golden/examples/sales-tools.json golden/examples/mixed.jsonl",
  ])("%s prints what the README shows", async (command) => {
    const result = await runOrbridge(command.split(" ").slice(2));
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toBe(shownOutput(command));
  });
});

describe("the README's main command, as a user types it", () => {
  // npm ci builds the command (the prepare script); npx finds it through the package's bin.
  test("npx orbridge runs the built command", () => {
    const command = "npx orbridge gate --schema golden/examples/sales-report.schema.json golden/examples/sales-report.jsonl";
    const run = spawnSync("npx", command.split(" ").slice(1), { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    expect({ status: run.status, output: run.stdout + run.stderr }).toEqual({ status: 1, output: shownOutput(command) });
  }, 60_000);
});

describe("the README's library example", { timeout: 30_000 }, () => {
  // The snippet is plain JavaScript too: written beside the package, it imports
  // "orbridge" by the package's own name, as an installed package is imported.
  test("runs as written and names the blocked records of the journal", () => {
    const start = readme.indexOf("```ts\n", readme.indexOf("## As a library")) + 6;
    const snippet = readme.slice(start, readme.indexOf("```\n", start));
    const file = `readme-library-${process.pid}.mjs`;
    writeFileSync(file, snippet);
    try {
      const run = spawnSync(process.execPath, [file], { encoding: "utf8" });
      expect([run.status, run.stderr]).toEqual([0, ""]);
      expect(run.stdout).toBe(
        [
          "line 2: arguments_schema []",
          "line 4: not_function_call [ 'output_for_blocked_call' ]",
          "line 5: namespaced []",
          "line 6: status []",
          "",
        ].join("\n"),
      );
    } finally {
      rmSync(file, { force: true });
    }
  });
});
