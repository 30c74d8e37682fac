// The filter behind the conversation router's memory of closed keys: never a
// "surely not" for a key added, and rarely a "perhaps" for one that was not.
import { describe, expect, test } from "vitest";
import { KeyFilter } from "../../src/gate/key-filter.js";

describe("KeyFilter", () => {
  test("every key added may be held; of as many keys never added, almost none are taken for added ones", () => {
    const filter = new KeyFilter();
    const added = Array.from({ length: 200_000 }, (_, i) => `conversation-${i}`);
    for (const key of added) filter.add(key);
    expect(added.filter((key) => !filter.mayHold(key))).toEqual([]);
    // About 1 in 4 million at 200,000 keys: a handful would be a broken filter.
    const strangers = Array.from({ length: 200_000 }, (_, i) => `other-${i}`).filter((key) => filter.mayHold(key));
    expect(strangers.length).toBeLessThan(3);
  });

  test("an empty filter holds nothing, the empty key included", () => {
    const filter = new KeyFilter();
    expect([filter.mayHold(""), filter.mayHold("a")]).toEqual([false, false]);
    filter.add("");
    expect([filter.mayHold(""), filter.mayHold("a")]).toEqual([true, false]);
  });
});
