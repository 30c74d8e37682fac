// `orbridge normalize`: any journal to canonical items, one per line.
import { TargetRewriter } from "../gate/target-rewriter.js";
import { isTarget, TARGETS, type Rewritten } from "../gate/targets.js";
import { chat } from "../../adapters/index.js";
import { profileOf } from "../../adapters/profiles.js";
import { atomicFileOutput } from "../journal/write.js";
import { JournalNormalizer, type NormalizedRecord } from "../journal/normalize.js";
import { LineWrappers, rewrap } from "../journal/record-pointer.js";
import { repairDoubleEncoded } from "../journal/double-encoded.js";
import { infiniteNumberLosses, LineNumberTexts, writtenWith } from "../journal/number-texts.js";
import { LineIndexNameOrders } from "../journal/index-name-order.js";
import { isStackOverflow, tooDeepItemsDetail } from "../journal/deep-field.js";
import type { Loss } from "../models/loss.js";
import { commandArgs, stringOption } from "./args.js";
import type { Command } from "./command.js";
import { checkInputs, inputLines, INPUT_OPTIONS, INPUT_OPTIONS_HELP, inputOptions } from "./inputs.js";
import { LineWriter, UsageError, write, type ExitCode } from "./io.js";
import { openOutputs, writeThenCommit } from "./outputs.js";
import { counted } from "./plural.js";
import { progressFor } from "./progress.js";
import { PrototypeGuard } from "./prototype-guard.js";
import { visibleInLine } from "../models/quote-visible.js";
import { limitHeapGrowth } from "./heap-growth.js";

const help = `Usage: orbridge normalize [--for TARGET [--reasoning-field FIELD] [--id-map FILE]] [--origin SLUG] [--out FILE] [--report FILE] [FILE...|-]

Turns any journal into canonical Open Responses items, one JSON item per line:
Chat messages, Chat request bodies, chat.completion objects and chunk streams,
Open Responses items, request bodies, response objects and event streams, raw
SSE text, and logged {request, response} exchanges, mixed in any order.

Provider item types that arrive without their slug (web_search_call,
computer_call, mcp_call...) are given the origin's slug, as the Open Responses
spec requires of extension items, so the gate sees them for what they are.
A request that replays the conversation so far gives only its new items.
The reasoning OpenAI-compatible providers write in Chat messages
(reasoning_content, reasoning, reasoning_details) becomes a reasoning item
that names its field.

Options:
  --for TARGET     rewrite the items for a replay target and report each change:
                     open-responses    portable core only (extension items,
                                       reasoning, item_reference, compaction
                                       removed; foreign ids stripped; a
                                       call_id past 64 characters rewritten)
                     openai-responses  what OpenAI's Responses API accepts
                     chat-completions  calls grouped, outputs right after them
                     strict            no status on input items (an unfinished
                                       call keeps its own, reported)
                     adjacent          each output right after its call
                     anthropic, gemini, bedrock, deepseek, mistral
                                       what the provider's profile takes: call
                                       ids rewritten to its grammar (the call
                                       and its output alike), another
                                       family's signatures and encrypted
                                       reasoning removed, empty text removed
                                       where it is refused
  --id-map FILE    with --for: write each call id rewritten as JSONL
                   {"original": ..., "rewritten": ...}, for restore-ids
  --reasoning-field FIELD
                   with --for chat-completions: the Chat dialect's field that
                   will carry the model's reasoning (reasoning_content,
                   reasoning or reasoning_details); reasoning items with text
                   are then kept, with the text of their turn
  --origin SLUG    slug for unprefixed provider item types (default: openai)
  --max-line-bytes N
                   report a line longer than N bytes as an error record, without
                   reading it into memory, and go on with the next line
  --out FILE       write the items to FILE, atomically (all or nothing)
  --report FILE    write every loss and error as JSONL: {line, path, code, detail};
                   the fields of a record that no item holds (a request's model
                   and tools, a completion's usage, a response's id...) are
                   there too, code left_behind, and counted apart on stderr
  --keep-repeats   emit the items a request repeats from earlier records too
  --repair double-encoded
                   decode once the arguments of a call encoded twice (a JSON
                   string holding JSON text), each repair reported, code
                   repaired; without it arguments stay byte for byte (and the
                   gate blocks such calls, saying "double-encoded")
${INPUT_OPTIONS_HELP}  -h, --help       show this help

Reads stdin when no FILE is given or FILE is "-". A line that is not JSON, or a
record of no known kind, is reported on stderr with its line number and
counted; the summary says read = emitted + reported.
Exit status: 0 every record normalized, 1 some record reported as an error,
2 usage error, unreadable input or an output that cannot be written.

Examples:
  orbridge normalize golden/examples/mixed.jsonl
  orbridge normalize --for open-responses --report changes.jsonl golden/examples/mixed.jsonl
  orbridge normalize --origin azure --out items.jsonl --report losses.jsonl logs.jsonl
  cat stream.sse | orbridge normalize -
`;

/**
 * `--repair double-encoded`: the record's calls with arguments encoded twice,
 * copied and decoded once (the normalizer keeps the items it read for the
 * conversation so far); a repair for each, naming its item.
 */
function repairItems(record: Extract<NormalizedRecord, { kind: "items" }>): Loss[] {
  const repairs: Loss[] = [];
  record.items = record.items.map((entry) => {
    if ((entry.item as { type?: unknown }).type !== "function_call") return entry;
    const item = { ...entry.item };
    const found = repairDoubleEncoded(item);
    if (found.length === 0) return entry;
    repairs.push(...found.map((repair) => ({ ...repair, detail: `item ${entry.provenance.index}: ${repair.detail}` })));
    return { ...entry, item };
  });
  return repairs;
}

export const normalizeCommand: Command = {
  async run(argv, io) {
    const options = {
      for: { value: true, choices: TARGETS },
      origin: { value: true },
      "max-line-bytes": { value: true },
      ...INPUT_OPTIONS,
      out: { value: true },
      report: { value: true },
      "keep-repeats": {},
      repair: { value: true, choices: ["double-encoded"] },
      "reasoning-field": { value: true, choices: chat.reasoningFields },
      "id-map": { value: true },
    };
    const args = await commandArgs(argv, options, help, io.stdout);
    if (!args) return 0;
    const origin = stringOption(args, "origin");
    if (origin !== undefined && !/^[a-z0-9][a-z0-9_.-]*$/i.test(origin)) throw new UsageError(`--origin must be a slug such as "openai" (got "${origin}")`);
    const readOptions = inputOptions(args);
    const sources = await checkInputs(args.operands, io.stdin);
    const { output, report } = openOutputs(stringOption(args, "out"), stringOption(args, "report"), sources, io.stdout, { stdin: io.stdin, stderr: io.stderr }, { outputs: [["--id-map", stringOption(args, "id-map")]] });
    const out = new LineWriter(output.stream);
    const normalizer = new JournalNormalizer({ origin, keepRepeats: args.options["keep-repeats"] === true });
    const target = stringOption(args, "for");
    const reasoningField = stringOption(args, "reasoning-field");
    if (reasoningField !== undefined && target !== "chat-completions") {
      throw new UsageError("--reasoning-field names the Chat field that takes reasoning: it goes with --for chat-completions");
    }
    const rewriter = target !== undefined && isTarget(target) ? new TargetRewriter(target, { reasoningField, profile: profileOf(target) }) : undefined;
    const idMapPath = stringOption(args, "id-map");
    if (idMapPath !== undefined && rewriter === undefined) throw new UsageError("--id-map writes the call ids --for rewrites: it goes with --for");
    const idMap = idMapPath === undefined ? undefined : atomicFileOutput(idMapPath);
    const progress = progressFor(sources, io.stderr);
    const counts = { lines: 0, records: 0, items: 0, errors: 0, losses: 0, leftBehind: 0, synthesized: 0, repeated: 0, changes: 0, repaired: 0 };
    const repairing = stringOption(args, "repair") === "double-encoded";
    const multiple = sources.length > 1;
    const numberTexts = new LineNumberTexts();
    const nameOrders = new LineIndexNameOrders();
    // With --record, each item goes back into the wrapper of the line it came from.
    const wrappers = readOptions.record === undefined ? undefined : new LineWrappers();
    const inWrapper = async (text: string, place: { source?: string; line: number }): Promise<string> => {
      if (wrappers === undefined) return text;
      const wrapper = wrappers.of(place.source, place.line);
      if (wrapper !== undefined) return rewrap(wrapper, text);
      await reportLosses([{ path: "", code: "form_changed", detail: "the wrapper of this line is no longer held: the item is written without it" }], place);
      return text;
    };
    let lastSource: string | undefined;

    const emitItems = async (rewritten: Rewritten) => {
      for (const change of rewritten.changes) {
        counts.changes += 1;
        const { source, ...rest } = change;
        await report?.write({ ...(multiple ? { source } : {}), ...rest });
      }
      for (const { item, provenance } of rewritten.items) {
        counts.items += 1;
        const restored: Loss[] = [];
        const texts = numberTexts.between(provenance.line, provenance.line);
        await out.line(await inWrapper(writtenWith(JSON.stringify(item), texts, restored), provenance));
        restored.push(...infiniteNumberLosses([item], texts));
        await reportLosses(restored, { source: provenance.source, line: provenance.line });
      }
    };

    const reportLosses = async (losses: readonly Loss[], record: { source?: string; line: number }) => {
      for (const loss of losses) {
        // A record's own fields are not losses of a conversion, nor is a repair asked for, nor a value made where the record had none: they are counted apart.
        if (loss.code === "left_behind") counts.leftBehind += 1;
        else if (loss.code === "repaired") counts.repaired += 1;
        else if (loss.code === "synthesized") counts.synthesized += 1;
        else counts.losses += 1;
        // A stream's loss names the line of the record it points into.
        await report?.write({ ...(multiple ? { source: record.source } : {}), line: record.line, ...loss });
      }
    };

    const reportError = async (record: { source?: string; line: number }, detail: string) => {
      counts.errors += 1;
      const where = record.source && multiple ? `${record.source}:${record.line}` : `line ${record.line}`;
      await write(io.stderr, `orbridge normalize: ${visibleInLine(where)}: ${visibleInLine(detail)}\n`);
      await report?.write({ ...(multiple ? { source: record.source } : {}), line: record.line, path: "", code: "error", detail });
    };

    const emit = async (records: NormalizedRecord[]) => {
      for (const record of records) {
        counts.records += 1;
        if (record.kind === "error") {
          await reportError(record, record.detail);
          continue;
        }
        // JSON.parse reads any depth, JSON.stringify does not: a record too deep to
        // write is reported whole before any of its items is written.
        let written: string[];
        const restored: Loss[] = [];
        const repairs = repairing ? repairItems(record) : [];
        try {
          // Only the lines the record comes from: a later line's `1.0` is not put back in this record's `1`.
          const texts = numberTexts.between(record.line, record.lastLine ?? record.line);
          written = record.items.map(({ item }) => writtenWith(JSON.stringify(item), texts, restored));
          restored.push(...infiniteNumberLosses(record.items.map(({ item }) => item), texts));
          const forgotten = numberTexts.forgottenFrom(record.line);
          if (forgotten !== undefined) {
            restored.push({ path: "", code: "form_changed", detail: `numbers of lines ${record.line} to ${forgotten} written otherwise than JSON.stringify writes them (0.0, 1E3, 19 digits) were kept for ${LineNumberTexts.WINDOW} lines only: the record is written with them as their doubles write them` });
          }
        } catch (error) {
          await reportError(record, isStackOverflow(error) ? tooDeepItemsDetail(record.items.map(({ item }) => item), "record cannot be written") : `record cannot be written: ${(error as Error).message}`);
          continue;
        }
        counts.repeated += record.repeated;
        // An object reordered is said with its record, unless the record left it out.
        const reordered = nameOrders.take(record.line, record.lastLine ?? record.line, record.losses.map((loss) => ({ line: record.line, ...loss })));
        await reportLosses(rewriter ? [...record.losses, ...reordered] : [...record.losses, ...restored, ...reordered], record);
        await reportLosses(repairs, record);
        if (rewriter) {
          await emitItems(rewriter.push(record.items));
          continue;
        }
        for (const line of written) {
          counts.items += 1;
          await out.line(await inWrapper(line, record));
        }
      }
    };

    const guard = new PrototypeGuard();
    limitHeapGrowth();
    await writeThenCommit([output, report, idMap], progress, async () => {
      for await (const line of inputLines(sources, io, readOptions)) {
        counts.lines += 1;
        guard.tick();
        progress.tick(line.text.length + 1, 1);
        if (line.source !== lastSource) {
          numberTexts.clear();
          nameOrders.clear();
        }
        lastSource = line.source;
        numberTexts.read(line);
        wrappers?.hold(line);
        nameOrders.read(line);
        await emit(normalizer.push(line));
      }
      await emit(normalizer.finish());
      if (rewriter) await emitItems(rewriter.finish());
      guard.check();
      await out.flush();
      if (idMap && rewriter) {
        const map = new LineWriter(idMap.stream);
        for (const entry of rewriter.idMap()) await map.line(JSON.stringify(entry));
        await map.flush();
      }
    });
    const repeated = counts.repeated > 0 ? `, ${counted(counts.repeated, "repeated item")} skipped` : "";
    const changes = rewriter ? `; ${counted(counts.changes, "change")} for ${target}` : "";
    const repaired = repairing ? `, ${counted(counts.repaired, "call")} repaired` : "";
    const leftBehind = `${counts.leftBehind > 0 ? `, ${counted(counts.leftBehind, "record field")} left behind` : ""}${counts.synthesized > 0 ? `, ${counted(counts.synthesized, "value")} synthesized` : ""}`;
    await write(
      io.stderr,
      `read ${counted(counts.lines, "line")}, ${counted(counts.records, "record")}: ${counts.records - counts.errors} emitted (${counted(counts.items, "item")}${repeated}), ${counts.errors} reported; ${counted(counts.losses, "loss", "losses")}${leftBehind}${repaired}${changes}\n`,
    );
    return (counts.errors > 0 ? 1 : 0) as ExitCode;
  },
};
