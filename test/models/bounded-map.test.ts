// A map that forgets its oldest key past a limit: the names of a conversation's
// calls and the wrappers of lines read are held in one.
import { describe, expect, test } from "vitest";
import { BoundedMap } from "../../src/models/bounded-map.js";
import { ConversationCalls, MAX_CALLS } from "../../src/journal/conversation-calls.js";

const keysOf = <V>(map: BoundedMap<string, V>, candidates: readonly string[]) => candidates.filter((key) => map.has(key));
/** A map of `limit` keys, each entry set in turn. */
const filled = (limit: number, entries: Array<[string, number]>) => {
  const map = new BoundedMap<string, number>(limit);
  for (const [key, value] of entries) map.set(key, value);
  return map;
};

describe("BoundedMap", () => {
  test("past its limit it forgets the oldest key, one for each key added", () => {
    const map = new BoundedMap<string, number>(3);
    for (const [at, key] of ["a", "b", "c", "d", "e"].entries()) map.set(key, at);
    expect(map.size).toBe(3);
    expect(keysOf(map, ["a", "b", "c", "d", "e"])).toEqual(["c", "d", "e"]);
    expect([map.get("c"), map.get("d"), map.get("e"), map.get("a")]).toEqual([2, 3, 4, undefined]);
  });

  test("setting a key it holds changes the value and keeps the key's age, as a Map does", () => {
    const map = filled(3, [["a", 1], ["b", 2], ["a", 10], ["c", 3], ["d", 4]]);
    expect(keysOf(map, ["a", "b", "c", "d"])).toEqual(["b", "c", "d"]);
    map.set("e", 5);
    expect(keysOf(map, ["a", "b", "c", "d", "e"])).toEqual(["c", "d", "e"]);
  });

  test("a key forgotten and added again is the newest", () => {
    const map = filled(2, [["a", 1], ["b", 2], ["c", 3], ["a", 4]]);
    expect(keysOf(map, ["a", "b", "c"])).toEqual(["a", "c"]);
    map.set("d", 5);
    expect(keysOf(map, ["a", "b", "c", "d"])).toEqual(["a", "d"]);
  });

  test("keeps the same keys a Map that deletes its first key keeps, over many rounds of the ring", () => {
    const limit = 7;
    const bounded = new BoundedMap<string, number>(limit);
    const plain = new Map<string, number>();
    for (let step = 0; step < 200; step += 1) {
      // Keys come back now and then, as call_ids given twice do.
      const key = `k${(step * 7919) % 23}`;
      bounded.set(key, step);
      plain.set(key, step);
      if (plain.size > limit) plain.delete(plain.keys().next().value!);
      const all = Array.from({ length: 23 }, (_, i) => `k${i}`);
      expect(keysOf(bounded, all)).toEqual(all.filter((k) => plain.has(k)));
      for (const k of all) expect(bounded.get(k)).toBe(plain.get(k));
    }
  });

  test.each([0, -1, 1.5])("a limit of %d is refused", (limit) => {
    expect(() => new BoundedMap(limit)).toThrow(RangeError);
  });
});

describe("ConversationCalls", () => {
  test("keeps the name of the first call of an id, and past its limit forgets the oldest calls", () => {
    const calls = new ConversationCalls();
    calls.call("call_0", "first", 1);
    calls.call("call_0", "second", 2);
    expect(calls.nameOf("call_0")).toEqual({ name: "first", line: 1 });
    for (let at = 1; at <= MAX_CALLS; at += 1) calls.call(`call_${at}`, "f", at + 1);
    expect(calls.nameOf("call_0")).toBeUndefined();
    expect(calls.nameOf("call_1")).toEqual({ name: "f", line: 2 });
    expect(calls.nameOf(`call_${MAX_CALLS}`)).toEqual({ name: "f", line: MAX_CALLS + 1 });
  });
});
