// Generated journals through `orbridge normalize`: every line is emitted or
// reported, with its number, and the summary's counts add up.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

const folder = mkdtempSync(join(tmpdir(), "orbridge-journal-property-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** One generated line: its bytes, and what normalize must make of it. */
interface Line {
  bytes: Buffer;
  outcome: { kind: "blank" } | { kind: "emitted"; items: number } | { kind: "reported" };
}

const words = fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 });
const callId = fc.stringMatching(/^call_[A-Za-z0-9]{6,12}$/);
const toolName = fc.constantFrom("get_latest_sales_report", "lookup_weather", "send_reminder");
const argumentsText = fc.oneof(fc.json({ maxDepth: 2 }), fc.constantFrom("{\"region\":\"apac\"}", "{}", ""));
const line = (record: unknown, items: number): Line => ({ bytes: Buffer.from(JSON.stringify(record)), outcome: { kind: "emitted", items } });

const responsesItem = fc.oneof(
  fc.record({ type: fc.constant("message"), role: fc.constantFrom("user", "assistant", "system", "developer"), content: words }).map((item) => line(item, 1)),
  fc.record({ type: fc.constant("function_call"), call_id: callId, name: toolName, arguments: argumentsText, status: fc.constantFrom("completed", "in_progress", "incomplete") }).map((item) => line(item, 1)),
  fc.record({ type: fc.constant("function_call_output"), call_id: callId, output: words }).map((item) => line(item, 1)),
  fc.record({ type: fc.constant("openai:web_search_call"), id: fc.constant("ws_001"), status: fc.constant("completed") }).map((item) => line(item, 1)),
);

const toolCall = fc.record({ id: callId, type: fc.constant("function"), function: fc.record({ name: toolName, arguments: argumentsText }) });
const chatMessage = fc.oneof(
  fc.record({ role: fc.constantFrom("user", "system", "developer"), content: words }).map((message) => line(message, 1)),
  fc.record({ role: fc.constant("assistant"), content: words }).map((message) => line(message, 1)),
  // Text next to tool calls is kept: one message item, then one call item each.
  fc.record({ role: fc.constant("assistant"), content: fc.option(words, { nil: null }), tool_calls: fc.array(toolCall, { minLength: 1, maxLength: 3 }) }).map((message) =>
    line(message, (message.content === null ? 0 : 1) + message.tool_calls.length),
  ),
  fc.record({ role: fc.constant("tool"), tool_call_id: callId, content: words }).map((message) => line(message, 1)),
);

// Lines of no known kind: text that is not JSON (never SSE framing, which starts
// with a field name or ":"), JSON values of no known kind, and bytes that are not UTF-8.
const reported = (bytes: Buffer): Line => ({ bytes, outcome: { kind: "reported" } });
const garbage = fc.oneof(
  fc.string({ maxLength: 30 }).map((text) => reported(Buffer.from("!" + text.replace(/[\r\n]/g, " ")))),
  fc.constantFrom("[1,2]", "42", "\"just text\"", "null", "true", "{\"foo\":1}", "{\"type\":", "{\"role\":\"wizard\",\"content\":\"x\"}").map((text) => reported(Buffer.from(text))),
  fc.uint8Array({ minLength: 1, maxLength: 8 }).map((bytes) => reported(Buffer.concat([Buffer.from("{\"content\":\""), Buffer.from([0xff, ...[...bytes].map((byte) => (byte === 0x0a || byte === 0x0d ? 0xfe : byte))]), Buffer.from("\"}")]))),
);
const blank = fc.constantFrom("", "  ", "\t").map((text): Line => ({ bytes: Buffer.from(text), outcome: { kind: "blank" } }));

const journal = fc.array(fc.oneof({ arbitrary: responsesItem, weight: 3 }, { arbitrary: chatMessage, weight: 3 }, { arbitrary: garbage, weight: 2 }, { arbitrary: blank, weight: 1 }), { maxLength: 25 });

/** Whether the bytes are one JSON document whose first character is "[": what the readers take for an array of records. */
function isOneJsonArray(bytes: Buffer): boolean {
  const text = bytes.toString("utf8").replace(/^\uFEFF/, "").trim();
  if (!text.startsWith("[")) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const SUMMARY = /^read (\d+) lines?, (\d+) records?: (\d+) emitted \((\d+) items?\), (\d+) reported; \d+ loss(?:es)?$/;

describe("normalize on generated journals", () => {
  test("read = emitted + reported, each reported line named, each item written", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(journal, fc.boolean(), fc.boolean(), async (lines, crlf, finalNewline) => {
        const ending = Buffer.from(crlf ? "\r\n" : "\n");
        const parts = lines.flatMap((l, i) => (i < lines.length - 1 || finalNewline ? [l.bytes, ending] : [l.bytes]));
        // A file that is one JSON array is read as an array of records, not as a
        // line (test/cli/inputs.test.ts): this property is about JSONL journals.
        fc.pre(!isOneJsonArray(Buffer.concat(parts)));
        const path = join(folder, `journal-${run++}.jsonl`);
        writeFileSync(path, Buffer.concat(parts));
        const result = await runOrbridge(["normalize", path]);

        const stderr = result.stderr.trimEnd().split("\n");
        const summary = SUMMARY.exec(stderr[stderr.length - 1] ?? "");
        expect(summary, result.stderr).not.toBeNull();
        const [readLines, records, emitted, items, reportedCount] = summary!.slice(1).map(Number);
        const expected = {
          lines: lines.length,
          records: lines.filter((l) => l.outcome.kind !== "blank").length,
          emitted: lines.filter((l) => l.outcome.kind === "emitted").length,
          items: lines.reduce((sum, l) => sum + (l.outcome.kind === "emitted" ? l.outcome.items : 0), 0),
          reported: lines.filter((l) => l.outcome.kind === "reported").length,
        };
        // A blank last line without its newline is not a line at all.
        if (!finalNewline && lines.length > 0 && lines[lines.length - 1].bytes.length === 0) expected.lines -= 1;
        expect({ lines: readLines, records, emitted, items, reported: reportedCount }).toEqual(expected);
        expect(emitted + reportedCount).toBe(records);

        const reportedLines = stderr.slice(0, -1).map((text) => Number(/^orbridge normalize: line (\d+): /.exec(text)?.[1]));
        expect(reportedLines).toEqual(lines.flatMap((l, i) => (l.outcome.kind === "reported" ? [i + 1] : [])));

        const written = result.stdout === "" ? [] : result.stdout.trimEnd().split("\n");
        expect(written).toHaveLength(expected.items);
        for (const text of written) expect(JSON.parse(text)).toBeTypeOf("object");
        expect(result.code).toBe(expected.reported > 0 ? 1 : 0);
      }),
      { numRuns: 60 },
    );
  });
});
