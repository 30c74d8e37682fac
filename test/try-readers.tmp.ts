import { readFileSync, readdirSync } from "node:fs";
import { READERS, READER_ORDER } from "/work/wt-logs/adapters/index.js";
const root = "/work/shared/corpus/traces";
for (const dir of readdirSync(root)) {
  if (dir.endsWith(".md")) continue;
  for (const file of readdirSync(`${root}/${dir}`)) {
    const doc = JSON.parse(readFileSync(`${root}/${dir}/${file}`, "utf8"));
    const name = READER_ORDER.find((n) => READERS[n].recognise(doc));
    console.log("=====", dir, name);
    if (!name) continue;
    const r = READERS[name].read(doc);
    const fates: Record<string, number> = {};
    for (const u of r.units) fates[u.fate] = (fates[u.fate] ?? 0) + 1;
    console.log(JSON.stringify(fates), JSON.stringify(r.messages));
    for (const l of r.losses) console.log("  LOSS", JSON.stringify(l).slice(0, 300));
    if (process.argv[2] !== "short") for (const rec of r.records) console.log("  ", rec.conversation.slice(0, 12), rec.span ?? "", rec.path, JSON.stringify(rec.record).slice(0, 220));
  }
}
