// `orbridge restore-ids`: the original call ids back into a journal, from the
// map `normalize --for TARGET --id-map FILE` wrote.
import { readFile } from "node:fs/promises";
import { idMapOf, restoreIdsInText, type IdMapEntry } from "../journal/restore-ids.js";
import { commandArgs, stringOption } from "./args.js";
import type { Command } from "./command.js";
import { checkInputs, inputLines, maxLineBytesOption } from "./inputs.js";
import { LineWriter, UsageError, write, type ExitCode } from "./io.js";
import { openOutputs, writeThenCommit } from "./outputs.js";
import { parseRecord } from "../journal/parse-record.js";
import { progressFor } from "./progress.js";
import { visibleInLine } from "../models/quote-visible.js";

const help = `Usage: orbridge restore-ids --map FILE [--out FILE] [--report FILE] [FILE...|-]

Puts back the call ids that "normalize --for TARGET --id-map FILE" rewrote to
the target's grammar, in a journal of any envelope (results that come back
from the target, for instance): every call_id, tool_call_id, tool_use_id,
toolUseId, and the id of a tool call, that the map names as a rewrite becomes
its original again, in the line's own text: nothing else of the line changes.
Ids inside a call's arguments or a result's content are the tool's data and
are kept. Every other line is written as it came.

Options:
  --map FILE       the id map: JSONL, {"original": ..., "rewritten": ...}
  --out FILE       write the journal to FILE, atomically (all or nothing)
  --report FILE    write each call id the map does not know as JSONL:
                   {line, path, code: "id_not_in_map", detail}
  --max-line-bytes N
                   report a line longer than N bytes without reading it
  -h, --help       show this help

A line that is not JSON (SSE text: its data: payload is read) is written as it
came. Exit status: 0 every line read, 1 a line could not be read,
2 usage error, unreadable input, an unreadable map or an output that cannot
be written.

Examples:
  orbridge normalize --for mistral --id-map ids.jsonl --out for-mistral.jsonl journal.jsonl
  orbridge restore-ids --map ids.jsonl answers.jsonl
`;

async function readIdMap(path: string): Promise<Map<string, string>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read --map ${path}: ${(error as Error).message}`);
  }
  const entries: IdMapEntry[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    // A line that names "original" twice would restore whichever id a reader keeps: it is refused, as a journal's line is.
    const parsed = parseRecord(line, `line ${index + 1}`);
    if (!parsed.ok) throw new UsageError(`--map ${path}: ${parsed.detail}`);
    const fields = parsed.value as Record<string, unknown> | null;
    if (fields === null || typeof fields !== "object" || typeof fields.original !== "string" || typeof fields.rewritten !== "string") {
      throw new UsageError(`--map ${path}: line ${index + 1} needs the strings "original" and "rewritten"`);
    }
    entries.push({ original: fields.original, rewritten: fields.rewritten });
  });
  try {
    return idMapOf(entries);
  } catch (error) {
    throw new UsageError(`--map ${path}: ${(error as Error).message}`);
  }
}

export const restoreIdsCommand: Command = {
  async run(argv, io) {
    const args = await commandArgs(argv, { map: { value: true }, out: { value: true }, report: { value: true }, "max-line-bytes": { value: true } }, help, io.stdout);
    if (!args) return 0;
    const mapPath = stringOption(args, "map");
    if (mapPath === undefined) throw new UsageError("restore-ids needs --map FILE, the id map normalize --id-map wrote");
    const map = await readIdMap(mapPath);
    const readOptions = maxLineBytesOption(stringOption(args, "max-line-bytes"));
    const sources = await checkInputs(args.operands, io.stdin);
    // The map may be the only record of the ids: no output of the run may overwrite it.
    const { output, report } = openOutputs(stringOption(args, "out"), stringOption(args, "report"), sources, io.stdout, { stdin: io.stdin, stderr: io.stderr }, { inputs: [mapPath] });
    const out = new LineWriter(output.stream);
    const progress = progressFor(sources, io.stderr);
    const counts = { lines: 0, errors: 0, restored: 0, unknown: 0 };
    const multiple = sources.length > 1;
    await writeThenCommit([output, report], progress, async () => {
      for await (const line of inputLines(sources, io, readOptions)) {
        counts.lines += 1;
        progress.tick(line.text.length + 1, 1);
        if (line.error !== undefined) {
          counts.errors += 1;
          await write(io.stderr, `orbridge restore-ids: line ${line.line}: ${visibleInLine(line.error)}\n`);
          continue;
        }
        const sse = /^data: ?/.exec(line.text);
        const payload = sse ? line.text.slice(sse[0].length) : line.text;
        let record: unknown;
        try {
          record = JSON.parse(payload);
        } catch {
          await out.line(line.text);
          continue;
        }
        const restored = restoreIdsInText(payload, record, map);
        const written = restored.restored === 0 ? line.text : `${sse ? sse[0] : ""}${restored.text}`;
        counts.restored += restored.restored;
        for (const unknown of restored.unknown) {
          counts.unknown += 1;
          await report?.write({ ...(multiple ? { source: line.source } : {}), line: line.line, path: unknown.path, code: "id_not_in_map", detail: `call id ${JSON.stringify(unknown.id)} is not in the map: kept as it is` });
        }
        await out.line(written);
      }
      await out.flush();
    });
    await write(io.stderr, `read ${counts.lines} lines: ${counts.restored} ids restored, ${counts.unknown} call ids not in the map, ${counts.errors} errors\n`);
    return (counts.errors > 0 ? 1 : 0) as ExitCode;
  },
};
