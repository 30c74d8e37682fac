// One conversation rebuilt once from LLM calls that each repeat the history
// before them, and from tool executions that hold results the messages lack.
//
// | what arrives                         | what happens                                            |
// |--------------------------------------|---------------------------------------------------------|
// | an item already in the conversation  | a repeat: counted, not emitted again                    |
// |   (a call or result: the same `call_id` anywhere; a message: the same role and text after the last one matched) | |
// | a new item                           | appended, in the order of the calls                     |
// | a call with no `call_id` in a history | matched by name and arguments, each once a history, else given a synthesized id (reported) |
// | a call with no `call_id` in an answer | a new call: the model made it, whatever calls alike came before |
// | a result with no `call_id`           | in a history, paired with the history's call before it of its tool name; else with the earliest unanswered call of that name |
// | a tool execution's result            | paired by call id, else by name and arguments; appended unless its result is already there |
// | a call_id said twice in one answer   | two calls: the gate finds the call_id given twice        |
// | a call whose sightings disagree       | none emitted, each sighting reported `conflict`         |
// | a result whose sightings disagree     | none emitted, each sighting reported `conflict`: the tool span and the later history said two results |
// | a call its own request did not allow  | not emitted, nor when a history holds it, read before or after |
//
// Sightings disagree when a call_id comes again with another name or arguments,
// when a history's call without an id is none of the conversation's calls of its
// tool, when a tool span ran its call with other arguments or under another name,
// when a tool span that names none of them ran a tool with arguments none of its
// unanswered calls has (each such call is doubted),
// or when a second copy of a span's messages (another dialect in the same span, a
// wrapper around the call) holds a call the conversation, or the answer it
// copies, does not hold as it.
// A replayer that reads the other copy would run another call than the one
// judged, so neither is emitted: its result, if any, is left with no call.
import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { decimalValue, standsAsDouble } from "../../src/models/decimal-value.js";
import { jsonTextMeaning } from "../../src/models/json-meaning.js";
import { isPlainObject } from "../../src/models/json-value.js";
import type { ReaderLoss } from "../stored-log/reading.js";
import type { Placed } from "./read-messages.js";

export interface ConversationItem {
  item: Record<string, unknown>;
  path: string;
  span?: string;
}

export interface ToolResult {
  callId?: string;
  /** The name and arguments the result is paired by, when it has no call id. */
  name?: string;
  arguments?: string;
  /** Every name and arguments text the tool span says it ran with, each where it says it: each must be its call's. */
  said?: { names: ToolSaid[]; arguments: ToolSaid[] };
  /** The result; none for a tool span that records none, whose run is only compared with its call. */
  output?: string;
  path: string;
  span?: string;
}

export interface ToolSaid {
  value: string;
  path: string;
}

export class ConversationBuilder {
  readonly items: ConversationItem[] = [];
  /** Just after the last item the call's input matched: its next repeated message is looked for from here. */
  private cursor = 0;
  private readonly synthesized = new Map<Record<string, unknown>, ReaderLoss>();
  private synthesizedCount = 0;
  /** Where the answer being added began: a call_id said twice in one answer is two calls, not a repeat. */
  private answerStart = Infinity;
  /** The conversation's calls the history being added has named so far, in its order, and those of them it gave a result. */
  private historyCalls: Record<string, unknown>[] = [];
  private readonly historyAnswered = new Set<Record<string, unknown>>();
  /** The call_ids of calls their own request did not allow: a later sighting of one is not emitted either. */
  private readonly refused = new Set<string>();
  /** Tool runs met before any call of their call_id: compared with it once the conversation is read. */
  private readonly runsBeforeCalls: ToolResult[] = [];
  /** The results of those runs, with the loss that says no call made them: placed after their call, if it comes. */
  private readonly resultsBeforeCalls = new Map<Record<string, unknown>, ReaderLoss>();
  /** Calls whose sightings disagree: none is emitted. */
  private readonly doubted = new Set<Record<string, unknown>>();
  emitted = 0;
  repeated = 0;
  /** Read items not emitted because their sightings disagree. */
  reported = 0;

  constructor(
    private readonly conversation: string,
    private readonly losses: ReaderLoss[],
  ) {}

  /** The messages an LLM call was sent: only those not already in the conversation are added. */
  addInput(placed: readonly Placed[], span?: string): void {
    // Each call sends its history from the start.
    this.cursor = 0;
    this.historyCalls = [];
    this.historyAnswered.clear();
    for (const entry of placed) this.add(entry, span, true);
    this.historyCalls = [];
  }

  /** What an LLM call answered. */
  addOutput(placed: readonly Placed[], span?: string): void {
    this.answerStart = this.items.length;
    for (const entry of placed) this.add(entry, span, false);
    this.answerStart = Infinity;
    this.cursor = this.items.length;
  }

  addToolResult(result: ToolResult): void {
    let call = result.callId === undefined ? undefined : this.callById(result.callId);
    if (call === undefined && result.name !== undefined) {
      const candidates = this.items.filter(({ item }) => item.type === "function_call" && item.name === result.name && !this.hasOutput(item.call_id) && (result.arguments === undefined || sameArguments(item.arguments, result.arguments)));
      call = candidates[candidates.length - 1]?.item;
      // The id the tool was run with is the source's own: it replaces one made up for the call.
      if (call !== undefined && result.callId !== undefined && this.synthesized.has(call)) {
        const loss = this.synthesized.get(call)!;
        this.losses.splice(this.losses.indexOf(loss), 1);
        this.synthesized.delete(call);
        setCallId(call, result.callId);
      }
    }
    if (call === undefined && result.name !== undefined && result.arguments !== undefined) this.doubtOtherRun(result, result.name, result.arguments);
    if (call !== undefined) this.compareRun(call, result);
    else if (result.callId !== undefined) this.runsBeforeCalls.push(result);
    const output = result.output;
    if (output === undefined) return;
    const callId = typeof call?.call_id === "string" ? call.call_id : result.callId;
    if (callId !== undefined && this.resultDisagrees(callId, output, result.path, result.span)) return;
    this.repeatedOr(callId !== undefined && this.hasOutput(callId), () => {
      const item = { type: "function_call_output", ...(callId === undefined ? {} : { call_id: callId }), output };
      if (call === undefined) {
        const loss: ReaderLoss = { path: result.path, code: "unmatched_result", detail: `a result of ${result.name === undefined ? "a tool" : `"${result.name}"`} that no call of the conversation made: kept as an output${callId === undefined ? " without a call_id" : ""}`, ...(result.span ? { span: result.span } : {}) };
        this.losses.push(loss);
        if (callId !== undefined) this.resultsBeforeCalls.set(item, loss);
      }
      this.items.push({ item, path: result.path, span: result.span });
    });
  }

  /**
   * A run of a tool with arguments that none of its unanswered calls has, where
   * the run gives no call id any of them has: the run may be of any of them
   * (an id-less call of a trace is paired by name and arguments alone), with
   * arguments another than the model's. Each is doubted, as a call the run
   * names by its id is when the arguments differ: a replayer that reads the run
   * runs another call than the one judged.
   */
  private doubtOtherRun(result: ToolResult, name: string, args: string): void {
    const where = result.said?.arguments[0]?.path ?? result.path;
    for (const { item: call } of this.items) {
      if (call.type !== "function_call" || call.name !== name || this.hasOutput(call.call_id)) continue;
      // A call of its own id is not the run of another id; one whose id was made up may be.
      if (result.callId !== undefined && !this.synthesized.has(call)) continue;
      this.doubt(call, where, `the tool span ran "${name}" with the arguments ${args}, those of none of the unanswered calls of that tool, and names none of them by its id (the call "${String(call.call_id)}" is ${String(call.arguments)})`, result.span);
    }
  }

  /** Each name and arguments text a tool span says it ran the call with must be the call's. */
  private compareRun(call: Record<string, unknown>, result: ToolResult): void {
    const said = result.said ?? { names: result.name === undefined ? [] : [{ value: result.name, path: result.path }], arguments: result.arguments === undefined ? [] : [{ value: result.arguments, path: result.path }] };
    const where = `where the call says "${String(call.name)}" with ${String(call.arguments)}`;
    for (const { value, path } of said.names) {
      if (value !== call.name) this.doubt(call, path, `the tool span ran the call "${String(call.call_id)}" as the tool "${value}", ${where}`, result.span);
    }
    for (const { value, path } of said.arguments) {
      if (!sameArguments(call.arguments, value)) this.doubt(call, path, `the tool span ran the call "${String(call.call_id)}" with the arguments ${value}, ${where}`, result.span);
    }
  }

  private add(entry: Placed, span: string | undefined, input: boolean): void {
    const item = entry.item;
    if (item.type === "function_call") {
      if (typeof item.call_id === "string" && this.refused.has(item.call_id)) {
        this.reported += 1;
        this.conflict(entry.path, `a later request's history holds the call "${item.call_id}", which its own request did not allow`, span);
        return;
      }
      // An answer is the model's own: a call of it without an id is a new call, even one alike an earlier call.
      const found = typeof item.call_id === "string" ? this.callById(item.call_id) : input ? this.historyCallByContent(item) : undefined;
      if (input && found !== undefined) this.historyCalls.push(found);
      // A history's call without an id that is none of the conversation's calls of its tool says one of them otherwise.
      if (input && found === undefined && typeof item.call_id !== "string") {
        const sameTool = this.items.filter(({ item: call }) => call.type === "function_call" && call.name === item.name);
        for (const { item: call } of sameTool) this.doubt(call, entry.path, `a later request's history records a call of "${String(item.name)}" with ${String(item.arguments)}, which is none of the conversation's calls of that tool (the call "${String(call.call_id)}" is ${String(call.arguments)})`, span);
        if (sameTool.length > 0) {
          this.reported += 1;
          return;
        }
      }
      // A call of a known call_id that says another name or arguments is no repeat, and not another call either: the two readings disagree.
      if (found !== undefined && typeof item.call_id === "string" && !(found.name === item.name && sameArguments(found.arguments, item.arguments))) {
        this.doubt(found, entry.path, `the call "${item.call_id}" is recorded again as "${String(item.name)}" with ${String(item.arguments)}, where it was "${String(found.name)}" with ${String(found.arguments)}`, span);
        this.reported += 1;
        return;
      }
      // The same call_id twice in one answer is two calls, as a chat.completion's would be: the gate finds the call_id given twice.
      const inThisAnswer = found !== undefined && this.items.findIndex(({ item: seen }) => seen === found) >= this.answerStart;
      return this.repeatedOr(found !== undefined && !inThisAnswer, () => {
        if (typeof item.call_id !== "string") this.synthesize(item, entry.path, span);
        this.items.push({ item, path: entry.path, span });
        if (input) this.historyCalls.push(item);
      });
    }
    if (item.type === "function_call_output") {
      let callId = item.call_id;
      if (typeof callId !== "string" && entry.pendingName !== undefined) {
        const call = (input ? this.historyCallAwaiting(entry.pendingName) : undefined) ?? this.callAwaiting(entry.pendingName);
        if (call !== undefined) {
          callId = call.call_id;
          entry = { ...entry, item: { type: "function_call_output", call_id: callId, output: item.output } };
        }
      }
      if (input && typeof callId === "string") {
        const call = this.callById(callId);
        if (call !== undefined) this.historyAnswered.add(call);
      }
      if (typeof callId !== "string") {
        this.losses.push({ path: entry.path, code: "unmatched_result", detail: `a result${entry.pendingName ? ` of "${entry.pendingName}"` : ""} that no call of the conversation made: kept as an output without a call_id`, ...(span ? { span } : {}) });
      }
      const known = typeof callId === "string" && this.hasOutput(callId);
      if (known && this.resultDisagrees(callId as string, item.output, entry.path, span)) return;
      return this.repeatedOr(known, () => this.items.push({ item: entry.item, path: entry.path, span }));
    }
    const key = contentKey(item);
    if (input) {
      for (let index = this.cursor; index < this.items.length; index++) {
        if (contentKey(this.items[index].item) === key) {
          this.cursor = index + 1;
          this.repeated += 1;
          return;
        }
      }
    }
    this.emitted += 1;
    this.items.push({ item, path: entry.path, span });
    if (input) this.cursor = this.items.length;
  }

  /**
   * A second copy of messages already read (another dialect of a span, a
   * wrapper's copy of its inner call): each call in it must be a call of the
   * conversation as the conversation holds it.
   */
  compareCopy(placed: readonly Placed[], span: string | undefined, copy: string, against?: readonly Placed[]): void {
    for (const { item, path } of placed) {
      if (item.type !== "function_call") continue;
      const described = `"${String(item.name)}" with ${String(item.arguments)}`;
      // A copy of an answer holds calls of that answer: one that is a call of another span's is still not this answer's.
      if (against !== undefined && !against.some((entry) => sameCall(entry.item, item, this.synthesized.has(entry.item)))) {
        // The copy says the answer was another: none of the answer's calls is the one a reader of the copy runs.
        const detail = `${copy} records a call ${typeof item.call_id === "string" ? `"${item.call_id}" ` : ""}of ${described} that the answer it copies does not hold`;
        const answered = against.flatMap(({ item: call }) => {
          if (call.type !== "function_call") return [];
          const held = (typeof call.call_id === "string" ? this.callById(call.call_id) : undefined) ?? this.callByContent(call);
          return held === undefined ? [] : [held];
        });
        if (answered.length === 0) this.conflict(path, detail, span);
        for (const call of answered) this.doubt(call, path, detail, span);
        continue;
      }
      if (typeof item.call_id === "string") {
        // A call the reading gave an id it made up is the copy's call when name and arguments agree: the copy holds its real id.
        const found = this.callById(item.call_id) ?? [...this.synthesized.keys()].find((call) => call.name === item.name && sameArguments(call.arguments, item.arguments));
        if (found !== undefined && found.name === item.name && sameArguments(found.arguments, item.arguments)) {
          // A copy that says the call was cut (its answer stopped at the length limit) says it is not one to run.
          if (item.status !== undefined && item.status !== "completed" && found.status === "completed") this.doubt(found, path, `${copy} records the call "${item.call_id}" as ${String(item.status)}, where it is completed`, span);
          continue;
        }
        if (found !== undefined) this.doubt(found, path, `${copy} records the call "${item.call_id}" as ${described}, where it is "${String(found.name)}" with ${String(found.arguments)}`, span);
        else this.conflict(path, `${copy} records a call "${item.call_id}" of ${described} that no other copy holds`, span);
        continue;
      }
      const same = this.callByContent(item);
      if (same !== undefined) {
        // As for a call with an id: a copy that says it was cut says it is not one to run.
        if (item.status !== undefined && item.status !== "completed" && same.status === "completed") this.doubt(same, path, `${copy} records the call of ${described} as ${String(item.status)}, where it is completed`, span);
        continue;
      }
      const sameName = this.items.filter((entry) => entry.item.type === "function_call" && entry.item.name === item.name);
      if (sameName.length === 0) this.conflict(path, `${copy} records a call of ${described} that no other copy holds`, span);
      for (const entry of sameName) this.doubt(entry.item, path, `${copy} records a call of ${described}, where the call "${String(entry.item.call_id)}" is ${String(entry.item.arguments)}`, span);
    }
  }

  /** A call its own request did not allow: reported, and never emitted, however often a history repeats it, before or after. */
  refuse(call: Record<string, unknown>, path: string, detail: string, span: string | undefined): void {
    this.losses.push({ path, code: "conflict", detail, ...(span ? { span } : {}) });
    if (typeof call.call_id !== "string") return;
    this.refused.add(call.call_id);
    this.withdraw(call.call_id);
  }

  /**
   * A later request's history read before the answer that refused its call
   * (spans of one start time, clocks that run apart) has added the call: it is
   * taken back, as it would not have been added after the answer.
   */
  private withdraw(callId: string): void {
    for (const { item, path, span } of this.items) {
      if (item.type !== "function_call" || item.call_id !== callId || this.doubted.has(item)) continue;
      this.doubted.add(item);
      this.emitted -= 1;
      this.reported += 1;
      this.conflict(path, `a request's history holds the call "${callId}", which its own request did not allow`, span);
    }
  }

  /** The items to emit: every item but the calls whose sightings disagree. */
  settled(): ConversationItem[] {
    // A tool span that starts before the span that holds its call (a history that
    // repeats the call, a clock that runs apart) is compared once every call is known.
    for (const run of this.runsBeforeCalls.splice(0)) {
      const call = this.callById(run.callId!);
      if (call !== undefined) this.compareRun(call, run);
    }
    for (const [output, loss] of this.resultsBeforeCalls) this.placeAfterCall(output, loss);
    this.resultsBeforeCalls.clear();
    return this.items.filter(({ item }) => !this.doubted.has(item));
  }

  /**
   * A result met before its call (its tool span starts first: clocks that run
   * apart) goes after the answer that made the call, where the call's history
   * has it, so that it answers the call rather than coming before it.
   */
  private placeAfterCall(output: Record<string, unknown>, loss: ReaderLoss): void {
    const from = this.items.findIndex(({ item }) => item === output);
    const call = this.items.findIndex(({ item }) => item.type === "function_call" && item.call_id === output.call_id);
    if (from === -1 || call < from) return;
    const [entry] = this.items.splice(from, 1);
    let to = call;
    while (to < this.items.length && (this.items[to]!.item.type === "function_call" || this.items[to]!.item.type === "function_call_output")) to++;
    this.items.splice(to, 0, entry!);
    this.losses.splice(this.losses.indexOf(loss), 1);
  }

  /**
   * A result of a call that already has one must say what that one says: a tool
   * span and a later history that give two results leave a replayer two
   * conversations to send, so neither result is emitted, and each sighting is
   * reported (true). A result alike is a repeat, as before.
   */
  private resultDisagrees(callId: string, output: unknown, path: string, span: string | undefined): boolean {
    const held = this.items.find(({ item }) => item.type === "function_call_output" && item.call_id === callId);
    if (held === undefined || sameResult(held.item.output, output, callId)) return false;
    const detail = `the result of the call "${callId}" is recorded again as ${shownResult(output)}, where it was ${shownResult(held.item.output)}`;
    if (!this.doubted.has(held.item)) {
      this.doubted.add(held.item);
      this.emitted -= 1;
      this.reported += 1;
      this.conflict(held.path, `the result of the call "${callId}" is recorded in ways that disagree`, held.span, "results");
    }
    this.reported += 1;
    this.conflict(path, detail, span, "results");
    return true;
  }

  /** Reports a sighting that disagrees with `call`, and the call itself once: it will not be emitted. */
  private doubt(call: Record<string, unknown>, path: string, detail: string, span: string | undefined): void {
    if (!this.doubted.has(call)) {
      this.doubted.add(call);
      this.emitted -= 1;
      this.reported += 1;
      const first = this.items.find(({ item }) => item === call);
      if (first !== undefined) this.conflict(first.path, `the call "${String(call.call_id)}" of "${String(call.name)}" is recorded in ways that disagree`, first.span);
    }
    this.conflict(path, detail, span);
  }

  private conflict(path: string, detail: string, span: string | undefined, what: "calls" | "results" = "calls"): void {
    const consequence = what === "calls" ? "two readers would run two calls" : "two readers would send two results";
    this.losses.push({ path, code: "conflict", detail: `${detail}: ${consequence}, so none is read`, ...(span ? { span } : {}) });
  }

  private repeatedOr(repeated: boolean, append: () => void): void {
    if (repeated) this.repeated += 1;
    else {
      this.emitted += 1;
      append();
    }
  }

  private callById(callId: string): Record<string, unknown> | undefined {
    return this.items.find(({ item }) => item.type === "function_call" && item.call_id === callId)?.item;
  }

  /**
   * The call a history's call without an id repeats: the first of the
   * conversation's calls of its name and arguments that this history has not
   * named yet, so that a call the model made twice alike is met twice.
   */
  private historyCallByContent(call: Record<string, unknown>): Record<string, unknown> | undefined {
    return this.items.find(({ item }) => item.type === "function_call" && item.name === call.name && sameArguments(item.arguments, call.arguments) && !this.historyCalls.includes(item))?.item ?? this.callByContent(call);
  }

  /** A history's result without an id answers the first call of its tool that the history named before it and has not answered yet. */
  private historyCallAwaiting(name: string): Record<string, unknown> | undefined {
    const call = this.historyCalls.find((candidate) => candidate.name === name && !this.historyAnswered.has(candidate));
    if (call !== undefined) this.historyAnswered.add(call);
    return call;
  }

  /** The earliest call of the tool still unanswered, else its latest: what a result without an id and out of any history answers. */
  private callAwaiting(name: string): Record<string, unknown> | undefined {
    const calls = this.items.filter((candidate) => candidate.item.type === "function_call" && candidate.item.name === name);
    return (calls.find((candidate) => !this.hasOutput(candidate.item.call_id)) ?? calls[calls.length - 1])?.item;
  }

  private callByContent(call: Record<string, unknown>): Record<string, unknown> | undefined {
    return this.items.find(({ item }) => item.type === "function_call" && item.name === call.name && sameArguments(item.arguments, call.arguments))?.item;
  }

  private hasOutput(callId: unknown): boolean {
    return typeof callId === "string" && this.items.some(({ item }) => item.type === "function_call_output" && item.call_id === callId);
  }

  /** An id made from the conversation, the call's name and arguments, and how many such calls came before: the same on every run. */
  private synthesize(item: Record<string, unknown>, path: string, span: string | undefined): void {
    const hash = createHash("sha256").update(`${this.conversation}\u0000${String(item.name)}\u0000${String(item.arguments)}\u0000${this.synthesizedCount++}`).digest("hex");
    setCallId(item, `call_${hash.slice(0, 24)}`);
    const loss: ReaderLoss = { path, code: "synthesized", detail: `the call of "${String(item.name)}" has no id in the source: given "${item.call_id}"`, ...(span ? { span } : {}) };
    this.losses.push(loss);
    this.synthesized.set(item, loss);
  }
}

/**
 * Whether two sightings of a call's result say the same: alike, or JSON texts of
 * one meaning (spacing and member order aside), or one of them the Microsoft
 * Agent Framework's record of the other (`{"type": "function_result",
 * "call_id", "result"}`, its `result` the other result), or an MCP tool's
 * result of one text that did not fail, the other that text.
 */
function sameResult(left: unknown, right: unknown, callId: string): boolean {
  if (isDeepStrictEqual(left, right)) return true;
  if (typeof left !== "string" || typeof right !== "string") return false;
  if (sameArguments(left, right)) return true;
  if (mcpText(left) === right || mcpText(right) === left) return true;
  return recordedResult(left, callId) === right || recordedResult(right, callId) === left || sameArguments(recordedResultText(left, callId), right) || sameArguments(left, recordedResultText(right, callId));
}

/**
 * The text of an MCP tool's result (`{"content": [{"type": "text", "text"}],
 * "isError": false}`) that holds one text and nothing else: ADK writes it so on
 * its tool span, and the model's next request holds the text alone. A result
 * that failed, or holds more (structured content, other parts), says more than
 * the text, and is no copy of it.
 */
function mcpText(text: string): string | undefined {
  const result = jsonObject(text);
  if (result === undefined) return undefined;
  if (!Object.keys(result).every((key) => key === "content" || key === "isError") || (result.isError !== undefined && result.isError !== false)) return undefined;
  if (!Array.isArray(result.content) || result.content.length !== 1) return undefined;
  const part: unknown = result.content[0];
  if (!isPlainObject(part)) return undefined;
  const { type, text: said, ...rest } = part;
  return type === "text" && typeof said === "string" && Object.keys(rest).length === 0 ? said : undefined;
}

/** The `result` a function_result record of the call holds, when the text is one and the result a string. */
function recordedResult(text: string, callId: string): string | undefined {
  const result = functionResult(text, callId);
  return typeof result === "string" ? result : undefined;
}

/** The `result` a function_result record of the call holds, as JSON text when it is not a string. */
function recordedResultText(text: string, callId: string): string | undefined {
  const result = functionResult(text, callId);
  return result === undefined || typeof result === "string" ? undefined : JSON.stringify(result);
}

/** The object a JSON text holds, when it is JSON and holds one. */
function jsonObject(text: string): Record<string, unknown> | undefined {
  if (!/^\s*\{/.test(text) || jsonTextMeaning(text) === undefined) return undefined;
  const value: unknown = JSON.parse(text);
  return isPlainObject(value) ? value : undefined;
}

function functionResult(text: string, callId: string): unknown {
  const record = jsonObject(text);
  if (record === undefined) return undefined;
  const keys = Object.keys(record);
  if (record.type !== "function_result" || record.call_id !== callId || !keys.every((key) => key === "type" || key === "call_id" || key === "result")) return undefined;
  return record.result;
}

function shownResult(output: unknown): string {
  const text = typeof output === "string" ? output : JSON.stringify(output) ?? String(output);
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}

/** Whether two sightings are one call: the same name and arguments, and the same call_id when both have one the source wrote. */
function sameCall(left: Record<string, unknown>, right: Record<string, unknown>, madeUpId = false): boolean {
  if (left.type !== "function_call" || left.name !== right.name || !sameArguments(left.arguments, right.arguments)) return false;
  return madeUpId || typeof left.call_id !== "string" || typeof right.call_id !== "string" || left.call_id === right.call_id;
}

/** Gives a call its id in the place a call holds it, right after its type, as every other call of the journal has it. */
function setCallId(call: Record<string, unknown>, callId: string): void {
  const { type, call_id: _replaced, ...rest } = call;
  for (const key of Object.keys(call)) delete call[key];
  Object.assign(call, { type, call_id: callId, ...rest });
}

/** What makes two sightings of a message, reasoning or extension item the same one. */
function contentKey(item: Record<string, unknown>): string {
  if (item.type === "message") return JSON.stringify(["message", item.role === "developer" ? "system" : item.role, textOf(item.content)]);
  if (item.type === "reasoning") return JSON.stringify(["reasoning", textOf(item.content), textOf(item.summary)]);
  return JSON.stringify(item);
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return JSON.stringify(content ?? null);
  return content.map((part) => (part !== null && typeof part === "object" && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : JSON.stringify(part))).join("");
}

/**
 * Arguments compared by what their JSON means, so that spacing and member order
 * are no difference; text that is not JSON, or names a member twice, compared as
 * text. A number its double stands for is compared by value (`1.0` is `1`: a
 * dialect that stored the arguments parsed wrote it so), any other as written
 * (`12345678901234567891` is not the `12345678901234567890` a double reads).
 */
export function sameArguments(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== "string" || typeof right !== "string") return false;
  const meaning = jsonTextMeaning(left, numberValue);
  return meaning !== undefined && meaning === jsonTextMeaning(right, numberValue);
}

function numberValue(literal: string): string {
  return standsAsDouble(literal) ? (decimalValue(literal) ?? literal) : literal;
}
