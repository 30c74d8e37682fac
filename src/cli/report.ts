// `orbridge report`: one self-contained HTML page that shows a journal at a
// glance: lines by kind, the gate's verdicts by reason and finding, the losses of
// reading it (and of writing it in another envelope), the lines behind each
// count, the conversation itself and, with --replay, what a replay changes.
// Read in one pass with the readers and the gate `gate` uses, so its counts are
// the ones `gate` prints.
import { ENVELOPE_NAMES } from "../../adapters/index.js";
import type { ToolSchema } from "../gate/schema.js";
import type { ItemCheck } from "../gate/journal-checks.js";
import { isTarget, TARGETS, type Target } from "../gate/target-names.js";
import type { TargetProfile } from "../models/target-profile.js";
import { shellQuoted } from "./report/shell-quote.js";
import { ToolRegistry } from "../gate/tool-registry.js";
import { readEnvelopeTools } from "./envelope-tools.js";
import { commandArgs, stringOption } from "./args.js";
import type { Command } from "./command.js";
import { checkInputs, inputLines, maxLineBytesOption, readJsonFile } from "./inputs.js";
import { UsageError, write, type ExitCode } from "./io.js";
import { openOutputs, writeThenCommit } from "./outputs.js";
import { counted } from "./plural.js";
import { progressFor } from "./progress.js";
import { ReportCollector } from "./report/collect.js";
import { renderHtml } from "./report/render-html.js";
import type { ReportData } from "./report/report-data.js";
import { ReplayComparison } from "./report/replay-diff.js";
import type { Tallied } from "./report/tally.js";
import { conversationOption } from "./conversation-option.js";
import { summaryText as gateSummaryText } from "./gate-output.js";

const DEFAULT_MAX_ITEMS = 500;

const help = `Usage: orbridge report [--schema FILE | --tools FILE] [--for TARGET] [--to ENVELOPE]
                       [--conversation POINTER [--show KEY]] [--replay FILE] [--out FILE]
                       [--items-from N] [--max-items N] [FILE...|-]

Writes one HTML page that shows a journal at a glance, to read before a
migration or a replay. The page is one file: no script, no font, no request;
it opens from disk, in light or dark mode, and reads with JavaScript off.

It shows:
  Summary       lines read by kind and envelope (the rows add up to the lines
                read, and the page says so), items, errors, passed and blocked:
                the counts "orbridge gate" prints with the same options
  Verdicts      passed and blocked by reason, findings, blocked calls per tool,
                as charts (inline SVG, with text alternatives) and tables
  Losses        what reading the journal into the canonical form leaves out,
                by code and by JSON Pointer path; with --to, what writing it in
                that envelope would lose too
  Drill-down    every count links to the first lines behind it, and each line
                to its item in the conversation view
  Conversation  the canonical items in order with their source lines and
                verdicts: arguments pretty-printed with the value a schema
                refused marked, outputs linked to their call by call_id
  Replay        with --replay, the differences "orbridge diff" finds, origin
                and replay side by side

Everything read from the journal is shown as text: a message that says
</script> or javascript: stays words on the page.

Options:
  --schema FILE      JSON Schema of every call's arguments, as for gate
  --tools FILE       a tools array or request body, as for gate
  --for TARGET       also judge against a replay target: ${TARGETS.join(", ")}
  --to ENVELOPE      count what writing the items in this envelope would lose:
                     ${ENVELOPE_NAMES.join(", ")}
  --conversation POINTER
                     gate each conversation apart, as gate --conversation does
                     (POINTER: the JSON Pointer of each record's key, as
                     /conversation_id); the page then counts verdicts and
                     blocked items per conversation and shows the items
                     conversation by conversation
  --max-open-conversations N
                     with --conversation: as for gate
  --show KEY         with --conversation: the conversation view shows this
                     conversation only (KEY as the page writes it: "c-17" or 17)
  --replay FILE      the journal about to be replayed: compared with the input
  --out FILE         write the page to FILE (atomically); stdout without it
  --items-from N     the conversation view starts at the Nth item (default 1)
  --max-items N      items the conversation view embeds (default ${DEFAULT_MAX_ITEMS}); the
                     others are counted, and the page says how to see them
  --origin SLUG      slug for unprefixed provider item types (default: openai)
  --max-line-bytes N report a longer line as an error, without reading it
  -h, --help         show this help

Without --conversation the whole input is one conversation, as gate reads it.
Memory stays flat however long the journal: counts are kept by key with the
first lines behind each, and the view embeds a window of items (--replay
holds both journals' items, as diff does).
Exit status: 0 the page was written (blocked calls included), 2 usage error,
unreadable input or an output that cannot be written.

Examples:
  orbridge report --schema golden/examples/sales-report.schema.json \\
    --out report.html golden/examples/sales-report.jsonl
  orbridge report --tools tools.json --to anthropic --replay replay.jsonl \\
    --out report.html origin.jsonl
`;

export const reportCommand: Command = {
  async run(argv, io) {
    const options = {
      schema: { value: true },
      tools: { value: true },
      for: { value: true, choices: TARGETS },
      to: { value: true, choices: ENVELOPE_NAMES },
      replay: { value: true },
      conversation: { value: true },
      "max-open-conversations": { value: true },
      show: { value: true },
      out: { value: true },
      "items-from": { value: true },
      "max-items": { value: true },
      origin: { value: true },
      "max-line-bytes": { value: true },
    };
    const args = await commandArgs(argv, options, help, io.stdout);
    if (!args) return 0;
    const schemaPath = stringOption(args, "schema");
    const toolsPath = stringOption(args, "tools");
    if (schemaPath && toolsPath) throw new UsageError("give --schema or --tools, not both");
    const schema = schemaPath === undefined ? undefined : await readSchema(schemaPath);
    const registry = toolsPath === undefined ? undefined : await readTools(toolsPath);
    const target = stringOption(args, "for");
    const itemsFrom = wholeNumber(stringOption(args, "items-from"), "--items-from", 1);
    const maxItems = wholeNumber(stringOption(args, "max-items"), "--max-items", DEFAULT_MAX_ITEMS);
    // Read as gate reads: a stored log's call that could not be read as the store
    // holds it (a number a double rounds, sightings that disagree) is a blocked
    // line of its own, where read as it parsed it could pass and the page would
    // count it otherwise than gate does.
    const readOptions = { ...maxLineBytesOption(stringOption(args, "max-line-bytes")), unreadableAsErrors: true };
    const conversation = conversationOption(stringOption(args, "conversation"));
    const maxOpenText = stringOption(args, "max-open-conversations");
    const show = stringOption(args, "show");
    if (conversation === undefined && maxOpenText !== undefined) throw new UsageError("--max-open-conversations is for --conversation, which was not given");
    if (conversation === undefined && show !== undefined) throw new UsageError("--show names a conversation: it goes with --conversation POINTER");
    const maxOpen = maxOpenText === undefined ? undefined : wholeNumber(maxOpenText, "--max-open-conversations", 1);
    const targetName = target !== undefined && isTarget(target) ? target : undefined;
    // A provider's target is judged by its profile, kept beside its envelope's adapter: loaded only for --for.
    const profile = targetName === undefined ? undefined : (await import("../../adapters/profiles.js")).profileOf(targetName);
    const checks = targetName === undefined || conversation === undefined ? undefined : await targetChecks(targetName, profile);
    const sources = await checkInputs(args.operands, io.stdin);
    const replayPath = stringOption(args, "replay");
    if (replayPath !== undefined) {
      await checkInputs([replayPath], io.stdin);
      if (replayPath === "-" && sources.includes("-")) throw new UsageError("only one of the journal and --replay can be stdin");
    }
    if (stringOption(args, "out") === undefined && (io.stdout as { isTTY?: boolean }).isTTY === true) throw new UsageError("the page is HTML: give --out FILE, or redirect standard output to a file");
    const { output } = openOutputs(stringOption(args, "out"), undefined, replayPath === undefined ? sources : [...sources, replayPath], io.stdout, { stdin: io.stdin, stderr: io.stderr });
    const comparison = replayPath === undefined ? undefined : new ReplayComparison(conversation !== undefined);
    const collector = new ReportCollector({
      sources,
      schema,
      registry,
      target: targetName,
      profile,
      conversation: conversation === undefined ? undefined : { pointer: conversation, maxOpen, checks },
      show,
      to: stringOption(args, "to"),
      origin: stringOption(args, "origin"),
      itemsFrom,
      maxItems,
      settingsShown: { schema: schemaPath, tools: toolsPath },
      onItem: comparison === undefined || conversation === undefined ? undefined : (entry, key) => key !== undefined && comparison.conversationOf(entry.provenance.source, entry.provenance.line, key),
    });
    const progress = progressFor(sources, io.stderr);
    let summary = "";
    await writeThenCommit([output], progress, async () => {
      for await (const line of inputLines(sources, io, readOptions)) {
        progress.tick(line.text.length + 1, 1);
        collector.pushLine(line);
        comparison?.pushOriginLine(line);
      }
      const data = collector.finish();
      if (comparison !== undefined && replayPath !== undefined) data.replay = await comparison.finish(replayPath, inputLines([replayPath], io, readOptions));
      await write(output.stream, renderHtml(data, { command: commandLine(argv) }));
      summary = summaryText(data, conversation !== undefined);
    });
    await write(io.stderr, summary);
    return 0 as ExitCode;
  },
};

async function readSchema(path: string): Promise<ToolSchema> {
  const value = await readJsonFile(path, "schema");
  if (typeof value !== "boolean" && (value === null || typeof value !== "object" || Array.isArray(value))) throw new UsageError(`schema ${path} is not a JSON Schema (an object or a boolean)`);
  return value as ToolSchema;
}

async function readTools(path: string): Promise<ToolRegistry> {
  const value = await readJsonFile(path, "tools file");
  let registry: ToolRegistry;
  try {
    registry = ToolRegistry.fromToolsFile(value, path, readEnvelopeTools);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (registry.names().length === 0) throw new UsageError(`tools file ${path} defines no function tool`);
  return registry;
}

/**
 * The closing summary on stderr: gate's, word for word (the counts, then blocked
 * records by what blocked them and findings by code, most frequent first), and
 * the replay's differences.
 */
function summaryText(data: ReportData, byConversation: boolean): string {
  const tally = (entries: readonly Tallied[]) => Object.fromEntries(entries.map((entry) => [entry.key, entry.count]));
  const differences = data.replay === undefined ? "" : `; ${counted(data.replay.total, "difference")} with the replay`;
  return gateSummaryText(
    {
      lines: data.linesRead,
      ...data.verdicts,
      blockedBy: tally(data.blockedBy),
      findings: tally(data.findings),
      ...(byConversation ? { conversations: data.conversations } : {}),
    },
    differences,
  );
}


/** A target's checks, made afresh for each conversation, as they keep state; loaded only for --for. */
async function targetChecks(target: Target, profile: TargetProfile | undefined): Promise<() => ItemCheck[]> {
  const { TargetChecker } = await import("../gate/targets.js");
  return () => [new TargetChecker(target, { profile })];
}

function wholeNumber(value: string | undefined, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^[1-9][0-9]*$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`${option} must be a positive whole number (got "${value}")`);
  return Number(value);
}

/** The command line again, without the options that choose the conversation view's window, for the page to say how to move it. */
function commandLine(argv: readonly string[]): string {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--items-from" || arg === "--max-items") {
      i += 1;
      continue;
    }
    if (arg.startsWith("--items-from=") || arg.startsWith("--max-items=")) continue;
    kept.push(shellQuoted(arg));
  }
  return ["orbridge", "report", ...kept].join(" ");
}
