// `--record POINTER` in normalize and convert: each output record is written
// back in the wrapper of its line, the wrapper's other fields as the line wrote
// them, numbers byte for byte.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";

// Written as text: `0.0`, `1.50` and a 20-digit integer must come out as they went in.
const chatLog = [
  '{"timestamp":"2026-03-01T10:00:00.000Z","conversation_id":"conv-7","message":{"role":"user","content":"Is the ferry running?"},"meta":{"latency":0.0,"trace":12345678901234567890}}',
  '{"timestamp":"2026-03-01T10:00:01.500Z","conversation_id":"conv-7","message":{"role":"assistant","content":"Let me look.","tool_calls":[{"id":"call_ferry","type":"function","function":{"name":"ferry_status","arguments":"{\\"route\\": \\"north\\"}"}}]},"meta":{"latency":1.50}}',
  '{"timestamp":"2026-03-01T10:00:02.000Z","conversation_id":"conv-7","message":{"role":"tool","tool_call_id":"call_ferry","content":"running, 20 min late"}}',
].join("\n");

/** The chat log's items, each in the wrapper of the line its message was on. */
const itemsInWrappers = [
  '{"timestamp":"2026-03-01T10:00:00.000Z","conversation_id":"conv-7","message":{"type":"message","role":"user","content":"Is the ferry running?"},"meta":{"latency":0.0,"trace":12345678901234567890}}',
  '{"timestamp":"2026-03-01T10:00:01.500Z","conversation_id":"conv-7","message":{"type":"message","role":"assistant","content":"Let me look."},"meta":{"latency":1.50}}',
  '{"timestamp":"2026-03-01T10:00:01.500Z","conversation_id":"conv-7","message":{"type":"function_call","call_id":"call_ferry","name":"ferry_status","arguments":"{\\"route\\": \\"north\\"}","status":"completed"},"meta":{"latency":1.50}}',
  '{"timestamp":"2026-03-01T10:00:02.000Z","conversation_id":"conv-7","message":{"type":"function_call_output","call_id":"call_ferry","output":"running, 20 min late"}}',
  "",
].join("\n");

describe("normalize --record", () => {
  test("each item is written in the wrapper of its line; a message that gives two items gives two wrapped lines", async () => {
    const result = await runOrbridge(["normalize", "--record", "/message"], `${chatLog}\n`);
    expect(result).toEqual({
      code: 0,
      stdout: itemsInWrappers,
      stderr: "read 3 lines, 3 records: 3 emitted (4 items), 0 reported; 0 losses\n",
    });
  });

  test("a record deeper in its wrapper, with spaces around it, goes back in the same place", async () => {
    const line = '{ "entry" : { "at" : 1.0 , "record" : {"type":"function_call_output","call_id":"call_9","output":"done"} , "tags" : [ ] } }';
    const result = await runOrbridge(["normalize", "--record", "/entry/record"], `${line}\n`);
    expect(result.stdout).toBe(`${line}\n`);
    expect(result.code).toBe(0);
  });
});

describe("convert --record", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "orbridge-record-wrapper-"));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  test("a stored completion becomes a response object in its wrapper, the wrapper's number as it was written", async () => {
    const completion =
      '{"id":"chatcmpl-7","object":"chat.completion","created":1772359200,"model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":"It runs."},"finish_reason":"stop"}]}';
    const result = await runOrbridge(["convert", "--to", "responses", "--record", "/body"], `{"request_id":"r-1","logged_at":1772359200.250,"body":${completion}}\n`);
    expect(result).toEqual({
      code: 0,
      stdout:
        '{"request_id":"r-1","logged_at":1772359200.250,"body":{"id":"chatcmpl-7","object":"response","created_at":1772359200,"completed_at":null,"status":"completed","incomplete_details":null,"model":"gpt-4o-mini","previous_response_id":null,"instructions":null,' +
        '"output":[{"id":"msg_9a2e6ee6d1567834654f554cb33f7afa4cbd89a701282c8f","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"It runs."}],"role":"assistant"}],' +
        '"error":null,"tools":[],"tool_choice":"auto","truncation":"disabled","parallel_tool_calls":true,"text":{"format":{"type":"text"}},"top_p":1,"presence_penalty":0,"frequency_penalty":0,"top_logprobs":0,"temperature":1,"reasoning":null,"usage":null,' +
        '"max_output_tokens":null,"max_tool_calls":null,"store":false,"background":false,"service_tier":"default","metadata":{},"safety_identifier":null,"prompt_cache_key":null}}\n',
      stderr: "read 1 line: 1 record, 0 errors; 0 losses, 25 values synthesized\n",
    });
  });

  test("loose messages converted as one run: each item in the wrapper of the line its message was on, as normalize writes them", async () => {
    const result = await runOrbridge(["convert", "--to", "responses", "--record", "/message"], `${chatLog}\n`);
    expect(result).toEqual({
      code: 0,
      stdout: itemsInWrappers,
      stderr: "read 3 lines: 3 records, 0 errors; 0 losses\n",
    });
  });

  const itemLog = [
    '{"timestamp":"2026-03-01T10:00:00.000Z","message":{"type":"message","role":"user","content":"Is the ferry running?"}}',
    '{"timestamp":"2026-03-01T10:00:01.500Z","message":{"type":"message","role":"assistant","content":"Let me look."}}',
    '{"timestamp":"2026-03-01T10:00:01.700Z","message":{"type":"function_call","call_id":"call_ferry","name":"ferry_status","arguments":"{\\"route\\": \\"north\\"}","status":"completed"}}',
    '{"timestamp":"2026-03-01T10:00:02.000Z","message":{"type":"function_call_output","call_id":"call_ferry","output":"running, 20 min late"}}',
  ].join("\n");

  test("items folded into one Chat message: the message in its first item's wrapper, the other item's wrapper reported; the others each in their own", async () => {
    const report = join(folder, "folded.jsonl");
    const result = await runOrbridge(["convert", "--to", "chat", "--record", "/message", "--report", report], `${itemLog}\n`);
    expect(result).toEqual({
      code: 0,
      stdout: [
        '{"timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":"Is the ferry running?"}}',
        '{"timestamp":"2026-03-01T10:00:01.500Z","message":{"role":"assistant","content":"Let me look.","tool_calls":[{"id":"call_ferry","type":"function","function":{"name":"ferry_status","arguments":"{\\"route\\": \\"north\\"}"}}]}}',
        '{"timestamp":"2026-03-01T10:00:02.000Z","message":{"role":"tool","tool_call_id":"call_ferry","content":"running, 20 min late"}}',
        "",
      ].join("\n"),
      stderr: "read 4 lines: 4 records, 0 errors; 1 loss\n",
    });
    expect((await readFile(report, "utf8")).trimEnd().split("\n").map((line) => JSON.parse(line))).toEqual([
      { line: 3, path: "", code: "unsupported_field", detail: "folded into the record of line 2 and written in that line's wrapper: this line's wrapper fields are not kept" },
    ]);
  });

  test("loose messages written as another provider's messages go in the run's first wrapper, and the other lines' wrappers are reported", async () => {
    const report = join(folder, "anthropic.jsonl");
    const result = await runOrbridge(["convert", "--to", "anthropic", "--record", "/message", "--report", report], `${chatLog}\n`);
    const first = '{"timestamp":"2026-03-01T10:00:00.000Z","conversation_id":"conv-7","message":';
    const firstTail = ',"meta":{"latency":0.0,"trace":12345678901234567890}}';
    expect(result).toEqual({
      code: 0,
      stdout: [
        `${first}{"role":"user","content":"Is the ferry running?"}${firstTail}`,
        `${first}{"role":"assistant","content":[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"call_ferry","name":"ferry_status","input":{"route":"north"}}]}${firstTail}`,
        `${first}{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_ferry","content":"running, 20 min late"}]}${firstTail}`,
        "",
      ].join("\n"),
      stderr: "read 3 lines: 3 records, 0 errors; 4 losses\n",
    });
    const detail = "converted with the run of line 1 and written in that line's wrapper: this line's wrapper fields are not kept";
    expect((await readFile(report, "utf8")).trimEnd().split("\n").map((line) => JSON.parse(line))).toEqual([
      { line: 2, path: "/content", code: "form_changed", detail: "the text is written as a text block beside the other blocks of its turn" },
      { line: 2, path: "/tool_calls/0/function/arguments", code: "form_changed", detail: "the arguments text becomes the input object, whose JSON text is spelled otherwise (spaces, escapes or number forms): the values are kept, not the text" },
      { line: 2, path: "", code: "unsupported_field", detail },
      { line: 3, path: "", code: "unsupported_field", detail },
    ]);
  });

  test("a stream of wrapped chunks is one response in its first line's wrapper; the later lines' wrappers are reported", async () => {
    const report = join(folder, "stream.jsonl");
    const chunk = (delta: unknown, finish: string | null) => ({ id: "chatcmpl-S", object: "chat.completion.chunk", created: 1743000000, model: "gpt-4o", choices: [{ index: 0, delta, finish_reason: finish }] });
    const log = [
      `{"ts":"2026-03-01T10:00:01Z","event":${JSON.stringify(chunk({ role: "assistant", content: "Run" }, null))}}`,
      `{"ts":"2026-03-01T10:00:02Z","event":${JSON.stringify(chunk({ content: "ning." }, "stop"))}}`,
    ].join("\n");
    const result = await runOrbridge(["convert", "--to", "responses", "--record", "/event", "--report", report], `${log}\n`);
    expect(result.code).toBe(0);
    const written = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as { ts: string; event: { id: string; object: string; status: string; output: unknown[] } });
    expect(written.map(({ ts, event }) => [ts, event.id, event.object, event.status, event.output.length])).toEqual([["2026-03-01T10:00:01Z", "chatcmpl-S", "response", "completed", 1]]);
    const reported = (await readFile(report, "utf8")).trimEnd().split("\n").map((line) => JSON.parse(line) as { code: string });
    expect(reported.filter((loss) => loss.code !== "synthesized")).toEqual([
      { line: 2, path: "", code: "unsupported_field", detail: "converted with the run of line 1 and written in that line's wrapper: this line's wrapper fields are not kept" },
    ]);
  });
});
