// A LangChain ToolMessage read as a tool's result: its content is the result;
// its other members (an error status, an artifact, its id) are reported, since
// a result that failed would otherwise read as one that succeeded.
import { describe, expect, test } from "vitest";
import { READERS } from "../../../adapters/index.js";

const observation = (id: string, type: string, start: string, input: unknown, output: unknown) => ({ id, traceId: "tr1", type, name: type === "SPAN" ? "Web-Search" : "ChatOpenAI", parentObservationId: null, startTime: start, input, output, metadata: { attributes: {} } });
const call = { role: "assistant", content: "", additional_kwargs: { tool_calls: [{ id: "call_1", type: "function", function: { name: "Web-Search", arguments: '{"query":"example"}' } }] } };

describe("a ToolMessage result", () => {
  test("its error status and artifact are reported; its content is the result", () => {
    const toolMessage = { type: "tool", tool_call_id: "call_1", name: "Web-Search", content: "search backend down", status: "error", artifact: { code: 503 }, id: null };
    const reading = READERS.langfuse.read({
      trace: { id: "tr1", name: "agent", timestamp: "2025-01-01T00:00:00Z" },
      observations: [observation("g1", "GENERATION", "2025-01-01T00:00:01Z", [{ role: "user", content: "Search example" }], call), observation("s1", "SPAN", "2025-01-01T00:00:02Z", "{'query': 'example'}", JSON.stringify(toolMessage))],
    });
    expect(reading.records.map((record) => record.record)).toEqual([
      { type: "message", role: "user", content: "Search example" },
      { type: "function_call", call_id: "call_1", name: "Web-Search", arguments: '{"query":"example"}', status: "completed" },
      { type: "function_call_output", call_id: "call_1", output: "search backend down" },
    ]);
    expect(reading.losses.filter((loss) => loss.detail.includes("tool message"))).toEqual([
      { path: "/observations/1/output", code: "left_behind", detail: "status of the tool message is in no item (at /status in its JSON text)", span: "s1" },
      { path: "/observations/1/output", code: "left_behind", detail: "artifact of the tool message is in no item (at /artifact in its JSON text)", span: "s1" },
    ]);
  });
});
