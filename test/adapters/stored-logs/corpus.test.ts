// Every real export in ../shared/corpus/traces: each is claimed by exactly one
// reader, every span, observation or recorded exchange is accounted for, every
// item read is emitted once or counted as a repeat, and the records normalize
// without an error record.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { READERS, READER_ORDER } from "../../../adapters/index.js";
import { normalizeJournal } from "../../../src/index.js";

const root = join(import.meta.dirname, "../../../../shared/corpus/traces");
const present = existsSync(root);
if (!present) console.warn(`stored-log corpus test skipped: ${root} is absent`);

const files = present
  ? readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => readdirSync(join(root, entry.name)).map((file) => join(entry.name, file)))
  : [];

/** The units of a document, counted from its raw shape, apart from the readers. */
function unitCount(document: Record<string, unknown>): number {
  if (Array.isArray(document.observations)) return document.observations.length;
  if (Array.isArray(document.Entries)) return document.Entries.length;
  if (Array.isArray(document.data)) return (document.data as { spans: unknown[] }[]).reduce((sum, trace) => sum + trace.spans.length, 0);
  if (Array.isArray(document.spans)) return document.spans.length;
  return 1;
}

describe.skipIf(!present)("stored-log corpus", () => {
  it("holds the exports SOURCES.md lists", () => {
    expect(files.length).toBe(12);
  });

  for (const file of files) {
    describe(file, () => {
      const document = JSON.parse(readFileSync(join(root, file), "utf8"));
      const claimed = READER_ORDER.filter((name) => READERS[name].recognise(document));

      it("is claimed by one reader", () => {
        expect(claimed).toHaveLength(1);
      });

      it("accounts for every unit and every item read", () => {
        const reading = READERS[claimed[0]].read(document);
        expect(reading.units).toHaveLength(unitCount(document));
        expect(new Set(reading.units.map((unit) => unit.path)).size).toBe(reading.units.length);
        expect(reading.messages.read).toBe(reading.messages.emitted + reading.messages.repeated);
        expect(reading.records.length).toBeGreaterThan(0);
        for (const loss of reading.losses) expect(loss.path).toMatch(/^(\/|$)/);
      });

      it("gives records that normalize without an error", async () => {
        const reading = READERS[claimed[0]].read(document);
        const lines = reading.records.map(({ record }, index) => ({ source: file, line: index + 1, text: JSON.stringify(record) }));
        const errors = [];
        for await (const normalized of normalizeJournal(lines)) if (normalized.kind === "error") errors.push(normalized);
        expect(errors).toEqual([]);
      });
    });
  }
});
