// `orbridge gate`: one verdict per item, in input order, with the journal-wide
// findings attached; exit 1 when any item is blocked for replay.
import { isTarget, TARGETS } from "../gate/target-names.js";
import type { ToolSchema } from "../gate/schema.js";
import { ToolRegistry } from "../gate/tool-registry.js";
import { commandArgs, stringOption } from "./args.js";
import type { Command } from "./command.js";
import { defaultJobs, gatedBatches, WORKER_MIN_BYTES } from "./gate-jobs.js";
import { checkInputs, maxLineBytesOption, readJsonFile } from "./inputs.js";
import { LineWriter, UsageError, write, type ExitCode } from "./io.js";
import { progressFor } from "./progress.js";
import { wantsColour } from "./style.js";

const help = `Usage: orbridge gate [--schema FILE | --tools FILE] [--for TARGET] [--format text|json] [--jobs N] [FILE...|-]

Decides, for each item of a journal, whether it may be replayed. The journal may
mix envelopes (Chat messages, request bodies, responses, streams: see
"orbridge normalize --help"); it is normalized first, then every item is gated.
Checks run in this order; the first that fails is the item's reason:
  namespaced         type missing, not a string, or an extension ("openai:...")
  not_function_call  another item type (not blocked: it is not a call)
  status             status is not exactly "completed"
  arguments_type     arguments is not a string
  arguments_parse    arguments is not valid JSON
  arguments_schema   the parsed arguments fail the tool's JSON Schema
  unknown_tool       no schema is known for the call's name (fail closed)
  ok                 the call may run and get a function_call_output
Journal-wide findings (any of them blocks): orphan_output,
output_for_blocked_call, duplicate_call_id, duplicate_id, missing_output,
incomplete_not_last, missing_field, tool_not_allowed,
reasoning_without_following_item, foreign_id, mixed_envelope, and with --for
target_rejects and target_order.

Options:
  --schema FILE    JSON Schema (2020-12) of the arguments, applied to every call
  --tools FILE     a tools array (either envelope) or a request body whose tools
                   and tool_choice apply; request bodies inside the journal add
                   their tools and set the allowed tools too
  --for TARGET     also check the target would accept each item: ${TARGETS.join(", ")}
  --format FORMAT  text (default): one line per item; json: one JSON object per
                   item with line, index, type, call_id, reason, detail, findings
  --origin SLUG    slug for unprefixed provider item types (default: openai)
  --max-line-bytes N
                   report a line longer than N bytes as an error record, without
                   reading it into memory, and go on with the next line
  --jobs N         threads to use (default: the number of cores, here ${defaultJobs()}).
                   With 2 or more, one thread splits, parses and normalizes
                   lines while another gives verdicts and runs the checks;
                   the output is the same, byte for byte, as with --jobs 1.
                   The gate uses at most 2 threads (each step must see the
                   journal in order), and gates a journal under ${WORKER_MIN_BYTES / 1024 / 1024} MiB in
                   one, where a second thread costs more to start than it saves
  -h, --help       show this help

Reads stdin when no FILE is given or FILE is "-". A line that is not JSON, a
record of two kinds at once (a function_call item with a "messages" array), and
a line with a tool call that gives no item (no type, a custom call) are blocked
error records; a JSON object of no known kind is gated as it is.
Exit status: 0 nothing blocked, 1 some item blocked, 2 usage error or
unreadable input.

Examples:
  orbridge gate --schema golden/examples/sales-report.schema.json \\
    golden/examples/sales-report.jsonl
  orbridge gate --tools tools.json --for chat-completions --format json journal.jsonl
`;

export const gateCommand: Command = {
  async run(argv, io) {
    const options = {
      schema: { value: true },
      tools: { value: true },
      for: { value: true, choices: TARGETS },
      format: { value: true, choices: ["text", "json"] },
      origin: { value: true },
      "max-line-bytes": { value: true },
      jobs: { value: true },
    };
    const args = await commandArgs(argv, options, help, io.stdout);
    if (!args) return 0;
    const schemaPath = stringOption(args, "schema");
    const toolsPath = stringOption(args, "tools");
    if (schemaPath && toolsPath) throw new UsageError("give --schema or --tools, not both");
    let schema: ToolSchema | undefined;
    if (schemaPath) {
      const value = await readJsonFile(schemaPath, "schema");
      if (typeof value !== "boolean" && (value === null || typeof value !== "object" || Array.isArray(value))) {
        throw new UsageError(`schema ${schemaPath} is not a JSON Schema (an object or a boolean)`);
      }
      schema = value as ToolSchema;
    }
    let registry: ToolRegistry | undefined;
    if (toolsPath) {
      const value = await readJsonFile(toolsPath, "tools file");
      try {
        registry = ToolRegistry.fromToolsFile(value, toolsPath);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      // A file without a single function tool (a schema given to --tools by mistake)
      // would block every call as unknown_tool; say so instead.
      if (registry.names().length === 0) throw new UsageError(`tools file ${toolsPath} defines no function tool`);
    }
    const target = stringOption(args, "for");
    const format = stringOption(args, "format") ?? "text";
    const readOptions = maxLineBytesOption(stringOption(args, "max-line-bytes"));
    const jobs = jobsOption(stringOption(args, "jobs"));
    const sources = await checkInputs(args.operands);
    const progress = progressFor(sources, io.stderr);
    const counts = { lines: 0, items: 0, errors: 0, blocked: 0 };
    const out = new LineWriter(io.stdout);
    try {
      const batches = gatedBatches(sources, io, {
        jobs,
        read: readOptions,
        normalize: { origin: stringOption(args, "origin") },
        gate: { schema, registry, target: target !== undefined && isTarget(target) ? target : undefined, omitSource: sources.length === 1 },
        format: format === "json" ? "json" : "text",
        colour: wantsColour(io.stdout, io.env),
      });
      for await (const batch of batches) {
        counts.lines += batch.lines;
        counts.items += batch.items;
        counts.errors += batch.errors;
        counts.blocked += batch.blocked;
        progress.tick(batch.bytes, batch.lines);
        out.add(batch.text);
        // The output waits for its reader once per batch, when enough of it has gathered.
        await out.flushIfFull();
      }
      await out.flush();
    } finally {
      progress.done();
    }
    await write(io.stderr, `read ${counts.lines} lines: ${counts.items} items, ${counts.errors} errors; ${counts.blocked} blocked\n`);
    return (counts.blocked > 0 ? 1 : 0) as ExitCode;
  },
};

/** `--jobs N`: a positive whole number of threads. */
function jobsOption(value: string | undefined): number {
  if (value === undefined) return defaultJobs();
  if (!/^[1-9][0-9]*$/.test(value)) throw new UsageError(`--jobs must be a positive whole number of threads (got "${value}")`);
  return Number(value);
}
