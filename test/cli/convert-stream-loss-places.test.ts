// Every loss convert reports of a recorded stream or a whole record, in any
// target, points into the record on its line: a path that record holds, or ""
// for the record as a whole (a synthesized value points into what was written
// instead). Run over every stream, request body and response the golden cases
// of the provider envelopes hold.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { resolve, tokensOf } from "../support/json-pointer.js";
import { scratchFolder } from "../support/scratch.js";

const STREAM_FILES = ["events.jsonl", "stream.sse", "chunks.jsonl"];
const streams = ["golden/anthropic", "golden/bedrock", "golden/gemini", "golden/streams"].flatMap((dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => STREAM_FILES.map((file) => join(dir, entry.name, file)).filter((path) => existsSync(path))),
);

/** The JSON record of a line: a JSONL line, or the payload of the SSE event whose first line it is (its `event:` line, else its `data:`). */
function recordOn(lines: readonly string[], line: number): unknown {
  let at = line - 1;
  while (at < lines.length && /^(event|id|retry):/.test(lines[at]!)) at += 1;
  try {
    return JSON.parse((lines[at] ?? "").replace(/^data:\s?/, ""));
  } catch {
    return undefined;
  }
}

/** Each loss of converting `file` to every envelope, but a synthesized one, whose path the record on its line does not hold. */
async function danglingLosses(file: string, recordOfLine: (line: number) => unknown): Promise<unknown[]> {
  const report = join(scratchFolder("convert-stream-loss-places"), "report.jsonl");
  const dangling: unknown[] = [];
  for (const target of ["responses", "chat", "anthropic", "gemini", "bedrock"]) {
    await runOrbridge(["convert", "--to", target, "--report", report, file]);
    for (const row of readFileSync(report, "utf8").split("\n").filter((one) => one !== "")) {
      const loss = JSON.parse(row) as { line: number; path: string; code: string };
      if (loss.code === "synthesized" || loss.path === "") continue;
      const record = recordOfLine(loss.line);
      if (record === undefined || !resolve(record, tokensOf(loss.path)).found) dangling.push({ target, ...loss });
    }
  }
  return dangling;
}

describe("convert's losses of a recorded stream", { timeout: 120_000 }, () => {
  test("the golden cases hold streams of every envelope", () => {
    expect(streams.length).toBeGreaterThan(30);
  });

  test.each(streams)("%s: in every target, each loss points into the record on its line", async (file) => {
    const lines = readFileSync(file, "utf8").split("\n");
    expect(await danglingLosses(file, (line) => recordOn(lines, line))).toEqual([]);
  });
});

const WHOLE_FILES = ["anthropic.json", "bedrock.json", "gemini.json"];
const wholeRecords = ["golden/anthropic", "golden/bedrock", "golden/gemini"].flatMap((dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^(request|response)-/.test(entry.name))
    .flatMap((entry) => WHOLE_FILES.map((file) => join(dir, entry.name, file)).filter((path) => existsSync(path))),
);

describe("convert's losses of a provider's request body or response", { timeout: 120_000 }, () => {
  test("the golden cases hold request bodies and responses of every provider envelope", () => {
    expect(wholeRecords.length).toBeGreaterThan(20);
  });

  test.each(wholeRecords)("%s: in every target, each loss points into the record", async (file) => {
    const record = JSON.parse(readFileSync(file, "utf8")) as unknown;
    const input = join(scratchFolder("convert-stream-loss-places"), "record.jsonl");
    writeFileSync(input, JSON.stringify(record) + "\n");
    expect(await danglingLosses(input, () => record)).toEqual([]);
  });
});
