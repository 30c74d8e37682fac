// Open Responses items (the canonical form) -> Bedrock `system` and messages.
//
// | Open Responses                            | Bedrock                                                        |
// |-------------------------------------------|----------------------------------------------------------------|
// | system / developer messages               | `system` text blocks; Bedrock has no system turn, so a later one is |
// |                                           |   moved there (reordered), a developer one is written as system (form_changed) |
// |                                           |   one after another is joined to it (form_changed): it comes back as one |
// | user `message`                            | blocks of the user message (content-parts.ts); a string is one text block |
// |                                           |   one text part alone is that block too: form_changed (so for system) |
// | assistant `message`                       | text blocks of the assistant message; a string is one text block: |
// |                                           |   form_changed, it comes back as parts                         |
// | reasoning of provenance bedrock           | reasoningContent in the assistant message (reasoning-block.ts) |
// | reasoning of any other provenance         | loss: its encrypted_content is not Bedrock's                   |
// | `function_call`                           | toolUse in the assistant message: call_id -> toolUseId (call-ids.ts), |
// |                                           |   arguments -> input (tool-input.ts)                           |
// | `bedrock:<kind>` extension item           | the block `{<kind>: …}` in the assistant message, as it is     |
// | `function_call_output`                    | toolResult in the user message after the assistant message holding the call; |
// |                                           |   a string output is one text block; `bedrock:status` -> status; |
// |                                           |   one text part alone is that block too: form_changed          |
// | `bedrock:<field>` of an item or part      | `<field>` of the block; `bedrock:cachePoint` a cachePoint block after it |
// | refusal part, compaction, item_reference, | losses                                                         |
// |   another provider's extension item, item |                                                                |
// |   `id`, `status`, `phase`                 |                                                                |
//
// Bedrock wants user and assistant messages to alternate: the items of one side
// that follow each other (a turn's reasoning, text and calls; results and the
// user's next words) share one message. Two message items of the same role in a
// row are joined (form_changed). A result goes where it stands; one whose call
// is not in the assistant message right before is reported, as Bedrock rejects it.
import type { Converted, Loss } from "../../src/models/loss.js";
import type { CanonicalItem, FunctionCallItem, FunctionCallOutputItem, MessageItem, ReasoningItem } from "../../src/models/open-responses.js";
import { textFormDetail } from "../../src/models/text-form.js";
import { CallIds, lacksId } from "./call-ids.js";
import type { RewrittenId } from "../../src/models/call-id-rewrites.js";
import { blockOfPart, cachePointAfter } from "./content-parts.js";
import { isPresent, isRecord, lossAt, ownExtensionType, restoreFields, TARGET, typeOf, type Fields, type PointerTokens, CACHE_POINT } from "./fields.js";
import type { BedrockConversation, BedrockMessage } from "./models.js";
import { reasoningBlock } from "./reasoning-block.js";
import { inputOfArguments } from "./tool-input.js";
import { describeValue } from "../../src/models/json-value.js";
import { foreignResultError } from "../result-error.js";

const MESSAGE_FIELDS = ["type", "role", "id", "content", "status", "phase"];
const CALL_FIELDS = ["type", "id", "call_id", "name", "arguments", "status"];
const OUTPUT_FIELDS = ["type", "id", "call_id", "output", "status"];

export interface ItemsToMessagesArgs {
  items: readonly CanonicalItem[];
  /** Call ids rewritten and synthesized so far: a caller converting a conversation in parts passes the same state each time. */
  callIds?: CallIds;
}

interface Turn {
  role: BedrockMessage["role"];
  blocks: Fields[];
  /** Call ids (as the items have them) of the toolUse blocks of an assistant turn. */
  calls: string[];
  /** Whether the turn holds a message item, so that a second one is reported as joined. */
  hasMessage: boolean;
}

type ItemKind = "message" | "function_call" | "function_call_output" | "reasoning" | "compaction" | "item_reference" | "extension" | "unknown";
const ITEM_TYPES = ["message", "function_call", "function_call_output", "reasoning", "compaction", "item_reference"] as const;

export function itemsToMessages({ items, callIds }: ItemsToMessagesArgs): Converted<BedrockConversation> {
  if (!Array.isArray(items)) throw new TypeError("itemsToMessages expects an array of Open Responses items");
  const losses: Loss[] = [];
  const ids = callIds ?? new CallIds();
  ids.claim(items.flatMap((item) => (isRecord(item) && typeof item.call_id === "string" ? [item.call_id] : [])));
  const system: Fields[] = [];
  const turns: Turn[] = [];
  let started = false;

  const turnOf = (role: Turn["role"]): Turn => {
    const last = turns[turns.length - 1];
    if (last?.role === role) return last;
    const turn: Turn = { role, blocks: [], calls: [], hasMessage: false };
    turns.push(turn);
    return turn;
  };
  const joinMessage = (turn: Turn, at: PointerTokens) => {
    if (turn.hasMessage && turn.blocks.length > 0) losses.push(lossAt(at, "form_changed", `joined with the ${turn.role} message before it: ${TARGET} wants user and assistant messages to alternate`));
    turn.hasMessage = true;
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
            if (role === "developer") losses.push(lossAt([...at, "role"], "form_changed", `${TARGET} has no developer role: written as system`));
            if (started) losses.push(lossAt(at, "reordered", `${TARGET} has no system turn: moved to system, before the messages`));
            // The reader gives the system blocks back as one message.
            if (system.length > 0) losses.push(lossAt(at, "form_changed", `joined with the system text before it: ${TARGET} has one system prompt, which comes back as one message`));
            system.push(...contentBlocks(message, at, losses).filter((block) => {
              if ("text" in block || "cachePoint" in block) return true;
              losses.push(lossAt(at, "unsupported_part", "system takes only text here"));
              return false;
            }));
            return;
          case "user": {
            started = true;
            const turn = turnOf("user");
            joinMessage(turn, at);
            turn.blocks.push(...contentBlocks(message, at, losses));
            return;
          }
          case "assistant": {
            started = true;
            const turn = turnOf("assistant");
            joinMessage(turn, at);
            turn.blocks.push(...contentBlocks(message, at, losses));
            return;
          }
          default: {
            const unknownRole: never = role;
            losses.push(lossAt(at, "unsupported_item", `a message of role ${JSON.stringify(unknownRole)} has no ${TARGET} equivalent`));
            return;
          }
        }
      }
      case "function_call": {
        const call = item as FunctionCallItem;
        let callId: unknown = call.call_id;
        if (lacksId(callId)) {
          callId = ids.synthesize(call.name, call.arguments);
          losses.push(lossAt(at, "synthesized", `a function_call without call_id: the toolUseId "${String(callId)}" was synthesized; an output without call_id that follows answers it`));
        }
        if (typeof callId !== "string") {
          losses.push(lossAt([...at, "call_id"], "unsupported_item", `call_id is ${typeOf(callId)}, not text: a toolUse needs an id`));
          return;
        }
        started = true;
        const turn = turnOf("assistant");
        turn.blocks.push(toolUse(call, callId, ids, at, losses));
        turn.calls.push(callId);
        return;
      }
      case "function_call_output": {
        const output = item as FunctionCallOutputItem;
        let callId: unknown = output.call_id;
        if (lacksId(callId)) {
          callId = ids.takeWaiting();
          if (callId === undefined) {
            losses.push(lossAt(at, "unsupported_item", "a function_call_output without call_id answers no call, and no call without call_id waits for an answer; a toolResult needs its toolUseId"));
            return;
          }
          losses.push(lossAt(at, "synthesized", `a function_call_output without call_id answers the earliest call without call_id still unanswered: toolUseId "${String(callId)}"`));
        }
        if (typeof callId !== "string") {
          losses.push(lossAt([...at, "call_id"], "unsupported_item", `call_id is ${typeOf(callId)}, not text: the output answers no call; a toolResult needs its toolUseId`));
          return;
        }
        ids.answered(callId);
        started = true;
        const previous = turns[turns.length - 1];
        const caller = previous?.role === "user" ? turns[turns.length - 2] : previous;
        if (!caller?.calls.includes(callId)) {
          losses.push(lossAt([...at, "call_id"], "target_rejects", `answers no call of the assistant message before it: written in place, and ${TARGET} rejects a toolResult whose toolUse is not in the assistant message before it`));
        }
        turnOf("user").blocks.push(...toolResult(output, callId, ids, at, losses));
        return;
      }
      case "reasoning": {
        const block = reasoningBlock(item as ReasoningItem, at, losses);
        if (!block) return;
        started = true;
        turnOf("assistant").blocks.push(block);
        return;
      }
      case "extension": {
        const type = ownExtensionType((item as Fields).type);
        if (type === undefined) {
          losses.push(lossAt(at, "unsupported_item", `an item of type ${typeOf(item)} is another provider's: ${TARGET} has no equivalent`));
          return;
        }
        started = true;
        const { type: _type, ...rest } = item as Fields;
        turnOf("assistant").blocks.push(rest);
        return;
      }
      case "compaction":
        losses.push(lossAt(at, "unsupported_item", `${TARGET} cannot replay a compaction item: its encrypted_content is not Bedrock's`));
        return;
      case "item_reference":
        losses.push(lossAt(at, "unsupported_item", `${TARGET} has no item references; the referenced item is not here to inline`));
        return;
      case "unknown":
        losses.push(lossAt(at, "unsupported_item", `an item of type ${isRecord(item) ? JSON.stringify(item.type) : "none (not an object)"} has no ${TARGET} equivalent`));
        return;
      default: {
        const unknownKind: never = kind;
        throw new Error(`unhandled item kind ${String(unknownKind)}`);
      }
    }
  });

  // A turn all of whose content was lost is not written: Bedrock rejects an empty message.
  const messages = turns.filter((turn) => turn.blocks.length > 0).map((turn) => ({ role: turn.role, content: turn.blocks }) as BedrockMessage);
  return { value: system.length > 0 ? { system, messages } : { messages }, losses };
}

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
      key === "id" ? `${TARGET} messages have no item ids`
      : key === "status" ? `${TARGET} messages have no status ("${String(fields.status)}")`
      : key === "phase" ? `${TARGET} has no message phase ("${String(fields.phase)}")`
      : `"${key}" is not a field of the portable shape; ${TARGET} has no place for it`;
    losses.push(lossAt([...at, key], MESSAGE_FIELDS.includes(key) ? "unsupported_field" : "provider_extension", detail));
  }
}

/**
 * The blocks of a message item's content, each part followed by the cachePoint
 * it carries. Bedrock writes text only as blocks, and its reader gives a system
 * or user message of one text block alone as the string it holds, an
 * assistant's as parts: where the content had the other form, it comes back
 * changed, and that is said.
 */
function contentBlocks(message: MessageItem, at: PointerTokens, losses: Loss[]): Fields[] {
  const content: unknown = message.content;
  const readAsText = message.role !== "assistant";
  if (typeof content === "string") {
    if (!readAsText) losses.push(lossAt([...at, "content"], "form_changed", textFormDetail(`the text is written as one text block, the only form ${TARGET} has for an assistant's`, "parts")));
    return [{ text: content }];
  }
  const blocks = partBlocks(content, at, losses);
  if (readAsText && isOneTextBlock(blocks)) losses.push(lossAt([...at, "content"], "form_changed", textFormDetail(`the parts are written as one text block alone, which ${TARGET} reads in a system or user message as its text`, "string")));
  return blocks;
}

function partBlocks(content: unknown, at: PointerTokens, losses: Loss[]): Fields[] {
  if (!Array.isArray(content) || content.length === 0) {
    losses.push(lossAt(at, "unsupported_item", `a message with ${Array.isArray(content) ? "no parts" : `content that is ${typeOf(content)}`} gives no ${TARGET} blocks`));
    return [];
  }
  return content.flatMap((part: unknown, index) => {
    const partAt = [...at, "content", index];
    if (isRecord(part) && part.type === "refusal") {
      losses.push(lossAt(partAt, "unsupported_part", `${TARGET} has no refusal block: the refusal is not replayed`));
      return [];
    }
    const block = blockOfPart(part, partAt, losses);
    return block ? [block, ...cachePointAfter(part as Fields)] : [];
  });
}

function toolUse(call: FunctionCallItem, callId: string, ids: CallIds, at: PointerTokens, losses: Loss[]): Fields {
  const rewrite = ids.toBedrock(callId);
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
    losses.push(lossAt([...at, "arguments"], object ? "form_changed" : "target_rejects", `arguments is ${describeValue(args)}, not a JSON text: written as the input as it is${object ? "" : `, which ${TARGET} rejects`}`));
  }
  if (typeof call.name !== "string") losses.push(lossAt([...at, "name"], "target_rejects", `the function name is ${typeOf(call.name)}, not text: written as it is, which ${TARGET} rejects`));
  if (isPresent(call.id)) losses.push(lossAt([...at, "id"], "unsupported_field", `${TARGET} has no item ids; the call keeps its call_id "${callId}"`));
  if (isPresent(call.status) && call.status !== "completed") losses.push(lossAt([...at, "status"], "unsupported_field", `${TARGET} cannot mark a call "${String(call.status)}"`));
  const toolUse: Fields = { toolUseId: rewrite.id, name: call.name, input };
  restoreFields(call, CALL_FIELDS, toolUse, at, losses);
  return { toolUse };
}

/** Whether the blocks are one text block and nothing else: what a string output is written as. */
function isOneTextBlock(blocks: readonly Fields[]): boolean {
  return blocks.length === 1 && Object.keys(blocks[0]!).length === 1 && typeof blocks[0]!.text === "string";
}

/** The toolResult block, and the cachePoint block the output carries after it. */
function toolResult(output: FunctionCallOutputItem, callId: string, ids: CallIds, at: PointerTokens, losses: Loss[]): Fields[] {
  const rewrite = ids.toBedrock(callId);
  if (rewrite.rewritten) losses.push(lossAt([...at, "call_id"], "form_changed", rewrittenDetail(callId, rewrite)));
  const value: unknown = output.output;
  let content: Fields[];
  if (typeof value === "string") content = [{ text: value }];
  else if (Array.isArray(value)) {
    content = value.flatMap((part: unknown, index) => {
      const block = blockOfPart(part, [...at, "output", index], losses);
      return block ? [block, ...cachePointAfter(part as Fields)] : [];
    });
    // A text result is one text block too, and the way back reads one text block alone as that text.
    if (value.length === 1 && isOneTextBlock(content)) losses.push(lossAt([...at, "output"], "form_changed", `a text part written as one text block, which is how ${TARGET} writes a text result: it comes back as text, not as parts`));
  } else {
    content = [{ text: "" }];
    losses.push(lossAt([...at, "output"], "form_changed", `an output that is ${typeOf(value)}, neither text nor parts, becomes an empty text`));
  }
  if (isPresent(output.id)) losses.push(lossAt([...at, "id"], "unsupported_field", `${TARGET} has no item ids`));
  if (isPresent(output.status)) losses.push(lossAt([...at, "status"], "unsupported_field", `${TARGET} has no output status ("${String(output.status)}")`));
  const toolResult: Fields = { toolUseId: rewrite.id, content };
  const failed = foreignResultError(output as Fields, "bedrock");
  if (failed !== undefined) {
    toolResult.status = failed.value;
    losses.push(lossAt([...at, failed.key], "form_changed", failed.detail));
  }
  restoreFields(output, OUTPUT_FIELDS, toolResult, at, losses, failed === undefined ? undefined : [CACHE_POINT, failed.key]);
  return [{ toolResult }, ...cachePointAfter(output as Fields)];
}

function rewrittenDetail(callId: string, rewrite: RewrittenId): string {
  const why = rewrite.clashesWith === undefined ? `is not of ${TARGET}'s form ^[a-zA-Z0-9_-]{1,64}$` : `is what ${JSON.stringify(rewrite.clashesWith)} was written as`;
  return `call_id ${JSON.stringify(callId)} ${why}: written as "${rewrite.id}", for the call and its result alike`;
}
