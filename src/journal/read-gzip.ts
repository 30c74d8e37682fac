// Compressed journals: a source whose bytes open with the gzip magic number is
// decompressed as it is read, whatever its name, so memory stays constant.
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";

/** Whether bytes open a gzip member (RFC 1952: 0x1f 0x8b). */
export function isGzip(head: Buffer): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/** The decompressed bytes of a gzip stream, chunk by chunk; a corrupt or cut stream throws with zlib's reason. */
export async function* gunzipped(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const gunzip = createGunzip();
  const source = Readable.from(chunks);
  source.on("error", (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  for await (const chunk of gunzip as AsyncIterable<Buffer>) yield chunk;
}
