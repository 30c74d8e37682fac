// Interleaving does not matter: with a conversation key, the verdicts of a
// journal as written are those of the same journal sorted by conversation, and
// those of each conversation gated alone, once line numbers are mapped back to
// each conversation's own lines.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { Readable } from "node:stream";
import { gateJournal, readLines, ToolRegistry, type ConversationGateRecord, type JournalLine } from "../../src/index.js";
import { generateConversations, inOrder, sortedByConversation, TOOLS, type GeneratedConversation, type Journal } from "../support/interleaved-journal.js";

const registry = () => ToolRegistry.fromToolsFile(TOOLS, "tools");

async function gate(lines: ReadonlyArray<JournalLine | string>, conversation?: string): Promise<ConversationGateRecord[]> {
  const records: ConversationGateRecord[] = [];
  for await (const record of gateJournal(lines, { registry: registry(), conversation })) records.push(record);
  return records;
}

/** The journal's lines as readLines gives them, numbered from 1: filtered, each keeps its number. */
async function numbered(journal: Journal): Promise<JournalLine[]> {
  const lines: JournalLine[] = [];
  for await (const line of readLines("-", Readable.from([journal.lines.map((text) => `${text}\n`).join("")]))) lines.push(line);
  return lines;
}

/**
 * A verdict with every line number it holds (its line, a related line, the lines
 * its detail names) written as the conversation's own line instead: `#k` for its
 * k-th line.
 */
function mappedBack(record: ConversationGateRecord, ownLine: (line: number) => number): ConversationGateRecord {
  const own = (line: number) => `#${ownLine(line)}`;
  const text = (detail: string) => detail.replace(/\blines (\d+)-(\d+)/g, (_, a, b) => `lines ${own(Number(a))}-${own(Number(b))}`).replace(/\bline (\d+)/g, (_, a) => `line ${own(Number(a))}`);
  const { source: _source, ...rest } = record;
  return {
    ...rest,
    line: ownLine(record.line),
    detail: text(record.detail),
    findings: record.findings.map((finding) => ({ ...finding, detail: text(finding.detail), ...(finding.related_line === undefined ? {} : { related_line: ownLine(finding.related_line) }) })),
  };
}

/** The verdicts of each conversation, in the order given, mapped back to its own lines. */
function byConversation(records: readonly ConversationGateRecord[], journal: Journal, conversations: readonly GeneratedConversation[]): ConversationGateRecord[][] {
  const index = new Map(conversations.map((conversation, i) => [conversation.key, i]));
  const grouped = conversations.map((): ConversationGateRecord[] => []);
  for (const record of records) {
    const owner = index.get(record.conversation!);
    if (owner === undefined) throw new Error(`a verdict of no generated conversation: ${JSON.stringify(record)}`);
    const { conversation: _conversation, ...verdict } = record;
    grouped[owner].push(mappedBack(verdict, (line) => journal.local[line - 1] + 1));
  }
  return grouped;
}

/** A journal and one interleaving of its conversations' lines, each conversation's order kept. */
const interleaved = fc
  .record({ seed: fc.nat(), conversations: fc.integer({ min: 2, max: 10 }), numericKeys: fc.boolean() })
  .chain((options) => {
    const conversations = generateConversations(options);
    const picks = conversations.flatMap((conversation, index) => conversation.lines.map(() => index));
    // Picks sorted by random weights, stably: the k-th pick of a conversation still gives its k-th line.
    return fc.array(fc.nat({ max: 1000 }), { minLength: picks.length, maxLength: picks.length }).map((weights) => {
      const order = picks.map((index, at) => ({ index, weight: weights[at], at })).sort((a, b) => a.weight - b.weight || a.at - b.at);
      return { conversations, journal: inOrder(conversations, order.map((pick) => pick.index)) };
    });
  });

describe("gate with a conversation key", () => {
  test("gives each conversation, however interleaved, the verdicts it gets sorted by conversation and alone", async () => {
    await fc.assert(
      fc.asyncProperty(interleaved, async ({ conversations, journal }) => {
        const sorted = sortedByConversation(conversations);
        const asWritten = await gate(await numbered(journal), "/conversation_id");
        const bySorted = await gate(await numbered(sorted), "/conversation_id");
        const alone = await Promise.all(conversations.map((conversation) => gate(conversation.lines).then((records) => records.map((record) => mappedBack(record, (line) => line)))));

        expect(byConversation(asWritten, journal, conversations)).toEqual(alone);
        expect(byConversation(bySorted, sorted, conversations)).toEqual(alone);
        // In journal order: no verdict comes before one of an earlier line.
        expect(asWritten.map((record) => record.line)).toEqual(asWritten.map((record) => record.line).sort((a, b) => a - b));
      }),
      { numRuns: 15 },
    );
  }, 120_000);

  test("each conversation's verdicts are those of its lines gated alone with the same line numbers, to the letter", async () => {
    await fc.assert(
      fc.asyncProperty(interleaved, async ({ conversations, journal }) => {
        const lines = await numbered(journal);
        const asWritten = await gate(lines, "/conversation_id");
        for (const [index, conversation] of conversations.entries()) {
          const alone = await gate(lines.filter((_, at) => journal.owner[at] === index));
          expect(asWritten.filter((record) => record.conversation === conversation.key).map(({ conversation: _key, ...record }) => record)).toEqual(alone);
        }
      }),
      { numRuns: 10 },
    );
  }, 120_000);
});
