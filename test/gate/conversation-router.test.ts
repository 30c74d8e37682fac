// The router's restriction of every conversation, seen through lanes that only
// count what they are told: a line that names no conversation and may be a
// request body reaches each lane once, before its next line or its end, however
// many such lines come while it is quiet.
import { describe, expect, test } from "vitest";
import { ConversationRouter, type ConversationLane, type LinePlace } from "../../src/gate/conversation-router.js";
import { parsePointer } from "../../src/journal/json-pointer.js";

interface Told {
  lines: number[];
  restricted: string[];
  damagedFrom: number[];
}

class CountingLane implements ConversationLane<LinePlace> {
  constructor(readonly told: Told) {}
  pushLine(line: { line: number }): LinePlace[] {
    this.told.lines.push(line.line);
    return [{ line: line.line }];
  }
  pushRecord(_record: unknown, place: LinePlace): LinePlace[] {
    return [place];
  }
  finish(): LinePlace[] {
    return [];
  }
  pending(): readonly LinePlace[] {
    return [];
  }
  restrict(where: string): void {
    this.told.restricted.push(where);
  }
  damage(line: number): void {
    this.told.damagedFrom.push(line);
  }
}

function router(lanes: Map<string, Told>, opened: Array<[string, string | undefined]>) {
  return new ConversationRouter<LinePlace, LinePlace>({
    pointer: parsePointer("/c"),
    openLane: (key, _reopened, restricted) => {
      opened.push([String(key), restricted]);
      const told: Told = { lines: [], restricted: [], damagedFrom: [] };
      lanes.set(String(key), told);
      return new CountingLane(told);
    },
    keyless: (place) => [place],
    placeOf: (output) => output,
    present: (routed) => routed.output,
  });
}

const line = (at: number, text: string) => ({ source: "-", line: at, text });

describe("a line that names no conversation", () => {
  test("naming a request's tools, reaches each open conversation once, before its next line, and every conversation opened after it", () => {
    const lanes = new Map<string, Told>();
    const opened: Array<[string, string | undefined]> = [];
    const routed = router(lanes, opened);
    let at = 0;
    for (let i = 0; i < 100; i++) routed.pushLine(line(++at, JSON.stringify({ c: `k${i}`, role: "user", content: "hi" })));
    for (let i = 0; i < 1000; i++) routed.pushLine(line(++at, '{"tool_choice":"none"'));
    routed.pushLine(line(++at, JSON.stringify({ c: "k7", role: "user", content: "again" })));
    routed.pushLine(line(++at, JSON.stringify({ c: "new", role: "user", content: "first" })));
    routed.finish();
    const where = `line 1100, which may be a request body of any conversation and cannot be read as one,`;
    expect(lanes.get("k7")).toEqual({ lines: [8, 1101], restricted: [where], damagedFrom: [1100] });
    // The others take it at their end, once.
    expect(lanes.get("k0")).toEqual({ lines: [1], restricted: [where], damagedFrom: [1100] });
    expect(opened.at(-1)).toEqual(["new", where]);
    expect([lanes.get("new")!.restricted, lanes.get("new")!.damagedFrom]).toEqual([[], []]);
    expect([...lanes.values()].reduce((sum, told) => sum + told.restricted.length, 0)).toBe(100);
  });

  test("one that names none of a request's tools restricts nothing", () => {
    const lanes = new Map<string, Told>();
    const opened: Array<[string, string | undefined]> = [];
    const routed = router(lanes, opened);
    routed.pushLine(line(1, JSON.stringify({ c: "a", role: "user", content: "hi" })));
    routed.pushLine(line(2, "not json"));
    routed.pushLine(line(3, JSON.stringify({ role: "user", content: "no key" })));
    routed.pushLine(line(4, JSON.stringify({ c: "a", role: "user", content: "again" })));
    routed.pushLine(line(5, JSON.stringify({ c: "b", role: "user", content: "first" })));
    routed.finish();
    expect([lanes.get("a")!.restricted, lanes.get("b")!.restricted, opened]).toEqual([[], [], [["a", undefined], ["b", undefined]]]);
    // Its stream, had it one open, is damaged from the last such line all the same.
    expect([lanes.get("a")!.damagedFrom, lanes.get("b")!.damagedFrom]).toEqual([[3], []]);
  });
});
