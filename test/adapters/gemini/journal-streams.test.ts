// Gemini streams through the commands. Chunks kept one per JSON line (Vertex
// streaming with partialArgs, as vercel/ai stores them) are one response, as
// the same chunks in SSE text are, told by their shape and their responseId,
// never by the file's name. Every chunk says the response's own fields again:
// normalize leaves each behind on its line, convert writes the last and reports
// the earlier values it replaced. The golden cases are the recordings' shapes;
// their assembled.json and record.json say what the assembler gives, and the
// commands must give the same.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { withoutNeutralFields } from "../../support/response-neutrals.js";
import { runOrbridge } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";
import { specErrors } from "../../support/spec-validator.js";

type Json = Record<string, unknown>;

const CASE = new URL("../../../golden/gemini/stream-vertex-partial-args/", import.meta.url);
const chunks = readFileSync(new URL("chunks.jsonl", CASE), "utf8");
const golden = (file: string) => JSON.parse(readFileSync(new URL(file, CASE), "utf8")) as Json[];
const linesOf = (text: string): Json[] => text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as Json);
const sse = (text: string) => linesOf(text).map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join("");

describe("chunks one per JSON line", () => {
  test("normalize gives the items of one response, as the assembler does", async () => {
    const result = await runOrbridge(["normalize"], chunks);
    expect(result.code).toBe(0);
    expect(linesOf(result.stdout)).toEqual(golden("assembled.json")[0]!.items);
    expect(result.stderr).toBe("read 15 lines, 1 record: 1 emitted (6 items), 0 reported; 16 losses, 61 record fields left behind, 5 values synthesized\n");
  });

  test("the same chunks in SSE text give the same items", async () => {
    const [lines, events] = [await runOrbridge(["normalize"], chunks), await runOrbridge(["normalize"], sse(chunks))];
    expect(events.stdout).toBe(lines.stdout);
  });

  test("convert writes one response object, which the official schema takes", async () => {
    const result = await runOrbridge(["convert", "--to", "responses"], chunks);
    expect(result.code).toBe(0);
    const written = linesOf(result.stdout);
    expect(written).toEqual([golden("record.json")[0]!.value]);
    expect(specErrors("ResponseResource", written[0])).toEqual([]);
  });

  test("a finished chunk with another responseId is a response of its own", async () => {
    const [last, ...rest] = linesOf(chunks).reverse();
    const other = JSON.stringify({ ...last, responseId: "another" });
    const result = await runOrbridge(["normalize"], [...rest.reverse().map((chunk) => JSON.stringify(chunk)), other].join("\n") + "\n");
    expect(result.stderr).toMatch(/^read 15 lines, 2 records: 2 emitted \(6 items\)/);
    // The stream whose last chunk went to another response never said it finished: its calls are not completed.
    expect(linesOf(result.stdout).map((item) => [item.type, item.status ?? null])).toEqual([
      ["reasoning", null],
      ["function_call", "in_progress"],
      ["function_call", "in_progress"],
      ["function_call", "in_progress"],
      ["function_call", "in_progress"],
      ["message", "completed"],
    ]);
  });

  test("a stored response after a stored response is not taken for a chunk of it", async () => {
    const stored = { candidates: [{ content: { role: "model", parts: [{ text: "Done." }] }, finishReason: "STOP" }], modelVersion: "gemini-2.5-flash", responseId: "same" };
    const result = await runOrbridge(["normalize"], `${JSON.stringify(stored)}\n${JSON.stringify(stored)}\n`);
    expect(result.stderr).toMatch(/^read 2 lines, 2 records: 2 emitted \(2 items\)/);
  });

  test("a finished response followed by another chunk of its responseId is one stream, whose calls the gate blocks", async () => {
    const tools = join(scratchFolder("gemini-late-chunk"), "tools.json");
    writeFileSync(tools, JSON.stringify([{ type: "function", name: "get_weather", parameters: { type: "object", additionalProperties: false, required: ["city"], properties: { city: { type: "string" }, n: { type: "integer", maximum: 10 } } } }]));
    const finished = { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "paris" } } }] }, finishReason: "STOP" }], responseId: "r1" };
    // What follows says more of the call, or that the response did not end well: a reader of chunks reads it with the first.
    const later = [
      { candidates: [{ content: { role: "model", parts: [{ functionCall: { partialArgs: [{ jsonPath: "$.n", numberValue: 99 }] } }] }, finishReason: "STOP" }], responseId: "r1" },
      { candidates: [{ finishReason: "MALFORMED_FUNCTION_CALL" }], responseId: "r1" },
      { candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "SAFETY" }], responseId: "r1" },
    ];
    for (const chunk of later) {
      const result = await runOrbridge(["gate", "--tools", tools, "--format", "json"], `${JSON.stringify(finished)}\n${JSON.stringify(chunk)}\n`);
      expect(result.code).toBe(1);
      const verdicts = linesOf(result.stdout).filter((verdict) => verdict.type === "function_call");
      expect(verdicts.length).toBeGreaterThan(0);
      for (const verdict of verdicts) expect(verdict.reason).not.toBe("ok");
    }
    // Written as Gemini, the lines go through as they came, their streams unassembled.
    const lines = `${JSON.stringify(finished)}\n${JSON.stringify(later[1])}\n`;
    expect((await runOrbridge(["convert", "--to", "gemini"], lines)).stdout).toBe(lines);
    // The response alone, before another record, or written again whole, is a stored response: its call runs.
    for (const text of [`${JSON.stringify(finished)}\n`, `${JSON.stringify(finished)}\n{"type":"function_call_output","call_id":"x","output":"y"}\n`, `${JSON.stringify(finished)}\n${JSON.stringify({ ...finished, responseId: "r2" })}\n`]) {
      const result = await runOrbridge(["gate", "--tools", tools, "--format", "json"], text);
      expect(linesOf(result.stdout).find((verdict) => verdict.type === "function_call")!.reason).toBe("ok");
    }
  });
});

describe("an SSE stream whose chunks each say their usage", () => {
  const CASE_SSE = new URL("../../../golden/gemini/stream-sse-text-chunks/", import.meta.url);
  const stream = readFileSync(new URL("stream.sse", CASE_SSE), "utf8");
  const record = (JSON.parse(readFileSync(new URL("record.json", CASE_SSE), "utf8")) as Json[])[0]!;
  const reportOf = (file: string) => linesOf(readFileSync(file, "utf8")).map(({ line, path, code, detail }) => ({ line, path, code, detail }));

  test("convert writes the response object with the last usage, and reports the first chunk's on its line", async () => {
    const report = join(scratchFolder("gemini-sse"), "report.jsonl");
    const result = await runOrbridge(["convert", "--to", "responses", "--report", report], stream);
    expect(result.code).toBe(0);
    expect(linesOf(result.stdout)).toEqual([record.value]);
    expect(withoutNeutralFields(reportOf(report))).toEqual(record.losses);
  });

  test("normalize leaves each chunk's usage, model and id behind on its line", async () => {
    const report = join(scratchFolder("gemini-sse"), "report.jsonl");
    await runOrbridge(["normalize", "--report", report], stream);
    expect(reportOf(report).filter((entry) => entry.code === "left_behind").map((entry) => `${entry.line} ${entry.path}`)).toEqual([
      "1 /usageMetadata",
      "1 /modelVersion",
      "1 /responseId",
      "3 /usageMetadata",
      "3 /modelVersion",
      "3 /responseId",
      "3 /candidates/0/finishReason",
    ]);
  });
});
