// One record of a journal in the target envelope, for `orbridge convert`: a
// request body, a response, an exchange or a loose message of a registered
// envelope. A request body or a response converts whole (convert-whole.ts); a
// loose message of a registered envelope through its items, here. A call the
// gate blocks stays blocked: where the target cannot say why, it is left out and
// reported (unfinished-calls.ts, own-limit-calls.ts).
import { chat, type AdapterName, type Conversation, type JournalEnvelopes, type ReasoningField } from "../../adapters/index.js";
import { ambiguity, detectEnvelopeRecord, isPlainObject, type RecordKind } from "../journal/detect.js";
import { isInstructions } from "../journal/conversation-so-far.js";
import { isStackOverflow, tooDeepDetail } from "../journal/deep-field.js";
import { joinBodyStepLosses } from "../journal/body-step-losses.js";
import { parsePointer, resolvePointer } from "../journal/json-pointer.js";
import { isTextFormLoss } from "../models/text-form.js";
import { RecordRewrite } from "./record-rewrite.js";
import { z } from "zod";
import { type StreamLoss } from "../models/assembled-response.js";
import { chatCompletionSchema, chatRequestBodySchema, type ChatMessage } from "../models/chat-completions.js";
import type { Envelope } from "../models/journal-item.js";
import type { Converted, Loss } from "../models/loss.js";
import { pointer, pointerToken, prefixLosses } from "../models/json-pointer.js";
import { createResponseBodySchema, responseResourceSchema, type CanonicalItem } from "../models/open-responses.js";
import { describeCallId, setAsideItem, setAsideUnfinishedCalls, type RepeatedKeys } from "../journal/unfinished-calls.js";
import type { JournalIds } from "./journal-ids.js";
import { leaveOutDisallowedLooseCalls, type RequestLimits } from "../journal/own-limit-calls.js";
import { convertWhole, envelopeOf, isWholeKind, lostLimitRefusesCall, NoEquivalent } from "./convert-whole.js";
import { WRITTEN_AS } from "./written-as.js";
import { rewrittenAndNamed, type ResultNames } from "./named-results.js";

export type Fields = Record<string, unknown>;

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
          // A part read as neither of two kinds or envelopes is so in an exchange too, as normalize reads it.
          const twoKinds = ambiguity(exchange[part], partKind, partEnvelope);
          if (twoKinds !== undefined) return notConverted(line, `exchange ${part}: ${twoKinds}`);
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
        const disallowed = leaveOutDisallowedLooseCalls(items.value, title, () => "", requestLimits, () => line);
        const judged = rewrite ? undefined : ids?.judge(items.value, () => line, { givesItemIds: false });
        const answersLeftOut = items.value.some((item) => answersCallLeftOut(item, callsBefore));
        if (envelope === target && !rewrite && disallowed.left.size === 0 && (judged?.size ?? 0) === 0 && !answersLeftOut) {
          ids?.written(items.value);
          return done([record], []);
        }
        const at = new RegExp(`^/${adapter.fields.messages}/0(?=/|$)`);
        const objects = target !== "responses" && target !== "chat" && envelopes[target].argumentsAsObjects;
        const itemLosses = items.losses.map((loss) => ({ ...loss, path: loss.path.replace(at, "") })).filter((loss) => !(objects && madeOfArgumentsObject(loss, record, items.value)));
        const rewritten = rewrittenAndNamed(items.value, envelope!, rewrite, names, () => line, () => "");
        const blocked = blockedCallsLeftOut(rewritten.items, target, rewrite ? ids?.judge(rewritten.items, () => line, { givesItemIds: false }) : judged);
        const limited = leaveOutDisallowedLooseCalls(blocked.items, title, (index) => `/${index}`, requestLimits, () => line);
        const answers = outputsLeftWithTheirCalls(limited.items, callsBefore);
        const aside = { items: answers.items, losses: [...blocked.losses, ...limited.losses.map((loss) => ({ ...loss, path: "" })), ...answers.losses], left: new Set([...blocked.left, ...limited.left, ...answers.left]) };
        ids?.written(aside.items);
        const written = itemsToEnvelope(aside.items, target, envelopes, reasoningField);
        // A source that writes text as parts only got its string from its reader (text-form.ts).
        const second = written.losses.filter((loss) => !aside.left.has(loss.path) && !answersCallBefore(loss, aside.items, callsBefore) && !(adapter.textAsPartsOnly && isTextFormLoss(loss)));
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
  return envelopeRecords(items, target as AdapterName, envelopes);
}

/**
 * Items as an envelope's loose records, with its writer's losses: the
 * messages, their system prompt first as a system line, whose form makes no
 * loss where it reads back as the items' system message.
 */
export function envelopeRecords(items: readonly CanonicalItem[], target: AdapterName, envelopes: JournalEnvelopes): Converted<unknown[]> {
  // The journal's writer: the call ids its rewrites took are taken for every record of it.
  const converted = envelopes[target].itemsToMessages(items);
  return { value: conversationRecords(converted.value, items), losses: converted.losses.filter((loss) => !systemLineKeeps(loss, items)) };
}

/**
 * An envelope's messages as loose records: its system prompt first, as a
 * system line. `items`: those the messages were written from, whose leading
 * system message says the form of the line's text.
 */
function conversationRecords(conversation: Conversation, items?: readonly CanonicalItem[]): unknown[] {
  const system = conversation.system === undefined || conversation.system === null ? [] : [{ role: "system", content: systemLineContent(conversation.system, items === undefined || systemTextIsString(items)) }];
  return [...system, ...conversation.messages];
}

/** How many items lead the run as system or developer messages: those a system line writes. */
function leadingSystemItems(items: readonly CanonicalItem[]): number {
  let count = 0;
  while (count < items.length && isInstructions(items[count])) count++;
  return count;
}

/** Whether the system line reads back as the system message it came from when its text is a string: one message, whose content is one. */
function systemTextIsString(items: readonly CanonicalItem[]): boolean {
  return leadingSystemItems(items) === 1 && typeof (items[0] as Fields).content === "string";
}

/**
 * Whether a loss of the writer says that the text of a leading system message
 * comes back in another form (text-form.ts): the system line is not the
 * envelope's system prompt, and writes the text in the form it had.
 */
function systemLineKeeps(loss: Loss, items: readonly CanonicalItem[]): boolean {
  if (!isTextFormLoss(loss)) return false;
  const at = /^\/(\d+)\/content$/.exec(loss.path);
  return at !== null && Number(at[1]) < leadingSystemItems(items);
}

/**
 * What a system line holds, so that it reads back as the system message it
 * came from: no envelope reads a system prompt of Gemini (`{parts: [{text}]}`)
 * or Bedrock (`[{text}]`) on a line of its own, where it would be read as a
 * Chat message whose content is no text, and its text lost. Text alone is
 * written as a Chat system message writes it (one text as a string, several as
 * text parts, or as parts when `asString` is false); any other prompt
 * (Anthropic's, whose line its reader takes, or one with a part that is no
 * text) as it is.
 */
function systemLineContent(system: unknown, asString: boolean): unknown {
  const blocks = isPlainObject(system) && Object.keys(system).length === 1 && Array.isArray(system.parts) ? system.parts : system;
  if (!Array.isArray(blocks) || blocks.length === 0 || !blocks.every((block) => isPlainObject(block) && Object.keys(block).length === 1 && typeof block.text === "string")) return system;
  const texts = blocks.map((block) => (block as { text: string }).text);
  return texts.length === 1 && asString ? texts[0] : texts.map((text) => ({ type: "text", text }));
}

const SCHEMAS: Partial<Record<RecordKind, { name: string; schema: z.ZodType }>> = {
  chat_request: { name: "Chat request body", schema: chatRequestBodySchema },
  chat_completion: { name: "chat.completion", schema: chatCompletionSchema },
  responses_request: { name: "Open Responses request body", schema: createResponseBodySchema },
  response: { name: "response object", schema: responseResourceSchema },
};

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

/** The records that hold a request body: each replaces what the one before allowed the responses after it. */
export const REQUEST_KINDS: ReadonlySet<RecordKind> = new Set(["chat_request", "responses_request", "envelope_request", "exchange"]);

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
 * Whether a loss of a loose message's items says that a call's arguments are
 * the JSON text of the object the message holds at the loss's path (an
 * Anthropic tool_use input): a target that holds arguments as an object parses
 * that text back into the same object, so no text made reaches it.
 */
function madeOfArgumentsObject(loss: Loss, message: unknown, items: readonly CanonicalItem[]): boolean {
  if (loss.code !== "synthesized") return false;
  const at = resolvePointer(message, parsePointer(loss.path));
  if (!at.found || !isPlainObject(at.value)) return false;
  const text = JSON.stringify(at.value);
  return items.some((item) => isPlainObject(item) && item.type === "function_call" && item.arguments === text);
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

/** A loose Chat message or item written in its own envelope, its items rewritten for the `--for` target. */
function rewriteLoose(record: unknown, kind: "chat_message" | "responses_item", line: number, rewrite: RecordRewrite, reasoningField?: ReasoningField): [unknown[], Loss[]] {
  const items = kind === "chat_message" ? chat.messages.toItems({ messages: [record as ChatMessage] }) : { value: [record as CanonicalItem], losses: [] as Loss[] };
  const rewritten = rewrite.items(items.value, kind === "chat_message" ? "chat" : "responses", () => line, () => "");
  const changes = rewritten.losses.map(({ line: _line, ...loss }) => loss);
  if (kind === "responses_item") return [rewritten.items, changes];
  const written = chat.messages.fromItems({ items: rewritten.items, reasoningField });
  return [written.value, [...items.losses.map((loss) => ({ ...loss, path: loss.path.replace(/^\/0(?=\/|$)/, "") })), ...changes, ...written.losses]];
}

