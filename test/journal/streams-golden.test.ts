// Every folder of golden/streams is one recorded stream (`stream.sse` or
// `chunks.jsonl`) and the responses it must reassemble to (`items.json`), with
// what cannot be carried in `losses.json` (absent: nothing is lost).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { specErrors } from "../support/spec-validator.js";
import { assembleRecording, type RecordingFormat } from "./stream-recording.js";

const root = join(import.meta.dirname, "../../golden/streams");
const cases = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8"));
}

function inputOf(dir: string): { text: string; format: RecordingFormat } {
  if (existsSync(join(dir, "stream.sse"))) return { text: readFileSync(join(dir, "stream.sse"), "utf8"), format: "sse" };
  return { text: readFileSync(join(dir, "chunks.jsonl"), "utf8"), format: "jsonl" };
}

test("the golden folder holds cases", () => {
  expect(cases.length).toBeGreaterThanOrEqual(15);
});

describe.each(cases)("golden stream %s", (name) => {
  const dir = join(root, name);
  const { text, format } = inputOf(dir);
  const result = assembleRecording(text, format);

  test("every record belongs to the stream", () => {
    expect(result.rejected).toEqual([]);
  });

  test("reassembles to the expected responses", () => {
    expect(result.responses.map(({ losses: _losses, ...response }) => response)).toEqual(readJson(join(dir, "items.json")));
  });

  test("reports exactly the expected losses", () => {
    const expected = existsSync(join(dir, "losses.json")) ? readJson(join(dir, "losses.json")) : [];
    expect(result.responses.flatMap((response) => response.losses)).toEqual(expected);
  });

  test("every item is a valid input item of the specification", () => {
    const invalid = result.responses.flatMap((response) => response.items.map((item) => ({ item, errors: specErrors("ItemParam", item) }))).filter(({ errors }) => errors.length > 0);
    expect(invalid).toEqual([]);
  });
});
