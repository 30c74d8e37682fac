// Reassembly cost against the floor of reading a stream: JSON.parse of the same
// records. Two recordings of 10,000 records each, one of Open Responses events
// (an agent loop: reasoning, calls, a final answer, every response closed by a
// response.completed carrying its output) and one of Chat chunks (text and
// parallel calls split into fragments). Only ratios measured in this run are
// printed; bare times depend on the machine and mean nothing.
//
//   npx tsx test/bench/reassembly.ts
import { ChatStreamAssembler } from "../../adapters/chat-completions/stream.js";
import { ResponsesStreamAssembler } from "../../src/journal/responses-stream.js";
import { SseParser } from "../../src/journal/sse.js";
import { Random } from "./random.js";

const EVENTS = 10_000;
const ROUNDS = 15;
const WORDS = ["the", " total", " of", " each", " region", " rises", " by", " seven", " percent", ",", " then", " falls", "."];

function responsesRecording(random: Random): string[] {
  const lines: string[] = [];
  let sequence = 0;
  let responseNumber = 0;
  const push = (event: Record<string, unknown>) => lines.push(JSON.stringify({ ...event, sequence_number: sequence++ }));
  while (lines.length < EVENTS) {
    const id = `resp_${(responseNumber++).toString(16).padStart(48, "0")}`;
    const shell = { id, object: "response", created_at: 1765552659, status: "in_progress", model: "bench-model", output: [] as unknown[], tools: [{ type: "function", name: "calculator", parameters: { type: "object" } }], usage: null };
    sequence = 0;
    push({ type: "response.created", response: shell });
    push({ type: "response.in_progress", response: shell });
    const output: unknown[] = [];
    const calls = random.int(1, 3);
    for (let n = 0; n < calls; n++) {
      const itemId = `fc_${id.slice(5, 40)}${n}`;
      const opened = { id: itemId, type: "function_call", status: "in_progress", arguments: "", call_id: `call_${random.int(1e8, 9e8)}`, name: "calculator" };
      push({ type: "response.output_item.added", output_index: n, item: opened });
      const args = JSON.stringify({ a: random.int(1, 999), b: random.int(1, 999), op: random.pick(["add", "multiply"]), note: WORDS.join("") });
      for (let at = 0; at < args.length; at += 3) push({ type: "response.function_call_arguments.delta", item_id: itemId, output_index: n, delta: args.slice(at, at + 3), obfuscation: "x1y2z3" });
      push({ type: "response.function_call_arguments.done", item_id: itemId, output_index: n, arguments: args });
      const done = { ...opened, status: "completed", arguments: args };
      push({ type: "response.output_item.done", output_index: n, item: done });
      output.push(done);
    }
    const messageId = `msg_${id.slice(5, 40)}`;
    const message = { id: messageId, type: "message", status: "in_progress", content: [] as unknown[], role: "assistant" };
    push({ type: "response.output_item.added", output_index: calls, item: message });
    push({ type: "response.content_part.added", item_id: messageId, output_index: calls, content_index: 0, part: { type: "output_text", annotations: [], text: "" } });
    let text = "";
    for (let n = random.int(20, 60); n > 0; n--) {
      const delta = random.pick(WORDS);
      text += delta;
      push({ type: "response.output_text.delta", item_id: messageId, output_index: calls, content_index: 0, delta, obfuscation: "a1b2" });
    }
    const finalMessage = { ...message, status: "completed", content: [{ type: "output_text", annotations: [], text }] };
    push({ type: "response.output_item.done", output_index: calls, item: finalMessage });
    push({ type: "response.completed", response: { ...shell, status: "completed", output: [...output, finalMessage] } });
  }
  return lines.slice(0, EVENTS);
}

function chatRecording(random: Random): string[] {
  const lines: string[] = [];
  let completion = 0;
  while (lines.length < EVENTS) {
    const id = `chatcmpl-${(completion++).toString(36).padStart(29, "0")}`;
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
      lines.push(JSON.stringify({ id, object: "chat.completion.chunk", created: 1727346178, model: "bench-model", system_fingerprint: "fp_bench", choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], obfuscation: "q9w8" }));
    chunk({ role: "assistant", content: null });
    for (let n = random.int(10, 40); n > 0; n--) chunk({ content: random.pick(WORDS) });
    const calls = random.int(1, 3);
    for (let index = 0; index < calls; index++) {
      chunk({ tool_calls: [{ index, id: `call_${random.int(1e8, 9e8)}`, type: "function", function: { name: "calculator", arguments: "" } }] });
      const args = JSON.stringify({ a: random.int(1, 999), b: random.int(1, 999), op: "add" });
      for (let at = 0; at < args.length; at += 4) chunk({ tool_calls: [{ index, function: { arguments: args.slice(at, at + 4) } }] });
    }
    chunk({}, "tool_calls");
    lines.push(JSON.stringify({ id, object: "chat.completion.chunk", created: 1727346178, model: "bench-model", choices: [], usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 } }));
  }
  return lines.slice(0, EVENTS);
}

function timeOf(run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

interface Assembler {
  push(record: unknown, line: number): unknown[];
  finish(): unknown[];
}

function measure(name: string, lines: string[], makeAssembler: () => Assembler): void {
  const records = lines.map((line) => JSON.parse(line) as unknown);
  let responses = 0;
  const parse = () => {
    for (const line of lines) JSON.parse(line);
  };
  const reassemble = () => {
    const assembler = makeAssembler();
    let count = 0;
    for (let i = 0; i < records.length; i++) count += assembler.push(records[i], i + 1).length;
    responses = count + assembler.finish().length;
  };
  // Warm both paths up before timing, then interleave them so that drift in the
  // machine's speed affects both alike.
  for (let i = 0; i < 5; i++) {
    parse();
    reassemble();
  }
  const parseTimes: number[] = [];
  const reassemblyTimes: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    parseTimes.push(timeOf(parse));
    reassemblyTimes.push(timeOf(reassemble));
  }
  const ratio = median(reassemblyTimes) / median(parseTimes);
  const bytes = lines.reduce((sum, line) => sum + line.length + 1, 0);
  console.log(`${name}: ${lines.length} records, ${(bytes / 1024).toFixed(0)} KiB, ${responses} responses`);
  console.log(`  reassembly / JSON.parse = ${ratio.toFixed(2)} (median of ${ROUNDS} rounds; the target is at most 2)`);
  console.log(`  (JSON.parse + reassembly) / JSON.parse = ${(1 + ratio).toFixed(2)}`);
}

/** The cost of SSE framing (`data:` lines, blank lines) for the same records, against JSON.parse. */
function measureFraming(name: string, lines: string[]): void {
  const sseLines = lines.flatMap((line) => [`data: ${line}`, ""]);
  const parse = () => {
    for (const line of lines) JSON.parse(line);
  };
  let events = 0;
  const frame = () => {
    const parser = new SseParser();
    let count = 0;
    for (let i = 0; i < sseLines.length; i++) count += parser.push(sseLines[i], i + 1).length;
    events = count + parser.finish().length;
  };
  for (let i = 0; i < 5; i++) {
    parse();
    frame();
  }
  const parseTimes: number[] = [];
  const frameTimes: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    parseTimes.push(timeOf(parse));
    frameTimes.push(timeOf(frame));
  }
  console.log(`${name} as SSE: ${sseLines.length} lines, ${events} events`);
  console.log(`  SSE framing / JSON.parse = ${(median(frameTimes) / median(parseTimes)).toFixed(2)}`);
}

const random = new Random(20260424);
measure("Open Responses events", responsesRecording(random), () => new ResponsesStreamAssembler());
const chat = chatRecording(random);
measure("Chat chunks", chat, () => new ChatStreamAssembler());
measureFraming("Chat chunks", chat);
