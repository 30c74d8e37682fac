// A cut gzip journal fails at its end: what was read before the failure must not
// depend on how fast the reader reads.
import { gzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { gunzipped } from "../../src/journal/read-gzip.js";

const text = Array.from({ length: 20_000 }, (_, i) => `{"type":"message","role":"user","content":"line ${i}"}\n`).join("");
const whole = gzipSync(Buffer.from(text), { level: 1 });
const cut = whole.subarray(0, Math.floor(whole.length * 0.7));

async function* inPieces(bytes: Buffer): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += 4_096) yield bytes.subarray(at, at + 4_096);
}

/** The bytes read before the failure, and its message; `pause` ms between chunks. */
async function readCut(pause: number): Promise<{ read: number; failure: string }> {
  let read = 0;
  try {
    for await (const chunk of gunzipped(inPieces(cut))) {
      read += chunk.length;
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    }
  } catch (error) {
    return { read, failure: (error as Error).message };
  }
  return { read, failure: "none" };
}

describe("a cut gzip stream", () => {
  test("a slow reader gets every chunk a fast one gets, then the same failure", async () => {
    const fast = await readCut(0);
    const slow = await readCut(2);
    expect(fast.failure).toBe("unexpected end of file");
    expect(fast.read).toBeGreaterThan(text.length / 2);
    expect(slow).toEqual(fast);
  });

  test("a whole stream is read whole, however slowly", async () => {
    let read = 0;
    for await (const chunk of gunzipped(inPieces(whole))) {
      read += chunk.length;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(read).toBe(Buffer.byteLength(text));
  });
});
