// The golden stored-log cases: each export, modeled on a real one, read by its
// reader gives exactly its records, and exactly its losses, units and counts.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { READERS, READER_ORDER, type ReaderName } from "../../../adapters/index.js";

const golden = join(import.meta.dirname, "../../../golden");
const cases: [ReaderName, string][] = READER_ORDER.flatMap((reader) =>
  readdirSync(join(golden, reader), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry): [ReaderName, string] => [reader, entry.name]),
);

it("every reader has golden cases", () => {
  expect(new Set(cases.map(([reader]) => reader))).toEqual(new Set(READER_ORDER));
});

const load = (reader: string, name: string, file: string) => JSON.parse(readFileSync(join(golden, reader, name, file), "utf8"));

for (const [reader, name] of cases) {
  describe(`${reader}/${name}`, () => {
    const document = load(reader, name, "export.json");

    it("is recognised by its reader alone", () => {
      expect(READER_ORDER.filter((candidate) => READERS[candidate].recognise(document))).toEqual([reader]);
    });

    it("gives its records, losses, units and counts", () => {
      const reading = READERS[reader].read(document);
      expect(reading.records).toEqual(load(reader, name, "records.json"));
      expect({ losses: reading.losses, units: reading.units, messages: reading.messages }).toEqual(load(reader, name, "losses.json"));
    });
  });
}
