// The entry's list of commands: every command, with its summary, without loading
// any of them (each brings its own dependencies; the list is shown on every bare
// `orbridge` and `--help`, and must cost none of their start-up).
import { readFileSync } from "node:fs";
import { describe, expect, test, vi } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const loaded = vi.hoisted(() => [] as string[]);
// Each mock records that its command was loaded, then gives the real module.
vi.mock("../../src/cli/normalize.js", async (importOriginal) => (loaded.push("normalize"), importOriginal()));
vi.mock("../../src/cli/convert.js", async (importOriginal) => (loaded.push("convert"), importOriginal()));
vi.mock("../../src/cli/gate.js", async (importOriginal) => (loaded.push("gate"), importOriginal()));
vi.mock("../../src/cli/diff.js", async (importOriginal) => (loaded.push("diff"), importOriginal()));
vi.mock("../../src/cli/schema.js", async (importOriginal) => (loaded.push("schema"), importOriginal()));

describe("the list of commands", () => {
  test("--help names every command with its summary, on stdout, exit 0, and loads none of them", async () => {
    const result = await runOrbridge(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain(
      [
        "Commands:",
        "  normalize  turn any journal into canonical Open Responses items",
        "  convert    convert a journal between Chat Completions and Open Responses",
        "  gate       check that each tool call of a journal is safe to replay",
        "  diff       compare an origin journal with the journal about to be replayed",
        "  schema     print the JSON Schema of a model (no name: list the models)",
        "",
      ].join("\n"),
    );
    expect(loaded).toEqual([]);
  });
  test("a bare orbridge prints the same list on stderr and exits 2", async () => {
    const result = await runOrbridge([]);
    expect(result).toEqual({ code: 2, stdout: "", stderr: (await runOrbridge(["--help"])).stdout });
    expect(loaded).toEqual([]);
  });
  test("a command named loads that command alone", async () => {
    const result = await runOrbridge(["schema"]);
    expect(result.code).toBe(0);
    expect(loaded).toEqual(["schema"]);
  });
});

describe("help and version", () => {
  test("help COMMAND prints that command's own --help, exit 0", async () => {
    const viaHelp = await runOrbridge(["help", "gate"]);
    const viaOption = await runOrbridge(["gate", "--help"]);
    expect(viaHelp).toEqual(viaOption);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toMatch(/^Usage: orbridge gate /);
  });
  test("help of an unknown command is the unknown-command error, exit 2", async () => {
    expect(await runOrbridge(["help", "nope"])).toEqual({ code: 2, stdout: "", stderr: 'orbridge: unknown command "nope" (orbridge --help lists them)\n' });
  });
  test("--version prints the package's version on stdout, exit 0", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(await runOrbridge(["--version"])).toEqual({ code: 0, stdout: `orbridge ${version}\n`, stderr: "" });
  });
});
