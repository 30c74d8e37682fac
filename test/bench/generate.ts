// Writes the synthetic journals of the benchmark: seeded, so every run writes the
// same bytes. A journal is a sequence of turns, each recorded in one of the shapes
// real journals hold (Chat messages, Open Responses items, request bodies of both
// envelopes, chat.completion and response objects, Chat chunk streams and Open
// Responses event streams as JSON lines, logged exchanges), and the tool results
// of a turn are sometimes written in the other envelope, as mixed journals do.
//
// About 15% of the tool calls must be blocked by the gate: arguments that break
// the schema (or are double-encoded), arguments that are not JSON, a call that is
// not completed (cut streams, `finish_reason: "length"`, incomplete responses, a
// replayed call without status), a tool no schema names, and extension items.
//
// Two more shapes of journal stand for what people keep besides: `short`, loose
// Chat messages and Open Responses items of about 200 bytes a line (a sentence,
// a small call, its output), with the same share of calls blocked; and
// `blocked`, one function_call item a line, nearly all of which the gate must
// block (unfinished, extension types, arguments that are not JSON or break the
// schema), as a replay log of failed runs holds them.
//
// `providers` holds the records journals of the other envelopes keep: Anthropic
// Messages, Gemini generateContent and Bedrock Converse request bodies and
// responses, each response followed by the user turn that carries its tool
// results, modelled on recorded traffic (field order, id forms, usage blocks).
// These envelopes carry arguments as objects, so a blocked call there is one
// whose arguments break the schema, one to a tool no schema names, or the last
// call of a response cut at its token limit (`stop_reason: "max_tokens"`,
// `finishReason: "MAX_TOKENS"`, `stopReason: "max_tokens"`); a client answers
// the first two with an error result, as recorded clients do.
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { Random } from "./random.js";
import { BENCH_TOOLS, breakArguments, chatTool, responsesTool, UNKNOWN_TOOL_NAMES, type BenchTool } from "./tools.js";

export const DEFAULT_SEED = 20261022;

export type TurnShape =
  | "chat_messages"
  | "responses_items"
  | "chat_request"
  | "responses_request"
  | "chat_completion"
  | "response_object"
  | "chat_stream"
  | "responses_stream"
  | "exchange"
  | "short_chat"
  | "short_items"
  | "blocked_call"
  | "anthropic_request"
  | "anthropic_response"
  | "gemini_request"
  | "gemini_response"
  | "bedrock_request"
  | "bedrock_response";

/** The journals the bench writes: the mix of every record kind, short lines, mostly blocked calls, the other envelopes. */
export const JOURNAL_SHAPES = ["mixed", "short", "blocked", "providers"] as const;
export type JournalShape = (typeof JOURNAL_SHAPES)[number];

const NONE = { short_chat: 0, short_items: 0, blocked_call: 0 };
const NO_MIX = { chat_messages: 0, responses_items: 0, chat_request: 0, responses_request: 0, chat_completion: 0, response_object: 0, chat_stream: 0, responses_stream: 0, exchange: 0 };
const NO_PROVIDERS = { anthropic_request: 0, anthropic_response: 0, gemini_request: 0, gemini_response: 0, bedrock_request: 0, bedrock_response: 0 };

const TURN_WEIGHTS: Record<JournalShape, Record<TurnShape, number>> = {
  mixed: {
    chat_messages: 0.2,
    responses_items: 0.2,
    chat_request: 0.08,
    responses_request: 0.08,
    chat_completion: 0.12,
    response_object: 0.12,
    chat_stream: 0.07,
    responses_stream: 0.07,
    exchange: 0.06,
    ...NONE,
    ...NO_PROVIDERS,
  },
  short: { ...NO_MIX, short_chat: 0.5, short_items: 0.5, blocked_call: 0, ...NO_PROVIDERS },
  blocked: { ...NO_MIX, short_chat: 0, short_items: 0, blocked_call: 1, ...NO_PROVIDERS },
  providers: { ...NO_MIX, ...NONE, anthropic_request: 1, anthropic_response: 1, gemini_request: 1, gemini_response: 1, bedrock_request: 1, bedrock_response: 1 },
};

type Fate = "ok" | "schema" | "json" | "status" | "unknown_tool";

/** What a journal holds, counted while it is written. */
export interface JournalMix {
  lines: number;
  bytes: number;
  turns: Record<TurnShape, number>;
  calls: number;
  /** Calls by what the gate should answer, plus extension items. */
  fates: Record<Fate | "extension", number>;
}

interface Call {
  tool: string;
  callId: string;
  itemId: string;
  arguments: string;
  /** `undefined`: the record leaves it out (a replayed call without status). */
  status: "completed" | "in_progress" | "incomplete" | undefined;
  fate: Fate;
  output: string;
}

/** A call of the Anthropic, Gemini or Bedrock envelope: arguments are an object there. */
interface ProviderCall {
  tool: string;
  /** `undefined` where the record gives the call no id (Gemini). */
  id: string | undefined;
  input: Record<string, unknown>;
  /** `status`: the last call of a response cut at its token limit. */
  fate: Fate;
  output: string;
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

export class JournalGenerator {
  private readonly random: Random;
  readonly mix: JournalMix;
  private created = 1767225600;
  private readonly weights: Record<TurnShape, number>;

  constructor(seed = DEFAULT_SEED, shape: JournalShape = "mixed") {
    this.random = new Random(seed);
    this.weights = TURN_WEIGHTS[shape];
    this.mix = {
      lines: 0,
      bytes: 0,
      turns: Object.fromEntries(Object.keys(this.weights).map((turn) => [turn, 0])) as Record<TurnShape, number>,
      calls: 0,
      fates: { ok: 0, schema: 0, json: 0, status: 0, unknown_tool: 0, extension: 0 },
    };
  }

  /** The records of the next turn, in journal order. */
  nextTurn(): unknown[] {
    const shape = this.random.weighted(this.weights);
    this.mix.turns[shape] += 1;
    this.created += this.random.int(1, 90);
    switch (shape) {
      case "chat_messages":
        return this.chatMessages();
      case "responses_items":
        return this.responsesItems();
      case "chat_request":
        return [this.chatRequest()];
      case "responses_request":
        return [this.responsesRequest()];
      case "chat_completion":
        return this.withOutputs(this.chatCompletion());
      case "response_object":
        return this.withOutputs(this.responseObject());
      case "chat_stream":
        return this.withOutputs(this.chatStream());
      case "responses_stream":
        return this.withOutputs(this.responsesStream());
      case "exchange":
        return this.exchange();
      case "short_chat":
        return this.shortChat();
      case "short_items":
        return this.shortItems();
      case "blocked_call":
        return [this.blockedCall()];
      case "anthropic_request":
        return [this.anthropicRequest()];
      case "anthropic_response":
        return this.anthropicResponse();
      case "gemini_request":
        return [this.geminiRequest()];
      case "gemini_response":
        return this.geminiResponse();
      case "bedrock_request":
        return [this.bedrockRequest()];
      case "bedrock_response":
        return this.bedrockResponse();
      default: {
        const unreachable: never = shape;
        throw new Error(`no generator for ${String(unreachable)}`);
      }
    }
  }

  // ---- calls ------------------------------------------------------------------

  /** `where` says whether the record can say a call is unfinished. */
  private call(where: "with_status" | "without_status"): Call {
    const r = this.random;
    let fate = r.weighted<Fate>({ ok: 0.87, schema: 0.06, json: 0.025, status: where === "with_status" ? 0.03 : 0, unknown_tool: 0.01 });
    if (where === "without_status" && fate === "status") fate = "schema";
    const tool = r.pick(BENCH_TOOLS);
    const name = fate === "unknown_tool" ? r.pick(UNKNOWN_TOOL_NAMES) : tool.name;
    let args = encode(r, tool.args(r));
    let status: Call["status"] = "completed";
    if (fate === "schema") {
      args = r.chance(0.1) ? JSON.stringify(args) : encode(r, breakArguments(r, tool.parameters, tool.args(r)));
    } else if (fate === "json") {
      args = r.chance(0.5) ? args.slice(0, whole(args, r.int(1, args.length - 1))) : args.replace(/"(\w+)":/, "$1:");
    } else if (fate === "status") {
      status = r.pick(["in_progress", "incomplete", undefined] as const);
      if (status !== undefined) args = args.slice(0, whole(args, r.int(1, args.length - 1)));
    }
    return { tool: name, callId: `call_${r.alnum(24)}`, itemId: `fc_${r.hex(48)}`, arguments: args, status, fate, output: tool.output(r) };
  }

  /** Counts the calls of a turn once their status is final: an unfinished call is blocked for that first. */
  private settle<T extends { calls: Call[] }>(turn: T): T {
    for (const call of turn.calls) {
      this.mix.calls += 1;
      this.mix.fates[call.status === "completed" ? call.fate : "status"] += 1;
    }
    return turn;
  }

  private calls(where: "with_status" | "without_status"): Call[] {
    const count = this.random.weighted({ one: 0.6, two: 0.25, three: 0.15 });
    const calls = Array.from({ length: count === "one" ? 1 : count === "two" ? 2 : 3 }, () => this.call(where));
    // An unfinished call is the last of its turn: nothing follows it.
    return calls.sort((a, b) => Number(a.status !== "completed") - Number(b.status !== "completed"));
  }

  private tools(): BenchTool[] {
    const r = this.random;
    const count = r.int(2, 6);
    const start = r.int(0, BENCH_TOOLS.length - 1);
    return Array.from({ length: count }, (_, i) => BENCH_TOOLS[(start + i * 7) % BENCH_TOOLS.length]);
  }

  // ---- Chat envelope ------------------------------------------------------------

  private chatToolCall(call: Call): Record<string, unknown> {
    return { id: call.callId, type: "function", function: { name: call.tool, arguments: call.arguments } };
  }

  private chatConversation(calls: Call[]): Record<string, unknown>[] {
    const r = this.random;
    this.settle({ calls });
    const messages: Record<string, unknown>[] = [];
    if (r.chance(0.3)) messages.push({ role: "system", content: r.text(r.size(40, 300, 2000)) });
    messages.push({ role: "user", content: r.text(r.size(20, 200, 2000)) });
    messages.push({ role: "assistant", content: r.chance(0.3) ? r.text(r.size(20, 120, 800)) : null, tool_calls: calls.map((call) => this.chatToolCall(call)) });
    for (const call of calls) if (call.status === "completed") messages.push({ role: "tool", tool_call_id: call.callId, content: call.output });
    return messages;
  }

  private chatMessages(): unknown[] {
    const r = this.random;
    const messages = this.chatConversation(this.calls("without_status"));
    messages.push({ role: "assistant", content: r.text(r.size(30, 400, 3000)), refusal: null });
    return messages;
  }

  private chatRequest(): Record<string, unknown> {
    const r = this.random;
    const messages = this.chatConversation(this.calls("without_status"));
    messages.push({ role: "user", content: r.text(r.size(10, 120, 800)) });
    return {
      model: r.pick(["gpt-4o", "gpt-4.1-mini", "deepseek-chat", "llama-3.3-70b-versatile"]),
      messages,
      tools: this.tools().map(chatTool),
      tool_choice: "auto",
      temperature: r.pick([0, 0.2, 0.7, 1]),
      stream: false,
    };
  }

  private chatCompletion(): { records: unknown[]; calls: Call[] } {
    const r = this.random;
    const calls = this.calls("with_status");
    const cut = calls.some((call) => call.status !== "completed");
    // Chat says a call is unfinished only through the choice: `length` cuts all of them.
    if (cut) for (const call of calls) call.status = "incomplete";
    const completion = {
      id: `chatcmpl-${r.alnum(29)}`,
      object: "chat.completion",
      created: this.created,
      model: r.pick(["gpt-4o-2024-08-06", "gpt-4.1-mini", "deepseek-chat"]),
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: r.chance(0.2) ? r.text(r.size(20, 120, 800)) : null, tool_calls: calls.map((call) => this.chatToolCall(call)), refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: cut ? "length" : "tool_calls",
        },
      ],
      usage: this.usage(),
      system_fingerprint: `fp_${r.hex(10)}`,
    };
    this.settle({ calls });
    return { records: [completion], calls: cut ? [] : calls };
  }

  private chatStream(): { records: unknown[]; calls: Call[] } {
    const r = this.random;
    const calls = this.calls("with_status");
    const last = calls[calls.length - 1];
    // An unfinished call ends the stream early, or with `finish_reason: "length"`.
    const ending = last.status === "completed" ? "tool_calls" : r.pick(["length", "cut"] as const);
    // Without a finish reason every call of the stream is still in progress.
    if (ending !== "tool_calls") for (const call of calls) call.status = ending === "length" ? "incomplete" : "in_progress";
    this.settle({ calls });
    const id = `chatcmpl-${r.alnum(29)}`;
    const model = r.pick(["gpt-4o-2024-08-06", "gpt-4.1-mini"]);
    const fingerprint = `fp_${r.hex(10)}`;
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
      id,
      object: "chat.completion.chunk",
      created: this.created,
      model,
      system_fingerprint: fingerprint,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      obfuscation: r.alnum(r.int(4, 14)),
    });
    const records: unknown[] = [chunk({ role: "assistant", content: null, refusal: null })];
    if (r.chance(0.3)) for (const piece of pieces(r, r.text(r.size(20, 120, 600)), 6)) records.push(chunk({ content: piece }));
    calls.forEach((call, index) => {
      records.push(chunk({ tool_calls: [{ index, id: call.callId, type: "function", function: { name: call.tool, arguments: "" } }] }));
      for (const piece of pieces(r, call.arguments, 8)) records.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
    if (ending !== "cut") {
      records.push(chunk({}, ending));
      records.push({ id, object: "chat.completion.chunk", created: this.created, model, system_fingerprint: fingerprint, choices: [], usage: this.usage() });
    }
    return { records, calls: calls.filter((call) => call.status === "completed") };
  }

  // ---- Open Responses envelope ------------------------------------------------------

  private functionCallItem(call: Call, withStatus = true): Record<string, unknown> {
    const item: Record<string, unknown> = { id: call.itemId, type: "function_call" };
    if (withStatus && call.status !== undefined) item.status = call.status;
    item.arguments = call.arguments;
    item.call_id = call.callId;
    item.name = call.tool;
    return item;
  }

  private outputItem(call: Call): Record<string, unknown> {
    return { type: "function_call_output", call_id: call.callId, output: call.output };
  }

  private extensionItem(): Record<string, unknown> {
    const r = this.random;
    this.mix.fates.extension += 1;
    const query = r.text(r.int(15, 60));
    return r.pick([
      { type: "openai:web_search_call", id: `ws_${r.hex(48)}`, status: "completed", action: { type: "search", query } },
      { type: "web_search_call", id: `ws_${r.hex(48)}`, status: "completed", action: { type: "search", query } },
      { type: "mcp_call", id: `mcp_${r.hex(48)}`, server_label: "docs", name: "lookup", arguments: JSON.stringify({ q: query }), output: r.text(r.size(20, 300, 2000)) },
    ]);
  }

  private reasoningItem(): Record<string, unknown> {
    const r = this.random;
    return {
      id: `rs_${r.hex(48)}`,
      type: "reasoning",
      summary: Array.from({ length: r.int(0, 3) }, () => ({ type: "summary_text", text: r.text(r.size(40, 250, 1200)) })),
      encrypted_content: `gAAAAA${r.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", r.size(200, 1200, 6000))}==`,
    };
  }

  private userItem(): Record<string, unknown> {
    const r = this.random;
    const text = r.text(r.size(20, 200, 2000));
    return r.chance(0.3) ? { role: "user", content: text } : { type: "message", role: "user", content: [{ type: "input_text", text }] };
  }

  private assistantItem(): Record<string, unknown> {
    const r = this.random;
    return { id: `msg_${r.hex(48)}`, type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", annotations: [], logprobs: [], text: r.text(r.size(30, 400, 3000)) }] };
  }

  /** The items of one turn: user, reasoning, calls (and extension items), outputs. */
  private turnItems(calls: Call[], withStatus = true): Record<string, unknown>[] {
    const r = this.random;
    this.settle({ calls });
    const items = [this.userItem()];
    if (r.chance(0.3)) items.push(this.reasoningItem());
    const extension = r.chance(0.15);
    for (const call of calls) items.push(this.functionCallItem(call, withStatus));
    if (extension) items.push(this.extensionItem());
    for (const call of calls) if (call.status === "completed") items.push(this.outputItem(call));
    return items;
  }

  private responsesItems(): unknown[] {
    const items = this.turnItems(this.calls("with_status"));
    if (items[items.length - 1].type === "function_call_output") items.push(this.assistantItem());
    return items;
  }

  private responsesRequest(): Record<string, unknown> {
    const r = this.random;
    // A replayed call carries no status when its fate is `status`: the gate blocks it.
    const calls = this.calls("with_status").map((call) => (call.fate === "status" ? { ...call, status: undefined } : call));
    const input = this.turnItems(calls);
    input.push(this.userItem());
    return {
      model: r.pick(["gpt-5", "gpt-5-mini", "gpt-4o"]),
      instructions: r.chance(0.5) ? r.text(r.size(40, 300, 2000)) : null,
      input,
      tools: this.tools().map(responsesTool),
      tool_choice: "auto",
      store: false,
      ...(r.chance(0.5) ? { reasoning: { effort: r.pick(["low", "medium", "high"]), summary: "auto" } } : {}),
    };
  }

  private responseResource(output: Record<string, unknown>[], status: string, tools: BenchTool[]): Record<string, unknown> {
    const r = this.random;
    return {
      id: `resp_${r.hex(48)}`,
      object: "response",
      created_at: this.created,
      status,
      error: null,
      incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
      instructions: null,
      model: r.pick(["gpt-5-2025-08-07", "gpt-5-mini", "gpt-4o-2024-08-06"]),
      output,
      parallel_tool_calls: true,
      previous_response_id: null,
      store: true,
      temperature: 1,
      tool_choice: "auto",
      tools: tools.map(responsesTool),
      top_p: 1,
      truncation: "disabled",
      usage: status === "in_progress" ? null : this.usage(),
      metadata: {},
    };
  }

  private responseObject(): { records: unknown[]; calls: Call[] } {
    const r = this.random;
    const calls = this.calls("with_status");
    for (const call of calls) if (call.status === undefined) call.status = "incomplete";
    const output: Record<string, unknown>[] = [];
    if (r.chance(0.4)) output.push(this.reasoningItem());
    for (const call of calls) output.push(this.functionCallItem(call));
    if (r.chance(0.15)) output.push(this.extensionItem());
    this.settle({ calls });
    const incomplete = calls.some((call) => call.status !== "completed");
    return { records: [this.responseResource(output, incomplete ? "incomplete" : "completed", this.tools().slice(0, 3))], calls: calls.filter((call) => call.status === "completed") };
  }

  private responsesStream(): { records: unknown[]; calls: Call[] } {
    const r = this.random;
    const calls = this.calls("with_status");
    const last = calls[calls.length - 1];
    const cut = last.status !== "completed";
    if (cut) last.status = "in_progress";
    this.settle({ calls });
    const tools = this.tools().slice(0, 3);
    const resource = this.responseResource([], "in_progress", tools);
    let sequence = 0;
    const event = (type: string, fields: Record<string, unknown>) => ({ type, sequence_number: sequence++, ...fields });
    const records: unknown[] = [event("response.created", { response: resource }), event("response.in_progress", { response: resource })];
    const output: Record<string, unknown>[] = [];
    calls.forEach((call, outputIndex) => {
      records.push(event("response.output_item.added", { output_index: outputIndex, item: { id: call.itemId, type: "function_call", status: "in_progress", arguments: "", call_id: call.callId, name: call.tool } }));
      for (const delta of pieces(r, call.arguments, 8)) records.push(event("response.function_call_arguments.delta", { item_id: call.itemId, output_index: outputIndex, delta, obfuscation: r.alnum(r.int(4, 14)) }));
      if (call === last && cut) return;
      records.push(event("response.function_call_arguments.done", { item_id: call.itemId, output_index: outputIndex, arguments: call.arguments }));
      const item = this.functionCallItem(call);
      records.push(event("response.output_item.done", { output_index: outputIndex, item }));
      output.push(item);
    });
    if (!cut) records.push(event("response.completed", { response: { ...resource, status: "completed", output, usage: this.usage() } }));
    return { records, calls: calls.filter((call) => call.status === "completed") };
  }

  // ---- short lines and blocked calls -------------------------------------------------

  /** A call with small arguments: a tool picked until its arguments are short, as most calls' are. */
  private shortCall(where: "with_status" | "without_status"): Call {
    let call = this.call(where);
    for (let tries = 0; tries < 4 && call.arguments.length > 90; tries++) call = this.call(where);
    return { ...call, output: this.random.text(this.random.int(8, 60)) };
  }

  /** A user's sentence, one call, its output when it finished, a short answer: Chat messages. */
  private shortChat(): unknown[] {
    const r = this.random;
    const call = this.shortCall("without_status");
    this.settle({ calls: [call] });
    const records: unknown[] = [{ role: "user", content: r.text(r.int(20, 200)) }, { role: "assistant", content: null, tool_calls: [this.chatToolCall(call)] }];
    records.push({ role: "tool", tool_call_id: call.callId, content: call.output });
    records.push({ role: "assistant", content: r.text(r.int(20, 240)) });
    return records;
  }

  /** The same as Open Responses items, with item ids and statuses. */
  private shortItems(): unknown[] {
    const r = this.random;
    const call = this.shortCall("with_status");
    this.settle({ calls: [call] });
    const records: unknown[] = [{ type: "message", role: "user", content: r.text(r.int(20, 200)) }, this.functionCallItem(call)];
    if (call.status === "completed") records.push(this.outputItem(call));
    if (r.chance(0.1)) records.push({ type: "openai:web_search_call", id: `ws_${r.hex(24)}`, status: "completed" }), (this.mix.fates.extension += 1);
    records.push({ id: `msg_${r.hex(24)}`, type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", annotations: [], text: r.text(r.int(20, 240)) }] });
    return records;
  }

  /** One function_call item that the gate must nearly always block, with small arguments, as the seed's replay logs hold them. */
  private blockedCall(): Record<string, unknown> {
    const r = this.random;
    const fate = r.weighted<Fate | "extension">({ ok: 0.02, status: 0.3, extension: 0.2, json: 0.24, schema: 0.24 });
    let tool = r.pick(BENCH_TOOLS);
    let args = encode(r, tool.args(r));
    for (let tries = 0; tries < 4 && args.length > 90; tries++) {
      tool = r.pick(BENCH_TOOLS);
      args = encode(r, tool.args(r));
    }
    const callId = `call_${r.alnum(24)}`;
    if (fate === "extension") {
      this.mix.fates.extension += 1;
      const type = r.pick(["openai:shell_call", "shell_call", "openai:local_shell_call", "mcp_call", "custom_tool_call"]);
      return { id: `sh_${r.hex(24)}`, type, status: "completed", call_id: callId, name: tool.name, arguments: args };
    }
    let status: Call["status"] = "completed";
    if (fate === "status") status = r.pick(["in_progress", "incomplete", undefined] as const);
    else if (fate === "json") args = args.slice(0, whole(args, r.int(1, args.length - 1)));
    else if (fate === "schema") args = encode(r, breakArguments(r, tool.parameters, tool.args(r)));
    const call: Call = { tool: tool.name, callId, itemId: `fc_${r.hex(24)}`, arguments: args, status, fate: fate === "status" ? "ok" : fate, output: "" };
    this.settle({ calls: [call] });
    return this.functionCallItem(call);
  }

  // ---- Anthropic, Gemini and Bedrock envelopes ----------------------------------------

  /**
   * The calls of one turn of these envelopes, from `tools` (the request's, or all
   * of them for a response). A response may be cut at its token limit: then its
   * last call is unfinished, whatever arguments it got.
   */
  private providerCalls(tools: readonly BenchTool[], cut: boolean, id: () => string | undefined): ProviderCall[] {
    const r = this.random;
    const count = r.weighted({ one: 0.6, two: 0.25, three: 0.15 });
    const calls = Array.from({ length: count === "one" ? 1 : count === "two" ? 2 : 3 }, (): ProviderCall => {
      const fate = r.weighted<Fate>({ ok: 0.87, schema: 0.11, unknown_tool: 0.02 });
      const tool = r.pick(tools);
      const name = fate === "unknown_tool" ? r.pick(UNKNOWN_TOOL_NAMES) : tool.name;
      const input = fate === "schema" ? breakArguments(r, tool.parameters, tool.args(r)) : tool.args(r);
      return { tool: name, id: id(), input, fate, output: fate === "ok" ? tool.output(r) : toolError(r, name, fate) };
    });
    if (cut) {
      const last = calls[calls.length - 1];
      // Cut while its arguments were written: the last of them is missing.
      const keys = Object.keys(last.input);
      if (keys.length > 1) delete last.input[keys[keys.length - 1]];
      last.fate = "status";
    }
    for (const call of calls) {
      this.mix.calls += 1;
      this.mix.fates[call.fate] += 1;
    }
    return calls;
  }

  /** Whether a response stops at its token limit, in the middle of its last call. */
  private cutShort(): boolean {
    return this.random.chance(0.08);
  }

  private finished(calls: ProviderCall[]): ProviderCall[] {
    return calls.filter((call) => call.fate !== "status");
  }

  private anthropicToolUse(call: ProviderCall): Record<string, unknown> {
    return { type: "tool_use", id: call.id, name: call.tool, input: call.input };
  }

  private anthropicResults(calls: ProviderCall[]): Record<string, unknown> {
    const r = this.random;
    return {
      role: "user",
      content: calls.map((call) => {
        const content = r.chance(0.3) ? [{ type: "text", text: call.output }] : call.output;
        const error = call.fate === "ok" ? (r.chance(0.5) ? { is_error: false } : {}) : { is_error: true };
        return { type: "tool_result", tool_use_id: call.id, content, ...error };
      }),
    };
  }

  private anthropicId(): string {
    return `toolu_01${this.random.chars(BASE58, 22)}`;
  }

  /** The body that sends a round of tool results: the user's question, the calls, their results. */
  private anthropicRequest(): Record<string, unknown> {
    const r = this.random;
    const tools = this.tools();
    const calls = this.providerCalls(tools, false, () => this.anthropicId());
    const question = r.text(r.size(20, 200, 2000));
    const assistant = [...(r.chance(0.6) ? [{ type: "text", text: r.text(r.size(20, 120, 800)) }] : []), ...calls.map((call) => this.anthropicToolUse(call))];
    return {
      max_tokens: r.pick([1024, 4096, 8192, 16000]),
      messages: [{ role: "user", content: r.chance(0.5) ? question : [{ type: "text", text: question }] }, { role: "assistant", content: assistant }, this.anthropicResults(calls)],
      model: r.pick(["claude-sonnet-4-5", "claude-haiku-4-5", "claude-sonnet-4-0", "claude-opus-4-1"]),
      ...(r.chance(0.6) ? { system: r.text(r.size(40, 300, 2000)) } : {}),
      tool_choice: { type: "auto" },
      tools: tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters })),
      ...(r.chance(0.5) ? { stream: false } : {}),
    };
  }

  /** A message with its calls, then the user message that carries their results. */
  private anthropicResponse(): unknown[] {
    const r = this.random;
    const cut = this.cutShort();
    const calls = this.providerCalls(BENCH_TOOLS, cut, () => this.anthropicId());
    const input = r.int(300, 20000);
    const message = {
      id: `msg_01${r.chars(BASE58, 22)}`,
      type: "message",
      role: "assistant",
      model: r.pick(["claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001", "claude-sonnet-4-20250514"]),
      content: [...(r.chance(0.7) ? [{ type: "text", text: r.text(r.size(20, 120, 800)) }] : []), ...calls.map((call) => this.anthropicToolUse(call))],
      stop_reason: cut ? "max_tokens" : "tool_use",
      stop_sequence: null,
      usage: {
        input_tokens: input,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: r.chance(0.3) ? r.int(1000, input) : 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        output_tokens: r.int(20, 2000),
        service_tier: "standard",
      },
    };
    const done = this.finished(calls);
    return done.length > 0 ? [message, this.anthropicResults(done)] : [message];
  }

  /** Gemini's functionCall parts: the first of a turn often carries the thought signature. */
  private geminiCallParts(calls: ProviderCall[], order: "request" | "response"): Record<string, unknown>[] {
    const r = this.random;
    const signed = r.chance(0.4);
    return calls.map((call, index) => {
      const functionCall = order === "request" ? { ...(call.id === undefined ? {} : { id: call.id }), args: call.input, name: call.tool } : { name: call.tool, args: call.input, ...(call.id === undefined ? {} : { id: call.id }) };
      return index === 0 && signed ? { functionCall, thoughtSignature: r.chars(BASE64, r.size(100, 700, 3000)) } : { functionCall };
    });
  }

  private geminiResults(calls: ProviderCall[]): Record<string, unknown> {
    return {
      role: "user",
      parts: calls.map((call) => ({ functionResponse: { ...(call.id === undefined ? {} : { id: call.id }), name: call.tool, response: call.fate === "ok" ? { result: call.output } : { error: call.output } } })),
    };
  }

  /** The body that sends a round of results; some clients give calls ids of their own, others none, as Gemini does. */
  private geminiRequest(): Record<string, unknown> {
    const r = this.random;
    const tools = this.tools();
    const ids = r.chance(0.5);
    const calls = this.providerCalls(tools, false, () => (ids ? `pyd_ai_${r.hex(32)}` : undefined));
    return {
      contents: [{ role: "user", parts: [{ text: r.text(r.size(20, 200, 2000)) }] }, { role: "model", parts: this.geminiCallParts(calls, "request") }, this.geminiResults(calls)],
      ...(r.chance(0.6) ? { systemInstruction: { parts: [{ text: r.text(r.size(40, 300, 2000)) }], role: "user" } } : {}),
      tools: [{ functionDeclarations: tools.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters })) }],
      toolConfig: { functionCallingConfig: { mode: "AUTO" } },
      generationConfig: { temperature: r.pick([0, 0.4, 1]), maxOutputTokens: r.pick([1024, 8192, 65536]) },
    };
  }

  /** A generateContent response with its calls (ids only where the model assigns them), then the functionResponse parts. */
  private geminiResponse(): unknown[] {
    const r = this.random;
    const cut = this.cutShort();
    const ids = r.chance(0.3);
    const calls = this.providerCalls(BENCH_TOOLS, cut, () => (ids ? r.chars("abcdefghijklmnopqrstuvwxyz0123456789", 8) : undefined));
    const prompt = r.int(300, 20000);
    const output = r.int(20, 2000);
    const thoughts = r.chance(0.5) ? r.int(50, 1500) : 0;
    const response = {
      candidates: [{ content: { parts: [...(r.chance(0.4) ? [{ text: r.text(r.size(20, 120, 800)) }] : []), ...this.geminiCallParts(calls, "response")], role: "model" }, finishReason: cut ? "MAX_TOKENS" : "STOP", index: 0 }],
      usageMetadata: {
        promptTokenCount: prompt,
        candidatesTokenCount: output,
        totalTokenCount: prompt + output + thoughts,
        promptTokensDetails: [{ modality: "TEXT", tokenCount: prompt }],
        ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
      },
      modelVersion: r.pick(["gemini-2.5-flash", "gemini-2.5-pro", "gemini-3-flash-preview"]),
      responseId: r.chars(BASE64URL, 22),
    };
    const done = this.finished(calls);
    return done.length > 0 ? [response, this.geminiResults(done)] : [response];
  }

  private bedrockToolUse(call: ProviderCall): Record<string, unknown> {
    return { toolUse: { toolUseId: call.id, name: call.tool, input: call.input } };
  }

  private bedrockResults(calls: ProviderCall[]): Record<string, unknown> {
    return { role: "user", content: calls.map((call) => ({ toolResult: { toolUseId: call.id, content: [{ text: call.output }], status: call.fate === "ok" ? "success" : "error" } })) };
  }

  private bedrockId(): string {
    return `tooluse_${this.random.chars(BASE64URL, 22)}`;
  }

  /** A Converse body: the model is in the URL, not the body. */
  private bedrockRequest(): Record<string, unknown> {
    const r = this.random;
    const tools = this.tools();
    const calls = this.providerCalls(tools, false, () => this.bedrockId());
    const assistant = [...(r.chance(0.6) ? [{ text: r.text(r.size(20, 120, 800)) }] : []), ...calls.map((call) => this.bedrockToolUse(call))];
    return {
      messages: [{ role: "user", content: [{ text: r.text(r.size(20, 200, 2000)) }] }, { role: "assistant", content: assistant }, this.bedrockResults(calls)],
      ...(r.chance(0.6) ? { system: [{ text: r.text(r.size(40, 300, 2000)) }] } : {}),
      inferenceConfig: { maxTokens: r.pick([1024, 4096, 8192]), temperature: r.pick([0, 0.5, 1]) },
      toolConfig: { tools: tools.map((tool) => ({ toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: tool.parameters } } })), toolChoice: { auto: {} } },
    };
  }

  /** A Converse response with its calls, then the user message with the toolResult blocks. */
  private bedrockResponse(): unknown[] {
    const r = this.random;
    const cut = this.cutShort();
    const calls = this.providerCalls(BENCH_TOOLS, cut, () => this.bedrockId());
    const input = r.int(300, 20000);
    const output = r.int(20, 2000);
    const response = {
      output: { message: { content: [...(r.chance(0.7) ? [{ text: r.text(r.size(20, 120, 800)) }] : []), ...calls.map((call) => this.bedrockToolUse(call))], role: "assistant" } },
      stopReason: cut ? "max_tokens" : "tool_use",
      usage: { inputTokens: input, outputTokens: output, totalTokens: input + output },
      metrics: { latencyMs: r.int(300, 9000) },
    };
    const done = this.finished(calls);
    return done.length > 0 ? [response, this.bedrockResults(done)] : [response];
  }

  // ---- both ---------------------------------------------------------------------------

  /** A turn's tool results follow it, as Chat `tool` messages or Open Responses outputs. */
  private withOutputs(turn: { records: unknown[]; calls: Call[] }): unknown[] {
    const asChat = this.random.chance(0.5);
    const outputs = turn.calls.map((call) => (asChat ? { role: "tool", tool_call_id: call.callId, content: call.output } : this.outputItem(call)));
    return [...turn.records, ...outputs];
  }

  private exchange(): unknown[] {
    if (this.random.chance(0.5)) {
      const request = this.chatRequest();
      return [{ request, response: this.chatCompletion().records[0] }];
    }
    const request = this.responsesRequest();
    return [{ request, response: this.responseObject().records[0] }];
  }

  private usage(): Record<string, unknown> {
    const r = this.random;
    const prompt = r.int(50, 20000);
    const completion = r.int(5, 2000);
    return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  }
}

/** What a client answers a call it could not run, as recorded clients do. */
function toolError(random: Random, name: string, fate: Fate): string {
  if (fate === "unknown_tool") return `Unknown tool name: '${name}'.`;
  return `${random.int(1, 3)} validation error${random.chance(0.5) ? "" : "s"} for ${name}: ${random.text(random.int(30, 160))}\n\nFix the errors and try again.`;
}

/** Arguments as models write them: mostly compact, some with spaces after separators. */
function encode(random: Random, args: Record<string, unknown>): string {
  const compact = JSON.stringify(args);
  return random.chance(0.15) ? compact.replace(/","/g, '", "').replace(/":"/g, '": "') : compact;
}

/**
 * A cut at `at` moved past the low half of a surrogate pair: providers cut
 * streamed text between characters, and a fragment holding half an emoji would
 * be a lone surrogate, which no real journal carries.
 */
function whole(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at + 1 : at;
}

/** Splits `text` into at most `max` streamed fragments, cutting between any two characters, as providers do. */
function pieces(random: Random, text: string, max: number): string[] {
  const count = Math.min(max, Math.max(1, Math.ceil(text.length / random.int(8, 40))));
  const out: string[] = [];
  let start = 0;
  for (let i = 1; i <= count; i++) {
    const end = i === count ? text.length : whole(text, Math.max(start, Math.min(text.length, start + Math.round((text.length - start) / (count - i + 1)) + random.int(-3, 3))));
    out.push(text.slice(start, end));
    start = end;
  }
  return out.filter((piece, index) => piece.length > 0 || index === 0);
}

/** Writes a journal of at least `lines` lines (whole turns) to `path`. */
export async function writeJournal(path: string, lines: number, seed = DEFAULT_SEED, shape: JournalShape = "mixed"): Promise<JournalMix> {
  const generator = new JournalGenerator(seed, shape);
  const out = createWriteStream(path);
  let buffer = "";
  while (generator.mix.lines < lines) {
    for (const record of generator.nextTurn()) {
      const line = JSON.stringify(record) + "\n";
      generator.mix.lines += 1;
      generator.mix.bytes += Buffer.byteLength(line);
      buffer += line;
    }
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, "drain");
      buffer = "";
    }
  }
  out.end(buffer);
  await once(out, "close");
  return generator.mix;
}

/** The tools file for `gate --tools`: all twenty tools, in the Open Responses envelope. */
export function toolsFileContent(): string {
  return JSON.stringify(BENCH_TOOLS.map(responsesTool), null, 2) + "\n";
}
