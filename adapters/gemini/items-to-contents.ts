// Open Responses items (the canonical form) -> Gemini `systemInstruction` and `contents`.
//
// | Open Responses                             | Gemini                                                          |
// |--------------------------------------------|-----------------------------------------------------------------|
// | system / developer messages before any     | systemInstruction {role? (`gemini:role`), parts}: a string one text part |
// |   other item                               |   (developer: loss form_changed)                                |
// | a message's content that is a string       | one text part: loss form_changed, it comes back as parts        |
// | system / developer message later on        | a user content: loss form_changed, Gemini has instructions only first |
// | user `message`                             | a user content; parts through parts.ts; marked `gemini:joined` after |
// |                                            |   outputs, it joins their content                               |
// | assistant `message`                        | opens a model content, or joins the one a thought or call opened; |
// |                                            |   output_text -> text                                           |
// | a message with content [] (no parts)       | loss unsupported_item: Gemini refuses a content without parts |
// | reasoning of provenance gemini             | a text part with thought: true, thoughtSignature the encrypted_content exactly |
// | reasoning of any other provenance          | loss: its encrypted_content is not Gemini's                     |
// | `function_call`                            | functionCall {name, args, id} in the open model content: call_id -> id, |
// |                                            |   unless it was synthesized (call-ids.ts); arguments -> args (args.ts) |
// | `function_call_output`                     | functionResponse {name, response, id} in the user content after the |
// |                                            |   calls: outputs in a row share one content; name from `gemini:name` or the call |
// | `gemini:<key>` extension item              | the part it held, in the open model content                     |
// | `gemini:<field>` of an item or part        | <field> of the part, or of its functionCall / functionResponse  |
// | `gemini:spelling` "snake"                  | the part written in snake_case, as it was read                  |
// | refusal part, annotations, compaction,     | losses                                                          |
// |   item_reference, another provider's       |                                                                 |
// |   extension item, item `id`, `status`,     |                                                                 |
// |   `phase`                                  |                                                                 |
//
// A message item opens a new model content only right after another message
// item: two messages in a row were two turns.
import type { Converted, Loss } from "../../src/models/loss.js";
import type { CanonicalItem, FunctionCallItem, FunctionCallOutputItem, MessageItem, ReasoningItem } from "../../src/models/open-responses.js";
import { textFormDetail } from "../../src/models/text-form.js";
import { argsOfArguments } from "./args.js";
import { isSynthesizedCallId } from "./call-ids.js";
import { isPresent, isRecord, lossAt, ownExtensionType, PREFIX, restoreFields, restoreSplit, spelled, TARGET, typeOf, type Fields, type PointerTokens, type Spelling } from "./fields.js";
import { partOfInput } from "./parts.js";
import { responseOfOutput } from "./response-output.js";

const MESSAGE_FIELDS = ["type", "role", "id", "content", "status", "phase"];
const CALL_FIELDS = ["type", "id", "call_id", "name", "arguments", "status", `${PREFIX}spelling`, `${PREFIX}argsAbsent`];
const OUTPUT_FIELDS = ["type", "id", "call_id", "output", "status", `${PREFIX}spelling`, `${PREFIX}name`];
const REASONING_FIELDS = ["type", "id", "summary", "content", "encrypted_content", "provenance", `${PREFIX}spelling`];

export interface GeminiContent {
  role: "user" | "model";
  parts: Fields[];
}

export interface GeminiConversation {
  systemInstruction?: Fields;
  contents: GeminiContent[];
}

type ItemKind = "message" | "function_call" | "function_call_output" | "reasoning" | "compaction" | "item_reference" | "extension" | "unknown";
const ITEM_TYPES = ["message", "function_call", "function_call_output", "reasoning", "compaction", "item_reference"] as const;
type Previous = "assistant_message" | "output" | "other" | undefined;

export function itemsToContents({ items }: { items: readonly CanonicalItem[] }): Converted<GeminiConversation> {
  if (!Array.isArray(items)) throw new TypeError("itemsToContents expects an array of Open Responses items");
  const losses: Loss[] = [];
  const contents: GeminiContent[] = [];
  const callNames = new Map<string, unknown>();
  for (const item of items) if (isRecord(item) && item.type === "function_call" && typeof item.call_id === "string") callNames.set(item.call_id, item.name);
  const shared = sharedCallIds(items);
  let system: Fields | undefined;
  let started = false;
  let open: GeminiContent | undefined;
  let outputs: GeminiContent | undefined;
  let previous: Previous;

  const modelContent = (): GeminiContent => {
    if (!open) {
      open = { role: "model", parts: [] };
      contents.push(open);
    }
    started = true;
    outputs = undefined;
    return open;
  };

  items.forEach((item, index) => {
    const at: PointerTokens = [index];
    const kind = itemKind(item);
    switch (kind) {
      case "message": {
        const message = item as MessageItem;
        messageLosses(message, at, losses);
        if (Array.isArray(message.content) && message.content.length === 0) {
          // A content with no parts is refused by Gemini, and dropped quietly it would change the turns.
          losses.push(lossAt(at, "unsupported_item", "a message with no parts gives no Gemini content"));
          return;
        }
        const role = message.role;
        switch (role) {
          case "system":
          case "developer": {
            if (role === "developer") losses.push(lossAt([...at, "role"], "form_changed", "Gemini has no developer role: written as an instruction"));
            const parts = userParts(message, at, losses);
            if (!started) {
              // The reader gives systemInstruction back as one message.
              if (system !== undefined && parts.length > 0) losses.push(lossAt(at, "form_changed", "joined with the system text before it: Gemini has one systemInstruction, which comes back as one message"));
              system ??= {};
              const geminiRole = (message as Fields)[`${PREFIX}role`];
              if (geminiRole !== undefined && system.role === undefined) system.role = geminiRole;
              system.parts = [...((system.parts as Fields[] | undefined) ?? []), ...parts];
            } else {
              losses.push(lossAt(at, "form_changed", "Gemini takes instructions only before the conversation: written as a user content"));
              open = undefined;
              outputs = undefined;
              if (parts.length > 0) contents.push({ role: "user", parts });
            }
            previous = "other";
            return;
          }
          case "user": {
            started = true;
            open = undefined;
            const parts = userParts(message, at, losses);
            if (previous === "output" && outputs && (message as Fields)[`${PREFIX}joined`] === true) outputs.parts.push(...parts);
            else if (parts.length > 0) contents.push({ role: "user", parts });
            outputs = undefined;
            previous = "other";
            return;
          }
          case "assistant": {
            if (previous === "assistant_message") open = undefined;
            modelContent().parts.push(...modelParts(message, at, losses));
            previous = "assistant_message";
            return;
          }
          default: {
            const unknownRole: never = role;
            losses.push(lossAt(at, "unsupported_item", `a message of role ${JSON.stringify(unknownRole)} has no Gemini content`));
            return;
          }
        }
      }
      case "function_call": {
        modelContent().parts.push(functionCall(item as FunctionCallItem, shared, at, losses));
        previous = "other";
        return;
      }
      case "function_call_output": {
        open = undefined;
        started = true;
        if (!outputs || previous !== "output") {
          outputs = { role: "user", parts: [] };
          contents.push(outputs);
        }
        outputs.parts.push(functionResponse(item as FunctionCallOutputItem, callNames, shared, at, losses));
        previous = "output";
        return;
      }
      case "reasoning": {
        const part = thoughtPart(item as ReasoningItem, at, losses);
        if (part) {
          modelContent().parts.push(part);
          previous = "other";
        }
        return;
      }
      case "extension": {
        const type = (item as Fields).type;
        const own = ownExtensionType(type);
        if (own === undefined) {
          losses.push(lossAt(at, "unsupported_item", `the extension item ${JSON.stringify(type)} is another provider's: ${TARGET} cannot replay it`));
          return;
        }
        const { type: _type, ...part } = item as Fields;
        modelContent().parts.push(part);
        previous = "other";
        return;
      }
      case "compaction":
        losses.push(lossAt(at, "unsupported_item", "a compaction item is another provider's summary of the conversation: Gemini cannot read it"));
        return;
      case "item_reference":
        losses.push(lossAt(at, "unsupported_item", "an item reference names an item stored by another provider: Gemini cannot resolve it"));
        return;
      case "unknown":
        losses.push(lossAt(at, "unsupported_item", `an item of type ${typeOf(item)} has no Gemini part`));
        return;
      default: {
        const unknownKind: never = kind;
        throw new Error(`unhandled item kind ${String(unknownKind)}`);
      }
    }
  });

  // A content all of whose parts were lost is not written: Gemini rejects a content without parts.
  const written = contents.filter((content) => content.parts.length > 0);
  return { value: system === undefined ? { contents: written } : { systemInstruction: system, contents: written }, losses: inItemOrder(losses) };
}

function inItemOrder(losses: readonly Loss[]): Loss[] {
  const itemOf = (loss: Loss) => Number(/^\/(\d+)/.exec(loss.path)?.[1] ?? -1);
  return losses.map((loss, order) => ({ loss, order })).sort((a, b) => itemOf(a.loss) - itemOf(b.loss) || a.order - b.order).map(({ loss }) => loss);
}

function itemKind(item: unknown): ItemKind {
  if (!isRecord(item)) return "unknown";
  const type = item.type;
  if (!isPresent(type)) return typeof item.role === "string" ? "message" : typeof item.id === "string" ? "item_reference" : "unknown";
  if (typeof type !== "string") return "unknown";
  if (type.includes(":")) return "extension";
  return ITEM_TYPES.find((known) => known === type) ?? "unknown";
}

function messageLosses(message: MessageItem, at: PointerTokens, losses: Loss[]): void {
  const fields = message as Fields;
  for (const key of Object.keys(fields)) {
    if (!isPresent(fields[key]) || key === "type" || key === "role" || key === "content" || key === `${PREFIX}role` || key === `${PREFIX}joined`) continue;
    const detail =
      key === "id" ? "Gemini contents have no item ids"
      : key === "status" ? `Gemini contents have no status ("${String(fields.status)}")`
      : key === "phase" ? `Gemini has no message phase ("${String(fields.phase)}")`
      : `"${key}" is not a field of the portable shape; ${TARGET} has no place for it`;
    losses.push(lossAt([...at, key], MESSAGE_FIELDS.includes(key) ? "unsupported_field" : "provider_extension", detail));
  }
}

// Gemini writes a message's content as parts only, and its reader gives parts back.
const TEXT_AS_PART = textFormDetail("the text is written as one text part, Gemini's only form of a message's content", "parts");

function userParts(message: MessageItem, at: PointerTokens, losses: Loss[]): Fields[] {
  const content: unknown = message.content;
  if (typeof content === "string") {
    losses.push(lossAt([...at, "content"], "form_changed", TEXT_AS_PART));
    return [{ text: content }];
  }
  if (!Array.isArray(content)) {
    losses.push(lossAt([...at, "content"], "unsupported_item", `content is ${typeOf(content)}, neither text nor parts`));
    return [];
  }
  return content.flatMap((part: unknown, index): Fields[] => { const converted = partOfInput(part, [...at, "content", index], losses); return converted ? [converted] : []; });
}

function modelParts(message: MessageItem, at: PointerTokens, losses: Loss[]): Fields[] {
  const content: unknown = message.content;
  if (typeof content === "string") {
    losses.push(lossAt([...at, "content"], "form_changed", TEXT_AS_PART));
    return [{ text: content }];
  }
  if (!Array.isArray(content)) {
    losses.push(lossAt([...at, "content"], "unsupported_item", `content is ${typeOf(content)}, neither text nor parts`));
    return [];
  }
  return content.flatMap((part: unknown, index): Fields[] => {
    const partAt = [...at, "content", index];
    if (!isRecord(part) || (part.type !== "output_text" && part.type !== "input_text") || typeof part.text !== "string") {
      const what = isRecord(part) && part.type === "refusal" ? "Gemini has no refusal part" : `a ${typeOf(part)} part has no Gemini model part`;
      losses.push(lossAt(partAt, "unsupported_part", what));
      return [];
    }
    if (Array.isArray(part.annotations) && part.annotations.length > 0) losses.push(lossAt([...partAt, "annotations"], "unsupported_field", "Gemini text parts carry no annotations: its citations are response metadata"));
    if (isPresent(part.logprobs) && !(Array.isArray(part.logprobs) && part.logprobs.length === 0)) losses.push(lossAt([...partAt, "logprobs"], "unsupported_field", "a Gemini request has no logprobs"));
    const out: Fields = { text: part.text };
    restoreFields(part, ["type", "text", "annotations", "logprobs"], out, partAt, losses);
    return [out];
  });
}

function spellingOf(item: Fields): Spelling {
  return item[`${PREFIX}spelling`] === "snake" ? "snake" : "camel";
}

function functionCall(call: FunctionCallItem, shared: ReadonlySet<string>, at: PointerTokens, losses: Loss[]): Fields {
  const fields = call as Fields;
  const spelling = spellingOf(fields);
  if (isPresent(fields.id)) losses.push(lossAt([...at, "id"], "unsupported_field", "Gemini parts have no item ids"));
  if (isPresent(fields.status) && fields.status !== "completed") losses.push(lossAt([...at, "status"], "unsupported_field", `a ${String(fields.status)} call is written as a whole one; Gemini has no status`));
  const args = argsOfArguments(call.arguments);
  if (args.loss) losses.push(lossAt([...at, "arguments"], args.loss.code, args.loss.detail));
  const inner: Fields = { name: call.name };
  // A call the model made without args goes back without them, as long as its arguments are still none.
  if (!(fields[`${PREFIX}argsAbsent`] === true && call.arguments === "{}")) inner.args = args.value;
  if (idWritten(call.call_id, shared)) inner.id = call.call_id;
  else noCallId(fields, "call", at, losses);
  const part: Fields = {};
  part[spelled("functionCall", spelling)] = inner;
  restoreSplit(fields, CALL_FIELDS, inner, part, at, losses);
  return part;
}

function functionResponse(output: FunctionCallOutputItem, callNames: ReadonlyMap<string, unknown>, shared: ReadonlySet<string>, at: PointerTokens, losses: Loss[]): Fields {
  const fields = output as Fields;
  const spelling = spellingOf(fields);
  if (isPresent(fields.id)) losses.push(lossAt([...at, "id"], "unsupported_field", "Gemini parts have no item ids"));
  let name = fields[`${PREFIX}name`] ?? callNames.get(String(output.call_id));
  if (name === undefined) {
    losses.push(lossAt([...at, "call_id"], "target_rejects", "the output answers no call of these items, so its function name is unknown: written with an empty name, which Gemini rejects"));
    name = "";
  }
  const { response, parts } = responseOfOutput(output.output, [...at, "output"], losses);
  const inner: Fields = { name, response };
  if (idWritten(output.call_id, shared)) inner.id = output.call_id;
  else noCallId(fields, "output", at, losses);
  if (parts) inner.parts = parts;
  const part: Fields = {};
  part[spelled("functionResponse", spelling)] = inner;
  restoreSplit(fields, OUTPUT_FIELDS, inner, part, at, losses);
  return part;
}

/**
 * Whether a call_id is written in `id`: any but one a reading of Gemini's own
 * call without id gave (call-ids.ts), which goes back as none, as it came. A
 * reading gives each such call its own, so one that two calls give was not
 * read so: written, it keeps the two calls one call_id, which the gate blocks,
 * where a reader of Gemini would give each an id of its own.
 */
function idWritten(callId: unknown, shared: ReadonlySet<string>): callId is string {
  return typeof callId === "string" && callId !== "" && (!isSynthesizedCallId(callId) || shared.has(callId));
}

/** The call_ids two or more calls of the items give. */
function sharedCallIds(items: readonly CanonicalItem[]): ReadonlySet<string> {
  const given = new Set<string>();
  const shared = new Set<string>();
  for (const item of items) {
    if (!isRecord(item) || item.type !== "function_call" || typeof item.call_id !== "string") continue;
    if (given.has(item.call_id)) shared.add(item.call_id);
    given.add(item.call_id);
  }
  return shared;
}

/**
 * A call or output written without an id because it has no call_id (none, `""`,
 * not a string): a reader of Gemini gives it an id of its own, so a call the
 * gate blocked for its missing call_id reads there as one that has one. Said,
 * as the other envelopes say the id they synthesize. An id read from Gemini's
 * own call without one (`gemini_call_…`) goes back as none, as it came.
 */
function noCallId(fields: Fields, what: "call" | "output", at: PointerTokens, losses: Loss[]): void {
  if (isSynthesizedCallId(fields.call_id)) return;
  const given = fields.call_id === undefined ? "no call_id" : `the call_id ${JSON.stringify(fields.call_id) ?? String(fields.call_id)}, which is none`;
  losses.push(lossAt([...at, "call_id"], "form_changed", `the ${what} has ${given}: written without an id, which a reader of Gemini replaces with one of its own`));
}

function thoughtPart(item: ReasoningItem, at: PointerTokens, losses: Loss[]): Fields | undefined {
  const fields = item as Fields;
  const provenance = fields.provenance;
  if (!isRecord(provenance) || provenance.envelope !== "gemini") {
    losses.push(lossAt(at, "unsupported_item", "a reasoning item not written by Gemini cannot be replayed to it: its encrypted_content is not a thoughtSignature"));
    return undefined;
  }
  const summary: unknown[] = Array.isArray(item.summary) ? item.summary : [];
  const texts = summary.flatMap((part) => (isRecord(part) && typeof part.text === "string" ? [part.text] : []));
  if (summary.length > 1) losses.push(lossAt([...at, "summary"], "form_changed", `${summary.length} summary parts joined into one thought text`));
  if (isPresent(fields.id)) losses.push(lossAt([...at, "id"], "unsupported_field", "Gemini parts have no item ids"));
  if (isPresent(fields.content)) losses.push(lossAt([...at, "content"], "unsupported_field", "a thought part holds one text: the reasoning content is not kept"));
  const part: Fields = { text: texts.join(""), thought: true };
  if (typeof item.encrypted_content === "string") part[spelled("thoughtSignature", spellingOf(fields))] = item.encrypted_content;
  restoreFields(fields, REASONING_FIELDS, part, at, losses);
  return part;
}
