// Compressed journals: a source whose bytes open with the gzip magic number is
// decompressed as it is read, whatever its name, so memory stays constant.
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";

/** Whether bytes open a gzip member (RFC 1952: 0x1f 0x8b). */
export function isGzip(head: Buffer): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/**
 * The decompressed bytes of a gzip stream, chunk by chunk; a corrupt or cut
 * stream throws with zlib's reason. zlib stops at zero bytes after a member and
 * takes them for padding, ignoring whatever follows them; another reader goes on
 * to a member after the padding. So the bytes zlib did not read must all be
 * zero: past the last of them, the stream throws rather than end early.
 */
export async function* gunzipped(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const gunzip = createGunzip();
  const read = { total: 0, lastNonZero: -1 };
  const source = Readable.from(counted(chunks, read));
  source.on("error", (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  for await (const chunk of gunzip as AsyncIterable<Buffer>) yield chunk;
  if (read.lastNonZero >= gunzip.bytesWritten) {
    throw new Error(`the gzip data ends at byte ${gunzip.bytesWritten} of ${read.total}, and bytes other than zero padding follow it (another gzip member after padding, or other data): they would be read by some readers and not by others`);
  }
}

/** The chunks as they are, counting the bytes and where the last one that is not zero sits. */
async function* counted(chunks: AsyncIterable<Buffer>, read: { total: number; lastNonZero: number }): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    for (let at = chunk.length - 1; at >= 0; at--) {
      if (chunk[at] !== 0) {
        read.lastNonZero = read.total + at;
        break;
      }
    }
    read.total += chunk.length;
    yield chunk;
  }
}
