// The recorded Gemini and Bedrock traffic of ../shared/corpus/providers/, as
// the journals a logger would write (each request body, then its response: a
// JSON line, SSE text, or a ConverseStream's events as JSON lines), through the
// CLI: `convert --to` every envelope and back to its own, every line accounted
// for (read = converted + reported, nothing reported as an error). The corpus is
// not part of a clone, so without it these tests are skipped and say so.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { parse as parseYaml } from "yaml";
import { decodeEventStream, eventOfFrame } from "../../adapters/bedrock/event-stream.js";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";

const CORPUS = fileURLToPath(new URL("../../../shared/corpus/providers/", import.meta.url));
const present = existsSync(CORPUS);
if (!present) console.warn(`provider corpus: ${CORPUS} is absent; the recorded Gemini and Bedrock journals are not converted`);

type Json = Record<string, unknown>;
const PROVIDERS = ["gemini", "bedrock"] as const;
const ENVELOPES = ["chat", "responses", "anthropic", "gemini", "bedrock"] as const;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));
}

/** The journal lines a logger would have written for one recording. */
function journalOf(path: string): string[] {
  if (path.endsWith(".chunks.txt")) return readFileSync(path, "utf8").split("\n").filter((line) => line.trim() !== "");
  const lines: string[] = [];
  const cassette = parseYaml(readFileSync(path, "utf8")) as { interactions: Array<{ request: Json; response: Json }> };
  for (const { request, response } of cassette.interactions) {
    lines.push(JSON.stringify(request.parsed_body ?? JSON.parse(String(request.body))));
    const raw = (response.body as Json | undefined)?.string;
    if (response.parsed_body !== undefined) {
      lines.push(JSON.stringify(response.parsed_body));
    } else if (raw instanceof Uint8Array) {
      for (const frame of decodeEventStream({ bytes: raw }).frames) lines.push(JSON.stringify(eventOfFrame(frame)));
    } else if (typeof raw === "string" && /^\s*data:/m.test(raw)) {
      for (const line of raw.split(/\r?\n/)) if (line.startsWith("data:")) lines.push(line, "");
    } else if (typeof raw === "string") {
      lines.push(JSON.stringify(JSON.parse(raw)));
    }
  }
  return lines;
}

const folder = present ? scratchFolder("corpus-convert") : "";
const journals = present
  ? PROVIDERS.flatMap((provider) =>
      filesUnder(join(CORPUS, provider))
        .filter((path) => path.endsWith(".yaml") || path.endsWith(".chunks.txt"))
        .map((path) => {
          const label = `${provider}/${relative(join(CORPUS, provider), path)}`;
          const file = join(folder, `${label.replace(/[^A-Za-z0-9.]+/g, "_")}.jsonl`);
          const lines = journalOf(path);
          writeFileSync(file, lines.join("\n") + "\n");
          return { label, provider, file, lines: lines.length };
        }),
    )
  : [];

/** The summary line `convert` writes: lines read, records written, errors. */
function summary(stderr: string): { read: number; records: number; errors: number } {
  const match = /read (\d+) lines?: (\d+) records?, (\d+) errors?/.exec(stderr);
  expect(match, stderr).not.toBeNull();
  return { read: Number(match![1]), records: Number(match![2]), errors: Number(match![3]) };
}

describe("the provider recordings", () => {
  test.skipIf(!present)("give 10 Gemini and 10 Bedrock journals", () => {
    expect(PROVIDERS.map((provider) => journals.filter((journal) => journal.provider === provider).length)).toEqual([10, 10]);
  });
});

describe.skipIf(!present).each(journals.map((journal) => [journal.label, journal] as const))("%s", (_label, journal) => {
  test.each(ENVELOPES)("converts to %s and back with every line accounted for", async (envelope) => {
    const there = `${journal.file}.${envelope}`;
    const out = await runOrbridge(["convert", "--to", envelope, "--out", there, "--report", `${there}.report`, journal.file]);
    expect([out.code, summary(out.stderr).errors, summary(out.stderr).read]).toEqual([0, 0, journal.lines]);
    const back = await runOrbridge(["convert", "--to", journal.provider, "--out", `${there}.back`, "--report", `${there}.back.report`, there]);
    expect([back.code, summary(back.stderr).errors]).toEqual([0, 0]);
  });
});
