// The Dask recipe (examples/dask/gate_shards.py) on a scheduler and workers run
// as a cluster runs them, each its own process: a journal of interleaved
// conversations, cut into shards across conversations, gated in 1, 3 and 7
// partitions, gives the verdicts and summary of one machine gating it whole.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generateConversations, interleave, TOOLS } from "../support/interleaved-journal.js";
import { scratchFolder } from "../support/scratch.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const recipe = join(root, "examples/dask/gate_shards.py");
// Built apart from dist/, as a user runs it after npm ci; inside node_modules, so that the build finds the dependencies.
const build = join(root, "node_modules/.cache/orbridge-dask-build");
const cli = join(build, "src/cli/main.js");

/** A Python that can import dask.distributed: the one named by ORBRIDGE_PYTHON, the one on PATH, or Debian's. */
function findPython(): string | undefined {
  const candidates = [process.env.ORBRIDGE_PYTHON, "python3", "/usr/bin/python3"].filter((candidate): candidate is string => candidate !== undefined && candidate !== "");
  return candidates.find((candidate) => spawnSync(candidate, ["-c", "import distributed"], { stdio: "ignore" }).status === 0);
}

const python = findPython();
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
const conversation = "/conversation_id";

describe.skipIf(python === undefined)(`the Dask recipe${python === undefined ? ' (skipped: python3 -c "import distributed" fails here; apt-get install python3-distributed)' : ""}`, () => {
  const folder = scratchFolder("dask");
  const shards = join(folder, "shards");
  const tools = join(folder, "tools.json");
  const cluster: ChildProcess[] = [];
  let scheduler = "";
  let lines = 0;
  let single: { status: number | null; stdout: string; stderr: string };

  const runRecipe = (...argv: string[]) => spawnSync(python!, [recipe, ...argv], { cwd: folder, encoding: "utf8" });

  beforeAll(async () => {
    spawnSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.json"), "--outDir", build], { cwd: root });
    if (!existsSync(cli)) throw new Error(`the build did not produce ${cli}`);

    // A service's log, rotated into four shards: conversations go on from one shard to the next.
    const journal = interleave(generateConversations({ seed: 41, conversations: 240, numericKeys: true }), 24, 42).lines;
    // Lines that name no conversation, which every partition applies to its open streams and partition 0 reports.
    journal.splice(100, 0, "not json");
    journal.splice(900, 0, JSON.stringify({ role: "user", content: "a line with no key" }));
    lines = journal.length;
    mkdirSync(shards);
    const size = Math.ceil(journal.length / 4);
    for (let shard = 0; shard < 4; shard++) writeFileSync(join(shards, `service-${shard}.jsonl`), journal.slice(shard * size, (shard + 1) * size).join("\n") + "\n");
    writeFileSync(tools, JSON.stringify(TOOLS));
    const run = spawnSync(process.execPath, [cli, "gate", "--tools", tools, "--conversation", conversation, "--format", "json", "-"], { input: journal.join("\n") + "\n", encoding: "utf8" });
    single = { status: run.status, stdout: run.stdout, stderr: run.stderr };

    // A scheduler and two worker processes, started apart from the recipe, as on a cluster.
    const schedulerFile = join(folder, "scheduler.json");
    const start = (args: string[]) => cluster.push(spawn(python!, ["-m", ...args], { cwd: folder, detached: true, stdio: "ignore" }));
    start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file", schedulerFile]);
    start(["distributed.cli.dask_worker", "--scheduler-file", schedulerFile, "--nworkers", "2", "--nthreads", "1", "--no-dashboard", "--local-directory", join(folder, "workers")]);
    for (let waited = 0; !existsSync(schedulerFile) || readFileSync(schedulerFile, "utf8") === ""; waited += 100) {
      if (waited > 60_000) throw new Error("the Dask scheduler did not start");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    scheduler = JSON.parse(readFileSync(schedulerFile, "utf8")).address;
  }, 180_000);

  afterAll(() => {
    // Each was started as the leader of its own process group: the group holds its worker processes too.
    for (const child of cluster) if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
  });

  test("one machine blocks some calls: the journal is worth sharding", () => {
    expect(single.status).toBe(1);
    expect(single.stderr).toMatch(new RegExp(`^read ${lines} lines: \\d+ items, 2 errors; [1-9]\\d* blocked; 240 conversations\n(  (blocked by|findings): .*\n)*$`));
  });

  test.each([1, 3, 7])(
    "in %i partitions, the merged verdicts and summary are the single machine's",
    (partitions) => {
      const out = join(folder, `verdicts-${partitions}.jsonl`);
      const run = runRecipe("--scheduler", scheduler, "--orbridge", `${quote(process.execPath)} ${quote(cli)}`, "--conversation", conversation, "--partitions", String(partitions), "--out", out, shards, "--", "--tools", tools);
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: single.status, stderr: single.stderr });
      expect(readFileSync(out, "utf8")).toEqual(single.stdout);
    },
    120_000,
  );

  test("an orbridge run that fails (exit 2) fails the whole run, with orbridge's own message", () => {
    const run = runRecipe("--scheduler", scheduler, "--orbridge", `${quote(process.execPath)} ${quote(cli)}`, "--conversation", conversation, "--partitions", "2", "--out", join(folder, "never.jsonl"), shards, "--", "--tools", join(folder, "no-such-tools.json"));
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`exited with status 2: orbridge gate: cannot read tools file ${join(folder, "no-such-tools.json")}: no such file or not readable`);
  }, 120_000);

  test("an orbridge command that relies on PATH is refused before anything runs", () => {
    const run = runRecipe("--orbridge", "orbridge", "--conversation", conversation, shards);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`gate_shards: the orbridge command must start with an absolute path, not rely on PATH (got 'orbridge'); e.g. "$(command -v node) /srv/orbridge/dist/src/cli/main.js"\n`);
  });
});
