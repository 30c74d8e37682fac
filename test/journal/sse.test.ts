import { describe, expect, test } from "vitest";
import { SseParser, type SseEvent } from "../../src/journal/sse.js";

/** Feeds lines numbered from 1, then ends the stream. */
function parse(lines: string[]): SseEvent[] {
  const parser = new SseParser();
  const events = lines.flatMap((line, i) => parser.push(line, i + 1));
  return [...events, ...parser.finish()];
}

describe("data lines", () => {
  test("a data line and a blank line make one event, numbered by its first line", () => {
    expect(parse(["", "data: {\"a\":1}", ""])).toEqual([{ data: "{\"a\":1}", line: 2 }]);
  });

  test("the event is given when its blank line arrives, not before", () => {
    const parser = new SseParser();
    expect(parser.push("data: one", 1)).toEqual([]);
    expect(parser.push("", 2)).toEqual([{ data: "one", line: 1 }]);
    expect(parser.finish()).toEqual([]);
  });

  test("[DONE] is an event like any other", () => {
    expect(parse(["data: {}", "", "data: [DONE]", ""])).toEqual([
      { data: "{}", line: 1 },
      { data: "[DONE]", line: 3 },
    ]);
  });

  test("several data lines are joined with newlines", () => {
    expect(parse(["data: first", "data:", "data: third", ""])).toEqual([{ data: "first\n\nthird", line: 1 }]);
  });

  test("only one space after the colon belongs to the framing", () => {
    expect(parse(["data:  two spaces", "", "data:none", ""])).toEqual([
      { data: " two spaces", line: 1 },
      { data: "none", line: 3 },
    ]);
  });

  test("a field name without a colon is the field with an empty value", () => {
    expect(parse(["data", "data", ""])).toEqual([{ data: "\n", line: 1 }]);
  });

  test("blank lines without data give no event", () => {
    expect(parse(["", "", "event:", "", ""])).toEqual([]);
  });

  test("an event with a name and no data is given with empty data, marked dataless, as the OpenAI SDKs dispatch it", () => {
    expect(parse(["", "event: ping", "", ""])).toEqual([{ event: "ping", data: "", line: 2, dataless: true }]);
  });

  test("a name without data that the recording ends before its blank line is dispatched by no reader", () => {
    expect(parse(["data: x", "", "event: ping"])).toEqual([{ data: "x", line: 1 }]);
  });
});

describe("event, id, retry and comment lines", () => {
  test("event: names the event and starts its line count", () => {
    expect(parse(["event: response.created", "data: {}", ""])).toEqual([{ event: "response.created", data: "{}", line: 1 }]);
  });

  test("the last event: line wins", () => {
    expect(parse(["event: a", "event: b", "data: x", ""])).toEqual([{ event: "b", data: "x", line: 1 }]);
  });

  test("the event name does not leak into the next event", () => {
    expect(parse(["event: a", "data: x", "", "data: y", ""])).toEqual([
      { event: "a", data: "x", line: 1 },
      { data: "y", line: 4 },
    ]);
  });

  test("comments, id and retry lines are ignored", () => {
    expect(parse([": keep-alive", "id: 7", "retry: 1000", "data: x", ": another", ""])).toEqual([{ data: "x", line: 2 }]);
  });

  test("a blank line with no data after an id, which openai-python keeps and dispatches an empty event for, gives that event, marked emptyDispatch", () => {
    expect(parse(["id: 7", "data: x", "", "", "data: y", ""])).toEqual([
      { data: "x", line: 1 },
      { data: "", line: 4, emptyDispatch: { field: "id", line: 1 } },
      { data: "y", line: 5 },
    ]);
    expect(parse(["retry: 1000", ""])).toEqual([{ data: "", line: 2, emptyDispatch: { field: "retry", line: 1 } }]);
  });

  test("an empty id, an id holding NUL, a retry that is no integer, a [DONE] read after the id, or no blank line after it dispatch nothing more", () => {
    expect(parse(["id: 7", "data: x", "", "id:", "", ""])).toEqual([{ data: "x", line: 1 }]);
    expect(parse(["id: 7\u0000", "data: x", "", ""])).toEqual([{ data: "x", line: 1 }]);
    expect(parse(["retry: soon", ""])).toEqual([]);
    expect(parse(["id: 7", "data: [DONE]", "", ""])).toEqual([{ data: "[DONE]", line: 1 }]);
    expect(parse(["id: 7", "data: x", "", "retry: 5"])).toEqual([{ data: "x", line: 1 }]);
  });

  test("a field this parser does not know is ignored", () => {
    expect(parse(["foo: bar", "data: x", ""])).toEqual([{ data: "x", line: 1 }]);
  });
});

describe("recordings that end early or use other line endings", () => {
  test("the last event, without its blank line, is given marked unended: SSE readers discard it", () => {
    expect(parse(["data: a", "", "data: {\"cut\":"])).toEqual([
      { data: "a", line: 1 },
      { data: "{\"cut\":", line: 3, unended: true },
    ]);
  });

  test("a line given with a final carriage return was followed by an empty one: the blank line that ends the event", () => {
    // "data: a\r\r\n": the reader takes "\r\n" as the line's end and gives "data: a\r".
    expect(parse(["data: a\r", "data: b\r"])).toEqual([
      { data: "a", line: 1 },
      { data: "b", line: 2 },
    ]);
  });

  test("a line that could not be read marks the event being read, or the next one, and no other", () => {
    const parser = new SseParser();
    expect(parser.push("data: {\"a\":", 1)).toEqual([]);
    parser.unread(2);
    expect(parser.push("data: 1}", 3)).toEqual([]);
    expect(parser.push("", 4)).toEqual([{ data: '{"a":\n1}', line: 1, unreadAt: 2 }]);
    parser.unread(5);
    expect(parser.push("data: {}", 6)).toEqual([]);
    expect(parser.push("", 7)).toEqual([{ data: "{}", line: 6, unreadAt: 5 }]);
    expect(parser.push("data: {}", 8)).toEqual([]);
    expect(parser.push("", 9)).toEqual([{ data: "{}", line: 8 }]);
  });

  test("an empty recording gives nothing", () => {
    expect(parse([])).toEqual([]);
  });

  test("a lone carriage return ends a line inside what the reader gave as one", () => {
    expect(parse(["data: a\r\rdata: b\r", ""])).toEqual([
      { data: "a", line: 1 },
      { data: "b", line: 1 },
    ]);
  });

  test("a byte order mark before the first line is not part of the field name", () => {
    expect(parse(["\uFEFFdata: x", ""])).toEqual([{ data: "x", line: 1 }]);
  });

  test("a byte order mark on a later line is content, as the standard reads it", () => {
    expect(parse(["data: x", "", "\uFEFFdata: y", ""])).toEqual([{ data: "x", line: 1 }]);
  });
});
