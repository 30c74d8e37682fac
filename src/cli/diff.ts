// `orbridge diff ORIGIN REPLAY`: the last look before sending.
import { JournalDiffer, type Difference, type DiffNote, type ItemPlace } from "../diff.js";
import type { JournalItem } from "../models/journal-item.js";
import { argumentsNotAsWritten, normalizeLines } from "../journal/normalize.js";
import { commandArgs, stringOption } from "./args.js";
import type { Command } from "./command.js";
import type { ReadOptions } from "../journal/read.js";
import { checkInputs, inputLines, maxLineBytesOption } from "./inputs.js";
import { UsageError, write, type CommandIO, type ExitCode } from "./io.js";
import { visibleInLine } from "../models/quote-visible.js";

const help = `Usage: orbridge diff ORIGIN REPLAY [--format text|json] [--max-line-bytes N]

Lines up the items of two journals and reports what would make the replay
differ from what the origin provider answered:
  type_changed       the item type differs (a function_call that became an
                     extension such as "openai:function_call" is never a call)
  call_id_mismatch   the call_ids differ
  name_changed       the function names differ, or their namespaces (a
                     namespace's function is another tool than the
                     top-level function of its name)
  arguments_changed  the arguments differ as JSON values (spacing and member
                     order are no difference; a member named twice, text that
                     is not JSON and numbers written otherwise are compared as
                     written). Arguments a record holds as an object (Anthropic
                     input, Gemini args, Bedrock input) are compared by the
                     values of their numbers; one holding a number a double
                     does not stand for (9007199254740993, 1e400) cannot be
                     compared as written, and is always reported
  status_changed     a call's status differs (only a completed call runs); a
                     status left out is no difference beside "completed"
  output_changed     an output tells the model something else (a text and a
                     list of one text part holding it are the same)
  missing_in_replay  an origin item with no counterpart
  extra_in_replay    a replay item with no counterpart
Items are lined up by call_id, then by item id, then, between those, items
that say the same and items of the same type, in order: an item dropped or
added is one difference, not a shift of every pair after it. A stretch too
large to line up that way is lined up by position, and a note on stderr says so.
Both journals are normalized first, so either may be in either envelope.

Options:
  --format FORMAT  text (default) or json (one JSON object per difference)
  --max-line-bytes N
                   report a line longer than N bytes as a line that could not
                   be read, without reading it into memory, and go on
  -h, --help       show this help

Exit status: 0 no difference, 1 some difference (or a line that could not be
read), 2 usage error, unreadable input or an output that cannot be
written.

Example:
  orbridge diff golden/examples/origin.jsonl golden/examples/replay.jsonl
`;

export const diffCommand: Command = {
  async run(argv, io) {
    const args = await commandArgs(argv, { format: { value: true, choices: ["text", "json"] }, "max-line-bytes": { value: true } }, help, io.stdout);
    if (!args) return 0;
    if (args.operands.length !== 2) throw new UsageError("diff needs two journals: ORIGIN REPLAY");
    if (args.operands.every((operand) => operand === "-")) throw new UsageError("only one of ORIGIN and REPLAY can be stdin");
    const [origin, replay] = await checkInputs(args.operands, io.stdin);
    const format = stringOption(args, "format") ?? "text";
    const readOptions = maxLineBytesOption(stringOption(args, "max-line-bytes"));
    const errors = { count: 0 };
    const differ = new JournalDiffer();
    await Promise.all([
      feed(itemsOf(origin, io, errors, readOptions), ({ item, notAsWritten }) => differ.pushOrigin(item, notAsWritten)),
      feed(itemsOf(replay, io, errors, readOptions), ({ item, notAsWritten }) => differ.pushReplay(item, notAsWritten)),
    ]);
    const differences = differ.finish();
    for (const difference of differences) {
      await write(io.stdout, format === "json" ? JSON.stringify(difference) + "\n" : textLine(difference));
    }
    for (const note of differ.notes) await write(io.stderr, noteLine(note));
    const notes = differ.notes.length > 0 ? `; ${differ.notes.length} stretches lined up by position` : "";
    await write(io.stderr, `${differences.length} ${differences.length === 1 ? "difference" : "differences"}${notes}${errors.count > 0 ? `; ${errors.count} ${errors.count === 1 ? "line" : "lines"} could not be read` : ""}\n`);
    return (differences.length > 0 || errors.count > 0 ? 1 : 0) as ExitCode;
  },
};

/** An item, and why its arguments are not the text its record wrote, when they are not. */
interface SideItem {
  item: JournalItem;
  notAsWritten?: string;
}

async function feed(items: AsyncIterable<SideItem>, push: (item: SideItem) => void): Promise<void> {
  for await (const item of items) push(item);
}

async function* itemsOf(source: string, io: CommandIO, errors: { count: number }, readOptions: ReadOptions): AsyncGenerator<SideItem> {
  for await (const record of normalizeLines(inputLines([source], io, readOptions))) {
    if (record.kind === "error") {
      errors.count += 1;
      await write(io.stderr, `orbridge diff: ${visibleInLine(source)}:${record.line}: ${visibleInLine(record.detail)}\n`);
      continue;
    }
    for (const [index, item] of record.items.entries()) yield { item, notAsWritten: argumentsNotAsWritten(record, index) };
  }
}

function textLine(difference: Difference): string {
  return `${difference.code}  origin ${placeText(difference.origin)}  replay ${placeText(difference.replay)}  ${difference.detail}\n`;
}

function noteLine(note: DiffNote): string {
  return `orbridge diff: note: from origin ${placeText(note.origin)} and replay ${placeText(note.replay)}: ${note.detail}\n`;
}

function placeText(place: ItemPlace | undefined): string {
  return place ? `line ${place.line}${place.index > 0 ? `.${place.index}` : ""}` : "-";
}
