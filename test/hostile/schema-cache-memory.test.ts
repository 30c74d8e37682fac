// A journal can name a new tool schema on every line. The compile cache keeps at
// most its limit of them, and the memory behind evicted schemas is given back:
// the heap, measured after a full collection, stays flat once the cache is full.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, test } from "vitest";
import { replayGate } from "../../src/gate/replay-gate.js";
import { DEFAULT_CACHE_LIMIT, SchemaCache } from "../../src/gate/schema.js";
import { call } from "./support.js";

setFlagsFromString("--expose_gc");
const collectGarbage = runInNewContext("gc") as () => void;

function heapAfterCollection(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

const SCHEMAS = 100_000;
const CHECKPOINT = 10_000;
// Once the cache is full, growth beyond this is a leak: 1024 compiled schemas
// take a few megabytes, and a leak of one schema per compile grows by hundreds.
const ALLOWED_GROWTH = 64 * 1024 * 1024;

/** A distinct schema per tool, parsed as a journal line would be; odd calls break it. */
function gateToolNumber(cache: SchemaCache, i: number): string {
  const schema = JSON.parse(`{"type":"object","properties":{"region":{"const":"region_${i}"}}}`) as Record<string, unknown>;
  const region = i % 2 === 0 ? `region_${i}` : `region_${i + 1}`;
  return replayGate(call(`call_${i}`, `{"region":"${region}"}`, `tool_${i}`), schema, { cache }).reason;
}

describe("100,000 distinct tool schemas", () => {
  test("each gets its own verdict, and the cache stays at its limit", () => {
    const cache = new SchemaCache(256);
    for (let i = 0; i < 5_000; i++) {
      const reason = gateToolNumber(cache, i);
      if (reason !== (i % 2 === 0 ? "ok" : "arguments_schema")) expect.fail(`tool ${i} got ${reason}`);
    }
    expect(cache.size).toBe(256);
    // Evicted long ago: compiled again, with the same verdicts.
    expect([gateToolNumber(cache, 0), gateToolNumber(cache, 1)]).toEqual(["ok", "arguments_schema"]);
    expect(cache.size).toBe(256);
  }, 120_000);

  // Ajv keeps every schema it ever compiled in its code-generation scope
  // (`ajv.scope._values.schema` and `.validate`), so evicting from the cache
  // frees nothing while one Ajv instance lives.
  test("the heap stays flat once the cache is full", () => {
    const cache = new SchemaCache();
    let baseline = 0;
    for (let i = 0; i < SCHEMAS; i++) {
      const reason = gateToolNumber(cache, i);
      if (reason !== (i % 2 === 0 ? "ok" : "arguments_schema")) expect.fail(`tool ${i} got ${reason}`);
      if ((i + 1) % CHECKPOINT !== 0) continue;
      expect(cache.size).toBe(DEFAULT_CACHE_LIMIT);
      const heap = heapAfterCollection();
      if (i + 1 === CHECKPOINT) baseline = heap;
      else expect(heap - baseline, `heap growth after ${i + 1} schemas`).toBeLessThan(ALLOWED_GROWTH);
    }
  }, 600_000);
});
