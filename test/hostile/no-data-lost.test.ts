// Nothing lost: `--out` is all or nothing whenever the process dies, inputs are
// never written, and a run that finishes accounts for every line.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
// Built apart from dist/, which other tests run while this file builds; inside
// node_modules, so that the build finds the dependencies.
const build = join(root, "node_modules/.cache/orbridge-no-data-lost-build");
const cli = join(build, "src/cli/main.js");
const folder = mkdtempSync(join(tmpdir(), "orbridge-no-data-lost-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** Line `i` of a generated journal: Chat messages, Open Responses items and a few bad lines. */
function journalLine(i: number): string {
  switch (i % 5) {
    case 0:
      return JSON.stringify({ role: "user", content: `please send the weekly sales report for region ${i}` });
    case 1:
      return JSON.stringify({ role: "assistant", content: null, tool_calls: [{ id: `call_${i}`, type: "function", function: { name: "get_latest_sales_report", arguments: `{"region":"apac","week":${i}}` } }] });
    case 2:
      return JSON.stringify({ role: "tool", tool_call_id: `call_${i - 1}`, content: `report ${i} sent` });
    case 3:
      return JSON.stringify({ type: "function_call", call_id: `call_${i}`, name: "get_latest_sales_report", arguments: "{\"region\":\"emea\"}", status: "completed" });
    default:
      return i % 1000 === 4 ? "{\"type\":" : JSON.stringify({ type: "message", role: "assistant", content: [{ type: "output_text", text: `done with ${i}` }] });
  }
}

function writeJournal(name: string, lines: number): string {
  const path = join(folder, name);
  const parts: string[] = [];
  for (let i = 0; i < lines; i++) parts.push(journalLine(i) + "\n");
  writeFileSync(path, parts.join(""));
  return path;
}

/** Files a run left beside `target`, other than the target itself. */
function leftovers(target: string): string[] {
  return readdirSync(dirname(target)).filter((name) => name.startsWith(`.${target.split("/").pop()}.`));
}

/** Resolves once the temporary output beside `target` holds some bytes. */
async function untilWriting(child: ChildProcessWithoutNullStreams, target: string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the run ended (exit ${child.exitCode}) before it could be stopped mid-way`);
    const temporary = leftovers(target).map((name) => join(dirname(target), name));
    if (temporary.some((path) => existsSync(path) && statSync(path).size > 0)) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const exited = (child: ChildProcessWithoutNullStreams) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));

beforeAll(() => {
  // The test runs the built command, as a user does; type errors elsewhere do not stop the emit.
  spawnSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.json"), "--outDir", build], { cwd: root });
  if (!existsSync(cli)) throw new Error(`the build did not produce ${relative(root, cli)}`);
}, 120_000);

describe("--out when the process dies mid-run", () => {
  const signals = ["SIGKILL", "SIGTERM", "SIGINT"] as const;

  test.each(signals)("%s while stdin is still open leaves the old content in place", async (signal) => {
    const target = join(folder, `kept-${signal}.jsonl`);
    writeFileSync(target, "{\"old\":\"content\"}\n");
    const before = sha256(target);
    const child = spawn(process.execPath, [cli, "normalize", "--out", target, "-"], { cwd: folder });
    child.stdin.on("error", () => {});
    child.stdin.write(Array.from({ length: 20_000 }, (_, i) => journalLine(i) + "\n").join(""));
    await untilWriting(child, target);
    child.kill(signal);
    await exited(child);
    expect(child.exitCode === 0).toBe(false);
    expect(sha256(target)).toBe(before);
  }, 60_000);

  test.each(signals)("%s leaves no target where there was none", async (signal) => {
    const target = join(folder, `absent-${signal}.jsonl`);
    const child = spawn(process.execPath, [cli, "normalize", "--out", target, "-"], { cwd: folder });
    child.stdin.on("error", () => {});
    child.stdin.write(Array.from({ length: 20_000 }, (_, i) => journalLine(i) + "\n").join(""));
    await untilWriting(child, target);
    child.kill(signal);
    await exited(child);
    expect(existsSync(target)).toBe(false);
  }, 60_000);

  test("SIGKILL on a large journal file leaves the old content, and the input intact", async () => {
    const input = writeJournal("large.jsonl", 400_000);
    const inputHash = sha256(input);
    const target = join(folder, "large-out.jsonl");
    writeFileSync(target, "{\"old\":\"content\"}\n");
    const child = spawn(process.execPath, [cli, "normalize", "--out", target, input], { cwd: folder });
    await untilWriting(child, target);
    child.kill("SIGKILL");
    await exited(child);
    expect(readFileSync(target, "utf8")).toBe("{\"old\":\"content\"}\n");
    expect(sha256(input)).toBe(inputHash);
  }, 120_000);

  test("a run that finishes replaces the target whole and leaves no temporary file", async () => {
    const input = writeJournal("finished.jsonl", 20_000);
    const target = join(folder, "finished-out.jsonl");
    writeFileSync(target, "{\"old\":\"content\"}\n");
    const run = spawnSync(process.execPath, [cli, "normalize", "--out", target, input], { cwd: folder, encoding: "utf8" });
    expect(run.status).toBe(1);
    // 20,000 lines: 4,000 of each kind; 20 cut lines (i % 1000 === 4) are reported.
    // The assistant call lines give one item each; every other line one item.
    expect(run.stderr.split("\n").filter((line) => line.startsWith("orbridge normalize: line ")).length).toBe(20);
    expect(run.stderr.trimEnd().split("\n").pop()).toBe("read 20000 lines, 20000 records: 19980 emitted (19980 items), 20 reported; 0 losses");
    const written = readFileSync(target, "utf8").trimEnd().split("\n");
    expect(written).toHaveLength(19_980);
    expect(leftovers(target)).toEqual([]);
  }, 60_000);
});

describe("inputs are never modified", () => {
  const journal = () => {
    const path = join(folder, "input.jsonl");
    writeFileSync(path, Array.from({ length: 50 }, (_, i) => journalLine(i) + "\n").join(""));
    return path;
  };
  test("normalize reads its input and leaves it byte for byte", async () => {
    const input = journal();
    const before = sha256(input);
    await runOrbridge(["normalize", "--out", join(folder, "normalized.jsonl"), input]);
    expect(sha256(input)).toBe(before);
  });
  test("gate reads its input and leaves it byte for byte", async () => {
    const input = journal();
    const schema = join(folder, "schema.json");
    writeFileSync(schema, "{\"type\":\"object\"}");
    const before = sha256(input);
    await runOrbridge(["gate", "--schema", schema, input]);
    expect(sha256(input)).toBe(before);
  });
  const refusedAndKept = async (outPath: string, input: string) => {
    const before = sha256(input);
    const run = await runOrbridge(["normalize", "--out", outPath, input]);
    expect(sha256(input)).toBe(before);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`orbridge normalize: --out ${outPath} is also an input; inputs are never overwritten\n`);
  };
  test("--out naming the input by the same path is refused, and the input kept", async () => {
    const input = journal();
    await refusedAndKept(input, input);
  });
  // Another spelling of the input's path, or a link to it, must not get the output
  // renamed over the input at the end of the run.
  test.each([
    ["a relative path", (input: string) => relative(process.cwd(), input)],
    ["a path through the parent folder", (input: string) => `${folder}/../${folder.split("/").pop()!}/input.jsonl`],
    [
      "a symbolic link to the input",
      (input: string) => {
        const link = join(folder, "link-to-input.jsonl");
        rmSync(link, { force: true });
        symlinkSync(input, link);
        return link;
      },
    ],
  ])("--out naming the input by %s is refused, and the input kept", async (_label, outPath) => {
    const input = journal();
    await refusedAndKept(outPath(input), input);
  });
  const reportRefusedAndKept = async (reportPath: string, input: string) => {
    const before = sha256(input);
    const run = await runOrbridge(["convert", "--to", "responses", "--report", reportPath, input]);
    expect(sha256(input)).toBe(before);
    expect(run).toEqual({ code: 2, stdout: "", stderr: `orbridge convert: --report ${reportPath} is also an input; inputs are never overwritten\n` });
  };
  test("convert --report naming the input by the same path is refused, and the input kept", async () => {
    const input = journal();
    await reportRefusedAndKept(input, input);
  });
  // convert compares path strings: the report is renamed over the input.
  test("convert --report naming the input by a relative path is refused, and the input kept", async () => {
    const input = journal();
    await reportRefusedAndKept(relative(process.cwd(), input), input);
  });
});
