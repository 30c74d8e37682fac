// One whole record of a journal in the target envelope, for `orbridge convert`:
// a request body, a response, an exchange or a loose message of a registered
// envelope. Chat and Open Responses convert to each other directly; any other
// pair goes through the record's Open Responses form, and the losses of both
// steps are pointed back into the record the user wrote. A call the gate
// blocks stays blocked: where the target cannot say why, it is left out and
// reported (unfinished-calls.ts, own-limit-calls.ts, lost-choice-calls.ts,
// held-choice.ts).
import { chat, ENVELOPES, type AdapterName, type ChatRequests, type Conversation, type ItemOrigin, type JournalEnvelopes, type ReasoningField } from "../../adapters/index.js";
import { detectEnvelopeRecord, isCompactedResponse, isPlainObject, type RecordKind } from "../journal/detect.js";
import { isStackOverflow, tooDeepDetail } from "../journal/deep-field.js";
import { ConversationCalls } from "../journal/conversation-calls.js";
import { nameResults } from "../journal/name-results.js";
import { heldIn, joinStepLosses, type StepEnvelope } from "../journal/two-step-losses.js";
import { joinBodyStepLosses } from "../journal/body-step-losses.js";
import { RecordRewrite } from "./record-rewrite.js";
import { z } from "zod";
import { type StreamLoss } from "../models/assembled-response.js";
import { chatCompletionSchema, chatRequestBodySchema, type ChatCompletion, type ChatMessage, type ChatRequestBody } from "../models/chat-completions.js";
import type { Envelope } from "../models/journal-item.js";
import type { Converted, Loss } from "../models/loss.js";
import { pointer, pointerToken, prefixLosses } from "../models/json-pointer.js";
import { createResponseBodySchema, responseResourceSchema, type CanonicalItem, type CreateResponseBody, type ResponseResource } from "../models/open-responses.js";
import { ENVELOPE_TITLES } from "../journal/envelope-titles.js";
import { describeCallId, intoSetAside, isSetAside, setAsideItem, setAsideUnfinishedCalls, unfinishedResponse, type RepeatedKeys } from "../journal/unfinished-calls.js";
import type { JournalIds } from "./journal-ids.js";
import { leaveOutLostChoiceCalls, type Refusal } from "../journal/lost-choice-calls.js";
import { ToolRegistry } from "../gate/tool-registry.js";
import { readRequestTools } from "../gate/read-request-tools.js";
import { heldChoice, type ChoiceAllows } from "../journal/held-choice.js";
import { readEnvelopeTools } from "./envelope-tools.js";
import { leaveOutDisallowedLooseCalls, leaveOutRefusedCalls, lostRequestLimits, refusedByOwnLimits, type RequestLimits } from "../journal/own-limit-calls.js";

export type Fields = Record<string, unknown>;

/** Chat's request-body converters, which load with their models before the first record is read. */
export let loadedChatRequests: ChatRequests | undefined;

/** Loads Chat's request-body converters, with their models, before the first record is read. */
export async function loadChatRequests(): Promise<void> {
  loadedChatRequests ??= await chat.requests();
}

function chatRequests(): ChatRequests {
  if (!loadedChatRequests) throw new Error("the Chat request-body converters are not loaded");
  return loadedChatRequests;
}

/** One input line waiting in a run of loose messages or items. */
export interface Pending {
  line: number;
  record: unknown;
}

export interface Emitted {
  /** The first input line the output comes from. */
  line: number;
  /** The last, when the output comes from several (a stream's, a run's); the first otherwise. */
  lastLine?: number;
  /** Output records, each written on its own line. */
  records: unknown[];
  losses: StreamLoss[];
  /** Input records that could not be converted; `records` of them when more than one. */
  errors: Array<{ line: number; detail: string; records?: number }>;
  /** Input records converted. */
  converted: number;
  /** The input lines of a run converted together, whose records are written as one group, in the first line's wrapper. */
  runLines?: number[];
  /** The calls a loose message of a registered envelope made and left out: the results on the next line may answer them. */
  calls?: CallsBefore;
  /** What a request body (alone, or an exchange's) allows the responses after it and its record written cannot say (lostRequestLimits). */
  limits?: RequestLimits;
  /**
   * Lines written as they are after the records: the mark left where a line of a
   * stream written through unchanged could not be read (`unreadMark`).
   */
  marks?: string[];
  /**
   * The input lines each output record comes from, first first, when the run
   * can tell: each record is written in its first line's wrapper, and the
   * wrappers of the others it folds in are reported as not kept.
   */
  recordLines?: number[][];
}

/** The call_ids of the calls a loose message of a registered envelope wrote, and of those it left out, each with its line. */
export interface CallsBefore {
  written: ReadonlySet<string>;
  leftOut: ReadonlyMap<string, number>;
}

/** The journal's calls by call_id, for a target whose results name their call (`TargetProfile.toolResultNames`). */
export interface ResultNames {
  calls: ConversationCalls;
  field: string;
  rule: string;
}

/**
 * Items whose results, answering a call on an earlier line, take its name;
 * each such result a loss (`synthesized`) of its line, at the field that names
 * its call. `origins`, when given, follows each item given a name.
 */
export function namedResults(items: readonly CanonicalItem[], names: ResultNames, lineOf: (index: number) => number, pathOf: (index: number) => string, origins?: Map<CanonicalItem, ItemOrigin>): { items: CanonicalItem[]; losses: StreamLoss[] } {
  const named = nameResults({ items, calls: names.calls, field: names.field, lineOf });
  const losses = named.named.map(({ index, name, callLine }): StreamLoss => {
    const origin = origins?.get(items[index]!);
    if (origin) origins!.set(named.items[index]!, origin);
    return { line: lineOf(index), path: pathOf(index), code: "synthesized", detail: `${names.rule}: the result gets the name of its call on line ${callLine}, ${JSON.stringify(name)}` };
  });
  return { items: named.items, losses };
}

/**
 * Items rewritten for the `--for` target, then their results named for a target
 * envelope whose results name their call, when the rewrite did not name them:
 * `--to gemini --for anthropic` needs both.
 */
export function rewrittenAndNamed(items: readonly CanonicalItem[], envelope: Envelope, rewrite: RecordRewrite | undefined, names: ResultNames | undefined, lineOf: (index: number) => number, pathOf: (index: number) => string): { items: CanonicalItem[]; losses: StreamLoss[] } {
  const rewritten = rewrite ? rewrite.items(items, envelope, lineOf, pathOf) : { items: [...items], losses: [] };
  if (!names) return rewritten;
  const named = namedResults(rewritten.items, names, lineOf, pathOf);
  return { items: named.items, losses: [...rewritten.losses, ...named.losses] };
}

/** The calls of a whole record, in its Open Responses form, kept for the results of later lines. */
function recordCalls(canonical: unknown, names: ResultNames, line: number): void {
  if (!isPlainObject(canonical)) return;
  const items = Array.isArray(canonical.output) ? canonical.output : Array.isArray(canonical.input) ? canonical.input : [];
  nameResults({ items: items as CanonicalItem[], calls: names.calls, field: names.field, lineOf: () => line });
}

export function notConverted(line: number, detail: string, records = 1): Emitted {
  return { line, records: [], losses: [], errors: [{ line, detail, records }], converted: 0 };
}

/** One record that is not a loose message or item: converted whole, or passed on when already in the target envelope. */
export function convertRecord(record: unknown, kind: RecordKind, target: Envelope, line: number, envelopes: JournalEnvelopes, reasoningField?: ReasoningField, envelope?: AdapterName, rewrite?: RecordRewrite, names?: ResultNames, callsBefore?: CallsBefore, requestLimits?: RequestLimits, ids?: JournalIds): Emitted {
  const done = (records: unknown[], losses: Loss[]): Emitted => ({ line, records, losses: losses.map((loss) => ({ line, ...loss })), errors: [], converted: 1 });
  try {
    switch (kind) {
      case "chat_request":
      case "chat_completion":
      case "responses_request":
      case "response":
      case "envelope_request":
      case "envelope_response": {
        if (envelopeOf(kind, envelope) === target && !rewrite && !lostLimitRefusesCall(record, kind, envelopes, envelope, requestLimits)) return done([record], []);
        const converted = convertWhole(record, kind, target, envelopes, reasoningField, envelope, rewrite, line, names, requestLimits, ids);
        return { ...done([converted.value], converted.losses), ...(converted.limits ? { limits: converted.limits } : {}) };
      }
      case "exchange": {
        const exchange = record as Fields;
        const losses: Loss[] = [];
        const converted: Fields = { ...exchange };
        // The exchange's own request is the one its response answers, in place of any before it.
        let limits: RequestLimits | undefined;
        for (const part of ["request", "response"] as const) {
          const { kind: partKind, envelope: partEnvelope } = detectEnvelopeRecord(exchange[part]);
          if (!isWholeKind(partKind)) {
            return notConverted(line, `the ${part} of this exchange is of no known kind (${partKind})`);
          }
          if (envelopeOf(partKind, partEnvelope) === target && !rewrite && !lostLimitRefusesCall(exchange[part], partKind, envelopes, partEnvelope, limits)) continue;
          const result = convertWhole(exchange[part], partKind, target, envelopes, reasoningField, partEnvelope, rewrite, line, names, limits, ids);
          if (part === "request") limits = result.limits;
          converted[part] = result.value;
          losses.push(...prefixLosses("/" + part, result.losses));
        }
        return { ...done([converted], losses), ...(limits ? { limits } : {}) };
      }
      case "envelope_message": {
        const adapter = envelopes[envelope!];
        const items = adapter.messagesToItems({ messages: [record] });
        // A message already in the target's envelope is written as it is, unless its request's limit, lost there, refuses a call of it.
        const title = target === "responses" ? "Open Responses" : WRITTEN_AS[target];
        const disallowed = leaveOutDisallowedLooseCalls(items.value, title, () => "", requestLimits);
        const judged = rewrite ? undefined : ids?.judge(items.value, () => line, { givesItemIds: false });
        const answersLeftOut = items.value.some((item) => answersCallLeftOut(item, callsBefore));
        if (envelope === target && !rewrite && disallowed.left.size === 0 && (judged?.size ?? 0) === 0 && !answersLeftOut) {
          ids?.written(items.value);
          return done([record], []);
        }
        const at = new RegExp(`^/${adapter.fields.messages}/0(?=/|$)`);
        const itemLosses = items.losses.map((loss) => ({ ...loss, path: loss.path.replace(at, "") }));
        const rewritten = rewrittenAndNamed(items.value, envelope!, rewrite, names, () => line, () => "");
        const blocked = blockedCallsLeftOut(rewritten.items, target, rewrite ? ids?.judge(rewritten.items, () => line, { givesItemIds: false }) : judged);
        const limited = leaveOutDisallowedLooseCalls(blocked.items, title, (index) => `/${index}`, requestLimits);
        const answers = outputsLeftWithTheirCalls(limited.items, callsBefore);
        const aside = { items: answers.items, losses: [...blocked.losses, ...limited.losses.map((loss) => ({ ...loss, path: "" })), ...answers.losses], left: new Set([...blocked.left, ...limited.left, ...answers.left]) };
        ids?.written(aside.items);
        const written = itemsToEnvelope(aside.items, target, envelopes, reasoningField);
        const second = written.losses.filter((loss) => !aside.left.has(loss.path) && !answersCallBefore(loss, aside.items, callsBefore));
        const emitted = done(written.value, [...itemLosses, ...rewritten.losses, ...aside.losses, ...messageStepLosses(record, adapter, aside.items, second)]);
        const callIds = (of: readonly unknown[]) => of.flatMap((item) => (isPlainObject(item) && item.type === "function_call" && typeof item.call_id === "string" ? [item.call_id] : []));
        const made = new Set(callIds(aside.items));
        const leftOut = new Map(callIds(rewritten.items).filter((callId) => !made.has(callId)).map((callId) => [callId, line]));
        return { ...emitted, calls: { written: made, leftOut } };
      }
      case "chat_message":
      case "responses_item":
        // A loose record already in the target's envelope: through its items when they are rewritten.
        if (rewrite) return done(...rewriteLoose(record, kind, line, rewrite, reasoningField));
      // falls through: the other envelope's loose records, and the target's own
      // stream records, are written as they are.
      case "chat_chunk":
      case "responses_event":
      case "envelope_event":
        return done([record], []);
      case "unknown":
        return notConverted(line, "record of no known kind (not a message, item, request body, completion or response)");
      default: {
        const unknownKind: never = kind;
        return notConverted(line, `record kind ${String(unknownKind)} is not converted`);
      }
    }
  } catch (error) {
    return notConverted(line, whyNotConverted(record, kind, error));
  }
}

/**
 * The calls of a whole record, in its Open Responses form, that repeat an id an
 * earlier record gave (journal-ids.ts). A record written as it came is not
 * read: its reading would move on what the journal's converters carry to the
 * next record (Gemini's calls without id), and the target's reader sees its
 * ids as the source's did.
 */
function judgeWhole(ids: JournalIds, canonical: unknown, kind: WholeKind, envelope: AdapterName | undefined, line: number): RepeatedKeys {
  const carriesHistory = kind === "chat_request" || kind === "responses_request" || kind === "envelope_request";
  return ids.judge(gatedItems(canonical), () => line, { carriesHistory, givesItemIds: envelopeOf(kind, envelope) === "responses" });
}

/**
 * A request body's or response's items as the gate reads them: a body's
 * instructions as a leading system message, then its input; a response's output.
 */
function gatedItems(canonical: unknown): unknown[] {
  if (!isPlainObject(canonical)) return [];
  if (Array.isArray(canonical.output)) return canonical.output;
  const system = typeof canonical.instructions === "string" ? [{ type: "message", role: "system", content: canonical.instructions }] : [];
  const input = canonical.input;
  return [...system, ...(typeof input === "string" ? [{ type: "message", role: "user", content: input }] : Array.isArray(input) ? input : [])];
}

/**
 * Whether a response already in the target's envelope holds a call that the
 * limits of its request, lost in the target (lostRequestLimits), refuse: it
 * is then written through its Open Responses form, which leaves that call out.
 */
function lostLimitRefusesCall(record: unknown, kind: WholeKind, envelopes: JournalEnvelopes, envelope: AdapterName | undefined, requestLimits: RequestLimits | undefined): boolean {
  if (requestLimits === undefined || (kind !== "chat_completion" && kind !== "response" && kind !== "envelope_response")) return false;
  const canonical = toResponses(record, kind, envelopes, envelope).value;
  return isPlainObject(canonical) && refusedByOwnLimits(canonical, requestLimits).size > 0;
}

/**
 * The items of one loose message of another envelope, each call the gate blocks
 * for what it says (the message's stop reason made it incomplete) left out with
 * its outputs where the target cannot say it. Their losses point at the message
 * as a whole: its items are no field of it.
 */
function blockedCallsLeftOut(items: CanonicalItem[], target: Envelope, repeats?: RepeatedKeys): { items: CanonicalItem[]; losses: Loss[]; left: ReadonlySet<string> } {
  if (target === "responses") return { items, losses: [], left: new Set() };
  const aside = setAsideUnfinishedCalls(items, WRITTEN_AS[target], (index) => `/${index}`, false, target === "chat", repeats);
  return { items: aside.items, losses: aside.losses.map((loss) => ({ ...loss, path: "" })), left: aside.left };
}

/** Items as the target's loose records: items themselves, Chat messages, or an envelope's messages (its system text first, as a system line). */
function itemsToEnvelope(items: readonly CanonicalItem[], target: Envelope, envelopes: JournalEnvelopes, reasoningField?: ReasoningField): Converted<unknown[]> {
  if (target === "responses") return { value: [...items], losses: [] };
  if (target === "chat") return chat.messages.fromItems({ items, reasoningField });
  // The journal's writer: the call ids its rewrites took are taken for every record of it.
  const converted = envelopes[target as AdapterName].itemsToMessages(items);
  return { value: conversationRecords(converted.value), losses: converted.losses };
}

/** An envelope's messages as loose records: its system prompt first, as a system line. */
export function conversationRecords(conversation: Conversation): unknown[] {
  const system = conversation.system === undefined || conversation.system === null ? [] : [{ role: "system", content: systemLineContent(conversation.system) }];
  return [...system, ...conversation.messages];
}

/**
 * What a system line holds, so that it reads back as the system message it
 * came from: no envelope reads a system prompt of Gemini (`{parts: [{text}]}`)
 * or Bedrock (`[{text}]`) on a line of its own, where it would be read as a
 * Chat message whose content is no text, and its text lost. Text alone is
 * written as a Chat system message writes it (one text as a string, several as
 * text parts); any other prompt (Anthropic's, whose line its reader takes, or
 * one with a part that is no text) as it is.
 */
function systemLineContent(system: unknown): unknown {
  const blocks = isPlainObject(system) && Object.keys(system).length === 1 && Array.isArray(system.parts) ? system.parts : system;
  if (!Array.isArray(blocks) || blocks.length === 0 || !blocks.every((block) => isPlainObject(block) && Object.keys(block).length === 1 && typeof block.text === "string")) return system;
  const texts = blocks.map((block) => (block as { text: string }).text);
  return texts.length === 1 ? texts[0] : texts.map((text) => ({ type: "text", text }));
}

const SCHEMAS: Partial<Record<RecordKind, { name: string; schema: z.ZodType }>> = {
  chat_request: { name: "Chat request body", schema: chatRequestBodySchema },
  chat_completion: { name: "chat.completion", schema: chatCompletionSchema },
  responses_request: { name: "Open Responses request body", schema: createResponseBodySchema },
  response: { name: "response object", schema: responseResourceSchema },
};

/** A valid record the target envelope has no record for: said as it is, not as a departure from a model. */
class NoEquivalent extends Error {}

/** Says where a record that made a converter throw departs from its envelope's model, when the model can tell. */
function whyNotConverted(record: unknown, kind: RecordKind, error: unknown): string {
  if (error instanceof NoEquivalent) return error.message;
  // The model's own walk would run out of stack on the same record.
  if (isStackOverflow(error)) return tooDeepDetail(record, "not converted");
  const model = SCHEMAS[kind];
  const parsed = model?.schema.safeParse(record);
  const issue = parsed && !parsed.success ? parsed.error.issues[0] : undefined;
  if (model && issue) return `not a valid ${model.name}: ${pointer(...issue.path.map(String)) || "/"}: ${issue.message}`;
  return `not converted: ${(error as Error).message}`;
}

type WholeKind = "chat_request" | "chat_completion" | "responses_request" | "response" | "envelope_request" | "envelope_response";

/** The records that hold a request body: each replaces what the one before allowed the responses after it. */
export const REQUEST_KINDS: ReadonlySet<RecordKind> = new Set(["chat_request", "responses_request", "envelope_request", "exchange"]);

function isWholeKind(kind: RecordKind): kind is WholeKind {
  return kind === "chat_request" || kind === "chat_completion" || kind === "responses_request" || kind === "response" || kind === "envelope_request" || kind === "envelope_response";
}

function envelopeOf(kind: WholeKind, envelope?: AdapterName): Envelope {
  if (kind === "envelope_request" || kind === "envelope_response") return envelope!;
  return kind === "chat_request" || kind === "chat_completion" ? "chat" : "responses";
}

/**
 * A whole record in the target envelope. Between Chat and Open Responses, one
 * converter; otherwise through the record's Open Responses form. The
 * second-step losses are pointed back into the record: a response's by its
 * fields (joinStepLosses), a request body's by the message each item came from
 * (joinBodyStepLosses).
 */
function convertWhole(record: unknown, kind: WholeKind, target: Envelope, envelopes: JournalEnvelopes, reasoningField?: ReasoningField, envelope?: AdapterName, rewrite?: RecordRewrite, line = 0, names?: ResultNames, requestLimits?: RequestLimits, ids?: JournalIds): Converted<unknown> & { limits?: RequestLimits } {
  const source = envelopeOf(kind, envelope);
  if (kind === "response" && target !== "responses" && isCompactedResponse(record)) throw new NoEquivalent(`a compacted response (response.compaction) has no ${WRITTEN_AS[target]} equivalent: its output is the history that replaces a conversation, its compaction item encrypted for the Responses API alone`);
  const isBody = kind === "chat_request" || kind === "responses_request" || kind === "envelope_request";
  if (!rewrite && ((source === "chat" && target === "responses") || (source === "responses" && target === "chat"))) {
    const repeats = ids && target === "chat" ? judgeWhole(ids, record, kind, envelope, line) : undefined;
    const written = convertChatOrResponses(record, kind, reasoningField, repeats);
    if (!isBody) ids?.written(gatedItems(written.marked));
    if (!isBody) return written;
    // One converter writes the body: the calls its choice refuses are left out of what it reads, or of what it wrote.
    const canonical = target === "responses" ? written.value : record;
    const lost = lostChoiceCalls(record, canonical, written.value, target);
    if (lost === undefined) ids?.written(gatedItems(written.marked), true);
    if (lost === undefined) return withChoiceHeld(record, written, target);
    if (target === "responses") return withChoiceHeld(record, { value: lost.value, losses: [...written.losses, ...lost.losses] }, target);
    const again = convertChatOrResponses(lost.value, kind, reasoningField, repeats);
    ids?.written(gatedItems(again.marked), true);
    return withChoiceHeld(record, { value: again.value, losses: [...again.losses.filter((loss) => !lost.left.has(loss.path)), ...lost.losses] }, target);
  }
  let canonical = toResponses(record, kind, envelopes, envelope);
  if (rewrite) canonical = rewriteCanonical(canonical, source, rewrite, line);
  // Judged as rewritten: the call_ids written are the rewrite's.
  const repeats = ids && target !== "responses" ? judgeWhole(ids, canonical.value, kind, envelope, line) : undefined;
  if (names) recordCalls(canonical.value, names, line);
  if (target === "responses") {
    const lost = isBody ? lostChoiceCalls(record, canonical.value, canonical.value, target) : undefined;
    const converted = lost === undefined ? canonical : { value: lost.value, losses: [...canonical.losses, ...lost.losses] };
    return isBody ? withChoiceHeld(record, converted, target) : converted;
  }
  const marked = unfinishedCallsMarked(canonical, isBody, target, requestLimits, repeats);
  const write = (body: Converted<unknown>): Converted<unknown> =>
    target === "chat"
      ? isBody
        ? chatRequests().requestBodies.fromResponses({ body: body.value as CreateResponseBody, reasoningField })
        : chat.responses.fromResponses({ response: body.value as ResponseResource, reasoningField, synthesized: synthesizedPaths(body.losses) })
      : isBody
        ? envelopes[target as AdapterName].bodyToRequest(body.value as CreateResponseBody)
        : envelopes[target as AdapterName].resourceToResponse(body.value as ResponseResource);
  const written = write(marked);
  if (isBody) {
    const lost = lostChoiceCalls(record, marked.value, written.value, target);
    const body = lost === undefined ? marked.value : lost.value;
    const once = lost === undefined ? written : write({ value: body, losses: marked.losses });
    // A choice the writer dropped is written as what it allows (held-choice.ts), and the body written again.
    // A limit the target writes as the tools it offers is carried to the responses after it (lostRequestLimits): no more is allowed there.
    const carried = lostRequestLimits(body, target, "")?.allows?.names;
    const held = heldChoice(choiceAllows(record), narrowedBy(choiceAllows(once.value), carried), WRITTEN_AS[target]);
    const final = held === undefined ? body : { ...(body as Fields), tool_choice: held.choice };
    const out = held === undefined ? once : write({ value: final, losses: marked.losses });
    // What the body allows the responses after it and the request written cannot say (own-limit-calls.ts).
    const limits = lostRequestLimits(final, target, `the request of line ${line}`);
    ids?.written(gatedItems(final), true);
    const left = new Set([...(marked.left ?? []), ...(lost?.left ?? [])]);
    const losses = [...bodyLosses(record, source, marked, [...(marked.inputLosses ?? []), ...(lost?.losses ?? []), ...out.losses.filter((loss) => !left.has(loss.path))]), ...(held ? [held.loss] : [])];
    return { value: out.value, losses, ...(limits ? { limits } : {}) };
  }
  ids?.written(gatedItems(marked.value));
  const second = written.losses.filter((loss) => !intoSetAside(loss.path, marked.left));
  const joined = joinStepLosses({ source: stepEnvelope(source, envelopes), target: stepEnvelope(target, envelopes), first: marked.losses, second, written: written.value });
  // A synthesized value points into the record written; every other loss into the source, or at it as a whole.
  return { value: written.value, losses: joined.map((loss) => (loss.code === "synthesized" ? loss : heldIn(record, loss))) };
}

/**
 * A request body's Open Responses form (`canonical`) with each call of its
 * input that the body refuses, and the body written (`written`) does not,
 * left out (lost-choice-calls.ts); undefined when there is none. The gate's
 * own reading of each body says what it refuses. Toward Open Responses the
 * calls are taken out; toward another envelope they are set aside, which no
 * writer writes, and `left` holds their pointers.
 */
function lostChoiceCalls(record: unknown, canonical: unknown, written: unknown, target: Envelope): { value: unknown; losses: Loss[]; left: ReadonlySet<string> } | undefined {
  const input = isPlainObject(canonical) ? canonical.input : undefined;
  if (!Array.isArray(input) || !input.some((item) => isPlainObject(item) && item.type === "function_call")) return undefined;
  const title = target === "responses" ? "Open Responses" : WRITTEN_AS[target];
  const aside = leaveOutLostChoiceCalls(input as CanonicalItem[], requestRefusal(record), requestRefusal(written), title, (index) => `/input/${index}`);
  if (aside.losses.length === 0) return undefined;
  const items = target === "responses" ? aside.items.filter((item) => !isSetAside(item)) : aside.items;
  return { value: { ...(canonical as Fields), input: items }, losses: aside.losses, left: aside.left };
}

/**
 * A request body written toward Chat or Open Responses (`converted`) with its
 * tool_choice written as what the source's allows, where the writer dropped a
 * limit the gate reads in it (held-choice.ts).
 */
function withChoiceHeld(record: unknown, converted: Converted<unknown>, target: Envelope): Converted<unknown> {
  const held = heldChoice(choiceAllows(record), choiceAllows(converted.value), target === "responses" ? "Open Responses" : WRITTEN_AS[target]);
  if (held === undefined) return converted;
  const choice = target === "chat" ? chatRequests().toolChoice.fromResponses({ toolChoice: held.choice }).value : held.choice;
  return { value: { ...(converted.value as Fields), tool_choice: choice }, losses: [...converted.losses, held.loss] };
}

/** What `allows` allows within `limit`, when there is one; undefined allows every function. */
function narrowedBy(allows: ChoiceAllows, limit: ReadonlySet<string> | undefined): ChoiceAllows {
  if (limit === undefined) return allows;
  return allows === undefined ? limit : new Set([...allows].filter((name) => limit.has(name)));
}

/** The functions the gate reads a request body's choice to allow; undefined allows every one. */
function choiceAllows(body: unknown): ChoiceAllows {
  // A body that is no object is never written: nothing to hold.
  if (!isPlainObject(body)) return undefined;
  return readRequestTools(body, "the request", readEnvelopeTools).choice.names;
}

/** Why a request body refuses a call to a name, as the gate reads the body; read when first asked. */
function requestRefusal(body: unknown): Refusal {
  let registry: ToolRegistry | undefined;
  return (name) => {
    if (registry === undefined) {
      registry = new ToolRegistry();
      registry.addRequestBody(body, "the request", readEnvelopeTools);
    }
    return registry.notAllowedReason(name);
  };
}

/**
 * A loose message is written alone, so the target's writer sees no message
 * before its results and says each answers no call (Anthropic and Bedrock
 * reject a result whose call is not in the message before it). A result that
 * answers a call of the loose message on the line before is where they want it.
 */
function answersCallBefore(loss: Loss, items: readonly CanonicalItem[], callsBefore: CallsBefore | undefined): boolean {
  if (callsBefore === undefined || loss.code !== "target_rejects") return false;
  const at = /^\/(\d+)\/call_id$/.exec(loss.path);
  const item = at ? items[Number(at[1])] : undefined;
  return isPlainObject(item) && item.type === "function_call_output" && typeof item.call_id === "string" && callsBefore.written.has(item.call_id);
}

/** Whether an item is a result of a call the loose message on the line before left out. */
function answersCallLeftOut(item: unknown, callsBefore: CallsBefore | undefined): boolean {
  return callsBefore !== undefined && isPlainObject(item) && item.type === "function_call_output" && typeof item.call_id === "string" && callsBefore.leftOut.has(item.call_id);
}

/**
 * The results of a loose message that answer a call the message on the line
 * before left out (its results come in the next message, in these envelopes):
 * left out with it, as a result in the same record is, since written alone they
 * answer no call, which the gate blocks and the providers reject. Their losses
 * point at the message as a whole, as the call's do.
 */
function outputsLeftWithTheirCalls(items: CanonicalItem[], callsBefore: CallsBefore | undefined): { items: CanonicalItem[]; losses: Loss[]; left: ReadonlySet<string> } {
  const losses: Loss[] = [];
  const left = new Set<string>();
  const kept = items.map((item, index) => {
    if (!answersCallLeftOut(item, callsBefore)) return item;
    const callId = (item as { call_id: string }).call_id;
    losses.push({ path: "", code: "unsupported_item", detail: `the output answers the call ${describeCallId(callId)}, left out on line ${callsBefore!.leftOut.get(callId)}: it is left out with it` });
    left.add(`/${index}`);
    return setAsideItem(callId);
  });
  return { items: kept, losses, left };
}

/**
 * The second step's losses of a loose message of a registered envelope, which
 * point at its items, pointed at the block or field of the message each came
 * from: as a request body's, for a body of that one message.
 */
function messageStepLosses(record: unknown, adapter: JournalEnvelopes[AdapterName], items: readonly CanonicalItem[], second: readonly Loss[]): Loss[] {
  if (second.length === 0) return [];
  const field = adapter.fields.messages;
  const joined = joinBodyStepLosses({
    record: { [field]: [record] },
    messagesField: field,
    itemsOf: (message) => adapter.messagesToItems({ messages: [message] }).value.length,
    slug: adapter.slug,
    input: items,
    first: [],
    second: second.map((loss) => ({ ...loss, path: "/input" + loss.path })),
  });
  const message = `/${pointerToken(field)}/0`;
  return joined.map((loss) => ({ ...loss, path: loss.path === message ? "" : loss.path.startsWith(message + "/") ? loss.path.slice(message.length) : loss.path }));
}

/** A request body's losses of both steps, the second's pointed into the messages of the body written. */
function bodyLosses(record: unknown, source: Envelope, canonical: Converted<unknown>, second: readonly Loss[]): Loss[] {
  if (source === "responses") return [...canonical.losses, ...second];
  const { input, tools } = canonical.value as { input?: unknown; tools?: unknown };
  const adapter = source === "chat" ? undefined : ENVELOPES[source];
  return joinBodyStepLosses({
    record,
    messagesField: adapter ? adapter.fields.messages : "messages",
    system: adapter ? systemItems(record, adapter, canonical.value) : undefined,
    itemsOf: adapter ? (message) => adapter.messagesToItems({ messages: [message] }).value.length : (message) => chat.messages.toItems({ messages: [message as ChatMessage] }).value.length,
    slug: adapter?.slug,
    input: Array.isArray(input) ? input : [],
    ...(Array.isArray(tools) ? { tools } : {}),
    first: canonical.losses,
    second,
  });
}

/** The input items a body's own system prompt gives, when it has one. */
function systemItems(record: unknown, adapter: (typeof ENVELOPES)[AdapterName], body: unknown): { field: string; items: number } | undefined {
  const system = (record as Fields)[adapter.fields.system];
  if (system === undefined || system === null) return undefined;
  // A system prompt the first step made the body's instructions (Anthropic's string) is no input item.
  if (typeof system === "string" && (body as Fields).instructions === system) return { field: adapter.fields.system, items: 0 };
  try {
    return { field: adapter.fields.system, items: adapter.messagesToItems({ system, messages: [] }).value.length };
  } catch {
    return undefined;
  }
}

/** What the losses of a response's two steps need to know of an envelope: its slug and where its response holds each field. */
function stepEnvelope(envelope: Envelope, envelopes: JournalEnvelopes): StepEnvelope {
  if (envelope === "responses") return "responses";
  if (envelope === "chat") return { responseFields: chat.responses.fieldPaths };
  const adapter = envelopes[envelope];
  return { slug: adapter.slug, responseFields: adapter.responseFields };
}

/** Where the step to Open Responses wrote a value no record said, so that the next step does not report it lost. */
function synthesizedPaths(losses: readonly Loss[]): string[] {
  return losses.filter((loss) => loss.code === "synthesized").map((loss) => loss.path);
}

/** A loose Chat message or item written in its own envelope, its items rewritten for the `--for` target. */
function rewriteLoose(record: unknown, kind: "chat_message" | "responses_item", line: number, rewrite: RecordRewrite, reasoningField?: ReasoningField): [unknown[], Loss[]] {
  const items = kind === "chat_message" ? chat.messages.toItems({ messages: [record as ChatMessage] }) : { value: [record as CanonicalItem], losses: [] as Loss[] };
  const rewritten = rewrite.items(items.value, kind === "chat_message" ? "chat" : "responses", () => line, () => "");
  const changes = rewritten.losses.map(({ line: _line, ...loss }) => loss);
  if (kind === "responses_item") return [rewritten.items, changes];
  const written = chat.messages.fromItems({ items: rewritten.items, reasoningField });
  return [written.value, [...items.losses.map((loss) => ({ ...loss, path: loss.path.replace(/^\/0(?=\/|$)/, "") })), ...changes, ...written.losses]];
}

/** A request body's input, or a response's output, rewritten for the `--for` target; each change a loss of the record's line. */
function rewriteCanonical(canonical: Converted<unknown>, source: Envelope, rewrite: RecordRewrite, line: number): Converted<unknown> {
  const value = canonical.value as Fields;
  const field = Array.isArray(value.output) ? "output" : Array.isArray(value.input) ? "input" : undefined;
  if (field === undefined) return canonical;
  const rewritten = rewrite.items(value[field] as CanonicalItem[], source, () => line, (index) => `/${field}/${index}`);
  // The record's own line is added by the caller: the changes keep their paths only.
  const losses = rewritten.losses.map(({ line: _line, ...loss }) => loss);
  return { value: { ...value, [field]: rewritten.items }, losses: [...canonical.losses, ...losses] };
}

/** A whole record's Open Responses form: a request body or a response object. */
function toResponses(record: unknown, kind: WholeKind, envelopes: JournalEnvelopes, envelope?: AdapterName): Converted<unknown> {
  switch (kind) {
    case "chat_request":
      return chatRequests().requestBodies.toResponses({ request: record as ChatRequestBody });
    case "chat_completion":
      return chat.responses.toResponses({ completion: record as ChatCompletion });
    case "responses_request":
    case "response":
      return { value: record, losses: [] };
    case "envelope_request":
      return envelopes[envelope!].requestToBody(record);
    case "envelope_response":
      return envelopes[envelope!].responseToResource(record);
    default: {
      const unknownKind: never = kind;
      throw new TypeError(`record kind ${String(unknownKind)} is not a whole record`);
    }
  }
}

/**
 * A body's or response's Open Responses form with its unfinished calls marked
 * for a target that has no status for one call (unfinished-calls.ts): a body's
 * set aside, a completed response written incomplete. A set-aside item's own
 * loss says why; what the writer would add of it is left out by `left`.
 */
function unfinishedCallsMarked(canonical: Converted<unknown>, isBody: boolean, target: Envelope, requestLimits?: RequestLimits, repeats?: RepeatedKeys): Converted<unknown> & { left?: ReadonlySet<string>; inputLosses?: Loss[] } {
  const value = canonical.value as Fields;
  const title = target === "responses" ? target : WRITTEN_AS[target];
  if (!isBody) {
    // Calls the response's own record of its request refuses go first: the target has no place for that record.
    const refused = target === "responses" ? undefined : leaveOutRefusedCalls(value, title, requestLimits);
    const marked = unfinishedResponse(refused?.value ?? value, title, target !== "chat" && target !== "responses", target === "chat", repeats);
    const losses = [...(refused?.losses ?? []), ...marked.losses];
    return losses.length === 0 ? canonical : { value: marked.value, losses: [...canonical.losses, ...losses], ...(refused?.left.size ? { left: refused.left } : {}) };
  }
  if (!Array.isArray(value.input)) return canonical;
  const aside = setAsideUnfinishedCalls(value.input as CanonicalItem[], title, (index) => `/input/${index}`, true, target === "chat", repeats);
  // Their paths point into the Open Responses body's input, which a body of another envelope does not have: bodyLosses places them.
  return aside.losses.length === 0 ? canonical : { value: { ...value, input: aside.items }, losses: canonical.losses, left: aside.left, inputLosses: aside.losses };
}


/** How a loss names each envelope that has no status for one call. */
export const WRITTEN_AS: Readonly<Record<"chat" | AdapterName, string>> = { chat: "Chat", ...ENVELOPE_TITLES };

/** `marked`: the Open Responses record written, its unfinished calls marked; `repeats`: its calls that repeat an id of the journal. */
function convertChatOrResponses(record: unknown, kind: WholeKind, reasoningField?: ReasoningField, repeats?: RepeatedKeys): Converted<unknown> & { marked?: unknown } {
  switch (kind) {
    case "chat_request":
      return chatRequests().requestBodies.toResponses({ request: record as ChatRequestBody });
    case "chat_completion":
      return chat.responses.toResponses({ completion: record as ChatCompletion });
    case "responses_request": {
      const marked = unfinishedCallsMarked({ value: record, losses: [] }, true, "chat", undefined, repeats);
      const written = chatRequests().requestBodies.fromResponses({ body: marked.value as CreateResponseBody, reasoningField });
      return { value: written.value, losses: [...marked.losses, ...(marked.inputLosses ?? []), ...written.losses.filter((loss) => !marked.left?.has(loss.path))], marked: marked.value };
    }
    case "response": {
      const marked = unfinishedCallsMarked({ value: record, losses: [] }, false, "chat", undefined, repeats);
      const written = chat.responses.fromResponses({ response: marked.value as ResponseResource, reasoningField });
      return { value: written.value, losses: [...marked.losses, ...written.losses.filter((loss) => !intoSetAside(loss.path, marked.left))], marked: marked.value };
    }
    case "envelope_request":
    case "envelope_response":
      throw new TypeError(`a ${kind} record is neither Chat nor Open Responses`);
    default: {
      const unknownKind: never = kind;
      throw new TypeError(`record kind ${String(unknownKind)} is not a whole record`);
    }
  }
}
