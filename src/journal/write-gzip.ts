// `--out FILE.gz`: the output compressed as it is written, through the same
// atomic file as any output, so a run that fails leaves no partial archive.
import { createGzip } from "node:zlib";
import { atomicFileOutput, type JournalOutput } from "./write.js";

export function gzipFileOutput(path: string): JournalOutput {
  const file = atomicFileOutput(path);
  const gzip = createGzip();
  gzip.pipe(file.stream);
  const flushed = new Promise<void>((resolve, reject) => {
    gzip.once("end", resolve);
    gzip.once("error", reject);
  });
  flushed.catch(() => undefined);
  // A file that fails stops taking what gzip gives, which would then never drain:
  // its failure is gzip's, so that the next write meets it.
  file.stream.once("error", (error: Error) => gzip.destroy(error));
  const finish = async () => {
    gzip.end();
    await flushed;
    await file.finish?.();
  };
  return {
    stream: gzip,
    failure: () => file.failure?.(),
    finish,
    async commit() {
      await finish();
      await file.commit();
    },
    async abort() {
      gzip.destroy();
      await file.abort();
    },
  };
}
