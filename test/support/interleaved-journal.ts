// Generated journals of many conversations written at once, as a service logs
// them: each conversation is a list of JSONL lines carrying its key, and a
// journal is one interleaving of those lists. Conversations take every record
// kind the gate reads, and about one call in ten must be blocked:
//
// | style      | lines                                                                          |
// |------------|--------------------------------------------------------------------------------|
// | chat       | Chat messages: user, assistant with tool_calls (one or two), tool answers       |
// | items      | Open Responses items: message, reasoning before a call, function_call, output  |
// | requests   | Chat request bodies with tools and an allowed_tools tool_choice, replaying the |
// |            |   history, each followed by its chat.completion                                |
// | exchanges  | logged {request, response} of Open Responses bodies, replaying the history     |
// | streams    | a user message, then chat.completion.chunk streams or Open Responses events,    |
// |            |   and the tool answers between them                                            |
//
// Bad calls: arguments outside the schema, arguments that are not JSON, an unknown
// tool, a call the allowed_tools do not allow, a call left in_progress (a cut
// stream), a call passed by without its output. Most conversations have ids of
// their own, as providers write them (`call_7f3a_0`); some number their calls and
// items from 0 (`call_0`, `fc_0`), as some gateways do, so any state shared
// between conversations shows as duplicate call_ids and ids.
//
// Deterministic: the same options give the same lines.

export type Key = string | number;

export interface GeneratedConversation {
  key: Key;
  lines: string[];
}

/** A journal: its lines, and for each the conversation (index into the list) and its index within that conversation. */
export interface Journal {
  lines: string[];
  owner: number[];
  local: number[];
}

export interface ConversationOptions {
  seed: number;
  conversations: number;
  /** Where the key goes in each record: a top-level member (default "conversation_id"). */
  keyField?: string;
  /** Some keys as numbers, not strings. */
  numericKeys?: boolean;
  /** The share of calls made bad, about 0.1 by default. */
  badShare?: number;
  /** The share of conversations that number their ids from 0, as the others do too (0.3 by default). */
  sharedIdShare?: number;
}

const SCHEMAS = {
  get_weather: { type: "object", additionalProperties: false, required: ["city"], properties: { city: { type: "string", minLength: 1 } } },
  get_latest_sales_report: { type: "object", additionalProperties: false, required: ["region"], properties: { region: { type: "string", enum: ["apac", "emea", "amer"] } } },
  send_email: { type: "object", additionalProperties: false, required: ["to", "body"], properties: { to: { type: "string" }, body: { type: "string" } } },
} as const;
type ToolName = keyof typeof SCHEMAS;
const TOOL_NAMES = Object.keys(SCHEMAS) as ToolName[];

/** The `--tools` file the journals are gated with (Chat form). */
export const TOOLS = TOOL_NAMES.map((name) => ({ type: "function", function: { name, parameters: SCHEMAS[name] } }));

const CITIES = ["Lisbon", "Osaka", "Quito", "Tallinn", "Accra", "Perth"];
const REGIONS = ["apac", "emea", "amer"];
const STYLES = ["chat", "items", "requests", "exchanges", "streams"] as const;
type Style = (typeof STYLES)[number];

/** A small seeded generator (mulberry32): the same seed gives the same journal. */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type BadKind = "schema" | "parse" | "unknown_tool" | "not_allowed" | "cut" | "unanswered";

interface Call {
  callId: string;
  itemId: string;
  name: string;
  arguments: string;
  bad?: BadKind;
}

/** One conversation being written: its key, its lines, and the counters that number its calls and items. */
class Writer {
  readonly lines: string[] = [];
  private calls = 0;
  private items = 0;
  private responses = 0;

  constructor(
    readonly key: Key,
    private readonly keyField: string,
    private readonly random: () => number,
    private readonly badShare: number,
    /** What makes this conversation's ids its own: "" when it numbers them from 0 as others do. */
    private readonly idTag: string,
  ) {}

  write(record: Record<string, unknown>): void {
    this.lines.push(JSON.stringify({ [this.keyField]: this.key, ...record }));
  }

  pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.random() * values.length)];
  }

  chance(share: number): boolean {
    return this.random() < share;
  }

  itemId(prefix: string): string {
    return `${prefix}_${this.idTag}${this.items++}`;
  }

  responseId(prefix: string): string {
    return `${prefix}_${this.idTag}${this.responses++}`;
  }

  /** A call; `allowed` the bad kinds this style can show. */
  call(allowed: readonly BadKind[]): Call {
    const bad = allowed.length > 0 && this.chance(this.badShare) ? this.pick(allowed) : undefined;
    const name: string = bad === "unknown_tool" ? "delete_all_records" : bad === "not_allowed" ? "send_email" : this.pick(["get_weather", "get_latest_sales_report"] as const);
    let args: string;
    if (name === "get_weather") args = JSON.stringify({ city: this.pick(CITIES) });
    else if (name === "get_latest_sales_report") args = JSON.stringify({ region: this.pick(REGIONS) });
    else args = JSON.stringify({ to: "ops@example.com", body: "weekly figures" });
    if (bad === "schema") args = name === "get_weather" ? JSON.stringify({ city: "" }) : JSON.stringify({ region: "global" });
    if (bad === "parse") args = args.slice(0, -3);
    return { callId: `call_${this.idTag}${this.calls++}`, itemId: this.itemId("fc"), name, arguments: args, bad };
  }

  answer(call: Call): string {
    return `${call.name} answered for ${call.callId}`;
  }
}

const question = (w: Writer) => w.pick(["what is the weather where the team meets", "send me the sales figures", "which region grew most", "summarize the week"]);

function chat(w: Writer): void {
  w.write({ role: "user", content: question(w) });
  const turns = 1 + Math.floor(w.random() * 3);
  for (let turn = 0; turn < turns; turn++) {
    const calls = Array.from({ length: w.chance(0.3) ? 2 : 1 }, () => w.call(["schema", "parse", "unknown_tool", "unanswered"]));
    w.write({ role: "assistant", content: null, tool_calls: calls.map((c) => ({ id: c.callId, type: "function", function: { name: c.name, arguments: c.arguments } })) });
    if (calls.some((c) => c.bad === "unanswered")) {
      w.write({ role: "user", content: "never mind" });
      continue;
    }
    for (const c of calls) w.write({ role: "tool", tool_call_id: c.callId, content: w.answer(c) });
    w.write({ role: "assistant", content: "here is what I found" });
  }
}

function items(w: Writer): void {
  w.write({ type: "message", role: "user", content: question(w) });
  const turns = 1 + Math.floor(w.random() * 3);
  for (let turn = 0; turn < turns; turn++) {
    if (w.chance(0.4)) w.write({ type: "reasoning", id: w.itemId("rs"), summary: [] });
    const c = w.call(["schema", "parse", "unknown_tool", "cut", "unanswered"]);
    w.write({ type: "function_call", id: c.itemId, call_id: c.callId, name: c.name, arguments: c.arguments, status: c.bad === "cut" ? "in_progress" : "completed" });
    if (c.bad === "unanswered" || c.bad === "cut") {
      w.write({ type: "message", role: "user", content: [{ type: "input_text", text: "skip that" }] });
      continue;
    }
    w.write({ type: "function_call_output", call_id: c.callId, output: w.answer(c) });
    w.write({ type: "message", id: w.itemId("msg"), role: "assistant", status: "completed", content: [{ type: "output_text", text: "done", annotations: [] }] });
  }
  // Now and then the log stops after a reasoning item, which then precedes nothing.
  if (w.chance(0.05)) w.write({ type: "reasoning", id: w.itemId("rs"), summary: [] });
}

/** A tool_choice that lets only the named functions run. */
function allowedTools(names: readonly string[]): Record<string, unknown> {
  return { type: "allowed_tools", allowed_tools: { mode: "auto", tools: names.map((name) => ({ type: "function", function: { name } })) } };
}

function requests(w: Writer): void {
  const messages: Record<string, unknown>[] = [{ role: "user", content: question(w) }];
  const turns = 1 + Math.floor(w.random() * 3);
  for (let turn = 0; turn < turns; turn++) {
    w.write({ model: "gpt-test", messages, tools: TOOLS, tool_choice: allowedTools(["get_weather", "get_latest_sales_report"]) });
    const c = w.call(["schema", "parse", "not_allowed"]);
    const message = { role: "assistant", content: null, tool_calls: [{ id: c.callId, type: "function", function: { name: c.name, arguments: c.arguments } }] };
    w.write({ id: w.responseId("chatcmpl"), object: "chat.completion", created: 1_700_000_000, model: "gpt-test", choices: [{ index: 0, message, finish_reason: "tool_calls" }] });
    messages.push(message, { role: "tool", tool_call_id: c.callId, content: w.answer(c) }, { role: "user", content: "and then?" });
  }
}

function exchanges(w: Writer): void {
  const input: Record<string, unknown>[] = [{ type: "message", role: "user", content: question(w) }];
  const tools = TOOL_NAMES.map((name) => ({ type: "function", name, parameters: SCHEMAS[name] }));
  const turns = 1 + Math.floor(w.random() * 3);
  for (let turn = 0; turn < turns; turn++) {
    const c = w.call(["schema", "parse", "not_allowed"]);
    const output = [{ type: "function_call", id: c.itemId, call_id: c.callId, name: c.name, arguments: c.arguments, status: "completed" }];
    const request = { model: "gpt-test", input: [...input], tools, tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "get_weather" }, { type: "function", name: "get_latest_sales_report" }] } };
    w.write({ request, response: { id: w.responseId("resp"), object: "response", status: "completed", output } });
    input.push(...output, { type: "function_call_output", call_id: c.callId, output: w.answer(c) });
  }
  w.write({ request: { model: "gpt-test", input, tools }, response: { id: w.responseId("resp"), object: "response", status: "completed", output: [{ type: "message", id: w.itemId("msg"), role: "assistant", status: "completed", content: [{ type: "output_text", text: "all done", annotations: [] }] }] } });
}

function streams(w: Writer): void {
  w.write({ role: "user", content: question(w) });
  const turns = 1 + Math.floor(w.random() * 3);
  for (let turn = 0; turn < turns; turn++) {
    const c = w.call(["schema", "parse", "unknown_tool", "cut"]);
    if (w.chance(0.5)) chatChunks(w, c);
    else responseEvents(w, c);
    if (c.bad !== "cut") w.write({ role: "tool", tool_call_id: c.callId, content: w.answer(c) });
  }
  // A final answer streamed: the conversation then ends inside a stream.
  if (w.chance(0.5)) {
    const id = w.responseId("chatcmpl");
    const chunk = (delta: Record<string, unknown>, finish: string | null) => ({ id, object: "chat.completion.chunk", created: 1_700_000_000, model: "gpt-test", choices: [{ index: 0, delta, finish_reason: finish }] });
    w.write(chunk({ role: "assistant", content: "" }, null));
    w.write(chunk({ content: "that is all" }, null));
    w.write(chunk({}, "stop"));
  }
}

function chatChunks(w: Writer, c: Call): void {
  const id = w.responseId("chatcmpl");
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({ id, object: "chat.completion.chunk", created: 1_700_000_000, model: "gpt-test", choices: [{ index: 0, delta, finish_reason: finish }] });
  const half = Math.floor(c.arguments.length / 2);
  w.write(chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: c.callId, type: "function", function: { name: c.name, arguments: "" } }] }, null));
  w.write(chunk({ tool_calls: [{ index: 0, function: { arguments: c.arguments.slice(0, half) } }] }, null));
  w.write(chunk({ tool_calls: [{ index: 0, function: { arguments: c.arguments.slice(half) } }] }, null));
  // A cut stream never says it finished: its call stays in_progress.
  if (c.bad !== "cut") w.write(chunk({}, "tool_calls"));
}

function responseEvents(w: Writer, c: Call): void {
  const id = w.responseId("resp");
  const item = { type: "function_call", id: c.itemId, call_id: c.callId, name: c.name, arguments: "", status: "in_progress" };
  w.write({ type: "response.created", response: { id, object: "response", status: "in_progress", output: [] } });
  w.write({ type: "response.output_item.added", output_index: 0, item });
  w.write({ type: "response.function_call_arguments.delta", output_index: 0, item_id: c.itemId, delta: c.arguments });
  if (c.bad === "cut") return;
  w.write({ type: "response.function_call_arguments.done", output_index: 0, item_id: c.itemId, arguments: c.arguments });
  const done = { ...item, arguments: c.arguments, status: "completed" };
  w.write({ type: "response.output_item.done", output_index: 0, item: done });
  // The terminal event carries the whole response, its output included, as the API sends it.
  w.write({ type: "response.completed", response: { id, object: "response", status: "completed", output: [done] } });
}

const BUILDERS: Record<Style, (w: Writer) => void> = { chat, items, requests, exchanges, streams };

/** The conversations, each its lines in the order written. */
export function generateConversations(options: ConversationOptions): GeneratedConversation[] {
  const random = randomSource(options.seed);
  const keyField = options.keyField ?? "conversation_id";
  const conversations: GeneratedConversation[] = [];
  for (let i = 0; i < options.conversations; i++) {
    const key: Key = options.numericKeys && i % 3 === 0 ? 100_000 + i : `conv-${options.seed}-${i}`;
    const idTag = random() < (options.sharedIdShare ?? 0.3) ? "" : `${Math.floor(random() * 0xffffff).toString(16).padStart(6, "0")}_`;
    const writer = new Writer(key, keyField, random, options.badShare ?? 0.1, idTag);
    BUILDERS[STYLES[Math.floor(random() * STYLES.length)]](writer);
    conversations.push({ key, lines: writer.lines });
  }
  return conversations;
}

/**
 * The lines as a service writes them: `inFlight` conversations open at once, each
 * next line from one of them at random; a conversation that ends makes room for
 * the next. Each conversation's lines keep their order.
 */
export function interleave(conversations: readonly GeneratedConversation[], inFlight: number, seed: number): Journal {
  const random = randomSource(seed);
  const journal: Journal = { lines: [], owner: [], local: [] };
  const open: Array<{ index: number; next: number }> = [];
  let started = 0;
  for (;;) {
    while (open.length < inFlight && started < conversations.length) open.push({ index: started++, next: 0 });
    if (open.length === 0) return journal;
    const at = Math.floor(random() * open.length);
    const conversation = open[at];
    journal.lines.push(conversations[conversation.index].lines[conversation.next]);
    journal.owner.push(conversation.index);
    journal.local.push(conversation.next);
    conversation.next += 1;
    if (conversation.next === conversations[conversation.index].lines.length) open.splice(at, 1);
  }
}

/** The lines in the order `picks` gives: the k-th pick of a conversation is its k-th line. */
export function inOrder(conversations: readonly GeneratedConversation[], picks: readonly number[]): Journal {
  const journal: Journal = { lines: [], owner: [], local: [] };
  const next = conversations.map(() => 0);
  for (const index of picks) {
    journal.lines.push(conversations[index].lines[next[index]]);
    journal.owner.push(index);
    journal.local.push(next[index]);
    next[index] += 1;
  }
  return journal;
}

/** Each conversation's lines together, the conversations in the order of their first line. */
export function sortedByConversation(conversations: readonly GeneratedConversation[]): Journal {
  return inOrder(
    conversations,
    conversations.flatMap((conversation, index) => conversation.lines.map(() => index)),
  );
}

export function journalText(journal: Journal): string {
  return journal.lines.map((line) => line + "\n").join("");
}
