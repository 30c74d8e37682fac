// The README's Stored logs section shows a reading with its output; this keeps it true,
// and runs the one command it gives for each store.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "./support/run-cli.js";

const readme = readFileSync("README.md", "utf8");
const section = readme.slice(readme.indexOf("## Stored logs"), readme.indexOf("## As a library"));

describe("the README's Stored logs section", () => {
  test("the reading it shows is what the command prints", async () => {
    const command = "npx orbridge normalize golden/otlp/span-dicts-calls-without-ids/export.json";
    const at = section.indexOf("```sh\n" + command + "\n```\n");
    const start = section.indexOf("```\n", at + command.length + 10) + 4;
    const shown = section.slice(start, section.indexOf("```\n", start));
    const result = await runOrbridge(command.split(" ").slice(2));
    const notes = result.stderr.trimEnd().split("\n");
    // The notes come before the records, the summary after them.
    expect(notes.slice(0, -1).join("\n") + "\n" + result.stdout + notes.at(-1) + "\n").toBe(shown);
    expect(result.code).toBe(0);
  });

  test.each([...section.matchAll(/\| `(npx orbridge [^`]+)` \|/g)].map((match) => match[1]))("%s reads its store", async (command) => {
    const result = await runOrbridge(command.split(" ").slice(2));
    expect(result.stderr).toMatch(/^orbridge: \S+: read as [a-z-]+: \d+ units? \(/);
    expect(result.stderr).not.toMatch(/ 0 records /);
    expect([0, 1]).toContain(result.code);
  });
});
