// Open Responses items (the canonical form) -> Anthropic `system` and messages.
//
// | Open Responses                            | Anthropic                                                      |
// |-------------------------------------------|----------------------------------------------------------------|
// | system / developer messages before any    | `system`: one string item stays a string, else text blocks     |
// |   other item                              |   (developer: loss form_changed)                               |
// | system / developer message later on       | a message of role system in place (loss target_rejects)        |
// | user `message`                            | a user message; a string stays a string, parts become blocks (content-parts.ts) |
// | assistant `message`                       | opens an assistant message, or joins the one a reasoning, call or server block opened; |
// |                                           |   output_text -> text (`anthropic:citations` back as citations) |
// | reasoning of provenance anthropic         | joins the assistant message (thinking-block.ts): thinking {thinking, signature} or |
// |                                           |   redacted_thinking {data}, encrypted_content copied exactly     |
// | reasoning of any other provenance         | loss: its encrypted_content is not Anthropic's                 |
// | `function_call`                           | tool_use in the open assistant message: call_id -> id (call-ids.ts), |
// |                                           |   arguments -> input (tool-input.ts)                           |
// | `anthropic:<type>` extension item         | the block `{type: <type>, …}` in the open assistant message    |
// | `function_call_output`                    | tool_result in the user message right after the assistant message holding |
// |                                           |   the call: several results of one turn in one message, in call order, first |
// | user parts message right after outputs    | joins their user message, after the results                    |
// | `anthropic:<field>` of an item or part    | `<field>` of the block (is_error, cache_control, caller, citations…) |
// | refusal part, compaction, item_reference, | losses                                                         |
// |   another provider's extension item, item |                                                                |
// |   `id`, `status`, `phase`, logprobs, url  |                                                                |
// |   citations Anthropic did not write       |                                                                |
//
// One assistant message takes every reasoning, call, server block and text of a
// turn: a message item opens a new one only right after another message item
// (two messages in a row were two turns). A string content becomes a text block
// when it shares its message with other blocks (loss form_changed). A user string
// after results stays a message of its own, which Anthropic merges with them.
import type { Converted, Loss } from "../../src/models/loss.js";
import type { CanonicalItem, FunctionCallItem, FunctionCallOutputItem, MessageItem, ReasoningItem } from "../../src/models/open-responses.js";
import { CallIds, lacksId } from "./call-ids.js";
import type { RewrittenId } from "../../src/models/call-id-rewrites.js";
import { blockOfPart } from "./content-parts.js";
import { isPresent, isRecord, lossAt, ownExtensionType, restoreFields, TARGET, typeOf, type Fields, type PointerTokens } from "./fields.js";
import type { AnthropicConversation, AnthropicMessage } from "./models.js";
import { thinkingBlock } from "./thinking-block.js";
import { inputOfArguments } from "./tool-input.js";
import { describeValue } from "../../src/models/json-value.js";
import { foreignResultError } from "../result-error.js";

const MESSAGE_FIELDS = ["type", "role", "id", "content", "status", "phase"];
const TEXT_FIELDS = ["type", "text", "annotations", "logprobs"];
const CALL_FIELDS = ["type", "id", "call_id", "name", "arguments", "status"];
const OUTPUT_FIELDS = ["type", "id", "call_id", "output", "status"];

export interface ItemsToMessagesArgs {
  items: readonly CanonicalItem[];
  /**
   * Call ids rewritten and synthesized so far. A caller that converts a
   * conversation in parts passes the same state each time, so that an output
   * still answers the call it follows and a rewrite stays the same.
   */
  callIds?: CallIds;
}

interface Entry {
  block: Fields;
  /** Where the block came from: a message's content, a part, an item. */
  at: PointerTokens;
  /** Text of a message item whose content was a string. */
  fromString?: boolean;
}

interface Turn {
  role: AnthropicMessage["role"];
  entries: Entry[];
  /** Call ids (as the items have them) of the tool_use blocks of an assistant turn, in order. */
  calls: string[];
  /** The user message that answers an assistant turn's calls. */
  results?: Results;
}

interface Results {
  answers: Array<{ callIndex: number; entry: Entry; callId: string }>;
  /** The user's own blocks that followed the results. */
  rest: Entry[];
}

type Previous = "assistant_message" | "output" | "other" | undefined;

export function itemsToMessages({ items, callIds }: ItemsToMessagesArgs): Converted<AnthropicConversation> {
  if (!Array.isArray(items)) throw new TypeError("itemsToMessages expects an array of Open Responses items");
  const losses: Loss[] = [];
  const ids = callIds ?? new CallIds();
  ids.claim(items.flatMap((item) => (isRecord(item) && typeof item.call_id === "string" ? [item.call_id] : [])));
  const leading: Array<{ item: MessageItem; at: PointerTokens }> = [];
  const turns: Array<Turn | Results> = [];
  const callTurns = new Map<string, Turn[]>();
  let started = false;
  let open: Turn | undefined;
  let lastResults: Results | undefined;
  let previous: Previous;

  const assistantTurn = (): Turn => {
    if (!open) {
      open = { role: "assistant", entries: [], calls: [] };
      turns.push(open);
    }
    started = true;
    return open;
  };

  items.forEach((item, index) => {
    const at: PointerTokens = [index];
    const kind = itemKind(item);
    switch (kind) {
      case "message": {
        const message = item as MessageItem;
        messageLosses(message, at, losses);
        const role = message.role;
        switch (role) {
          case "system":
          case "developer":
            if (!started) leading.push({ item: message, at });
            else {
              open = undefined;
              const content = instructionsContent(message, at, losses);
              if (content !== undefined) {
                losses.push(lossAt([...at, "role"], "target_rejects", "the Messages API takes only user and assistant messages: a system message after the conversation began is written in place, as role system, which it refuses"));
                turns.push({ role: "system", entries: content, calls: [] });
              }
            }
            previous = "other";
            return;
          case "user": {
            started = true;
            open = undefined;
            const entries = userEntries(message, at, losses);
            if (previous === "output" && lastResults && Array.isArray(message.content)) lastResults.rest.push(...entries);
            else if (entries.length > 0) turns.push({ role: "user", entries, calls: [] });
            previous = "other";
            return;
          }
          case "assistant": {
            if (previous === "assistant_message") open = undefined;
            assistantTurn().entries.push(...assistantEntries(message, at, losses));
            previous = "assistant_message";
            return;
          }
          default: {
            const unknownRole: never = role;
            losses.push(lossAt(at, "unsupported_item", `a message of role ${JSON.stringify(unknownRole)} has no Anthropic equivalent`));
            return;
          }
        }
      }
      case "function_call": {
        const call = item as FunctionCallItem;
        let callId: unknown = call.call_id;
        if (lacksId(callId)) {
          callId = ids.synthesize(call.name, call.arguments);
          losses.push(lossAt(at, "synthesized", `a function_call without call_id: the tool_use id "${String(callId)}" was synthesized; an output without call_id that follows answers it`));
        }
        if (typeof callId !== "string") {
          losses.push(lossAt([...at, "call_id"], "unsupported_item", `call_id is ${typeOf(callId)}, not text: a tool_use needs an id`));
          return;
        }
        const turn = assistantTurn();
        turn.entries.push({ block: toolUse(call, callId, ids, at, losses), at });
        turn.calls.push(callId);
        callTurns.set(callId, [...(callTurns.get(callId) ?? []), turn]);
        previous = "other";
        return;
      }
      case "function_call_output": {
        const output = item as FunctionCallOutputItem;
        let callId: unknown = output.call_id;
        if (lacksId(callId)) {
          callId = ids.takeWaiting();
          if (callId === undefined) {
            losses.push(lossAt(at, "unsupported_item", "a function_call_output without call_id answers no call, and no call without call_id waits for an answer; a tool_result needs its tool_use_id"));
            return;
          }
          losses.push(lossAt(at, "synthesized", `a function_call_output without call_id answers the earliest call without call_id still unanswered: tool_use_id "${String(callId)}"`));
        }
        if (typeof callId !== "string") {
          losses.push(lossAt([...at, "call_id"], "unsupported_item", `call_id is ${typeOf(callId)}, not text: the output answers no call; a tool_result needs its tool_use_id`));
          return;
        }
        ids.answered(callId);
        open = undefined;
        started = true;
        const entry: Entry = { block: toolResult(output, callId, ids, at, losses), at };
        const turn = callTurns.get(callId)?.find((candidate) => !candidate.results?.answers.some((answer) => answer.callId === callId));
        if (turn) {
          const later = turns.length - 1 - turns.indexOf(turn);
          if (!turn.results && later > 0) {
            losses.push(lossAt(at, "reordered", `placed in the user message right after the assistant message that made the call, before ${later} message(s) that came between`));
          } else if (turn.results && turn.results.rest.length > 0) {
            losses.push(lossAt(at, "reordered", "placed with the other results of its turn, before the user content that came between"));
          }
          turn.results ??= { answers: [], rest: [] };
          turn.results.answers.push({ callIndex: turn.calls.indexOf(callId), entry, callId });
          lastResults = turn.results;
        } else {
          losses.push(lossAt([...at, "call_id"], "target_rejects", `answers no call of the items before it: written in place, and Anthropic rejects a tool_result whose tool_use is not in the assistant message before it`));
          // Results side by side stay one user message (a loose message of results is converted without the calls before it).
          const besideOthers = previous === "output" && lastResults !== undefined && turns[turns.length - 1] === lastResults;
          if (besideOthers) lastResults!.answers.push({ callIndex: lastResults!.answers.length, entry, callId });
          else {
            lastResults = { answers: [{ callIndex: 0, entry, callId }], rest: [] };
            turns.push(lastResults);
          }
        }
        previous = "output";
        return;
      }
      case "reasoning": {
        const block = thinkingBlock(item as ReasoningItem, at, losses);
        if (!block) return;
        assistantTurn().entries.push({ block, at });
        previous = "other";
        return;
      }
      case "extension": {
        const type = ownExtensionType((item as Fields).type);
        if (type === undefined) {
          losses.push(lossAt(at, "unsupported_item", `an item of type ${typeOf(item)} is another provider's: ${TARGET} has no equivalent`));
          return;
        }
        const { type: _type, ...rest } = item as Fields;
        assistantTurn().entries.push({ block: { type, ...rest }, at });
        previous = "other";
        return;
      }
      case "compaction":
        losses.push(lossAt(at, "unsupported_item", `${TARGET} cannot replay a compaction item: its encrypted_content is not Anthropic's`));
        return;
      case "item_reference":
        losses.push(lossAt(at, "unsupported_item", `${TARGET} has no item references; the referenced item is not here to inline`));
        return;
      case "unknown":
        losses.push(lossAt(at, "unsupported_item", `an item of type ${isRecord(item) ? JSON.stringify(item.type) : "none (not an object)"} has no Anthropic equivalent`));
        return;
      default: {
        const unknownKind: never = kind;
        throw new Error(`unhandled item kind ${String(unknownKind)}`);
      }
    }
  });

  const messages: AnthropicMessage[] = [];
  for (const turn of turns) {
    if ("answers" in turn) messages.push({ role: "user", content: resultBlocks(turn, losses) as AnthropicMessage["content"] });
    else {
      // A turn all of whose parts were lost is not written: Anthropic rejects an empty message.
      const written = content(turn.entries, losses);
      if (written.length > 0 || typeof written === "string") messages.push({ role: turn.role, content: written });
      if (turn.results) messages.push({ role: "user", content: resultBlocks(turn.results, losses) as AnthropicMessage["content"] });
    }
  }
  const system = systemOf(leading, losses);
  return { value: system === undefined ? { messages } : { system, messages }, losses: inItemOrder(losses) };
}

/** Losses sorted by the item they point into; losses of one item keep their order. */
function inItemOrder(losses: readonly Loss[]): Loss[] {
  const itemOf = (loss: Loss) => Number(/^\/(\d+)/.exec(loss.path)?.[1] ?? -1);
  return losses.map((loss, order) => ({ loss, order })).sort((a, b) => itemOf(a.loss) - itemOf(b.loss) || a.order - b.order).map(({ loss }) => loss);
}

type ItemKind = "message" | "function_call" | "function_call_output" | "reasoning" | "compaction" | "item_reference" | "extension" | "unknown";
const ITEM_TYPES = ["message", "function_call", "function_call_output", "reasoning", "compaction", "item_reference"] as const;

function itemKind(item: unknown): ItemKind {
  if (!isRecord(item)) return "unknown";
  const type = item.type;
  // Easy input messages omit `type`; so may item references.
  if (!isPresent(type)) return typeof item.role === "string" ? "message" : typeof item.id === "string" ? "item_reference" : "unknown";
  if (typeof type !== "string") return "unknown";
  if (type.includes(":")) return "extension";
  return ITEM_TYPES.find((known) => known === type) ?? "unknown";
}

function messageLosses(message: MessageItem, at: PointerTokens, losses: Loss[]): void {
  const fields = message as Fields;
  for (const key of Object.keys(fields)) {
    if (!isPresent(fields[key]) || key === "type" || key === "role" || key === "content") continue;
    const detail =
      key === "id" ? "Anthropic messages have no item ids"
      : key === "status" ? `Anthropic messages have no status ("${String(fields.status)}")`
      : key === "phase" ? `Anthropic has no message phase ("${String(fields.phase)}")`
      : `"${key}" is not a field of the portable shape; ${TARGET} has no place for it`;
    losses.push(lossAt([...at, key], MESSAGE_FIELDS.includes(key) ? "unsupported_field" : "provider_extension", detail));
  }
}

/** Blocks of a system or developer message, or undefined when it carries nothing. */
function instructionsContent(message: MessageItem, at: PointerTokens, losses: Loss[]): Entry[] | undefined {
  if (message.role === "developer") losses.push(lossAt([...at, "role"], "form_changed", "Anthropic has no developer role: written as system"));
  return userEntries(message, at, losses);
}

/** Whether a message item's content can give blocks; reports it when it cannot. */
function hasParts(content: unknown, at: PointerTokens, losses: Loss[]): content is unknown[] {
  if (Array.isArray(content) && content.length > 0) return true;
  const what = Array.isArray(content) ? "no parts" : `content that is ${typeOf(content)}`;
  losses.push(lossAt(at, "unsupported_item", `a message with ${what} gives no Anthropic message`));
  return false;
}

function userEntries(message: MessageItem, at: PointerTokens, losses: Loss[]): Entry[] {
  const content: unknown = message.content;
  if (typeof content === "string") return [{ block: { type: "text", text: content }, at: [...at, "content"], fromString: true }];
  if (!hasParts(content, at, losses)) return [];
  return content.flatMap((part: unknown, index) => {
    const partAt = [...at, "content", index];
    const block = blockOfPart(part, partAt, losses);
    return block ? [{ block, at: partAt }] : [];
  });
}

function assistantEntries(message: MessageItem, at: PointerTokens, losses: Loss[]): Entry[] {
  const content: unknown = message.content;
  if (typeof content === "string") return [{ block: { type: "text", text: content }, at: [...at, "content"], fromString: true }];
  if (!hasParts(content, at, losses)) return [];
  return content.flatMap((part: unknown, index) => {
    const partAt = [...at, "content", index];
    if (!isRecord(part) || part.type !== "output_text" || typeof part.text !== "string") {
      const detail = isRecord(part) && part.type === "refusal"
        ? "Anthropic has no refusal block (a refusal is a response's stop_reason): the refusal is not replayed"
        : `an assistant message holds only text blocks here, not a ${typeOf(part)} part`;
      losses.push(lossAt(partAt, "unsupported_part", detail));
      return [];
    }
    const block: Fields = { type: "text", text: part.text };
    const annotations = Array.isArray(part.annotations) ? part.annotations : [];
    // The annotations the way in derived from Anthropic's citations go back as those citations.
    if (annotations.length > 0 && !("anthropic:citations" in part)) {
      losses.push(lossAt([...partAt, "annotations"], "unsupported_field", "url citations have no Anthropic form: a web search citation needs the encrypted_index Anthropic gave"));
    }
    if (Array.isArray(part.logprobs) && part.logprobs.length > 0) losses.push(lossAt([...partAt, "logprobs"], "unsupported_field", "Anthropic has no logprobs"));
    restoreFields(part, TEXT_FIELDS, block, partAt, losses);
    return [{ block, at: partAt }];
  });
}

function toolUse(call: FunctionCallItem, callId: string, ids: CallIds, at: PointerTokens, losses: Loss[]): Fields {
  const rewrite = ids.toAnthropic(callId);
  if (rewrite.rewritten) losses.push(lossAt([...at, "call_id"], "form_changed", rewrittenDetail(callId, rewrite)));
  const args: unknown = call.arguments;
  let input: unknown;
  if (typeof args === "string") {
    const converted = inputOfArguments(args);
    if (converted.loss) losses.push(lossAt([...at, "arguments"], converted.loss.code, converted.loss.detail));
    input = converted.value;
  } else {
    input = args;
    const object = isRecord(args);
    losses.push(lossAt([...at, "arguments"], object ? "form_changed" : "target_rejects", `arguments is ${describeValue(args)}, not a JSON text: written as the input as it is${object ? "" : ", which Anthropic rejects"}`));
  }
  if (typeof call.name !== "string") losses.push(lossAt([...at, "name"], "target_rejects", `the function name is ${typeOf(call.name)}, not text: written as it is, which Anthropic rejects`));
  if (isPresent(call.id)) losses.push(lossAt([...at, "id"], "unsupported_field", `Anthropic has no item ids; the call keeps its call_id "${callId}"`));
  if (isPresent(call.status) && call.status !== "completed") losses.push(lossAt([...at, "status"], "unsupported_field", `Anthropic cannot mark a call "${String(call.status)}"`));
  const block: Fields = { type: "tool_use", id: rewrite.id, name: call.name, input };
  restoreFields(call, CALL_FIELDS, block, at, losses);
  return block;
}

function toolResult(output: FunctionCallOutputItem, callId: string, ids: CallIds, at: PointerTokens, losses: Loss[]): Fields {
  const rewrite = ids.toAnthropic(callId);
  if (rewrite.rewritten) losses.push(lossAt([...at, "call_id"], "form_changed", rewrittenDetail(callId, rewrite)));
  const value: unknown = output.output;
  let content: unknown;
  if (typeof value === "string") content = value;
  else if (Array.isArray(value)) content = value.flatMap((part: unknown, index) => blockOfPart(part, [...at, "output", index], losses) ?? []);
  else {
    content = "";
    losses.push(lossAt([...at, "output"], "form_changed", `an output that is ${typeOf(value)}, neither text nor parts, becomes an empty tool_result`));
  }
  if (isPresent(output.id)) losses.push(lossAt([...at, "id"], "unsupported_field", "Anthropic has no item ids"));
  if (isPresent(output.status)) losses.push(lossAt([...at, "status"], "unsupported_field", `Anthropic has no output status ("${String(output.status)}")`));
  const block: Fields = { type: "tool_result", tool_use_id: rewrite.id, content };
  const failed = foreignResultError(output as Fields, "anthropic");
  if (failed !== undefined) {
    block.is_error = failed.value;
    losses.push(lossAt([...at, failed.key], "form_changed", failed.detail));
  }
  restoreFields(output, OUTPUT_FIELDS, block, at, losses, failed === undefined ? [] : [failed.key]);
  return block;
}

function rewrittenDetail(callId: string, rewrite: RewrittenId): string {
  const why = rewrite.clashesWith === undefined ? "is not of Anthropic's form ^[a-zA-Z0-9_-]+$" : `is what ${JSON.stringify(rewrite.clashesWith)} was written as`;
  return `call_id ${JSON.stringify(callId)} ${why}: written as "${rewrite.id}", for the call and its result alike`;
}

function content(entries: readonly Entry[], losses: Loss[]): AnthropicMessage["content"] {
  const only = entries.length === 1 ? entries[0] : undefined;
  if (only?.fromString) return only.block.text as string;
  return entries.flatMap((entry) => {
    if (!entry.fromString) return [entry.block];
    if (entry.block.text === "") {
      losses.push(lossAt(entry.at, "form_changed", "an empty text beside the other blocks of the turn is not written (Anthropic rejects empty text blocks)"));
      return [];
    }
    losses.push(lossAt(entry.at, "form_changed", "the text is written as a text block beside the other blocks of its turn"));
    return [entry.block];
  }) as AnthropicMessage["content"];
}

/** A turn's results in the order of its calls, each one that moves reported `reordered`. */
function resultBlocks(results: Results, losses: Loss[]): Fields[] {
  const answers = [...results.answers].sort((a, b) => a.callIndex - b.callIndex);
  answers.forEach((answer, position) => {
    if (results.answers[position] !== answer) losses.push(lossAt(answer.entry.at, "reordered", "placed among the turn's tool_result blocks in the order of its calls, not the order the results came in"));
  });
  return [...answers.map((answer) => answer.entry.block), ...results.rest.map((entry) => entry.block)];
}

function systemOf(leading: ReadonlyArray<{ item: MessageItem; at: PointerTokens }>, losses: Loss[]): AnthropicConversation["system"] {
  if (leading.length === 0) return undefined;
  const entries = leading.flatMap(({ item, at }) => instructionsContent(item, at, losses) ?? []);
  if (entries.length === 1 && entries[0].fromString) return entries[0].block.text as string;
  const blocks: Fields[] = [];
  for (const entry of entries) {
    if (entry.fromString) losses.push(lossAt(entry.at, "form_changed", "the text is written as a text block of system, beside the others"));
    if (entry.block.type === "text") blocks.push(entry.block);
    else losses.push(lossAt(entry.at, "unsupported_part", `system takes only text blocks, not a ${typeOf(entry.block)} block`));
  }
  return blocks as AnthropicConversation["system"];
}
