// A line of JSONL that a reader ending lines at a lone "\r" (Python's text files,
// Node's readline, Java's readLine) reads as several lines.
import { describe, expect, test } from "vitest";
import { splitByCarriageReturns } from "../../src/journal/carriage-return-lines.js";

const several = (count: number, records: number) =>
  `line holds a carriage return with no line feed after it, where Python's text files, Node's readline and Java's readLine end a line: they read it as ${count} lines, ${records} of them JSON that the gate never judged as a record`;

describe("a line read as one by every reader", () => {
  test.each([
    ["no carriage return", '{"type":"message","role":"user","content":"hi"}'],
    ["one before white space alone", '{"type":"message","role":"user","content":"hi"}\r'],
    ["one after white space alone", ' \t\r{"type":"message","role":"user","content":"hi"}'],
    ["an escaped one inside a string, which is no carriage return in the text", '{"type":"message","role":"user","content":"a\\rb"}'],
    ["pieces none of which is JSON alone, which a reader of lines reads as no record", '{"type":"function_call","call_id":"c1",\r"name":"x","arguments":"{}"}'],
    ["SSE framing on each side, which every SSE reader splits alike", 'event: response.created\rdata: {"type":"response.created"}'],
  ])("%s", (_name, text) => {
    expect(splitByCarriageReturns(text)).toBeUndefined();
  });
});

describe("a line read as several where a lone carriage return ends a line", () => {
  test("a member whose value stands alone between two: the middle is a record of its own", () => {
    expect(splitByCarriageReturns('{"role":"user","content":"hi","x":\r{"type":"local_shell_call","call_id":"c1"}\r}')).toBe(several(3, 1));
  });

  test("two records on one line", () => {
    expect(splitByCarriageReturns('{"role":"user","content":"hi"}\r{"type":"function_call","call_id":"c1"}')).toBe(several(2, 2));
  });

  test("an array between two, as a request's messages", () => {
    expect(splitByCarriageReturns('{"model":"gpt-4o","messages":\r[{"role":"user","content":"hi"}]\r,"tool_choice":"auto"}')).toBe(several(3, 1));
  });

  test("SSE data followed by a line that is no SSE field: a line reader reads the JSON an SSE reader ignores", () => {
    expect(splitByCarriageReturns('data: {"type":"response.created"}\r{"type":"function_call","call_id":"c1"}')).toBe(several(2, 1));
  });
});
