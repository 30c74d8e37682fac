// Every folder of golden/streams is one recorded stream (`stream.sse` or
// `chunks.jsonl`) and the responses it must reassemble to (`items.json`), with
// what cannot be carried in `losses.json` (absent: nothing is lost).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { replayGate } from "../../src/gate/replay-gate.js";
import { specErrors } from "../support/spec-validator.js";
import { assembleRecording, linesOf, type RecordingFormat } from "./stream-recording.js";

const root = join(import.meta.dirname, "../../golden/streams");
const cases = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8"));
}

function inputOf(dir: string): { text: string; format: RecordingFormat } {
  if (existsSync(join(dir, "stream.sse"))) return { text: readFileSync(join(dir, "stream.sse"), "utf8"), format: "sse" };
  return { text: readFileSync(join(dir, "chunks.jsonl"), "utf8"), format: "jsonl" };
}

test("the golden folder holds cases", () => {
  expect(cases.length).toBeGreaterThanOrEqual(15);
});

describe.each(cases)("golden stream %s", (name) => {
  const dir = join(root, name);
  const { text, format } = inputOf(dir);
  const result = assembleRecording(text, format);

  test("every record belongs to the stream", () => {
    expect(result.rejected).toEqual([]);
  });

  test("reassembles to the expected responses", () => {
    expect(result.responses.map(({ losses: _losses, ...response }) => response)).toEqual(readJson(join(dir, "items.json")));
  });

  test("reports exactly the expected losses", () => {
    const expected = existsSync(join(dir, "losses.json")) ? readJson(join(dir, "losses.json")) : [];
    expect(result.responses.flatMap((response) => response.losses)).toEqual(expected);
  });

  test("no prefix of the recording marks a call completed before its arguments are final", () => {
    const finalArguments = new Map<unknown, unknown>();
    for (const item of result.responses.flatMap((response) => response.items as Array<Record<string, unknown>>)) {
      if (item.type === "function_call") finalArguments.set(item.call_id, item.arguments);
    }
    const lines = linesOf(text);
    const early: string[] = [];
    for (let cut = 1; cut < lines.length; cut++) {
      for (const response of assembleRecording(lines.slice(0, cut).join("\n"), format).responses) {
        for (const item of response.items as Array<Record<string, unknown>>) {
          if (item.type === "function_call" && item.status === "completed" && item.arguments !== finalArguments.get(item.call_id)) early.push(`line ${cut}: ${String(item.call_id)}`);
        }
      }
    }
    expect(early).toEqual([]);
  });

  test("every item is a valid input item of the specification", () => {
    const invalid = result.responses.flatMap((response) => response.items.map((item) => ({ item, errors: specErrors("ItemParam", item) }))).filter(({ errors }) => errors.length > 0);
    expect(invalid).toEqual([]);
  });
});

describe("streams cut before their calls finished, in both envelopes", () => {
  // Schemas the complete arguments satisfy: only the status can stop these calls.
  const schemas: Record<string, Record<string, unknown>> = {
    GetWeatherArgs: { type: "object", required: ["city", "country", "units"] },
    get_stock_price: { type: "object", required: ["ticker", "exchange"] },
    get_country: { type: "object", additionalProperties: false },
    get_capital: { type: "object", required: ["country"] },
    weather: { type: "object", required: ["location"] },
    calculator: { type: "object", required: ["a", "b", "op"] },
  };
  const verdicts = (name: string) => {
    const { text, format } = inputOf(join(root, name));
    return assembleRecording(text, format)
      .responses.flatMap((response) => response.items as Array<Record<string, unknown>>)
      .filter((item) => item.type === "function_call")
      .map((item) => [item.call_id, item.arguments, replayGate(item, schemas[item.name as string]).reason]);
  };

  test("Chat, cut mid-arguments: every call is blocked with status", () => {
    expect(verdicts("cut-chat-mid-arguments")).toEqual([
      ["call_JMW1whyEaYG438VE1OIflxA2", "{\"city\": \"Edinburgh\", \"country\": \"GB\", \"units\": \"c\"}", "status"],
      ["call_DNYTawLBoN8fj3KN6qU9N1Ou", "{\"ticker\"", "status"],
    ]);
  });

  test("Chat, cut when the partial arguments happen to parse: blocked with status", () => {
    expect(verdicts("cut-chat-arguments-parse")).toEqual([["call_q2UyBRP7eXNTzAoR8lEhjc9Z", "{}", "status"]]);
  });

  test("Open Responses, cut mid-arguments: blocked with status", () => {
    expect(verdicts("cut-responses-mid-arguments")).toEqual([["call_kL0PCQV7M2WMoVX8V8OtYSAL", "{\"country\":\"", "status"]]);
  });

  test("Open Responses, cut after arguments.done but before output_item.done: blocked with status", () => {
    expect(verdicts("cut-responses-after-arguments-done")).toEqual([["call_H5DxLSFnsGhiROnUiDHmgyc8", "{\"location\":\"San Francisco\"}", "status"]]);
  });

  test("Open Responses, a loop cut in its second response: the first response's call runs, the open one does not", () => {
    expect(verdicts("cut-responses-agent-loop-second-response")).toEqual([
      ["call_AB6AaRZ1FYZB2RwS6A5vbdqn", "{\"a\":12,\"b\":7,\"op\":\"add\"}", "ok"],
      ["call_Q6pW65MUgW9vF59BmItYGos3", "{\"a\":19,\"b", "status"],
    ]);
  });
});
