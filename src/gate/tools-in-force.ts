// The first half of the journal gate, in a module of its own: it loads neither
// Ajv nor Zod, so a thread that runs only this half (`gate --jobs`) stays small.
import type { JournalItem } from "../models/journal-item.js";
import type { GateInput, JournalGateOptions } from "./gate-journal.js";
import type { PreparedItem, PreparedRecord } from "./prepared-gate.js";
import type { ToolSchema } from "./schema.js";
import { oneCallSaid, ToolRegistry, type Choice, type EnvelopeToolsReader } from "./tool-registry.js";
import { toolConfigField } from "./read-request-tools.js";
import { isPlainObject } from "../models/json-value.js";
import { comparedName } from "../models/names-folded-twice.js";
import { namesRequestTools } from "../journal/unreadable-request.js";
import { isKnownBareType } from "./item-kind.js";

/**
 * The first half of the journal gate: keeps the tools in force (the registry,
 * updated by each request body in journal order) and tells each call what they
 * say of it. It must see every record in order, as the journal-wide checks of
 * the second half must; `gate --jobs` runs the halves in two threads.
 */
export class ToolsInForce {
  private readonly schema: ToolSchema | undefined;
  private readonly registry: ToolRegistry;
  private readonly readTools: EnvelopeToolsReader | undefined;
  /** The last request body's word that its response makes one call at most, with its line: it holds for the responses after it, until the next request body. */
  private requestOneCall: string | undefined;
  /**
   * The tools the last request body offered the model, as a choice: the
   * answers after it (responses, and assistant messages on lines of their own)
   * are taken for its own, as for its one call a turn, until the next request
   * body; undefined when it names tools that cannot be read.
   */
  private requestOffered: Choice | undefined;

  constructor(options: Pick<JournalGateOptions, "schema" | "registry" | "readTools"> = {}) {
    this.schema = options.schema;
    this.registry = options.registry ?? new ToolRegistry();
    this.readTools = options.readTools;
  }

  prepare(input: GateInput): PreparedRecord {
    // Made only when the line has something to say: most lines are one item and no request.
    let errors: string[] | undefined;
    // What a request body says of its tools is read as far as it can be; what
    // cannot be read blocks the line, and the calls it governs are refused.
    if (input.request) errors = [...this.registry.addRequestBody(input.request, `line ${input.line}`, this.readTools, input.requestNumbers)];
    else {
      for (const { item } of input.items) {
        if (carriesTools(item)) (errors ??= []).push(...this.registry.narrow(item, `line ${input.line}`, this.readTools));
        else if (nestsToolFields(item)) {
          // A request body under a wrapper's member (`{"body": …}`, a request logged without its response) narrows the
          // tools for a reader of that wrapper, to what this one cannot read: to none, as a line not read that names them.
          this.registry.allowNone(`line ${input.line}, a record of no known kind that names a request's tools and may hold a request body,`);
          (errors ??= []).push(`line ${input.line}: a record of no known kind that names a request's tools below its top level; it may hold a request body, so no function may run until the next request body`);
        }
      }
    }
    // What a response object says its request allowed holds for its own calls, and no later record's.
    const response = input.responseTools === undefined ? undefined : ToolRegistry.responseChoices(input.responseTools, `line ${input.line}`);
    if (response !== undefined && response.problems.length > 0) (errors ??= []).push(...response.problems);
    // A tool call the normalizer could not make an item of (no type, a custom
    // call…) has no verdict: the line says so, blocked, rather than nothing.
    const losses = input.losses;
    if (losses !== undefined) {
      for (const loss of losses) {
        if (loss.code === "unsupported_tool_call") (errors ??= []).push(`not checked, since it gave no item: ${loss.detail}${loss.path === "" ? "" : ` (at ${loss.path})`}`);
      }
    }
    // A response answers the request beside it in a logged exchange, else the
    // last request body before it: its calls could only be to the tools that
    // request offered the model.
    if (input.request !== undefined) this.requestOffered = this.registry.offeredByLastBody();
    const offered = this.requestOffered;
    const answering = offered === undefined ? response?.choices : [...(response?.choices ?? []), offered];
    // An assistant message on a line of its own is one answer too, and answers
    // the last request body as a response would (it repeats no choice of its own).
    const message = input.request === undefined && isMessageRecord(input.items);
    // So does a function_call item on a line of its own, for the tools it may
    // call: the model could call only what that request offered, whichever
    // answer the call is of (the one call a turn counts messages alone).
    const loose = input.request === undefined && input.items.every(({ provenance }) => provenance.response === undefined);
    // Only the answer's own items: an exchange's request items are history the response did not make.
    const prepared: PreparedRecord = { line: input.line, items: input.items.map((journalItem) => this.prepareItem(journalItem, journalItem.provenance.response !== undefined ? answering : loose && offered !== undefined ? [offered] : undefined)) };
    // A request that allows one call a turn: a response that makes more says it
    // was not answering that request, and a replay would run calls it never could.
    if (input.request !== undefined) this.requestOneCall = oneCallOnly(input.request, "the request", input.line);
    // The record's own word first (its request's, then its response's record of it), else the last request body's.
    const echoed = oneCallOnly(input.responseTools, "the response's own record of its request", input.line);
    // A tools file's word holds for every response, whatever the journal's requests say.
    const oneCall = (input.request !== undefined ? this.requestOneCall : undefined) ?? echoed ?? this.requestOneCall ?? this.registry.pinnedOneCall;
    if (oneCall !== undefined) refuseLaterCalls(prepared.items, oneCall, message);
    if (input.source !== undefined) prepared.source = input.source;
    if (errors !== undefined && errors.length > 0) prepared.recordError = errors.join("; ");
    if (input.callsOfOtherAnswers !== undefined && input.callsOfOtherAnswers.length > 0) prepared.callsOfOtherAnswers = input.callsOfOtherAnswers;
    if (input.answers !== undefined) prepared.answers = input.answers;
    return prepared;
  }

  /** No function may run until the next request body sets a choice: `where` says why, as a sentence's subject. */
  allowNone(where: string): void {
    this.registry.allowNone(where);
  }

  private prepareItem(journalItem: JournalItem, responseChoices?: readonly Choice[]): PreparedItem {
    const prepared: PreparedItem = { item: journalItem.item, provenance: journalItem.provenance };
    const item = journalItem.item as unknown;
    // Only a function_call gets as far as its schema (replayGate) or its name (the checks).
    if (item === null || typeof item !== "object" || (item as { type?: unknown }).type !== "function_call") return prepared;
    const name = (item as { name?: unknown }).name;
    // A call in a namespace (`"namespace":"crm","name":"lookup"`, as the OpenAI
    // Responses API writes a call to a function of a namespace tool) is to that
    // namespace's function, not to the function its name gives: no schema known
    // here is its own.
    const namespaced = (item as { namespace?: unknown }).namespace !== undefined && (item as { namespace?: unknown }).namespace !== null;
    const schema = this.schema ?? (typeof name === "string" && !namespaced ? this.registry.schemaFor(name) : undefined);
    if (schema !== undefined) prepared.schema = schema;
    if (typeof name === "string" && name !== "") prepared.notAllowed = this.registry.notAllowedReason(name, responseChoices) ?? null;
    return prepared;
  }
}

// The answer a loose assistant message's calls are counted in, apart from any response id.
const THE_MESSAGE = Symbol("the assistant message of the line");

/**
 * Refuses each call of a response after its first. Counted per response: each
 * choice of a stored completion is an answer of its own (its own response id),
 * which may make its one call. `message`: the record is one assistant message
 * (isMessageRecord), whose calls are one answer's.
 */
function refuseLaterCalls(items: readonly PreparedItem[], oneCall: string, message: boolean): void {
  const calls = new Map<string | symbol | undefined, number>();
  for (const item of items) {
    const response = item.provenance.response;
    if ((response === undefined && !message) || (item.item as { type?: unknown } | null)?.type !== "function_call") continue;
    const answer = response === undefined ? THE_MESSAGE : response.id;
    const count = (calls.get(answer) ?? 0) + 1;
    calls.set(answer, count);
    if (count > 1 && item.notAllowed === null) item.notAllowed = `${oneCall} lets its response make one call, and this is call ${count} of it`;
  }
}

/**
 * Whether a record's items are one message of an envelope that writes a
 * model's turn as a message (a Chat assistant message with its tool_calls, an
 * Anthropic or Bedrock assistant message, a Gemini model content): one answer
 * of the model, however many calls it makes. A journal record is one message
 * (a JSON array is no record), so its items without a response are that
 * message's. An Open Responses line is one item: two loose function_call
 * lines may be two answers, and are not counted together.
 */
function isMessageRecord(items: readonly JournalItem[]): boolean {
  return items.length > 0 && items.every(({ provenance }) => provenance.response === undefined && provenance.envelope !== "responses");
}

/**
 * The field of `fields` (a request body, or a response object's record of its
 * request) that lets a response make one call only (one-call-flag.ts), as a
 * sentence's start. `whose` and `line` name `fields` in it.
 */
function oneCallOnly(fields: unknown, whose: string, line: number): string | undefined {
  return oneCallSaid(fields, `${whose} of line ${line}`);
}

/** Whether preparing the record changes the tools in force: a request body, or an item that carries tools. */
export function changesTools(input: GateInput): boolean {
  return input.request !== undefined || input.items.some(({ item }) => carriesTools(item));
}

/**
 * An object of no known kind (no type, no role) that holds a request's tool
 * fields, in any envelope (Gemini's and Bedrock's toolConfig among them), or
 * a member a reader folding names takes for one (`Tool_choice`, `TOOLS`, a
 * `Config` holding a `ToolConfig`): a request body the reader could not place,
 * whose restrictions must still hold. Read so, a field spelled otherwise
 * allows no function (read-request-tools.ts).
 */
function carriesTools(item: unknown): item is Record<string, unknown> {
  if (item === null || typeof item !== "object" || Array.isArray(item)) return false;
  const fields = item as Record<string, unknown>;
  if (typeof fields.type === "string" || typeof fields.role === "string") return false;
  return fields.tools !== undefined || fields.tool_choice !== undefined || fields.functions !== undefined || fields.function_call !== undefined || toolConfigField(fields) !== undefined || spellsToolFieldOtherwise(fields);
}

/**
 * Whether an item without a type anyone defined (a record of no known kind, or
 * a log's own wrapper such as `{"type":"log","body":…}`) names a request's tool
 * fields where carriesTools does not look: below its top level. One that cannot
 * be written as JSON is taken to.
 */
function nestsToolFields(item: unknown): boolean {
  if (item === null || typeof item !== "object" || Array.isArray(item)) return false;
  const type = (item as { type?: unknown }).type;
  // An item of the spec, a provider's, or an extension with its slug is that item: its text says nothing of a request.
  if (typeof type === "string" && (type.includes(":") || isKnownBareType(type))) return false;
  try {
    return Object.values(item).some((member) => member !== null && typeof member === "object" && namesRequestTools(JSON.stringify(member)));
  } catch {
    return true;
  }
}

// The fields of carriesTools, and the toolConfig a google-genai `config` holds, as a reader folding names reads them.
const TOOL_FIELDS: ReadonlySet<string> = new Set(["tools", "tool_choice", "functions", "function_call", "parallel_tool_calls", "toolConfig", "tool_config", "toolChoice"].map(comparedName));
const CONFIG = comparedName("config");
const CONFIG_TOOL_FIELDS: ReadonlySet<string> = new Set(["toolConfig", "tool_config"].map(comparedName));

function spellsToolFieldOtherwise(fields: Record<string, unknown>): boolean {
  for (const key of Object.keys(fields)) {
    const folded = comparedName(key);
    if (TOOL_FIELDS.has(folded)) return true;
    const config = fields[key];
    if (folded === CONFIG && isPlainObject(config) && Object.keys(config).some((inner) => CONFIG_TOOL_FIELDS.has(comparedName(inner)))) return true;
  }
  return false;
}
