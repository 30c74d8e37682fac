// The floor of the benchmark: the work no journal filter can avoid. It reads the
// lines of a file, JSON.parses each, JSON.stringifies it and writes it to stdout,
// with back-pressure, and nothing else. Every command is measured against it.
// Lines are split as bytes and decoded one by one, the fastest plain way found.
import { createReadStream } from "node:fs";
import { once } from "node:events";

const path = process.argv[2];
if (!path) {
  process.stderr.write("usage: node floor.mjs FILE\n");
  process.exit(2);
}

const LF = 0x0a;
let rest = null;
let lines = 0;
for await (const chunk of createReadStream(path, { highWaterMark: 1 << 16 })) {
  const bytes = rest === null || rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
  let out = "";
  let start = 0;
  for (let end = bytes.indexOf(LF); end !== -1; end = bytes.indexOf(LF, start)) {
    out += JSON.stringify(JSON.parse(bytes.toString("utf8", start, end))) + "\n";
    lines += 1;
    start = end + 1;
  }
  rest = bytes.subarray(start);
  if (out.length > 0 && !process.stdout.write(out)) await once(process.stdout, "drain");
}
if (rest !== null && rest.length > 0) {
  process.stdout.write(JSON.stringify(JSON.parse(rest.toString("utf8"))) + "\n");
  lines += 1;
}
process.stderr.write(`read ${lines} lines\n`);
