// `npm run bench`: writes the synthetic journals, then measures, in one run and on
// the same files, the floor (read, JSON.parse, JSON.stringify, write), each
// orbridge command and a plain Python gate, each as a whole process with its
// output to /dev/null. It prints ratios to the floor, peak memory, and the cost
// per line at each size; bare times mean little on another machine, ratios do.
//
//   npm run bench -- [--sizes 10k,100k,1m] [--reps N] [--profile] [--stages]
//                    [--keep] [--json FILE] [--no-build] [--baseline DIR]
//                    [--shapes short:500k,blocked:300k,providers:300k | --shapes none]
//
// --shapes adds journals of other shapes (generate.ts): `short`, lines of about
// 200 bytes; `blocked`, function_call items nearly all of which the gate
// blocks; and `providers`, request bodies, responses and tool results of the
// Anthropic Messages, Gemini generateContent and Bedrock Converse envelopes.
// Each is measured with every command, the floor beside it, after the mixed
// journals of --sizes; all three run by default. The Python reference gate
// reads only Chat and Open Responses records, so it is left out on the
// providers journal, and so is the count of verdicts it is compared by.
// --baseline DIR adds the gate of another build (a checkout of an earlier
// commit, built: DIR/dist/src/cli/main.js), measured in the same rounds, so that
// both gates' ratios to the floor come from one run.
// --profile adds the hottest functions of each Node command (node --cpu-prof) and
// --stages the cost of each stage of normalize and gate (stages.ts), both on the
// second size (100k by default).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeJournal, toolsFileContent, DEFAULT_SEED, JOURNAL_SHAPES, type JournalMix, type JournalShape } from "./generate.js";
import { measure, memorySource, type Measurement } from "./measure.js";
import { summarizeProfile } from "./profile.js";
import { BENCH_TOOLS } from "./tools.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const main = join(root, "dist/src/cli/main.js");
const node = process.execPath;

// ---- options ------------------------------------------------------------------------

interface Options {
  sizes: number[];
  reps?: number;
  profile: boolean;
  stages: boolean;
  keep: boolean;
  json?: string;
  build: boolean;
  baseline?: string;
  shapes: Array<{ shape: JournalShape; lines: number }>;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    sizes: [10_000, 100_000, 1_000_000],
    profile: false,
    stages: false,
    keep: false,
    build: true,
    shapes: [
      { shape: "short", lines: 500_000 },
      { shape: "blocked", lines: 300_000 },
      { shape: "providers", lines: 300_000 },
    ],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === "--sizes") options.sizes = value().split(",").map(parseSize);
    else if (arg === "--reps") options.reps = Number(value());
    else if (arg === "--profile") options.profile = true;
    else if (arg === "--stages") options.stages = true;
    else if (arg === "--keep") options.keep = true;
    else if (arg === "--json") options.json = value();
    else if (arg === "--no-build") options.build = false;
    else if (arg === "--baseline") options.baseline = resolve(value());
    else if (arg === "--shapes") options.shapes = parseShapes(value());
    else throw new Error(`unknown option ${arg}`);
  }
  return options;
}

/** `short:500k,blocked:300k,providers:300k`, or `none`. */
function parseShapes(text: string): Options["shapes"] {
  if (text === "none") return [];
  return text.split(",").map((entry) => {
    const [shape, size] = entry.split(":");
    if (!(JOURNAL_SHAPES as readonly string[]).includes(shape) || shape === "mixed") throw new Error(`not a journal shape: ${shape} (try short, blocked or providers)`);
    return { shape: shape as JournalShape, lines: parseSize(size ?? "100k") };
  });
}

function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim());
  if (!match) throw new Error(`not a size: ${text} (try 10k, 100k, 1m)`);
  return Math.round(Number(match[1]) * (match[2].toLowerCase() === "k" ? 1e3 : match[2].toLowerCase() === "m" ? 1e6 : 1));
}

/** Fewer repetitions where a run is long; the fastest run is kept. */
function repetitions(size: number, options: Options): number {
  if (options.reps !== undefined) return options.reps;
  return size <= 10_000 ? 5 : size <= 100_000 ? 3 : 2;
}

// ---- what is measured ---------------------------------------------------------------

interface Subject {
  key: string;
  label: string;
  /** Why it cannot run here; undefined when it can. */
  missing?: string;
  argv(journal: string): string[];
  /** Runs on Node, so it can be profiled. */
  node: boolean;
}

function helpOf(args: string[], entry = main): { code: number | null; text: string } {
  const result = spawnSync(node, [entry, ...args], { encoding: "utf8" });
  return { code: result.status, text: `${result.stdout}${result.stderr}` };
}

/**
 * The gate's arguments for the bench journal. A build that makes `format` an
 * annotation by default is asked to assert formats, as earlier builds always
 * did and as the Python reference does, so that every gate does the same work.
 */
function gateArgs(entry: string, tools: string): string[] {
  const assertFormats = helpOf(["gate", "--help"], entry).text.includes("--assert-formats") ? ["--assert-formats"] : [];
  return ["gate", "--tools", tools, ...assertFormats, "--format", "json"];
}

/** The gate of the build in `dir`, one job when it has --jobs. */
function baselineSubject(dir: string, tools: string): Subject {
  const entry = join(dir, "dist/src/cli/main.js");
  const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: dir, encoding: "utf8" }).stdout?.trim() || dir;
  const label = `baseline ${commit}: gate --tools`;
  try {
    statSync(entry);
  } catch {
    return { key: "baseline-gate", label, node: true, missing: `not built (${entry} is missing)`, argv: () => [] };
  }
  const help = helpOf(["gate", "--help"], entry).text;
  const jobs = help.includes("--jobs") ? ["--jobs", "1"] : [];
  const args = gateArgs(entry, tools);
  return { key: "baseline-gate", label: `${label}${jobs.length > 0 ? " --jobs 1" : ""}`, node: true, argv: (journal) => [node, entry, ...args, ...jobs, journal] };
}

function subjects(files: { tools: string; schema: string }, baseline?: string): Subject[] {
  const built = (() => {
    try {
      statSync(main);
      return true;
    } catch {
      return false;
    }
  })();
  const commands = built ? helpOf(["--help"]) : { code: null, text: "" };
  const has = (command: string) => built && new RegExp(`^  ${command} `, "m").test(commands.text);
  const option = (command: string, name: string) => has(command) && helpOf([command, "--help"]).text.includes(name);
  const why = (command: string, name?: string) =>
    !built ? "not built (dist/src/cli/main.js is missing)" : !has(command) ? `no "${command}" command` : name && !option(command, name) ? `"${command}" has no ${name}` : undefined;
  const python = spawnSync("python3", ["--version"], { encoding: "utf8" }).status === 0;
  const list: Subject[] = [
    { key: "floor", label: "floor (parse + stringify)", node: true, argv: (journal) => [node, join(here, "floor.mjs"), journal] },
    { key: "gate", label: "gate --tools", node: true, missing: why("gate", "--tools"), argv: (journal) => [node, main, "gate", "--tools", files.tools, "--format", "json", journal] },
    { key: "normalize", label: "normalize", node: true, missing: why("normalize"), argv: (journal) => [node, main, "normalize", journal] },
    { key: "convert-responses", label: "convert --to responses", node: true, missing: why("convert", "--to"), argv: (journal) => [node, main, "convert", "--to", "responses", journal] },
    { key: "convert-chat", label: "convert --to chat", node: true, missing: why("convert", "--to"), argv: (journal) => [node, main, "convert", "--to", "chat", journal] },
    { key: "python", label: "Python reference gate", node: false, missing: python ? undefined : "python3 is not installed", argv: (journal) => ["python3", join(here, "reference_gate.py"), "--tools", files.tools, journal] },
  ];
  // Until the journal gate exists, the item gate gives a first look at the
  // gate's cost per line: every call checked against one schema.
  if (list[1].missing && option("gate", "--schema")) {
    list.splice(2, 0, { key: "gate-schema", label: "gate --schema (item mode, stand-in)", node: true, argv: (journal) => [node, main, "gate", "--schema", files.schema, "--format", "json", journal] });
  }
  if (!list[1].missing) {
    const jobs = why("gate", "--jobs");
    const gate = gateArgs(main, files.tools);
    list[1] = { ...list[1], argv: (journal) => [node, main, ...gate, journal] };
    // The single-job target is about one thread: once the gate can use more, its main row asks for one.
    if (!jobs) {
      list[1] = { ...list[1], label: "gate --tools --jobs 1", argv: (journal) => [node, main, ...gate, "--jobs", "1", journal] };
    }
    for (const count of [1, 2]) {
      list.push({ key: `gate-jobs-${count}`, label: `gate --tools --jobs ${count}`, node: true, missing: jobs, argv: (journal) => [node, main, ...gate, "--jobs", String(count), journal] });
    }
  } else {
    for (const count of [1, 2]) list.push({ key: `gate-jobs-${count}`, label: `gate --tools --jobs ${count}`, node: true, missing: list[1].missing, argv: () => [] });
  }
  // Next to this build's gate, so that the table shows the two together.
  if (baseline !== undefined) list.splice(2, 0, baselineSubject(baseline, files.tools));
  return list;
}

// ---- running ------------------------------------------------------------------------

interface Result {
  subject: string;
  lines: number;
  runs: Measurement[];
  wallMs: number;
  peakRssKb?: number;
  cpuSeconds?: number;
  failure?: string;
}

/**
 * Runs every subject `reps` times on `journal`, in a rotating order so that drift
 * in the machine's load spreads over all of them. The floor runs once more at the
 * end of each round: with one round (the 1M journal) a burst of load during its
 * only run would otherwise skew every ratio.
 */
async function measureAll(runnable: Subject[], journal: string, lines: number, reps: number): Promise<Map<string, Result>> {
  const runs = new Map<string, Measurement[]>(runnable.map((subject) => [subject.key, []]));
  const floor = runnable.find((subject) => subject.key === "floor");
  for (let rep = 0; rep < reps; rep++) {
    for (let k = 0; k < runnable.length; k++) {
      const subject = runnable[(k + rep) % runnable.length];
      runs.get(subject.key)!.push(await measure(subject.argv(journal)));
    }
    if (floor) runs.get(floor.key)!.push(await measure(floor.argv(journal)));
  }
  const results = new Map<string, Result>();
  for (const subject of runnable) {
    const all = runs.get(subject.key)!;
    const failed = all.find((run) => run.exitCode !== 0 && run.exitCode !== 1);
    const rss = all.map((run) => run.peakRssKb).filter((kb): kb is number => kb !== undefined);
    const cpu = all.map((run) => run.cpuSeconds).filter((s): s is number => s !== undefined);
    results.set(subject.key, {
      subject: subject.key,
      lines,
      runs: all,
      // Other processes only ever add time: the fastest run is the best estimate.
      wallMs: Math.min(...all.map((run) => run.wallMs)),
      peakRssKb: rss.length ? Math.max(...rss) : undefined,
      cpuSeconds: cpu.length ? Math.min(...cpu) : undefined,
      failure: failed ? `exit ${failed.exitCode}: ${failed.stderrTail.split("\n").pop()}` : undefined,
    });
  }
  return results;
}

function log(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

// ---- report -----------------------------------------------------------------------------

/** 1M, 100k, 10k: a journal's size by the nearest round figure (a journal ends at a whole turn, a few lines past its target). */
const sizeName = (lines: number) => (lines >= 1e6 ? `${Math.round(lines / 1e5) / 10}M` : lines >= 1e3 ? `${Math.round(lines / 1e3)}k` : String(lines));
const fixed = (value: number, digits = 2) => value.toFixed(digits);
const thousands = (value: number) => Math.round(value).toLocaleString("en-US");

function table(header: string[], rows: string[][]): string {
  const align = header.map((_, i) => (i === 0 ? ":--" : "--:"));
  return [header, align, ...rows].map((row) => `| ${row.join(" | ")} |`).join("\n");
}

interface SizeRun {
  shape: JournalShape;
  target: number;
  mix: JournalMix;
  results: Map<string, Result>;
  /** Subjects that cannot read this journal, and why. */
  notApplicable?: Map<string, string>;
}

/** What a subject cannot read, by journal shape: measuring it there would time its error path. */
function notApplicable(shape: JournalShape): Map<string, string> {
  return shape === "providers" ? new Map([["python", "it reads only Chat and Open Responses records, not the Anthropic, Gemini and Bedrock ones"]]) : new Map();
}

/** The usage at the top of this file, for `npm run bench -- --help`. */
function usage(): string {
  const source = readFileSync(fileURLToPath(import.meta.url), "utf8");
  return source.slice(0, source.indexOf("\nimport ")).split("\n").map((line) => line.replace(/^\/\/ ?/, "")).join("\n") + "\n";
}

async function run(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(usage());
    return;
  }
  let options: Options;
  try {
    options = parseOptions(argv);
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message} (npm run bench -- --help lists the options)\n`);
    process.exitCode = 2;
    return;
  }
  const startLoad = loadavg()[0];
  // Read before the build, which is what gets measured: sources edited during the run do not count.
  const version = sourceVersion();

  if (options.build) {
    log("building (tsc -p tsconfig.json)");
    const build = spawnSync(node, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: root, encoding: "utf8" });
    const errors = (build.stdout.match(/error TS/g) ?? []).length;
    if (build.status !== 0) log(`tsc reported ${errors} type errors; measuring what it emitted`);
  }

  const dir = mkdtempSync(join(tmpdir(), "orbridge-bench-"));
  const files = { tools: join(dir, "tools.json"), schema: join(dir, "schema.json"), empty: join(dir, "empty.jsonl") };
  writeFileSync(files.tools, toolsFileContent());
  writeFileSync(files.schema, JSON.stringify(BENCH_TOOLS[0].parameters));
  writeFileSync(files.empty, "");
  const all = subjects(files, options.baseline);
  const runnable = all.filter((subject) => !subject.missing && !subject.key.startsWith("gate-jobs"));
  const jobs = all.filter((subject) => subject.key.startsWith("gate-jobs"));
  for (const subject of all) if (subject.missing) log(`${subject.label}: not available (${subject.missing})`);

  try {
    log("measuring start-up on an empty journal");
    const startup = await measureAll(runnable, files.empty, 0, 3);

    const sizes: SizeRun[] = [];
    let agreement = "";
    for (const target of options.sizes) {
      const journal = join(dir, `journal-${sizeName(target)}.jsonl`);
      log(`writing the ${sizeName(target)} journal`);
      const mix = await writeJournal(journal, target, DEFAULT_SEED);
      const reps = repetitions(target, options);
      log(`measuring ${runnable.length} commands on ${thousands(mix.lines)} lines (${fixed(mix.bytes / 1e6, 0)} MB), ${reps} run${reps > 1 ? "s" : ""} each`);
      const results = await measureAll(runnable, journal, mix.lines, reps);
      const runnableJobs = jobs.filter((subject) => !subject.missing);
      if (runnableJobs.length > 0 && target === Math.max(...options.sizes)) {
        log("measuring --jobs 1 and 2");
        // A ratio of two runs moves with the load on the machine: one more round of each than the other commands get.
        for (const [key, result] of await measureAll(runnableJobs, journal, mix.lines, reps + 1)) results.set(key, result);
      }
      sizes.push({ shape: "mixed", target, mix, results });
      if (sizes.length === 1) agreement = await compareVerdicts(all, journal, dir);
      if (target !== Math.max(...options.sizes) && !options.keep && !options.profile && !options.stages) rmSync(journal);
    }

    const shapes: SizeRun[] = [];
    const shapeAgreement: string[] = [];
    for (const { shape, lines } of options.shapes) {
      const journal = join(dir, `journal-${shape}-${sizeName(lines)}.jsonl`);
      log(`writing the ${shape} journal of ${sizeName(lines)} lines`);
      const mix = await writeJournal(journal, lines, DEFAULT_SEED, shape);
      const reps = repetitions(lines, options);
      const skipped = notApplicable(shape);
      const measured = runnable.filter((subject) => !skipped.has(subject.key));
      log(`measuring ${measured.length} commands on the ${shape} journal: ${thousands(mix.lines)} lines (${fixed(mix.bytes / 1e6, 0)} MB), ${reps} run${reps > 1 ? "s" : ""} each`);
      shapes.push({ shape, target: lines, mix, results: await measureAll(measured, journal, mix.lines, reps), notApplicable: skipped });
      const python = skipped.get("python");
      const agreed = python === undefined ? await compareVerdicts(all, journal, dir) : `Not compared: the Python reference gate is not run on this journal, since ${python}.`;
      if (agreed) shapeAgreement.push(`#### The ${shape} journal\n\n${agreed}`);
      if (!options.keep) rmSync(journal);
    }

    const detailJournal = join(dir, `journal-${sizeName(options.sizes.length > 1 ? options.sizes[1] : options.sizes[0])}.jsonl`);
    let profiles = "";
    if (options.profile) profiles = await profileAll(runnable.filter((subject) => subject.node), detailJournal, dir);
    if (options.stages) {
      log("measuring the stages of normalize and gate");
      const stages = spawnSync(node, [join(root, "node_modules/tsx/dist/cli.mjs"), join(here, "stages.ts"), detailJournal, files.tools], { encoding: "utf8" });
      profiles = `#### Stages (in one process, CPU time)\n\n${stages.status === 0 ? stages.stdout : `stages.ts failed: ${stages.stderr.trim().split("\n").pop()}`}\n${profiles}`;
    }

    const report = render({ all, startup, sizes, shapes, agreement: [agreement, ...shapeAgreement].filter(Boolean).join("\n\n"), profiles, startLoad, endLoad: loadavg()[0], version });
    process.stdout.write(report);
    if (options.json) writeFileSync(options.json, JSON.stringify({ startup: [...startup.values()], sizes: [...sizes, ...shapes].map((s) => ({ ...s, results: [...s.results.values()] })) }, null, 2));
  } finally {
    if (options.keep) log(`journals kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

/** The gate and the Python reference on the smallest journal, verdicts counted by reason: the two should agree. */
async function compareVerdicts(all: Subject[], journal: string, dir: string): Promise<string> {
  const gate = all.find((subject) => subject.key === "gate")!;
  const python = all.find((subject) => subject.key === "python")!;
  if (python.missing) return "";
  const count = (path: string) => {
    const reasons = new Map<string, number>();
    for (const line of readFileSync(path, "utf8").split("\n")) {
      if (line === "") continue;
      const verdict = JSON.parse(line) as { reason: string; findings?: unknown[] };
      reasons.set(verdict.reason, (reasons.get(verdict.reason) ?? 0) + 1);
    }
    return reasons;
  };
  await measure(python.argv(journal), { stdoutPath: join(dir, "python.out") });
  const reference = count(join(dir, "python.out"));
  let ours = new Map<string, number>();
  if (!gate.missing) {
    await measure(gate.argv(journal), { stdoutPath: join(dir, "gate.out") });
    ours = count(join(dir, "gate.out"));
  }
  const reasons = [...new Set([...reference.keys(), ...ours.keys()])].sort();
  const rows = reasons.map((reason) => [reason, gate.missing ? "n/a" : String(ours.get(reason) ?? 0), String(reference.get(reason) ?? 0)]);
  return table(["reason", "orbridge gate", "Python reference"], rows);
}

async function profileAll(subjects: Subject[], journal: string, dir: string): Promise<string> {
  const parts: string[] = [];
  for (const subject of subjects) {
    const profileDir = join(dir, `profile-${subject.key}`);
    const argv = subject.argv(journal);
    await measure([argv[0], "--cpu-prof", "--cpu-prof-dir", profileDir, ...argv.slice(1)]);
    const file = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
    if (!file) continue;
    const summary = summarizeProfile(join(profileDir, file), root);
    parts.push(
      `#### ${subject.label} (${fixed(summary.totalMs / 1000, 1)} s sampled)\n\n` +
        table(["function (self time)", "ms", "share"], summary.functions.map((spot) => [`\`${spot.name}\``, fixed(spot.selfMs, 0), `${fixed(spot.share * 100, 1)}%`])) +
        "\n\n" +
        table(["file (self time)", "ms", "share"], summary.files.slice(0, 8).map((spot) => [`\`${spot.name}\``, fixed(spot.selfMs, 0), `${fixed(spot.share * 100, 1)}%`])),
    );
  }
  return parts.join("\n\n");
}

interface Report {
  all: Subject[];
  startup: Map<string, Result>;
  sizes: SizeRun[];
  /** The journals of other shapes than the mix. */
  shapes: SizeRun[];
  agreement: string;
  profiles: string;
  startLoad: number;
  endLoad: number;
  /** The commit the measured build came from, and whether src/ or adapters/ differed from it. */
  version: string;
}

function sourceVersion(): string {
  const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).stdout?.trim();
  const changed = spawnSync("git", ["status", "--porcelain", "--", "src", "adapters"], { cwd: root, encoding: "utf8" }).stdout?.trim();
  return commit ? `commit ${commit}${changed ? " with uncommitted changes in src/ or adapters/" : ""}` : "not a git checkout";
}

function render({ all, startup, sizes, shapes, agreement, profiles, startLoad, endLoad, version }: Report): string {
  const out: string[] = [];
  const cpu = cpus();
  const python = spawnSync("python3", ["--version"], { encoding: "utf8" }).stdout.trim();
  out.push(`## orbridge benchmark\n`);
  out.push(`${cpu.length} × ${cpu[0]?.model.trim() ?? "unknown CPU"}, Node ${process.version}, ${python || "no Python"}; ${version}; peak RSS from ${memorySource === "time" ? "/usr/bin/time -v" : "/proc VmHWM sampling"}; load average ${fixed(startLoad)} at start, ${fixed(endLoad)} at end; seed ${DEFAULT_SEED}.\n`);

  out.push(`### Journals\n`);
  out.push(
    table(
      ["journal", "lines", "MB", "bytes/line", "calls + extension items", "blocked", "mix of turns"],
      [...sizes, ...shapes].map(({ shape, target, mix }) => {
        const blocked = mix.fates.schema + mix.fates.json + mix.fates.status + mix.fates.unknown_tool + mix.fates.extension;
        const callLike = mix.calls + mix.fates.extension;
        const turns = Object.values(mix.turns).reduce((a, b) => a + b, 0);
        const shares = Object.entries(mix.turns)
          .filter(([, n]) => n > 0)
          .map(([turn, n]) => `${turn} ${Math.round((100 * n) / turns)}%`)
          .join(", ");
        return [`${shape} ${sizeName(target)}`, thousands(mix.lines), fixed(mix.bytes / 1e6, 0), fixed(mix.bytes / mix.lines, 0), thousands(callLike), `${fixed((100 * blocked) / callLike, 1)}% (schema ${mix.fates.schema}, JSON ${mix.fates.json}, status ${mix.fates.status}, unknown tool ${mix.fates.unknown_tool}, extension ${mix.fates.extension})`, shares];
      }),
    ),
  );
  out.push("");

  for (const { shape, mix, results, notApplicable } of [...sizes, ...shapes]) {
    const floor = results.get("floor");
    const title = shape === "mixed" ? `${sizeName(mix.lines)} lines` : `The ${shape} journal: ${sizeName(mix.lines)} lines of ${fixed(mix.bytes / mix.lines, 0)} bytes`;
    out.push(`### ${title} (${thousands(mix.lines)}, ${fixed(mix.bytes / 1e6, 0)} MB)\n`);
    out.push(
      table(
        ["command", "lines/s", "× floor", "× floor (CPU)", "peak RSS MB", "µs/line", "CPU s", "wall s"],
        all.map((subject) => {
          const result = results.get(subject.key);
          const blank = ["", "", "", "", "", ""];
          if (subject.missing) return [subject.label, "not available", ...blank];
          const why = notApplicable?.get(subject.key);
          if (why !== undefined) return [subject.label, `not applicable: ${why}`, ...blank];
          if (!result) return [subject.label, "not run at this size", ...blank];
          if (result.failure) return [subject.label, `failed (${result.failure})`, ...blank];
          const rate = (mix.lines / result.wallMs) * 1000;
          const floorOk = floor !== undefined && !floor.failure;
          return [
            subject.label,
            thousands(rate),
            floorOk ? fixed(floor.wallMs / result.wallMs) : "",
            floorOk && floor.cpuSeconds && result.cpuSeconds ? fixed(floor.cpuSeconds / result.cpuSeconds) : "",
            result.peakRssKb !== undefined ? fixed(result.peakRssKb / 1024, 0) : "?",
            fixed((result.wallMs * 1000) / mix.lines, 1),
            result.cpuSeconds !== undefined ? fixed(result.cpuSeconds, 1) : "?",
            fixed(result.wallMs / 1000, 2),
          ];
        }),
      ),
    );
    out.push("");
  }

  // The gate's findings differ from shape to shape, so each journal's last lines are shown.
  for (const { shape, mix, results } of [sizes[sizes.length - 1], ...shapes]) {
    out.push(`What each command said on stderr ${shape === "mixed" ? "at" : `on the ${shape} journal of`} ${sizeName(mix.lines)} lines (its last line):\n`);
    for (const subject of all) {
      const result = results.get(subject.key);
      if (result) out.push(`- ${subject.label}: \`${result.runs[0].stderrTail.split("\n").pop()}\``);
    }
    out.push("");
  }

  out.push(`### Cost per line by size\n`);
  out.push(`µs per line with the start-up (measured on an empty journal) taken off, in wall time and in CPU time (user + system, which other processes on the machine disturb less); the ratios are the cost at the largest size over the cost at 100k.\n`);
  const byLines = sizes.map((s) => s.mix.lines);
  const cost = (key: string, size: SizeRun, clock: "wall" | "cpu" = "wall") => {
    const result = size.results.get(key);
    if (!result || result.failure) return undefined;
    if (clock === "wall") return ((result.wallMs - (startup.get(key)?.wallMs ?? 0)) * 1000) / size.mix.lines;
    if (result.cpuSeconds === undefined) return undefined;
    return ((result.cpuSeconds - (startup.get(key)?.cpuSeconds ?? 0)) * 1e6) / size.mix.lines;
  };
  const hundredK = sizes.find((s) => s.target === 100_000);
  const largest = sizes[sizes.length - 1];
  const scaled = hundredK !== undefined && largest !== hundredK;
  const ratio = (key: string, clock: "wall" | "cpu") => {
    const base = scaled ? cost(key, hundredK!, clock) : undefined;
    const top = scaled ? cost(key, largest, clock) : undefined;
    return base && top ? fixed(top / base) : "n/a";
  };
  const ratioName = scaled ? `${sizeName(largest.mix.lines)} / 100k` : "largest / 100k";
  out.push(
    table(
      ["command", "start-up ms", ...byLines.map((lines) => `${sizeName(lines)} µs/line (wall / CPU)`), `${ratioName} wall`, `${ratioName} CPU`],
      all
        .filter((subject) => !subject.missing && !subject.key.startsWith("gate-jobs"))
        .map((subject) => {
          const cells = sizes.map((size) => {
            const wall = cost(subject.key, size);
            const cpu = cost(subject.key, size, "cpu");
            return wall === undefined ? "failed" : `${fixed(wall, 1)} / ${cpu === undefined ? "?" : fixed(cpu, 1)}`;
          });
          return [subject.label, startup.get(subject.key) ? fixed(startup.get(subject.key)!.wallMs, 0) : "?", ...cells, ratio(subject.key, "wall"), ratio(subject.key, "cpu")];
        }),
    ),
  );
  out.push("");

  out.push(`### Targets (at ${sizeName(largest.mix.lines)} lines)\n`);
  out.push(table(["target", "measured", "met"], [...targets(all, sizes, startup, cost), ...shapeTargets(all, shapes)]));
  out.push("");

  if (agreement) {
    out.push(`### Verdicts on the ${sizeName(sizes[0].mix.lines)} journal${shapes.length > 0 ? " and the other shapes" : ""}, by reason\n`);
    out.push(`The same items should get the same reasons; the journal gate also turns journal-wide findings into blocks.\n`);
    out.push(agreement);
    out.push("");
  }
  if (profiles) {
    out.push(`### Details on the ${sizeName(sizes.length > 1 ? sizes[1].mix.lines : sizes[0].mix.lines)} journal\n`);
    out.push(profiles);
    out.push("");
  }
  return out.join("\n") + "\n";
}

/** On the short and the mostly blocked journals: gate ≥ 0.8× the floor, normalize and convert ≥ 0.6×, and on the blocked one the gate ≥ 2× the Python reference; on other shapes, the ratios without a target. */
function shapeTargets(all: Subject[], shapes: SizeRun[]): string[][] {
  const rows: string[][] = [];
  const verdict = (ok: boolean) => (ok ? "yes" : "**no**");
  for (const { shape, mix, results } of shapes) {
    const floor = results.get("floor");
    const found = (key: string) => {
      const subject = all.find((s) => s.key === key);
      const result = results.get(key);
      return subject && !subject.missing && result && !result.failure ? result : undefined;
    };
    const name = `${shape} ${sizeName(mix.lines)}`;
    // The targets were set on the short and the mostly blocked journals; elsewhere the ratios are shown as they are.
    const targeted = shape === "short" || shape === "blocked";
    for (const [key, command, target] of [
      ["gate", "gate", 0.8],
      ["baseline-gate", "baseline's gate", 0],
      ["normalize", "normalize", 0.6],
      ["convert-responses", "convert --to responses", 0.6],
      ["convert-chat", "convert --to chat", 0.6],
    ] as const) {
      const want = targeted ? target : 0;
      const label = want === 0 ? `${command} against the floor (no target)` : `${command} ≥ ${want}× floor`;
      const result = found(key);
      if (!all.some((s) => s.key === key)) continue;
      if (!result || !floor) {
        rows.push([`${name}: ${label}`, "not available", "—"]);
        continue;
      }
      const cpu = floor.cpuSeconds && result.cpuSeconds ? ` (CPU ${fixed(floor.cpuSeconds / result.cpuSeconds)}×)` : "";
      const rss = result.peakRssKb !== undefined ? `, ${fixed(result.peakRssKb / 1024, 0)} MB` : "";
      rows.push([`${name}: ${label}`, `${fixed(floor.wallMs / result.wallMs)}×${cpu}${rss}`, want === 0 ? "—" : verdict(floor.wallMs / result.wallMs >= want)]);
    }
    const gate = found("gate");
    const python = found("python");
    if (shape === "blocked" && gate && python) {
      const cpu = gate.cpuSeconds && python.cpuSeconds ? ` (CPU ${fixed(python.cpuSeconds / gate.cpuSeconds)}×)` : "";
      rows.push([`${name}: gate (one job) ≥ 2× the Python reference`, `${fixed(python.wallMs / gate.wallMs)}×${cpu}`, verdict(python.wallMs / gate.wallMs >= 2)]);
    }
  }
  return rows;
}

function targets(all: Subject[], sizes: SizeRun[], startup: Map<string, Result>, cost: (key: string, size: SizeRun, clock?: "wall" | "cpu") => number | undefined): string[][] {
  const largest = sizes[sizes.length - 1];
  const hundredK = sizes.find((s) => s.target === 100_000);
  const result = (key: string) => {
    const subject = all.find((s) => s.key === key);
    if (!subject || subject.missing) return { missing: subject?.missing ?? "not measured" };
    const found = largest.results.get(key);
    if (!found) return { missing: "not measured" };
    if (found.failure) return { missing: `failed: ${found.failure}` };
    return { found };
  };
  const floor = largest.results.get("floor")!;
  const rows: string[][] = [];
  const verdict = (ok: boolean) => (ok ? "yes" : "**no**");
  for (const [key, label, want] of [
    ["gate", "gate ≥ 0.8× floor, 1 job", 0.8],
    ["normalize", "normalize ≥ 0.5× floor", 0.5],
    ["convert-responses", "convert --to responses ≥ 0.4× floor", 0.4],
    ["convert-chat", "convert --to chat ≥ 0.4× floor", 0.4],
  ] as const) {
    const { found, missing } = result(key);
    const cpu = found && floor.cpuSeconds && found.cpuSeconds ? ` (CPU ${fixed(floor.cpuSeconds / found.cpuSeconds)}×)` : "";
    rows.push(found ? [label, `${fixed(floor.wallMs / found.wallMs)}×${cpu}`, verdict(floor.wallMs / found.wallMs >= want)] : [label, `not available (${missing})`, "—"]);
  }
  {
    // As a whole process, as a user runs it: with both jobs when the gate has them.
    const two = result("gate-jobs-2");
    const gate = two.found ? two : result("gate");
    const label = `gate${two.found ? " --jobs 2" : ""} ≥ 2× the Python reference`;
    const python = result("python");
    const cpu = gate.found?.cpuSeconds && python.found?.cpuSeconds ? ` (CPU ${fixed(python.found.cpuSeconds / gate.found.cpuSeconds)}×)` : "";
    rows.push(gate.found && python.found ? [label, `${fixed(python.found.wallMs / gate.found.wallMs)}×${cpu}`, verdict(python.found.wallMs / gate.found.wallMs >= 2)] : [label, `not available (${gate.missing ?? python.missing})`, "—"]);
  }
  {
    const two = result("gate-jobs-2");
    if (two.found) rows.push(["gate --jobs 2 against the floor (no target)", `${fixed(floor.wallMs / two.found.wallMs)}×`, "—"]);
  }
  if (all.some((s) => s.key === "baseline-gate")) {
    const gate = result("gate");
    const baseline = result("baseline-gate");
    const label = "gate no slower than the baseline's gate (ratios to the floor, this run)";
    if (gate.found && baseline.found) {
      const ratio = (found: Result, clock: "wall" | "cpu") => (clock === "wall" ? floor.wallMs / found.wallMs : floor.cpuSeconds && found.cpuSeconds ? floor.cpuSeconds / found.cpuSeconds : NaN);
      const measured = `${fixed(ratio(gate.found, "wall"))}× against ${fixed(ratio(baseline.found, "wall"))}× (CPU ${fixed(ratio(gate.found, "cpu"))}× against ${fixed(ratio(baseline.found, "cpu"))}×)`;
      rows.push([label, measured, verdict(gate.found.wallMs <= baseline.found.wallMs)]);
    } else rows.push([label, `not available (${gate.missing ?? baseline.missing})`, "—"]);
  }
  for (const subject of all.filter((s) => s.key !== "python" && s.key !== "floor")) {
    const { found, missing } = result(subject.key);
    const label = `${subject.label}: peak RSS < 200 MB`;
    if (!found) rows.push([label, `not available (${missing})`, "—"]);
    else if (found.peakRssKb === undefined) rows.push([label, "not read", "—"]);
    else if (largest.target < 1_000_000) rows.push([label, `${fixed(found.peakRssKb / 1024, 0)} MB at ${sizeName(largest.mix.lines)}`, "— (needs 1M)"]);
    else rows.push([label, `${fixed(found.peakRssKb / 1024, 0)} MB`, verdict(found.peakRssKb < 200 * 1024)]);
  }
  for (const subject of all.filter((s) => s.key !== "python" && s.key !== "floor" && !s.key.startsWith("gate-jobs"))) {
    const { found, missing } = result(subject.key);
    const label = `${subject.label}: cost per line at ${sizeName(largest.mix.lines)} within 10% of 100k`;
    if (!found || !hundredK || hundredK === largest) {
      rows.push([label, found ? "needs 100k and a larger size" : `not available (${missing})`, "—"]);
      continue;
    }
    const ratio = cost(subject.key, largest)! / cost(subject.key, hundredK)!;
    const cpuBase = cost(subject.key, hundredK, "cpu");
    const cpuTop = cost(subject.key, largest, "cpu");
    const cpu = cpuBase && cpuTop ? ` (CPU ${fixed(cpuTop / cpuBase)}×)` : "";
    rows.push([label, `${fixed(ratio)}×${cpu}`, verdict(ratio <= 1.1)]);
  }
  {
    const one = result("gate-jobs-1");
    const two = result("gate-jobs-2");
    rows.push(one.found && two.found ? ["gate --jobs 2 ≥ 1.5× --jobs 1", `${fixed(one.found.wallMs / two.found.wallMs)}×`, verdict(one.found.wallMs / two.found.wallMs >= 1.5)] : ["gate --jobs 2 ≥ 1.5× --jobs 1", `not available (${one.missing ?? two.missing})`, "—"]);
  }
  void startup;
  return rows;
}

run().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 2;
});
