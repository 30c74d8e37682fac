// `orbridge gate` run as a process on a tool schema whose work doubles with each of
// its 32 levels: the call that would take 2^32 steps is blocked at the budget,
// the run finishes, one thread and two give the same lines, and SIGTERM or SIGINT
// stops a long run before its end, leaving only whole lines on stdout. How soon it
// stops is measured by hand, not asserted: a test never asserts a duration.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { argumentUnits, BASE_STEPS, STEPS_PER_UNIT } from "../../src/gate/schema-work.js";
import { scratchFolder } from "../support/scratch.js";

const folder = scratchFolder("orbridge-schema-work-");

/** 32 levels, each an anyOf of two references to the level below; the bottom is a string. */
function chainSchema(): Record<string, unknown> {
  const defs: Record<string, unknown> = { d0: { type: "string" } };
  for (let i = 1; i <= 32; i++) defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i - 1}` }, { $ref: `#/$defs/d${i - 1}` }] };
  return { $defs: defs, $ref: "#/$defs/d32" };
}

const schemaPath = join(folder, "chain.json");
writeFileSync(schemaPath, JSON.stringify(chainSchema()));

const callLine = (i: number, args: unknown) => JSON.stringify({ type: "function_call", id: `fc_${i}`, call_id: `call_${i}`, name: "lookup", status: "completed", arguments: JSON.stringify(args) });
const overBudget = `arguments could not be checked: schema work exceeded ${BASE_STEPS + STEPS_PER_UNIT * argumentUnits(5)} steps, the bound for arguments of this size`;

/** A journal of `lines` calls; every `blockedEvery`-th one has arguments the chain rejects only after trying every path. */
function writeJournal(name: string, lines: number, blockedEvery: number): string {
  const path = join(folder, name);
  writeFileSync(path, Array.from({ length: lines }, (_, i) => callLine(i, i % blockedEvery === 0 ? 5 : "x") + "\n").join(""));
  return path;
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `orbridge gate` from the sources. With `signal`, sends it once the first
 * lines are out (the run is gating by then).
 */
function runGate(args: string[], signal?: NodeJS.Signals): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "gate", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let sent = false;
    child.stdout.on("data", (chunk: Buffer) => {
      out.push(chunk);
      if (signal !== undefined && !sent) {
        sent = true;
        child.kill(signal);
      }
    });
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    // After "exit", once stdout and stderr are read to their end.
    child.on("close", (code, exitSignal) => resolve({ code, signal: exitSignal, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
  });
}

describe("a schema whose work doubles per level", () => {
  test("the call it cannot finish is blocked at the budget, the next one passes, and the run ends", async () => {
    const journal = join(folder, "journal.jsonl");
    writeFileSync(journal, `${callLine(1, 5)}\n${callLine(2, "x")}\n`);
    const run = await runGate(["--schema", schemaPath, "--format", "json", journal]);
    expect(run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as unknown)).toEqual([
      { line: 1, index: 0, type: "function_call", call_id: "call_1", name: "lookup", reason: "arguments_schema", detail: overBudget, path: "/arguments", blocked: true, findings: [] },
      { line: 2, index: 0, type: "function_call", call_id: "call_2", name: "lookup", reason: "ok", detail: "completed call with arguments valid for its schema", blocked: false, findings: [] },
    ]);
    expect(run.stderr).toBe("read 2 lines: 2 items, 0 errors; 1 blocked\n  blocked by: arguments_schema 1\n");
    expect(run.code).toBe(1);
  }, 60_000);

  // Over 4 MiB, so that --jobs 2 starts its second thread.
  test("one thread and two write the same lines, byte for byte", async () => {
    const journal = writeJournal("mixed.jsonl", 45_000, 300);
    const one = await runGate(["--schema", schemaPath, "--format", "json", "--jobs", "1", journal]);
    const two = await runGate(["--schema", schemaPath, "--format", "json", "--jobs", "2", journal]);
    expect(one.code).toBe(1);
    expect(one.stderr).toBe("read 45000 lines: 45000 items, 0 errors; 150 blocked\n  blocked by: arguments_schema 150\n");
    expect(two.stdout).toBe(one.stdout);
    expect(two.stderr).toBe(one.stderr);
    expect(two.code).toBe(one.code);
  }, 120_000);
});

describe("a signal during a long run", () => {
  // Every other call runs to the budget: some 20 seconds of gating in all.
  const journal = writeJournal("long.jsonl", 45_000, 2);

  test.each([
    ["SIGTERM", "1", 143],
    ["SIGINT", "1", 130],
    ["SIGTERM", "2", 143],
  ] as const)("%s stops it before the journal ends (--jobs %s), with its exit status and whole lines on stdout", async (signal, jobs, code) => {
    const run = await runGate(["--schema", schemaPath, "--format", "json", "--jobs", jobs, journal], signal);
    expect(run.code).toBe(code);
    expect(run.stdout.endsWith("\n")).toBe(true);
    const lines = run.stdout.trimEnd().split("\n");
    // The whole run would take some 20 seconds: fewer lines than the journal holds show the signal was taken mid-run.
    expect(lines.length).toBeLessThan(45_000);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  }, 60_000);
});

describe("a signal while the reader of stdout has stopped reading", () => {
  // A pipe takes what its reader has room for: the lines handed to stdout before
  // the signal were written only in part, and the exit cut the last one.
  test("SIGTERM: the lines already handed on are written to their end, and the output ends with a whole line", async () => {
    const journal = join(folder, "messages.jsonl");
    writeFileSync(journal, Array.from({ length: 40_000 }, (_, i) => `{"type":"message","role":"user","content":"message ${i}"}\n`).join(""));
    const run = await new Promise<Exit>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "gate", "--format", "json", journal], { stdio: ["ignore", "pipe", "pipe"] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.once("data", (chunk: Buffer) => {
        out.push(chunk);
        // The reader stops; the run fills the pipe and waits on it. Then the signal, and the reader reads again.
        child.stdout.pause();
        setTimeout(() => {
          child.kill("SIGTERM");
          child.stdout.on("data", (more: Buffer) => out.push(more));
          child.stdout.resume();
        }, 3_000);
      });
      child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
      child.on("error", reject);
      child.on("close", (code, signal) => resolve({ code, signal, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
    });
    expect(run.code).toBe(143);
    expect(run.stdout.endsWith("\n")).toBe(true);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines.length).toBeLessThan(40_000);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  }, 60_000);
});
