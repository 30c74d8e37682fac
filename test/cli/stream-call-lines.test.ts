// A call assembled from a stream is where its arguments became final: the gate's
// verdict and normalize's provenance name the line of the record that completed
// it (the chunk with its choice's finish_reason, the event that finished the
// item), not the stream's first line, in one thread and in two.
import { readFileSync } from "node:fs";
import { PassThrough, Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { gatedBatches } from "../../src/cli/gate-jobs.js";
import { normalizeJournal } from "../../src/journal/normalize.js";
import { runOrbridge } from "../support/run-cli.js";

const chunksOf = (name: string) => readFileSync(`golden/streams/${name}/chunks.jsonl`, "utf8").trimEnd().split("\n");
const question = JSON.stringify({ role: "user", content: "Is it raining where I am?" });
// Line 1 the question; lines 2-4 a Groq stream whose call is whole on line 3 and
// finished on line 4; lines 5-18 an Open Responses stream whose call is done on
// line 17 (output_item.done), before response.completed on line 18.
const journal = [question, ...chunksOf("chat-groq-whole-call"), ...chunksOf("responses-extension-events")].join("\n") + "\n";
const GROQ_CALL = "tk85n1k4m";
const AZURE_CALL = "call_H5DxLSFnsGhiROnUiDHmgyc8";

const verdicts = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .map((verdict) => [verdict.line, verdict.index, verdict.type, verdict.call_id ?? null]);

/** The gate's output in `jobs` threads, the second one started whatever the journal's size. */
async function gated(jobs: 1 | 2, format: "text" | "json"): Promise<{ text: string; threads: number[] }> {
  const io = { stdin: Readable.from([Buffer.from(journal)]), stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
  let text = "";
  const threads = new Set<number>();
  for await (const batch of gatedBatches(["-"], io, { jobs, read: {}, normalize: {}, gate: { schema: true, omitSource: true }, format, colour: false, workerMinBytes: 0 })) {
    text += batch.text;
    threads.add(batch.threads);
  }
  return { text, threads: [...threads] };
}

describe("gate", () => {
  test("JSON verdicts name the line that completed each streamed call", async () => {
    const result = await runOrbridge(["gate", "--format", "json", "--jobs", "1"], journal);
    expect(verdicts(result.stdout)).toEqual([
      [1, 0, "message", null],
      [4, 0, "function_call", GROQ_CALL],
      [17, 0, "function_call", AZURE_CALL],
    ]);
    expect(result.code).toBe(1);
  });

  test("the text headline says the same lines", async () => {
    const result = await runOrbridge(["gate"], journal);
    expect(result.stdout.split("\n").filter((line) => /^line \d+/.test(line)).map((line) => line.split("  ").slice(0, 2).join("  "))).toEqual([
      "line 1  message -",
      `line 4  function_call ${GROQ_CALL}`,
      `line 17  function_call ${AZURE_CALL}`,
    ]);
  });

  test.each(["json", "text"] as const)("in two threads, %s verdicts are those of one thread, lines included", async (format) => {
    const [one, two] = [await gated(1, format), await gated(2, format)];
    expect([one.threads, two.threads]).toEqual([[1], [2]]);
    expect(two.text).toBe(one.text);
    if (format === "json") expect(verdicts(two.text)).toEqual(verdicts((await runOrbridge(["gate", "--format", "json"], journal)).stdout));
  });

  test("a Chat stream cut before its finish_reason: the call, in_progress, is at the stream's last chunk", async () => {
    const [opening, call] = chunksOf("chat-groq-whole-call");
    const result = await runOrbridge(["gate", "--format", "json"], [question, opening, call, question].join("\n") + "\n");
    expect(verdicts(result.stdout)).toEqual([
      [1, 0, "message", null],
      [3, 0, "function_call", GROQ_CALL],
      [4, 0, "message", null],
    ]);
    expect(JSON.parse(result.stdout.split("\n")[1]!).reason).toBe("status");
  });
});

describe("normalize", () => {
  test("each streamed item's provenance is the line that completed it; the record keeps the line its stream began on", async () => {
    const records = [];
    for await (const record of normalizeJournal(journal.trimEnd().split("\n"))) records.push(record);
    expect(records.map((record) => (record.kind === "items" ? { line: record.line, items: record.items.map(({ item, provenance }) => [(item as { type: string }).type, provenance.line, provenance.index]) } : record))).toEqual([
      { line: 1, items: [["message", 1, 0]] },
      { line: 2, items: [["function_call", 4, 0]] },
      { line: 5, items: [["function_call", 17, 0]] },
    ]);
  });
});
