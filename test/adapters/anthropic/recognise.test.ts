// The recognisers claim Anthropic records and never a record of Chat or Open
// Responses: every record of the other envelopes' golden cases and examples is
// run through them, as are records of both shapes at once.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { anthropic } from "../../../adapters/anthropic/index.js";
import { isAnthropicMessage, isAnthropicRequestBody, isAnthropicResponse, isAnthropicStreamEvent } from "../../../adapters/anthropic/recognise.js";
import { ambiguity, detectRecord } from "../../../src/journal/detect.js";
import { runOrbridge } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

const GOLDEN = fileURLToPath(new URL("../../../golden/", import.meta.url));
const recognisers = [isAnthropicMessage, isAnthropicRequestBody, isAnthropicResponse, isAnthropicStreamEvent];
const claimed = (record: unknown) => recognisers.filter((recognise) => recognise(record)).map((recognise) => recognise.name);

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every record of the other envelopes' golden files: each JSON value, its array entries, each JSONL line, each SSE data payload. */
function otherEnvelopeRecords(): Array<[string, unknown]> {
  const records: Array<[string, unknown]> = [];
  for (const path of filesUnder(GOLDEN).filter((file) => !file.includes("/anthropic/"))) {
    const label = path.slice(GOLDEN.length);
    const text = readFileSync(path, "utf8");
    if (path.endsWith(".json")) {
      const value: unknown = JSON.parse(text);
      records.push([label, value]);
      if (Array.isArray(value)) value.forEach((entry, index) => records.push([`${label}[${index}]`, entry]));
    } else if (path.endsWith(".jsonl") || path.endsWith(".sse")) {
      text.split("\n").forEach((line, index) => {
        const data = line.startsWith("data:") ? line.slice(5).trim() : line.trim();
        if (!data.startsWith("{")) return;
        try {
          records.push([`${label}:${index + 1}`, JSON.parse(data)]);
        } catch {
          // A line the golden case holds on purpose as broken is no record.
        }
      });
    }
  }
  return records;
}

describe("records of other envelopes", () => {
  const records = otherEnvelopeRecords();

  test("are there to run", () => {
    expect(records.length).toBeGreaterThan(300);
  });

  test("none is claimed", () => {
    expect(records.flatMap(([label, record]) => (claimed(record).length > 0 ? [`${label}: ${claimed(record).join(", ")}`] : []))).toEqual([]);
  });
});

describe("the Anthropic golden cases", () => {
  const cases = readdirSync(join(GOLDEN, "anthropic"), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => join(GOLDEN, "anthropic", entry.name));
  const read = (dir: string, file: string) => JSON.parse(readFileSync(join(dir, file), "utf8")) as Record<string, unknown>;

  test("every request body and response is claimed as what it is", () => {
    const records = cases.filter((dir) => readdirSync(dir).includes("anthropic.json")).map((dir) => [dir.slice(GOLDEN.length), read(dir, "anthropic.json")] as const);
    const wrong = records.flatMap(([label, record]) => {
      const expected = record.type === "message" ? ["isAnthropicResponse"] : "model" in record ? ["isAnthropicRequestBody"] : [];
      return expected.length > 0 && JSON.stringify(claimed(record)) !== JSON.stringify(expected) ? [`${label}: ${claimed(record).join(", ") || "nothing"}`] : [];
    });
    expect(wrong).toEqual([]);
  });

  test("every event of a JSON-lines stream is claimed as an event", () => {
    const lines = cases.filter((dir) => readdirSync(dir).includes("events.jsonl")).flatMap((dir) => readFileSync(join(dir, "events.jsonl"), "utf8").split("\n").filter(Boolean));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.map((line) => claimed(JSON.parse(line))).filter((names) => names.join() !== "isAnthropicStreamEvent")).toEqual([]);
  });
});

describe("isAnthropicMessage", () => {
  test("claims a message holding a tool_use, tool_result, thinking or image block", () => {
    expect(isAnthropicMessage({ role: "assistant", content: [{ type: "text", text: "Hi" }, { type: "tool_use", id: "toolu_01", name: "f", input: {} }] })).toBe(true);
    expect(isAnthropicMessage({ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01", content: "ok" }] })).toBe(true);
    expect(isAnthropicMessage({ role: "user", content: [{ type: "image", source: { type: "url", url: "https://example.org/a.png" } }] })).toBe(true);
  });

  test("leaves a message Chat could have written to Chat", () => {
    expect(isAnthropicMessage({ role: "user", content: "Hi" })).toBe(false);
    expect(isAnthropicMessage({ role: "user", content: [{ type: "text", text: "Hi", cache_control: { type: "ephemeral" } }] })).toBe(false);
    expect(detectRecord({ role: "user", content: "Hi" })).toBe("chat_message");
  });

  test("refuses a message with a Chat field or an item type beside Anthropic blocks", () => {
    expect(isAnthropicMessage({ role: "assistant", content: [{ type: "tool_use", id: "t", name: "f", input: {} }], tool_calls: [] })).toBe(false);
    expect(isAnthropicMessage({ type: "message", role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "ok" }] })).toBe(false);
  });

  test("claims Anthropic blocks beside a key a logger added, so that a tool_result stays a call's output", async () => {
    const logged = { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01", content: "ok" }], cache_control: { type: "ephemeral" } };
    expect(isAnthropicMessage(logged)).toBe(true);
    expect(isAnthropicRequestBody({ model: "claude-sonnet-4-5", max_tokens: 64, messages: [{ ...logged, cache_control: undefined, logged_at: "2026-01-02T03:04:05Z" }] })).toBe(true);
    const report = join(scratchFolder("recognise"), "report.jsonl");
    const result = await runOrbridge(["normalize", "--report", report, "-"], JSON.stringify(logged) + "\n");
    expect(result.stdout).toBe('{"type":"function_call_output","call_id":"toolu_01","output":"ok"}\n');
    expect(readFileSync(report, "utf8")).toBe(JSON.stringify({ line: 1, path: "/cache_control", code: "provider_extension", detail: '"cache_control" is not a field of an Anthropic message; Open Responses has no place for it' }) + "\n");
  });
});

describe("isAnthropicRequestBody", () => {
  const base = { model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: "Hi" }] };

  test("claims a body with system, an object tool_choice or an input_schema tool", () => {
    expect(isAnthropicRequestBody({ ...base, system: "Be brief." })).toBe(true);
    expect(isAnthropicRequestBody({ ...base, tool_choice: { type: "any" } })).toBe(true);
    expect(isAnthropicRequestBody({ ...base, tools: [{ name: "f", input_schema: { type: "object" } }] })).toBe(true);
    expect(isAnthropicRequestBody({ ...base, tools: [{ type: "web_search_20250305", name: "web_search" }] })).toBe(true);
  });

  test("claims a body whose thinking is a value only Anthropic defines: adaptive, or enabled with a budget", () => {
    expect(isAnthropicRequestBody({ ...base, thinking: { type: "adaptive" } })).toBe(true);
    expect(isAnthropicRequestBody({ ...base, thinking: { type: "enabled", budget_tokens: 1024 } })).toBe(true);
  });

  test("claims a body with a field or value no Chat body has: container, context_management, mcp_servers, service_tier standard_only", () => {
    const thinking = { type: "adaptive" };
    expect(isAnthropicRequestBody({ ...base, thinking, container: "container_011CQUeN" })).toBe(true);
    expect(isAnthropicRequestBody({ ...base, thinking, context_management: { edits: [{ type: "clear_tool_uses_20250919" }] } })).toBe(true);
    expect(isAnthropicRequestBody({ ...base, thinking, mcp_servers: [{ type: "url", url: "https://mcp.example.com/sse", name: "example" }] })).toBe(true);
    expect(isAnthropicRequestBody({ ...base, thinking, service_tier: "standard_only" })).toBe(true);
    expect(isAnthropicRequestBody({ ...base, service_tier: "auto" })).toBe(false);
  });

  test("claims a body of plain messages that asks for structured output, which converts back to Anthropic whole", async () => {
    const format = { type: "json_schema", schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false } };
    expect(isAnthropicRequestBody({ ...base, output_format: format })).toBe(true);
    const structured = JSON.stringify({ ...base, output_config: { format } });
    expect(isAnthropicRequestBody(JSON.parse(structured))).toBe(true);
    const report = join(scratchFolder("recognise"), "structured.jsonl");
    const result = await runOrbridge(["convert", "--to", "anthropic", "--report", report, "-"], structured + "\n");
    expect(result).toEqual({ code: 0, stdout: structured + "\n", stderr: "read 1 line: 1 record, 0 errors; 0 losses\n" });
    expect(readFileSync(report, "utf8")).toBe("");
  });

  test("claims a body of plain messages that Bedrock's InvokeModel took, which converts back to Anthropic with its anthropic_version", async () => {
    const { model: _model, ...invoked } = { ...base, anthropic_version: "bedrock-2023-05-31", temperature: 0.7 };
    expect(isAnthropicRequestBody(invoked)).toBe(true);
    const report = join(scratchFolder("recognise"), "invoked.jsonl");
    const result = await runOrbridge(["convert", "--to", "anthropic", "--report", report, "-"], JSON.stringify(invoked) + "\n");
    expect(result).toEqual({ code: 0, stdout: JSON.stringify(invoked) + "\n", stderr: "read 1 line: 1 record, 0 errors; 0 losses\n" });
    expect(readFileSync(report, "utf8")).toBe("");
  });

  test("leaves a body both envelopes could have written to Chat", () => {
    expect(isAnthropicRequestBody(base)).toBe(false);
    expect(detectRecord(base)).toBe("chat_request");
    expect(ambiguity(base, "chat_request")).toBeUndefined();
    // GLM's thinking, which Anthropic refuses without a budget, is a Chat provider's alone.
    expect(isAnthropicRequestBody({ ...base, thinking: { type: "enabled" } })).toBe(false);
    expect(ambiguity({ ...base, thinking: { type: "enabled" } }, "chat_request")).toBeUndefined();
  });

  // OpenAI-compatible providers take thinking "disabled" (DeepSeek, GLM) and top_k (vLLM) in a Chat body.
  test.each([
    ["thinking disabled", { thinking: { type: "disabled" } }, "thinking"],
    ["top_k", { top_k: 5 }, "top_k"],
    ["thinking disabled, top_k", { thinking: { type: "disabled" }, top_k: 5 }, "thinking and top_k"],
  ])("reads a body of %s and no field only one envelope has as neither", (_name, fields, keys) => {
    const body = { ...base, ...fields };
    expect(isAnthropicRequestBody(body)).toBe(false);
    expect(ambiguity(body, detectRecord(body))).toBe(
      `the request body has ${keys}, which Anthropic and OpenAI-compatible Chat providers both take, and no field only one of them has: read as an Anthropic body it keeps ${keys}, read as a Chat body it does not; it is read as neither`,
    );
  });

  test("a body of thinking with a field only Chat has is Chat's, and one with a field only Anthropic has is Anthropic's", () => {
    const chatBody = { ...base, thinking: { type: "disabled" }, stream_options: { include_usage: true } };
    expect([isAnthropicRequestBody(chatBody), ambiguity(chatBody, detectRecord(chatBody))]).toEqual([false, undefined]);
    const anthropicBody = { ...base, thinking: { type: "disabled" }, output_config: { effort: "medium" } };
    expect(detectRecord(anthropicBody)).toBe("envelope_request");
  });

  test("convert writes a body of thinking adaptive, or of context_management, back to Anthropic whole, and refuses one of thinking disabled alone, in an exchange too", async () => {
    const recognised = JSON.stringify({ model: "claude-opus-4-6", max_tokens: 16000, thinking: { type: "adaptive" }, messages: [{ role: "user", content: "Are there infinitely many primes?" }] });
    const managed = JSON.stringify({ model: "claude-opus-4-6", max_tokens: 16000, thinking: { type: "disabled" }, context_management: { edits: [{ type: "clear_tool_uses_20250919" }] }, messages: [{ role: "user", content: "Are there infinitely many primes?" }] });
    const alone = JSON.stringify({ model: "claude-opus-4-6", max_tokens: 16000, thinking: { type: "disabled" }, messages: [{ role: "user", content: "Are there infinitely many primes?" }] });
    const exchange = `{"request":${alone},"response":{"id":"msg_01","type":"message","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"Yes."}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}`;
    const report = join(scratchFolder("recognise"), "thinking.jsonl");
    const result = await runOrbridge(["convert", "--to", "anthropic", "--report", report, "-"], [recognised, managed, alone, exchange].join("\n") + "\n");
    const why = "the request body has thinking, which Anthropic and OpenAI-compatible Chat providers both take, and no field only one of them has: read as an Anthropic body it keeps thinking, read as a Chat body it does not; it is read as neither";
    expect(result).toEqual({
      code: 1,
      stdout: recognised + "\n" + managed + "\n",
      stderr: `orbridge convert: line 3: ${why}\norbridge convert: line 4: exchange request: ${why}\nread 4 lines: 2 records, 2 errors; 0 losses\n`,
    });
    expect(readFileSync(report, "utf8")).toBe([{ line: 3, path: "", code: "error", detail: why }, { line: 4, path: "", code: "error", detail: `exchange request: ${why}` }].map((entry) => JSON.stringify(entry) + "\n").join(""));
  });

  test("refuses a body with anything only Chat has", () => {
    expect(isAnthropicRequestBody({ ...base, system: "x", response_format: { type: "text" } })).toBe(false);
    expect(isAnthropicRequestBody({ ...base, system: "x", messages: [{ role: "tool", tool_call_id: "c", content: "ok" }] })).toBe(false);
    expect(isAnthropicRequestBody({ ...base, system: "x", tools: [{ type: "function", function: { name: "f" } }] })).toBe(false);
  });
});

describe("isAnthropicResponse", () => {
  test("claims a message response, even one with no content yet", () => {
    expect(isAnthropicResponse({ id: "msg_01", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: {} })).toBe(true);
  });

  test("leaves an Open Responses message item alone, which detect reads as an item", () => {
    const item = { type: "message", id: "msg_01", status: "completed", role: "assistant", content: [{ type: "output_text", text: "Hi", annotations: [] }] };
    expect(isAnthropicResponse(item)).toBe(false);
    expect(detectRecord(item)).toBe("responses_item");
  });
});

describe("isAnthropicStreamEvent", () => {
  test.each([
    [{ type: "message_start", message: { id: "msg_01", type: "message", role: "assistant", content: [] } }],
    [{ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
    [{ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "a" } }],
    [{ type: "content_block_stop", index: 0 }],
    [{ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } }],
    [{ type: "message_stop" }],
    [{ type: "ping" }],
    [{ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }],
  ])("claims %j", (event) => {
    expect(isAnthropicStreamEvent(event)).toBe(true);
  });

  test("leaves the Responses error event alone", () => {
    expect(isAnthropicStreamEvent({ type: "error", code: "server_error", message: "boom", param: null, sequence_number: 3 })).toBe(false);
  });
});

describe("the descriptor", () => {
  test("names the envelope and lists its converters by role", () => {
    expect(anthropic.name).toBe("anthropic");
    expect(Object.keys(anthropic)).toEqual(["name", "slug", "argumentsAsObjects", "textAsPartsOnly", "recognise", "messages", "requestBodies", "tools", "toolChoice", "responses", "stream", "writer", "journal"]);
    expect(anthropic.recognise.message).toBe(isAnthropicMessage);
    expect(anthropic.stream.assembler().finish()).toEqual([]);
  });
});
