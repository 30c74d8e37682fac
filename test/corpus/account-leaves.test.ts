// The corpus check's own instruments: number literals read as written, and
// every input leaf found in the output or in the report, or else named.
import { describe, expect, test } from "vitest";
import { outputLeaves, unaccountedLeaves, type ReportEntry } from "./account-leaves.js";
import { compactJson, leavesOf } from "./exact-json.js";

const request = '{"model":"gpt-4o","temperature":0.0,"seed":1234567890123456789,"messages":[{"role":"user","content":"Which city governs France?"}]}';

describe("leavesOf", () => {
  test("gives each leaf its pointer and the literal as written", () => {
    expect(leavesOf('{"a/b":[0.0,1e-6,{}],"c~":{"d":null,"e":"x"},"f":[]}')).toEqual([
      { path: "/a~1b/0", kind: "number", value: "0.0" },
      { path: "/a~1b/1", kind: "number", value: "1e-6" },
      { path: "/a~1b/2", kind: "empty_object", value: "{}" },
      { path: "/c~0/d", kind: "null", value: "null" },
      { path: "/c~0/e", kind: "string", value: "x" },
      { path: "/f", kind: "empty_array", value: "[]" },
    ]);
  });

  test("keeps a 19-digit integer's digits", () => {
    expect(leavesOf(request).find((leaf) => leaf.path === "/seed")).toEqual({ path: "/seed", kind: "number", value: "1234567890123456789" });
  });

  test("refuses text that is not one JSON value", () => {
    expect(() => leavesOf('{"a":1} {"b":2}')).toThrow("text after the value at offset 8");
  });
});

describe("compactJson", () => {
  test("removes the space between tokens and keeps strings and literals", () => {
    expect(compactJson('{\n  "a b": [1.0, 2],\n  "c": "x : y"\n}')).toBe('{"a b":[1.0,2],"c":"x : y"}');
  });
});

describe("unaccountedLeaves", () => {
  const written = '{"model":"gpt-4o","temperature":0.0,"input":[{"type":"message","role":"user","content":"Which city governs France?"}]}';
  const seedLost: ReportEntry = { line: 1, path: "/seed", code: "unsupported_field", detail: "seed has no counterpart in Open Responses" };

  test("a conversion that keeps every value, and reports the one it drops, leaves nothing unaccounted", () => {
    expect(unaccountedLeaves(request + "\n", outputLeaves(written), [seedLost])).toEqual([]);
  });

  test("a number written with other text is named, though its value is the same", () => {
    const rewritten = written.replace('"temperature":0.0', '"temperature":0');
    expect(unaccountedLeaves(request + "\n", outputLeaves(rewritten), [seedLost])).toEqual([{ line: 1, path: "/temperature", value: "0.0" }]);
  });

  test("a field dropped without a report is named; a report on its line for another record's path does not cover it", () => {
    expect(unaccountedLeaves(request + "\n", outputLeaves(written), [{ ...seedLost, line: 2 }])).toEqual([{ line: 1, path: "/seed", value: "1234567890123456789" }]);
  });

  test("a report entry on a prefix covers every leaf under it", () => {
    const withoutMessages = '{"model":"gpt-4o","temperature":0.0}';
    const messagesLost: ReportEntry = { line: 1, path: "/messages", code: "unsupported_field", detail: "messages dropped" };
    expect(unaccountedLeaves(request + "\n", outputLeaves(withoutMessages), [seedLost, messagesLost])).toEqual([]);
  });

  test("a value the command synthesized keeps nothing: the output leaf under its path is not counted", () => {
    const synthesizedTemperature: ReportEntry = { line: 1, path: "/temperature", code: "synthesized", detail: "temperature written" };
    expect(unaccountedLeaves(request + "\n", outputLeaves(written, [synthesizedTemperature]), [seedLost])).toEqual([{ line: 1, path: "/temperature", value: "0.0" }]);
  });

  test("a streamed fragment is kept when the whole text holds it; a fragment no text holds is named", () => {
    const chunks = [
      '{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"Paris gov"}}]}',
      '{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"erns France."},"finish_reason":"stop"}]}',
    ].join("\n");
    const item = '{"type":"message","role":"assistant","content":"Paris governs France."}';
    const idLeft: ReportEntry = { line: 1, path: "/id", code: "left_behind", detail: "id of the chat.completion is in no item" };
    expect(unaccountedLeaves(chunks + "\n", outputLeaves(item), [idLeft])).toEqual([]);
    expect(unaccountedLeaves(chunks + "\n", outputLeaves(item.replace("France", "Spain")), [idLeft])).toEqual([{ line: 2, path: "/choices/0/delta/content", value: "erns France." }]);
  });
});
