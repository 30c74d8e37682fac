// Call ids rewritten toward a target's grammar stay one-to-one over the whole
// journal, the ids kept included: a later id of the grammar that an earlier id
// was already written as is rewritten too, never written twice.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { TargetIdRewrites } from "../../src/gate/target-ids.js";

const ANTHROPIC = "^[a-zA-Z0-9_-]+$";
const MISTRAL = "^[a-zA-Z0-9]{9}$";
const BEDROCK = "^[a-zA-Z0-9_-]{1,64}$";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("an id of the grammar that an earlier id was written as", () => {
  test("anthropic: the later id gets a rewrite of its own, and says whose rewrite it met", () => {
    const ids = new TargetIdRewrites(ANTHROPIC);
    const taken = `call_1_${sha256("call.1").slice(0, 8)}`;
    expect(["call.1", "call.1", taken, taken].map((id) => ids.toTarget(id))).toEqual([
      { id: taken, rewritten: true },
      { id: taken, rewritten: true },
      { id: `${taken}_${sha256(taken).slice(0, 8)}`, rewritten: true, clashesWith: "call.1" },
      { id: `${taken}_${sha256(taken).slice(0, 8)}`, rewritten: true, clashesWith: "call.1" },
    ]);
    expect(ids.map()).toEqual([
      { original: "call.1", rewritten: taken },
      { original: taken, rewritten: `${taken}_${sha256(taken).slice(0, 8)}` },
    ]);
  });

  test("mistral: nine hex digits the journal already wrote as an id of its own", () => {
    const ids = new TargetIdRewrites(MISTRAL);
    const taken = sha256("call_abc123").slice(0, 9);
    expect(["call_abc123", taken].map((id) => ids.toTarget(id))).toEqual([
      { id: taken, rewritten: true },
      { id: sha256(taken).slice(0, 9), rewritten: true, clashesWith: "call_abc123" },
    ]);
  });

  test("an id kept first is never handed out as another id's rewrite", () => {
    const ids = new TargetIdRewrites(MISTRAL);
    const kept = sha256("call_abc123").slice(0, 9);
    expect([kept, "call_abc123"].map((id) => ids.toTarget(id))).toEqual([
      { id: kept, rewritten: false },
      { id: sha256("call_abc123\u00001").slice(0, 9), rewritten: true },
    ]);
  });

  test("ids that differ only in the characters the grammar strips stay apart", () => {
    const ids = new TargetIdRewrites(ANTHROPIC);
    expect(["a.b", "a:b", "a b", "a_b"].map((id) => ids.toTarget(id).id)).toEqual([`a_b_${sha256("a.b").slice(0, 8)}`, `a_b_${sha256("a:b").slice(0, 8)}`, `a_b_${sha256("a b").slice(0, 8)}`, "a_b"]);
  });
});

describe("for generated journals", () => {
  // Ids of each grammar, ids it refuses, and ids copied from the rewrites already made: the hostile ones.
  const plain = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: fc.constantFrom(..."ab.:_-1"), minLength: 1, maxLength: 6 }), fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 9, maxLength: 9 }));
  const steps = fc.array(fc.oneof(plain.map((id) => ({ id })), fc.nat().map((copy) => ({ copy }))), { minLength: 1, maxLength: 40 });

  test.each([ANTHROPIC, MISTRAL, BEDROCK])("%s: every id written is of the grammar, stands for one id read, and the same journal gives the same ids", (pattern) => {
    fc.assert(
      fc.property(steps, (journal) => {
        const run = () => {
          const ids = new TargetIdRewrites(pattern);
          const written: Array<[string, string]> = [];
          for (const step of journal) {
            const id = "id" in step ? step.id : (written.length === 0 ? "x" : written[step.copy % written.length]![1]);
            written.push([id, ids.toTarget(id).id]);
          }
          return { written, map: ids.map() };
        };
        const { written, map } = run();
        const readFor = new Map<string, string>();
        for (const [read, out] of written) {
          expect(new RegExp(pattern, "u").test(out)).toBe(true);
          expect(readFor.get(out) ?? read).toBe(read);
          readFor.set(out, read);
        }
        // The map restores every id written that is not the id read.
        const restore = new Map(map.map(({ original, rewritten }) => [rewritten, original]));
        expect(written.map(([, out]) => restore.get(out) ?? out)).toEqual(written.map(([read]) => read));
        expect(run()).toEqual({ written, map });
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
