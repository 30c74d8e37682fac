// `orbridge gate`: one verdict per item, in input order, with the journal-wide
// findings attached; exit 1 when any item is blocked for replay.
import type { ConversationGateOptions } from "../gate/conversation-gate.js";
import type { GateRecord } from "../gate/prepared-gate.js";
import { DEFAULT_MAX_OPEN_CONVERSATIONS, type Routed } from "../gate/conversation-router.js";
import { isTarget, TARGETS, type Target } from "../gate/target-names.js";
import type { TargetOptions } from "../gate/targets.js";
import type { ToolSchema } from "../gate/schema.js";
import { ToolRegistry } from "../gate/tool-registry.js";
import { readEnvelopeTools } from "./envelope-tools.js";
import { commandArgs, stringOption } from "./args.js";
import type { Command } from "./command.js";
import { keyText } from "../journal/conversation-key.js";
import type { JsonPointer } from "../journal/json-pointer.js";
import { readFileChunks, type ReadOptions } from "../journal/read.js";
import { PrototypeGuard } from "./prototype-guard.js";
import { defaultJobs, gatedBatches, WORKER_MIN_BYTES, type GatedBatch } from "./gate-jobs.js";
import { addCounts, GateOutput, summaryText, type GateCounts, type GateFormat, type GateLines, type GateShown } from "./gate-output.js";
import { checkInputs, INPUT_OPTIONS, INPUT_OPTIONS_HELP, inputLines, inputOptions, readJsonFile } from "./inputs.js";
import { readsAsConversations, type SourceOptions } from "../journal/read-document.js";
import { LineWriter, UsageError, write, type CommandIO, type ExitCode } from "./io.js";
import { progressFor } from "./progress.js";
import { wantsColour } from "./style.js";
import { conversationOption } from "./conversation-option.js";
import { visibleInLine } from "../models/quote-visible.js";
import { limitHeapGrowth } from "./heap-growth.js";

const help = `Usage: orbridge gate [--schema FILE | --tools FILE] [--assert-formats] [--for TARGET]
                     [--format text|json] [--only-blocked | --quiet] [--summary text|json]
                     [--conversation POINTER [--max-open-conversations N]] [--jobs N]
                     [--origin SLUG] [--max-line-bytes N] [--from STORE | --record POINTER]
                     [FILE...|-]

Decides, for each item of a journal, whether it may be replayed. The journal may
mix envelopes (Chat messages, request bodies, responses, streams: see
"orbridge normalize --help"); it is normalized first, then every item is gated.
Checks run in this order; the first that fails is the item's reason:
  namespaced         type missing, not a string, an extension ("openai:..."), or
                     a type the spec does not define ("Function_Call")
  not_function_call  another item type (not blocked: it is not a call)
  status             status is not exactly "completed"
  arguments_type     arguments is not a string
  arguments_parse    arguments is not valid JSON, or gives a name twice in one
                     object (as written, or as a case-folding reader reads a
                     parameter the schema declares: "region" and "Region")
  arguments_schema   the parsed arguments fail the tool's JSON Schema (2020-12;
                     a schema whose $schema names draft 6, 7 or 2019-09 is read
                     by 2020-12's rules, and refused where they could accept
                     what its draft refuses), also as a case-folding reader
                     reads them ("REGION" fills the "region" its object
                     declares), or the schema is refused
  unknown_tool       no schema is known for the call's name (fail closed)
  ok                 the call may run and get a function_call_output
Journal-wide findings (any of them blocks): orphan_output,
output_for_blocked_call (also an output whose call_id two calls share),
duplicate_call_id and duplicate_id (also an item_reference that would bring
an item back twice: referred to already, or a call already answered),
missing_output, incomplete_not_last, missing_field, tool_not_allowed,
reasoning_without_following_item,
blocked_reference (an item_reference to a blocked item, to an id two items
gave, or to one the journal does not hold), foreign_id, mixed_envelope, and
with --for target_rejects and target_order.

Options:
  --schema FILE    JSON Schema (2020-12) of the arguments, applied to every call
  --tools FILE     a tools array or a request body whose tools and tool_choice
                   apply, of Chat, Open Responses, Anthropic, Gemini or Bedrock
                   (its parallel_tool_calls false, or Anthropic's
                   disable_parallel_tool_use, lets each response make one call);
                   request bodies inside the journal add their tools and set the
                   allowed tools too
  --assert-formats check each "format" of a tool schema by the grammar of its
                   RFC (date-time, date, time, duration, email, hostname, ipv4,
                   ipv6, uri, uri-reference, uri-template, uuid, json-pointer,
                   relative-json-pointer; regex as ECMA-262 with the u flag)
                   and block a value that fails it. A schema that asks for any
                   other format (idn-email, iri, a name of its own) is refused,
                   and its calls blocked with the format and where it is.
                   Without it a format is an annotation, as JSON Schema
                   2020-12 says by default, and never blocks a call
  --for TARGET     also check the target would accept each item: ${TARGETS.join(", ")}
  --format FORMAT  text (default): one line per item; json: one JSON object per
                   item with line, index, type, call_id, reason, detail, findings
                   (and conversation, with --conversation); an item whose
                   own reason does not block (ok, not_function_call) but a
                   finding does has that finding in its headline (text) and
                   in "blocked_by" (json)
  --only-blocked   write the blocked verdicts only (all are still counted)
  --quiet          write nothing: no verdict, no summary; the exit status says
                   whether anything is blocked
  --summary FORMAT the closing summary on stderr: text (default), the counts
                   and, beneath, blocked records by what blocked them and
                   findings by code; json: the same as one JSON object
                   {lines, items, errors, blocked, blocked_by, findings}
  --conversation POINTER
                   the JSON Pointer (RFC 6901) of each record's conversation
                   key, as /conversation_id or /metadata/session. Without it the
                   whole input is one conversation. A stored log (a trace
                   export, a page of stored completions) is the exception: each
                   trace or completion is judged as a conversation apart, but a
                   call_id is checked across them all the same: a call that
                   gives one another conversation's call gave (as written in
                   its record, not one made for an id-less call) is blocked
                   duplicate_call_id. With it, everything that
                   spans lines (streams, replayed history, the tools and
                   tool_choice in force, calls waiting for their output, the
                   call_ids and ids seen) is kept per conversation: each
                   conversation gets the verdicts it gets alone, however the
                   journal interleaves it with others (a stored log's call_ids
                   are still checked across its conversations). A key is a string or a
                   whole number. A record whose key is a number an earlier key
                   gave as a string, or a string ("7", "7.0") that writes a
                   number an earlier key gave as a number, is a blocked error
                   record, as below: a replayer that groups by the key's text
                   takes the two for one conversation. Each verdict names its
                   conversation (text: conversation "c-1" first; json: a
                   "conversation" field), in journal order: a verdict waits
                   until every earlier line is answered (a stream is answered
                   when its conversation's next record or its end closes it).
                   A line that is not JSON, or where the pointer finds no
                   string or whole number, or a member on its way beside one
                   a case-folding reader takes for it ("conversation_id" and
                   "Conversation_id"), is a blocked error record naming
                   the line and the pointer, in no conversation. It may have
                   been any conversation's, so every stream open then is
                   damaged from it, and when it names a request's tools, no
                   function may run in any conversation until that
                   conversation's next request body. Runs in one thread,
                   whatever --jobs says
  --max-open-conversations N
                   with --conversation: conversations kept open at once
                   (default ${DEFAULT_MAX_OPEN_CONVERSATIONS}, about 17 KB each). Opening one
                   more first closes the one seen least recently, as the end
                   of the input would (a stream it has open gives its calls
                   as incomplete); a later line of it starts it afresh,
                   without what came before (no function may run in it for
                   the rest of the journal), and its first verdict carries a
                   "note" saying so
  --origin SLUG    slug for unprefixed provider item types (default: openai)
  --max-line-bytes N
                   report a line longer than N bytes as an error record, without
                   reading it into memory, and go on with the next line. When
                   its bytes hold a request's tool field in quotes ("tools",
                   "tool_choice"..., in any case or width: "Tool_choice") or
                   the \\u escape of an ASCII character, it may have narrowed
                   the tools: no function may run until the next request body
  --jobs N         threads to use (default: the number of cores, here ${defaultJobs()}).
                   With 2 or more, one thread splits, parses and normalizes
                   lines while another gives verdicts and runs the checks;
                   the output is the same, byte for byte, as with --jobs 1.
                   The gate uses at most 2 threads (each step must see the
                   journal in order), and gates a journal under ${WORKER_MIN_BYTES / 1024 / 1024} MiB in
                   one, where a second thread costs more to start than it saves
${INPUT_OPTIONS_HELP}  -h, --help       show this help

Reads stdin when no FILE is given or FILE is "-". A line that is not JSON, one
that gives a name twice in one object (or two a case-folding reader takes for
one name that decides a call: "type" and "Type"), a record of two kinds at once
(a function_call item with a "messages" array), a line with a tool call
that gives no item (no type, a custom call, "Tool_calls"), and a line that a
carriage return without line feed splits into JSON of its own (Python's text
files and Node's readline end lines there) are blocked error records; a JSON
object of no known kind is gated as it is.
Exit status: 0 nothing blocked, 1 some item blocked (or a reader that closed
the output before the end: | head), 2 usage error, unreadable input or an
output that cannot be written (a full disk).

Examples:
  orbridge gate --schema golden/examples/sales-report.schema.json \\
    golden/examples/sales-report.jsonl
  orbridge gate --tools tools.json --for chat-completions --format json journal.jsonl
  orbridge gate --tools tools.json --only-blocked --summary json big-journal.jsonl
  orbridge gate --tools tools.json --conversation /conversation_id --format json service.jsonl
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
      ...INPUT_OPTIONS,
      jobs: { value: true },
      conversation: { value: true },
      "max-open-conversations": { value: true },
      "assert-formats": {},
      "only-blocked": {},
      quiet: {},
      summary: { value: true, choices: ["text", "json"] },
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
        registry = ToolRegistry.fromToolsFile(value, toolsPath, readEnvelopeTools);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      // A file without a single function tool (a schema given to --tools by mistake)
      // would block every call as unknown_tool; say so instead.
      if (registry.names().length === 0) throw new UsageError(`tools file ${toolsPath} defines no function tool`);
    }
    const target = stringOption(args, "for");
    const format = stringOption(args, "format") ?? "text";
    // A message a stored-log reader could not read blocks a line of its own: a call in it would go unjudged.
    const readOptions = { ...inputOptions(args), unreadableAsErrors: true };
    const jobs = jobsOption(stringOption(args, "jobs"));
    const conversation = conversationOption(stringOption(args, "conversation"));
    const maxOpen = maxOpenOption(stringOption(args, "max-open-conversations"), conversation);
    const sources = await checkInputs(args.operands, io.stdin);
    const quiet = args.options.quiet === true;
    const onlyBlocked = args.options["only-blocked"] === true;
    if (quiet && onlyBlocked) throw new UsageError("--quiet writes no verdict and --only-blocked writes the blocked ones: give one of them");
    const summary = stringOption(args, "summary") ?? "text";
    if (quiet && stringOption(args, "summary") !== undefined) throw new UsageError("--quiet writes nothing, not even a summary: give --quiet or --summary");
    const progress = quiet ? progressFor([], io.stderr) : progressFor(sources, io.stderr, io.env);
    const counts: GateCounts & { lines: number } = { lines: 0, items: 0, errors: 0, blocked: 0, blockedBy: {}, findings: {} };
    const out = new LineWriter(io.stdout);
    // A provider's target is judged by its profile, kept beside its envelope's adapter: loaded only for --for.
    const profile = target === undefined ? undefined : (await import("../../adapters/profiles.js")).profileOf(target);
    const gate = { schema, registry, readTools: readEnvelopeTools, target: target !== undefined && isTarget(target) ? target : undefined, targetOptions: { profile }, omitSource: sources.length === 1, assertFormats: args.options["assert-formats"] === true };
    const shown: GateShown = quiet ? "none" : onlyBlocked ? "blocked" : "all";
    const output = { format: (format === "json" ? "json" : "text") as GateFormat, colour: wantsColour(io.stdout, io.env), shown };
    const origin = stringOption(args, "origin");
    const conversations = conversation === undefined ? undefined : { conversations: 0, reopened: 0 };
    const guard = new PrototypeGuard();
    try {
      // A stored log of several conversations (traces, stored completions) has each judged apart, as --conversation judges a journal's.
      const stored = conversation === undefined && (await holdsStoredConversations(sources, readOptions));
      const batches =
        conversation === undefined && !stored
          ? gatedBatches(sources, io, { jobs, read: readOptions, normalize: { origin }, gate, ...output })
          : batchesByConversation(sources, io, { conversation, maxOpen, read: readOptions, origin, gate, ...output }, conversations ?? { conversations: 0, reopened: 0 });
      for await (const batch of batches) {
        guard.check();
        counts.lines += batch.lines;
        addCounts(counts, batch);
        progress.tick(batch.bytes, batch.lines, counts.blocked);
        out.add(batch.text);
        // The output waits for its reader once per batch, when enough of it has gathered.
        await out.flushIfFull();
      }
      await out.flush();
    } finally {
      progress.done();
    }
    const exit = (counts.blocked > 0 ? 1 : 0) as ExitCode;
    if (quiet) return exit;
    if (summary === "json") {
      await write(io.stderr, summaryJson(counts, conversations) + "\n");
      return exit;
    }
    await write(io.stderr, summaryText({ ...counts, ...(conversations === undefined ? {} : { conversations: { count: conversations.conversations, reopened: conversations.reopened } }) }));
    return exit;
  },
};


/** `--summary json`: the closing summary as one JSON object. */
function summaryJson(counts: GateCounts & { lines: number }, conversations: { conversations: number; reopened: number } | undefined): string {
  return JSON.stringify({
    lines: counts.lines,
    items: counts.items,
    errors: counts.errors,
    blocked: counts.blocked,
    blocked_by: counts.blockedBy,
    findings: counts.findings,
    ...(conversations === undefined ? {} : { conversations: conversations.conversations, reopened: conversations.reopened }),
  });
}

/** `--jobs N`: a positive whole number of threads. */
function jobsOption(value: string | undefined): number {
  if (value === undefined) return defaultJobs();
  if (!/^[1-9][0-9]*$/.test(value)) throw new UsageError(`--jobs must be a positive whole number of threads (got "${value}")`);
  return Number(value);
}

/** `--max-open-conversations N`: a positive whole number, with --conversation only. */
function maxOpenOption(value: string | undefined, conversation: JsonPointer | undefined): number {
  if (value === undefined) return DEFAULT_MAX_OPEN_CONVERSATIONS;
  if (conversation === undefined) throw new UsageError("--max-open-conversations is for --conversation, which was not given");
  if (!/^[1-9][0-9]*$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`--max-open-conversations must be a positive whole number (got "${value}")`);
  return Number(value);
}

/**
 * Whether a file among the sources is a stored log whose reader gives its
 * records in conversations. Each file is opened and let go again; standard
 * input, which cannot be read twice, is not looked into, and is read as one
 * conversation with the other sources.
 */
async function holdsStoredConversations(sources: readonly string[], read: SourceOptions): Promise<boolean> {
  for (const source of sources) {
    if (source === "-") continue;
    const bytes = readFileChunks(source);
    try {
      if (await readsAsConversations(source, bytes, read)) return true;
    } catch {
      // A source that cannot be read is reported when it is gated.
    } finally {
      await bytes.return(undefined);
    }
  }
  return false;
}

/** The bytes of lines gated before their verdicts are handed on. */
const BATCH_BYTES = 64 * 1024;

interface ConversationRun {
  /** Without it, each stored log's conversation is its own, and every other line is of one conversation. */
  conversation: JsonPointer | undefined;
  maxOpen: number;
  read: ReadOptions;
  origin: string | undefined;
  gate: Pick<ConversationGateOptions, "schema" | "registry" | "readTools" | "omitSource" | "assertFormats"> & { target?: Target; targetOptions?: TargetOptions };
  format: GateFormat;
  colour: boolean;
  shown: GateShown;
}

/**
 * The verdicts of a journal gated conversation by conversation (conversation-gate.ts),
 * in journal order, a chunk's worth at a time. In this thread only: the second
 * thread of --jobs normalizes the journal as one conversation.
 */
async function* batchesByConversation(sources: readonly string[], io: CommandIO, run: ConversationRun, counts: { conversations: number; reopened: number }): AsyncGenerator<GatedBatch> {
  limitHeapGrowth();
  // Loaded here, as the one-thread gate loads its halves: the normalizer and Ajv come with them.
  const [{ conversationGate }, targets] = await Promise.all([import("../gate/conversation-gate.js"), run.gate.target === undefined ? undefined : import("../gate/targets.js")]);
  const target = run.gate.target;
  // Without --conversation, the verdicts are written as a journal gated whole writes them.
  const output = new ConversationOutput(run.format, run.colour, run.shown, run.conversation !== undefined);
  const router = conversationGate(
    {
      conversation: run.conversation,
      maxOpenConversations: run.maxOpen,
      schema: run.gate.schema,
      registry: run.gate.registry,
      readTools: run.gate.readTools,
      omitSource: run.gate.omitSource,
      assertFormats: run.gate.assertFormats,
      checks: targets === undefined || target === undefined ? undefined : () => [new targets.TargetChecker(target, run.gate.targetOptions)],
      normalize: { origin: run.origin },
    },
    output.present,
  );
  // Lines, not bytes: a stored log reader's line carries its conversation.
  let lines = 0;
  let bytes = 0;
  for await (const line of inputLines(sources, io, run.read)) {
    output.add(router.pushLine(line));
    lines += 1;
    bytes += Buffer.byteLength(line.text) + 1;
    if (bytes < BATCH_BYTES) continue;
    yield { ...output.take(), lines, bytes, threads: 1 };
    lines = 0;
    bytes = 0;
  }
  if (lines > 0) yield { ...output.take(), lines, bytes, threads: 1 };
  output.add(router.finish());
  counts.conversations = router.counts.conversations;
  counts.reopened = router.counts.reopened;
  yield { ...output.take(), lines: 0, bytes: 0, threads: 1 };
}

/**
 * The lines of routed verdicts: GateOutput's, each led by its conversation and
 * followed by its note. A verdict is written as soon as it is routed, and waits
 * for its turn as text; it is counted then too.
 */
class ConversationOutput {
  private readonly lines: GateOutput;
  private text = "";
  private counts: GateCounts = { items: 0, errors: 0, blocked: 0, blockedBy: {}, findings: {} };

  constructor(
    private readonly format: GateFormat,
    colour: boolean,
    shown: GateShown,
    /** Whether each verdict is led by its conversation (--conversation). */
    private readonly named: boolean,
  ) {
    this.lines = new GateOutput(format, colour, shown);
  }

  readonly present = (routed: Routed<GateRecord>): string => {
    const line = this.line(routed);
    // The line is built piece by piece, and a string built so holds every piece
    // until it is read whole; reading it as a number makes V8 lay it out flat, at
    // a third of the memory, while it waits for its turn.
    Number(line);
    return line;
  };

  private line({ output: record, conversation, note }: Routed<GateRecord>): string {
    this.lines.add([record]);
    const { text, ...counts } = this.lines.take();
    addCounts(this.counts, counts);
    if (text === "") return text;
    // `text` is the record's lines, ending with a newline.
    if (!this.named) return text;
    if (this.format === "json") {
      const led = conversation === undefined ? text : `{"conversation":${keyText(conversation)},${text.slice(1)}`;
      return note === undefined ? led : `${led.slice(0, -2)},"note":${JSON.stringify(note)}}\n`;
    }
    // JSON.stringify leaves a zero-width space or a bidirectional override as it is: "c1\u200b" would read as "c1", and a key holding U+202E would turn the verdict after it around.
    const led = conversation === undefined ? text : `conversation ${visibleInLine(keyText(conversation))}  ${text}`;
    return note === undefined ? led : `${led.slice(0, -1)}\n    note: ${note}\n`;
  }

  add(lines: readonly string[]): void {
    for (const line of lines) this.text += line;
  }

  take(): GateLines {
    const lines = { text: this.text, ...this.counts };
    this.text = "";
    this.counts = { items: 0, errors: 0, blocked: 0, blockedBy: {}, findings: {} };
    return lines;
  }
}
