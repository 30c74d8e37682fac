// Where a command's time goes, stage by stage, measured in one process on one
// journal: each stage runs the stages before it plus its own work, so the
// difference between two rows is what that stage costs per line. It imports the
// compiled modules (dist/), the code the command line runs. CPU time of this
// process only, the best of a few passes, so other load on the machine matters
// less than in the whole-process runs.
//
//   npx tsx test/bench/stages.ts JOURNAL TOOLS [--passes N]
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const dist = (path: string) => import(pathToFileURL(join(root, "dist", path)).href);

interface Stage {
  name: string;
  /** Runs once over the journal; returns a count that keeps the work from being optimised away. */
  run(journal: string): Promise<number>;
}

async function main(): Promise<void> {
  const [journal, toolsPath] = process.argv.slice(2);
  if (!journal || !toolsPath) throw new Error("usage: stages.ts JOURNAL TOOLS [--passes N]");
  const passesAt = process.argv.indexOf("--passes");
  const passes = passesAt === -1 ? 4 : Number(process.argv[passesAt + 1]);
  const { readFileChunks, LineSplitter } = await dist("src/journal/read.js");
  const { JournalNormalizer } = await dist("src/journal/normalize.js");
  const { JournalGate } = await dist("src/gate/gate-journal.js");
  const { ToolRegistry } = await dist("src/gate/tool-registry.js");
  const { SchemaCache } = await dist("src/gate/schema.js");
  const { ToolsInForce } = await dist("src/gate/tools-in-force.js");
  const { RecordEncoder } = await dist("src/gate/transfer-records.js");
  const tools = JSON.parse(await readFile(toolsPath, "utf8"));
  const cache = new SchemaCache();
  // Lines come as `gate` reads them: the file a megabyte at a time, split into
  // lines a chunk of 64 KiB at a time, with no promise per line.
  type Line = { source: string; line: number; text: string };
  const eachLine = async (path: string, take: (line: Line) => void): Promise<void> => {
    const splitter = new LineSplitter(path);
    for await (const chunk of readFileChunks(path) as AsyncIterable<Buffer>) for (const line of splitter.push(chunk) as Line[]) take(line);
    for (const line of splitter.finish() as Line[]) take(line);
  };

  const gateWith = async (path: string, emit: (records: unknown[]) => number) => {
    const gate = new JournalGate({ registry: ToolRegistry.fromToolsFile(tools, "tools"), cache });
    const normalizer = new JournalNormalizer({ unknownObjects: "item" });
    let n = 0;
    const step = (records: { kind: string; source?: string; line: number; detail?: string; items?: unknown[]; request?: unknown }[]) =>
      records.flatMap((record) => (record.kind === "error" ? gate.error(record.source, record.line, record.detail) : gate.push(record)));
    await eachLine(path, (line) => (n += emit(step(normalizer.push(line)))));
    n += emit(step(normalizer.finish()));
    n += emit(gate.finish());
    return n;
  };

  const stages: Stage[] = [
    { name: "read lines (journal/read.ts, by chunks)", run: async (path) => { let n = 0; await eachLine(path, (line) => (n += line.text.length)); return n; } },
    { name: "+ JSON.parse", run: async (path) => { let n = 0; await eachLine(path, (line) => (n += JSON.parse(line.text) ? 1 : 0)); return n; } },
    { name: "+ JSON.stringify (the floor's work)", run: async (path) => { let n = 0; await eachLine(path, (line) => (n += JSON.stringify(JSON.parse(line.text)).length)); return n; } },
    {
      name: "normalize: JournalNormalizer.push",
      run: async (path) => {
        const normalizer = new JournalNormalizer();
        let n = 0;
        await eachLine(path, (line) => (n += normalizer.push(line).length));
        return n + normalizer.finish().length;
      },
    },
    {
      name: "normalize: + JSON.stringify of each item",
      run: async (path) => {
        const normalizer = new JournalNormalizer();
        let n = 0;
        const emit = (records: { kind: string; items?: { item: unknown }[] }[]) => {
          for (const record of records) if (record.kind === "items") for (const { item } of record.items!) n += JSON.stringify(item).length;
        };
        await eachLine(path, (line) => emit(normalizer.push(line)));
        emit(normalizer.finish());
        return n;
      },
    },
    // With `--jobs 2` the worker thread does this much of the gate, in one pass in
    // journal order: the whole gate's cost over this row bounds the speed-up two
    // threads can give.
    {
      name: "gate, the worker's share with --jobs 2: normalize + ToolsInForce.prepare + RecordEncoder",
      run: async (path) => {
        const normalizer = new JournalNormalizer({ unknownObjects: "item" });
        const inForce = new ToolsInForce({ registry: ToolRegistry.fromToolsFile(tools, "tools") });
        const encoder = new RecordEncoder([path], false);
        const encode = (records: { kind: string; source?: string; line: number; detail?: string }[]) => {
          for (const record of records) {
            if (record.kind === "error") encoder.addError(record.source, record.line, record.detail);
            else encoder.add(inForce.prepare(record));
          }
        };
        // The worker packs what each chunk of 64 KiB completed (about 80 lines of
        // these journals), then posts it.
        let n = 0;
        let read = 0;
        await eachLine(path, (line) => {
          encode(normalizer.push(line));
          if (++read % 80 === 0) n += encoder.take().values.length;
        });
        encode(normalizer.finish());
        return n + encoder.take().values.length;
      },
    },
    { name: "gate: normalize + JournalGate.push (verdicts, checks)", run: (path) => gateWith(path, (records) => records.length) },
    { name: "gate: + JSON.stringify of each verdict", run: (path) => gateWith(path, (records) => records.reduce<number>((n, record) => n + JSON.stringify(record).length, 0)) },
  ];

  let lineCount = 0;
  await eachLine(journal, () => (lineCount += 1));
  // Passes go round all the stages in turn, so that a burst of load elsewhere on
  // the machine spoils one pass of every stage rather than every pass of one.
  const best = stages.map(() => Infinity);
  for (let pass = 0; pass < passes; pass++) {
    for (const [i, stage] of stages.entries()) {
      const before = process.cpuUsage();
      await stage.run(journal);
      const used = process.cpuUsage(before);
      best[i] = Math.min(best[i], (used.user + used.system) / lineCount);
    }
    process.stderr.write(`stages: pass ${pass + 1} of ${passes} done\n`);
  }
  const rows: [string, number][] = stages.map((stage, i) => [stage.name, best[i]]);
  const floor = rows[2][1];
  process.stdout.write(`| stage (${lineCount.toLocaleString("en-US")} lines, CPU, best of ${passes}) | µs/line | × floor |\n| :-- | --: | --: |\n`);
  for (const [name, us] of rows) process.stdout.write(`| ${name} | ${us.toFixed(2)} | ${(floor / us).toFixed(2)} |\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`stages: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 2;
});
