// A request body or a response of a journal in the target envelope, converted
// whole, for `orbridge convert` (convert-record.ts takes each record to it).
// Chat and Open Responses convert to each other directly; any other pair goes
// through the record's Open Responses form, and the losses of both steps are
// pointed back into the record the user wrote. A call the gate blocks stays
// blocked: where the target cannot say why, it is left out and reported
// (unfinished-calls.ts, own-limit-calls.ts, lost-choice-calls.ts,
// held-choice.ts).
import { chat, ENVELOPES, type AdapterName, type ChatRequests, type JournalEnvelopes, type ReasoningField } from "../../adapters/index.js";
import { isCompactedResponse, isPlainObject, type RecordKind } from "../journal/detect.js";
import { isInstructionsFormLoss } from "../models/instructions-form.js";
import { isTextFormLoss } from "../models/text-form.js";
import { firstStepLossesFor, heldIn, joinStepLosses } from "../journal/two-step-losses.js";
import { stepEnvelope } from "../journal/convert-assembled-response.js";
import { joinBodyStepLosses } from "../journal/body-step-losses.js";
import { RecordRewrite } from "./record-rewrite.js";
import { type ChatCompletion, type ChatMessage, type ChatRequestBody } from "../models/chat-completions.js";
import type { Envelope } from "../models/journal-item.js";
import type { Converted, Loss } from "../models/loss.js";
import { type CanonicalItem, type CreateResponseBody, type ResponseResource } from "../models/open-responses.js";
import { intoSetAside, isSetAside, setAsideUnfinishedCalls, unfinishedResponse, type RepeatedKeys } from "../journal/unfinished-calls.js";
import type { JournalIds } from "./journal-ids.js";
import { leaveOutLostChoiceCalls, type Refusal } from "../journal/lost-choice-calls.js";
import { ToolRegistry } from "../gate/tool-registry.js";
import { readRequestTools } from "../gate/read-request-tools.js";
import { heldChoice, type ChoiceAllows } from "../journal/held-choice.js";
import { readEnvelopeTools } from "./envelope-tools.js";
import { withPassedOneCall } from "../journal/passed-one-call.js";
import { leaveOutRefusedCalls, lostRequestLimits, refusedByOwnLimits, type RequestLimits } from "../journal/own-limit-calls.js";
import { WRITTEN_AS } from "./written-as.js";
import { recordCalls, type ResultNames } from "./named-results.js";

type Fields = Record<string, unknown>;

export type WholeKind = "chat_request" | "chat_completion" | "responses_request" | "response" | "envelope_request" | "envelope_response";

export function isWholeKind(kind: RecordKind): kind is WholeKind {
  return kind === "chat_request" || kind === "chat_completion" || kind === "responses_request" || kind === "response" || kind === "envelope_request" || kind === "envelope_response";
}

export function envelopeOf(kind: WholeKind, envelope?: AdapterName): Envelope {
  if (kind === "envelope_request" || kind === "envelope_response") return envelope!;
  return kind === "chat_request" || kind === "chat_completion" ? "chat" : "responses";
}

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

/** A valid record the target envelope has no record for: said as it is, not as a departure from a model. */
export class NoEquivalent extends Error {}

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
export function lostLimitRefusesCall(record: unknown, kind: WholeKind, envelopes: JournalEnvelopes, envelope: AdapterName | undefined, requestLimits: RequestLimits | undefined): boolean {
  if (requestLimits === undefined || (kind !== "chat_completion" && kind !== "response" && kind !== "envelope_response")) return false;
  const canonical = toResponses(record, kind, envelopes, envelope).value;
  return isPlainObject(canonical) && refusedByOwnLimits(canonical, requestLimits).size > 0;
}

/**
 * A whole record in the target envelope. Between Chat and Open Responses, one
 * converter; otherwise through the record's Open Responses form. The
 * second-step losses are pointed back into the record: a response's by its
 * fields (joinStepLosses), a request body's by the message each item came from
 * (joinBodyStepLosses).
 */
export function convertWhole(record: unknown, kind: WholeKind, target: Envelope, envelopes: JournalEnvelopes, reasoningField?: ReasoningField, envelope?: AdapterName, rewrite?: RecordRewrite, line = 0, names?: ResultNames, requestLimits?: RequestLimits, ids?: JournalIds): Converted<unknown> & { limits?: RequestLimits } {
  const source = envelopeOf(kind, envelope);
  if (kind === "response" && target !== "responses" && isCompactedResponse(record)) throw new NoEquivalent(`a compacted response (response.compaction) has no ${WRITTEN_AS[target]} equivalent: its output is the history that replaces a conversation, its compaction item encrypted for the Responses API alone`);
  const isBody = kind === "chat_request" || kind === "responses_request" || kind === "envelope_request";
  if (!rewrite && ((source === "chat" && target === "responses") || (source === "responses" && target === "chat"))) {
    const repeats = ids && target === "chat" ? judgeWhole(ids, record, kind, envelope, line) : undefined;
    const converted = convertChatOrResponses(record, kind, reasoningField, repeats);
    if (!isBody) ids?.written(gatedItems(converted.marked));
    if (!isBody) return converted;
    const written = { ...converted, ...withPassedOneCall(record, converted) };
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
  if (isBody) canonical = withPassedOneCall(record, canonical);
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
    const losses = [...bodyLosses(record, source, target, marked, [...(marked.inputLosses ?? []), ...(lost?.losses ?? []), ...out.losses.filter((loss) => !left.has(loss.path))]), ...(held ? [held.loss] : [])];
    return { value: out.value, losses, ...(limits ? { limits } : {}) };
  }
  ids?.written(gatedItems(marked.value));
  const second = written.losses.filter((loss) => !intoSetAside(loss.path, marked.left));
  const joined = joinStepLosses({ source: stepEnvelope(source), target: stepEnvelope(target), first: marked.losses, second, written: written.value });
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

/** A request body's losses of both steps, the second's pointed into the messages of the body written. */
function bodyLosses(record: unknown, source: Envelope, target: Envelope, canonical: Converted<unknown>, written: readonly Loss[]): Loss[] {
  if (source === "responses") return [...canonical.losses, ...written];
  // Only Open Responses tells instructions from a system message: the source's system prompt comes back to it as it was.
  // A source that writes text as parts only got its string from its reader: the target writes parts again (text-form.ts).
  const partsOnly = source !== "chat" && ENVELOPES[source].textAsPartsOnly;
  const second = written.filter((loss) => !isInstructionsFormLoss(loss) && !(partsOnly && isTextFormLoss(loss)));
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
    first: firstStepLossesFor(canonical.losses, target !== "responses" && target !== "chat" && ENVELOPES[target].argumentsAsObjects),
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


/** Where the step to Open Responses wrote a value no record said, so that the next step does not report it lost. */
function synthesizedPaths(losses: readonly Loss[]): string[] {
  return losses.filter((loss) => loss.code === "synthesized").map((loss) => loss.path);
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
