// Every real export in ../shared/corpus/traces: each is claimed by exactly one
// reader, every span, observation or recorded exchange is accounted for, every
// item read is emitted once or counted as a repeat, and the records normalize
// without an error record.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { READERS, READER_ORDER } from "../../../adapters/index.js";
import { normalizeLines } from "../../../src/journal/normalize.js";

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

/**
 * What each export holds, as its SOURCES.md entry says: calls by tool name,
 * results, and messages by role, each once. `completions` counts the stored
 * `chat.completion` objects of a list page, which hold the outputs alone.
 */
const HOLDS: Record<string, { calls: string[]; results: number; roles: Record<string, number>; completions?: number }> = {
  "langfuse-ms-agent-framework": { calls: ["get_weather"], results: 1, roles: { system: 1, user: 1, assistant: 1 } },
  "langfuse-openinference-openai-agents": { calls: ["get_weather"], results: 1, roles: { system: 1, user: 1, assistant: 1 } },
  "langfuse-vercel-ai-sdk": { calls: ["getWeather"], results: 1, roles: { user: 1 } },
  "langfuse-langgraph-python": { calls: ["Web-Search"], results: 1, roles: { user: 2, assistant: 1 } },
  "langfuse-openinference-google-adk": { calls: ["say_hello"], results: 1, roles: { system: 1, user: 1, assistant: 1 } },
  "openai-dotnet-chat-list-page": { calls: [], results: 0, roles: {}, completions: 2 },
  "openai-dotnet-chat-list-tool-calls": { calls: [], results: 0, roles: {}, completions: 100 },
  "openai-dotnet-chat-messages-pages": { calls: [], results: 0, roles: { user: 4 } },
  "openai-dotnet-input-items-pages": { calls: [], results: 0, roles: { user: 4 } },
  "envoy-openinference-chat-tools": { calls: ["get_current_weather"], results: 0, roles: { user: 1 } },
  "agentevals-jaeger-kagent": { calls: [], results: 0, roles: { system: 1, user: 1, assistant: 1 } },
  "any-agent-agno": { calls: ["get_current_time", "write_file"], results: 2, roles: { system: 1, user: 1, assistant: 1 } },
};

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

      it("gives every call, result and message once, and nothing else", () => {
        const reading = READERS[claimed[0]].read(document);
        const records = reading.records.map(({ record }) => record as Record<string, unknown>);
        const holds = HOLDS[file.split("/")[0]];
        const roles: Record<string, number> = {};
        for (const record of records) if (record.type === "message" || (record.type === undefined && typeof record.role === "string")) roles[String(record.role)] = (roles[String(record.role)] ?? 0) + 1;
        expect({
          calls: records.filter((record) => record.type === "function_call").map((record) => record.name),
          results: records.filter((record) => record.type === "function_call_output").length,
          roles,
          ...(holds.completions === undefined ? {} : { completions: records.filter((record) => record.object === "chat.completion").length }),
        }).toEqual(holds);
      });

      it.skipIf(!file.startsWith("openai-dotnet-input-items-pages/"))("gives input items oldest first, though the pages list them newest first", () => {
        const reading = READERS[claimed[0]].read(document);
        const texts = reading.records.map(({ record }) => ((record as { content: { text: string }[] }).content)[0].text);
        expect(texts).toEqual(["Item 1", "Item 2", "Item 3", "Item 4"]);
      });

      it("gives records that normalize without an error", async () => {
        const reading = READERS[claimed[0]].read(document);
        const lines = reading.records.map(({ record }, index) => ({ source: file, line: index + 1, text: JSON.stringify(record) }));
        const errors = [];
        for await (const normalized of normalizeLines(lines)) if (normalized.kind === "error") errors.push(normalized);
        expect(errors).toEqual([]);
      });
    });
  }
});
