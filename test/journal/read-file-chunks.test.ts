import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readFileChunks } from "../../src/journal/read.js";

const directory = mkdtempSync(join(tmpdir(), "orbridge-chunks-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function fileOf(bytes: Buffer): string {
  const path = join(directory, `f${Math.random().toString(36).slice(2)}`);
  writeFileSync(path, bytes);
  return path;
}

async function chunksOf(path: string, readBytes: number, chunkBytes: number): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of readFileChunks(path, readBytes, chunkBytes)) chunks.push(chunk);
  return chunks;
}

/** The byte at each offset differs from its neighbours', so that a chunk out of place shows. */
const bytesOf = (length: number) => Buffer.from(Array.from({ length }, (_, at) => (at * 7 + (at >> 8)) % 256));

describe("the chunks of a file", () => {
  it.each([
    ["reads that are a whole number of chunks", 40, 10, 95],
    ["reads that end with a shorter chunk", 25, 10, 95],
    ["a file that ends on a chunk's end", 40, 10, 80],
    ["a file shorter than one chunk", 40, 10, 3],
    ["chunks as long as a read", 10, 10, 31],
  ])("with %s: the file's bytes, each read cut into chunks from its start", async (_label, readBytes, chunkBytes, length) => {
    const bytes = bytesOf(length);
    const chunks = await chunksOf(fileOf(bytes), readBytes, chunkBytes);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    const expected: number[] = [];
    for (let read = 0; read < length; read += readBytes) for (let at = read; at < Math.min(read + readBytes, length); at += chunkBytes) expected.push(Math.min(chunkBytes, read + readBytes - at, length - at));
    expect(chunks.map((chunk) => chunk.length)).toEqual(expected);
  });

  it("each in a buffer of its own, which a full chunk fills", async () => {
    const chunks = await chunksOf(fileOf(bytesOf(95)), 25, 10);
    const buffers = new Set(chunks.map((chunk) => chunk.buffer));
    expect(buffers.size).toBe(chunks.length);
    for (const chunk of chunks) expect(chunk.byteOffset).toBe(0);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.byteLength).toBe(chunk.buffer.byteLength);
  });

  it("an empty file has none", async () => {
    expect(await chunksOf(fileOf(Buffer.alloc(0)), 40, 10)).toEqual([]);
  });
});
