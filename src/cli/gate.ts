// `orbridge gate`: one verdict per item, in input order; exit 1 when any item is
// blocked for replay.
import { parseArgs, stringOption } from "./args.js";
import type { Command } from "./command.js";
import { checkInputs, inputLines, readJsonFile } from "./inputs.js";
import { UsageError, write, type CommandIO, type ExitCode } from "./io.js";
import { isBlocked, replayGate, type Verdict } from "../gate/replay-gate.js";
import type { ToolSchema } from "../gate/schema.js";

const help = `Usage: orbridge gate --schema FILE [--format text|json] [FILE...|-]

Decides, for each item of a JSONL journal, whether it may be replayed as a tool
call. Checks run in this order; the first that fails is the verdict:
  namespaced         type missing, not a string, or an extension ("openai:...")
  not_function_call  another item type (not blocked: it is not a call)
  status             status is not exactly "completed"
  arguments_type     arguments is not a string
  arguments_parse    arguments is not valid JSON
  arguments_schema   the parsed arguments fail the tool's JSON Schema
  ok                 the call may run and get a function_call_output

Options:
  --schema FILE      JSON Schema (2020-12) of the tool's arguments, applied to
                     every function_call of the journal
  --format FORMAT    text (default): one line per item; json: one JSON object
                     per item with line, index, type, call_id, reason, detail
  -h, --help         show this help

Reads stdin when no FILE is given or FILE is "-".
Exit status: 0 nothing blocked, 1 some item blocked, 2 usage error or
unreadable input.

Example:
  orbridge gate --schema golden/examples/sales-report.schema.json \\
    golden/examples/sales-report.jsonl
`;

interface VerdictRecord {
  line: number;
  index: number;
  type?: unknown;
  call_id?: unknown;
  name?: unknown;
  reason: Verdict["reason"] | "error";
  detail: string;
  path?: string;
  blocked: boolean;
  source?: string;
}

export const gateCommand: Command = {
  name: "gate",
  summary: "check that each tool call of a journal is safe to replay",
  help,
  async run(argv, io) {
    const args = parseArgs(argv, { schema: { value: true }, format: { value: true, choices: ["text", "json"] }, help: {}, h: {} });
    if (args.options.help || args.options.h) {
      await write(io.stdout, help);
      return 0;
    }
    if (args.problems.length > 0) throw new UsageError(args.problems.join("\n"));
    const schemaPath = stringOption(args, "schema");
    if (!schemaPath) throw new UsageError("gate needs --schema FILE (see orbridge gate --help)");
    const schema = await readJsonFile(schemaPath, "schema");
    if (typeof schema !== "boolean" && (schema === null || typeof schema !== "object" || Array.isArray(schema))) {
      throw new UsageError(`schema ${schemaPath} is not a JSON Schema (an object or a boolean)`);
    }
    const format = stringOption(args, "format") ?? "text";
    const sources = await checkInputs(args.operands);
    const counts = { lines: 0, items: 0, errors: 0, blocked: 0 };
    for await (const { source, line, text } of inputLines(sources, io)) {
      counts.lines += 1;
      if (text.trim() === "") continue;
      let record: VerdictRecord;
      let item: unknown;
      try {
        item = JSON.parse(text);
      } catch (error) {
        counts.errors += 1;
        counts.blocked += 1;
        record = { line, index: 0, reason: "error", detail: `line is not JSON: ${(error as Error).message}`, blocked: true };
        await emit(io, format, withSource(record, source, sources));
        continue;
      }
      counts.items += 1;
      const verdict = replayGate(item, schema as ToolSchema);
      const blocked = isBlocked(verdict);
      if (blocked) counts.blocked += 1;
      const fields = item !== null && typeof item === "object" && !Array.isArray(item) ? (item as Record<string, unknown>) : {};
      record = { line, index: 0, type: fields.type, call_id: fields.call_id, name: fields.name, ...verdict, blocked };
      await emit(io, format, withSource(record, source, sources));
    }
    await write(io.stderr, `read ${counts.lines} lines: ${counts.items} items, ${counts.errors} errors; ${counts.blocked} blocked\n`);
    return (counts.blocked > 0 ? 1 : 0) as ExitCode;
  },
};

function withSource(record: VerdictRecord, source: string, sources: readonly string[]): VerdictRecord {
  return sources.length > 1 ? { source, ...record } : record;
}

function emit(io: CommandIO, format: string, record: VerdictRecord): Promise<void> | undefined {
  if (format === "json") return write(io.stdout, JSON.stringify(record) + "\n");
  const where = record.source ? `${record.source}:${record.line}` : `line ${record.line}`;
  const what = [typeof record.type === "string" ? record.type : "-", typeof record.call_id === "string" ? record.call_id : "-"].join(" ");
  return write(io.stdout, `${where}  ${what}  ${record.blocked ? "BLOCKED" : "pass"} ${record.reason}: ${record.detail}\n`);
}
