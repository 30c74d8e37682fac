import { describe, expect, it } from "vitest";
import { FingerprintTable, keyedFingerprint, type Fingerprint } from "../../src/gate/fingerprint-table.js";

function lineTable(capacity?: number): FingerprintTable<"line"> {
  return new FingerprintTable({ line: "float64" }, capacity === undefined ? {} : { capacity });
}

/** Adds each key with its index + 1 as its line. */
function addAll(table: FingerprintTable<"line">, keys: readonly string[]): void {
  keys.forEach((key, index) => table.set(table.add(key), "line", index + 1));
}

/** The line of each key, or null when the table does not hold it. */
function linesOf(table: FingerprintTable<"line">, keys: readonly string[]): (number | null)[] {
  return keys.map((key) => {
    const slot = table.find(key);
    return slot < 0 ? null : table.get(slot, "line");
  });
}

describe("a key added once", () => {
  it("is found with its values, and other keys are not", () => {
    const table = lineTable();
    addAll(table, ["call_a", "call_b"]);
    expect({ size: table.size, lines: linesOf(table, ["call_a", "call_b", "call_c"]) }).toEqual({ size: 2, lines: [1, 2, null] });
  });

  it("starts with every column 0", () => {
    const table = new FingerprintTable({ line: "float64", count: "uint32", reason: "uint8" });
    const slot = table.add("fc_1");
    expect([table.get(slot, "line"), table.get(slot, "count"), table.get(slot, "reason")]).toEqual([0, 0, 0]);
  });
});

describe("a key added again", () => {
  it("keeps its slot, its values and the size", () => {
    const table = lineTable();
    const slot = table.add("call_a");
    table.set(slot, "line", 7);
    const again = table.add("call_a");
    expect({ again, line: table.get(again, "line"), size: table.size }).toEqual({ again: slot, line: 7, size: 1 });
  });

  it("says it was there, where a new key says it was added, through a doubling too", () => {
    const table = lineTable(8);
    const answers = ["call_a", "call_b", "call_a", ...Array.from({ length: 20 }, (_, i) => `call_${i}`), "call_b", "call_19"].map((key) => {
      table.add(key);
      return table.added;
    });
    expect(answers).toEqual([true, true, false, ...Array.from({ length: 20 }, () => true), false, false]);
  });
});

describe("an update", () => {
  it("replaces the value of one column of one key", () => {
    const table = new FingerprintTable({ line: "float64", outputLine: "float64" });
    for (const key of ["call_a", "call_b"]) {
      const slot = table.add(key);
      table.set(slot, "line", key === "call_a" ? 1 : 2);
      table.set(slot, "outputLine", Number.NaN);
    }
    table.set(table.find("call_a"), "outputLine", 9);
    const rows = ["call_a", "call_b"].map((key) => [table.get(table.find(key), "line"), table.get(table.find(key), "outputLine")]);
    expect(rows).toEqual([[1, 9], [2, Number.NaN]]);
  });

  it("keeps what each column kind can hold", () => {
    const table = new FingerprintTable({ line: "float64", count: "uint32", reason: "uint8" });
    const slot = table.add("msg_1");
    table.set(slot, "line", 2 ** 53 - 1);
    table.set(slot, "count", 2 ** 32 - 1);
    table.set(slot, "reason", 255);
    expect([table.get(slot, "line"), table.get(slot, "count"), table.get(slot, "reason")]).toEqual([2 ** 53 - 1, 2 ** 32 - 1, 255]);
  });
});

describe("a whole column", () => {
  it("keeps line numbers in 32 bits, and every value once one needs more", () => {
    const table = new FingerprintTable({ line: "whole" }, { capacity: 8 });
    const keys = Array.from({ length: 20 }, (_, index) => `fc_${index}`);
    const values = keys.map((_, index) => (index === 9 ? 2 ** 32 + 7 : index === 15 ? -3 : index * 1_000_003));
    for (const [index, key] of keys.entries()) table.set(table.add(key), "line", values[index]!);
    // Past 32 bits at the tenth key, then through two doublings: nothing before or after is cut.
    expect(keys.map((key) => table.get(table.find(key), "line"))).toEqual(values);
  });
  it("holds 4,294,967,295 without widening, and 0 for a key not yet set", () => {
    const table = new FingerprintTable({ line: "whole", other: "whole" });
    const slot = table.add("msg_1");
    table.set(slot, "line", 2 ** 32 - 1);
    expect([table.get(slot, "line"), table.get(slot, "other")]).toEqual([2 ** 32 - 1, 0]);
  });
});

describe("growth", () => {
  it("doubles the capacity and keeps every key with its values", () => {
    const table = lineTable(8);
    const keys = Array.from({ length: 1000 }, (_, index) => `call_${index}`);
    addAll(table, keys);
    // 1000 keys at most three quarters full: 8 doubled 8 times.
    expect({ size: table.size, capacity: table.capacity, lines: linesOf(table, keys) }).toEqual({
      size: 1000,
      capacity: 2048,
      lines: keys.map((_, index) => index + 1),
    });
  });

  it("fills three quarters of its slots before it doubles", () => {
    const table = lineTable(1024);
    addAll(table, Array.from({ length: 768 }, (_, index) => `fc_${index}`));
    const full = table.capacity;
    table.add("fc_768");
    expect([full, table.capacity]).toEqual([1024, 2048]);
  });

  it("keeps each key's entry number through the doublings", () => {
    const table = lineTable(8);
    const keys = Array.from({ length: 5000 }, (_, index) => `call_${index}`);
    const entries = keys.map((key) => table.add(key));
    expect({ entries: keys.map((key) => table.find(key)), again: keys.map((key) => table.add(key)) }).toEqual({ entries, again: entries });
  });

  it("widens a whole column on every page it has, and on the pages made after", () => {
    const table = new FingerprintTable({ line: "whole" });
    const keys = Array.from({ length: 70_000 }, (_, index) => `fc_${index}`);
    for (const [index, key] of keys.entries()) table.set(table.add(key), "line", index === 40_000 ? 2 ** 40 : index);
    table.set(table.add("fc_late"), "line", 2 ** 33 + 1);
    const wrong = keys.filter((key, index) => table.get(table.find(key), "line") !== (index === 40_000 ? 2 ** 40 : index));
    expect({ wrong, late: table.get(table.find("fc_late"), "line") }).toEqual({ wrong: [], late: 2 ** 33 + 1 });
  });

  it("keeps every column through the doublings", () => {
    const table = new FingerprintTable({ line: "float64", reason: "uint8" }, { capacity: 8 });
    const keys = Array.from({ length: 100 }, (_, index) => `fc_${index}`);
    for (const [index, key] of keys.entries()) {
      const slot = table.add(key);
      table.set(slot, "line", index * 1.5);
      table.set(slot, "reason", index % 7);
    }
    const rows = keys.map((key) => [table.get(table.find(key), "line"), table.get(table.find(key), "reason")]);
    expect(rows).toEqual(keys.map((_, index) => [index * 1.5, index % 7]));
  });

  it("rounds a starting capacity up to a power of two", () => {
    expect([lineTable(0).capacity, lineTable(9).capacity, lineTable(1000).capacity]).toEqual([8, 16, 1024]);
  });
});

describe("many keys", () => {
  it("finds 200,000 keys and none of 200,000 others", () => {
    const table = lineTable();
    const keys = Array.from({ length: 200_000 }, (_, index) => `call_${index.toString(36).padStart(24, "0")}`);
    addAll(table, keys);
    const found = linesOf(table, keys);
    const absent = linesOf(table, keys.map((key) => `${key}x`));
    expect({
      size: table.size,
      wrongLines: found.filter((line, index) => line !== index + 1).length,
      falseFinds: absent.filter((line) => line !== null).length,
    }).toEqual({ size: 200_000, wrongLines: 0, falseFinds: 0 });
  });
});

describe("keys differing in one character", () => {
  it("are different keys, at every position", () => {
    const base = "fc_68b0a1b2c3d4e5f60718293a4b5c6d7e8f901a2b3c";
    const keys = [base, ...Array.from(base, (char, index) => `${base.slice(0, index)}${char === "z" ? "y" : "z"}${base.slice(index + 1)}`)];
    const table = lineTable();
    addAll(table, keys);
    expect({ size: table.size, lines: linesOf(table, keys) }).toEqual({ size: keys.length, lines: keys.map((_, index) => index + 1) });
  });

  it("are different keys when one is the other with a trailing NUL", () => {
    const keys = ["a", "a\u0000", "ab", "ab\u0000", "\u0000"];
    const table = lineTable();
    addAll(table, keys);
    expect(linesOf(table, keys)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("unusual keys", () => {
  it("holds the empty key", () => {
    const table = lineTable();
    addAll(table, ["", "x"]);
    expect(linesOf(table, ["", "x", " "])).toEqual([1, 2, null]);
  });

  it("holds non-ASCII keys by their code units", () => {
    const keys = ["appel_é", "appel_e\u0301", "呼叫_1", "call_🔧", "call_\ud83d", "call_\udd27"];
    const table = lineTable();
    addAll(table, keys);
    expect({ size: table.size, lines: linesOf(table, [...keys, "call_🔨"]) }).toEqual({ size: 6, lines: [1, 2, 3, 4, 5, 6, null] });
  });
});

describe("a fingerprint collision", () => {
  it("makes two keys one: the second finds the first's values", () => {
    const constant: Fingerprint = (_key, out) => {
      out[0] = 42;
      out[1] = 42;
    };
    const table = new FingerprintTable({ line: "float64" }, { fingerprint: constant });
    table.set(table.add("call_a"), "line", 3);
    expect({ slot: table.find("call_b") === table.find("call_a"), line: table.get(table.find("call_b"), "line"), size: table.size }).toEqual({ slot: true, line: 3, size: 1 });
  });

  it("does not take the all-zero fingerprint for a free slot", () => {
    const zero: Fingerprint = (_key, out) => {
      out[0] = 0;
      out[1] = 0;
    };
    const table = new FingerprintTable({ line: "float64" }, { fingerprint: zero });
    table.set(table.add("call_a"), "line", 5);
    expect({ size: table.size, line: table.get(table.find("call_a"), "line") }).toEqual({ size: 1, line: 5 });
  });
});

describe("keyedFingerprint", () => {
  // Key bytes 00..07, input bytes 00..n-1; two input bytes are one UTF-16 code unit, low byte first.
  const seed = new Uint32Array([0x03020100, 0x07060504]);
  const reference = keyedFingerprint(seed);
  const bytesAsKey = (count: number) => String.fromCharCode(...Array.from({ length: count / 2 }, (_, unit) => (2 * unit) | ((2 * unit + 1) << 8)));
  const hex = (words: Uint32Array) => Array.from(Buffer.from(words.buffer)).map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const outputs = (fingerprint: ReturnType<typeof keyedFingerprint>) =>
    [0, 2, 4, 6].map((count) => {
      const out = new Uint32Array(2);
      fingerprint(bytesAsKey(count), out);
      return hex(out);
    });

  it("gives the published HalfSipHash-2-4-64 vectors when run with the reference's rounds", () => {
    expect(outputs(keyedFingerprint(seed, { compression: 2, finalization: 4 }))).toEqual(["218d1f59b9b83cc8", "064f39ef7c50eb57", "d5e78a175be52ea1", "ce3e91358aa2bc25"]);
  });

  it("gives HalfSipHash-1-3-64 by default", () => {
    // From a second implementation, written from the paper's description, that gives the published 2-4 vectors above.
    expect(outputs(reference)).toEqual(["76a5d0212320f72a", "78ee1fe15d3cd732", "eb24dba0718cae05", "af65e0c64df5d602"]);
  });

  it("gives another fingerprint under another seed", () => {
    const other = keyedFingerprint(new Uint32Array([0x03020100, 0x07060505]));
    const first = new Uint32Array(2);
    const second = new Uint32Array(2);
    reference("call_a", first);
    other("call_a", second);
    expect(hex(first)).not.toEqual(hex(second));
  });
});
