// Gemini `contents` (and `systemInstruction`) -> Open Responses items.
//
// | Gemini                                     | Open Responses                                                  |
// |--------------------------------------------|-----------------------------------------------------------------|
// | systemInstruction {role?, parts}           | a leading system `message` of input_text parts (`gemini:role` when it names one) |
// | content role user                          | a user `message` of input parts (parts.ts), one per run of parts |
// |   functionResponse {name, response, id?}   |   `function_call_output` where it stands: call_id by id, else by name and |
// |                                            |   order, reported (call-ids.ts); output the response (response-output.ts); with |
// |                                            |   `parts` (a multimodal result) an output of parts: the response's text, then the files; |
// |                                            |   an empty text (`{output: ""}`, the response a result of files alone is written with) no part |
// |   a run of parts after functionResponses   |   a user message marked `gemini:joined`, which goes back into the same content |
// | content role model                         | one assistant `message` per run of text parts: output_text      |
// |   functionCall {name, args, id?}           |   `function_call`: id -> call_id, or synthesized and reported; args -> arguments (args.ts); |
// |                                            |   no args: "{}" and `gemini:argsAbsent`, so the way back writes none again |
// |   text with thought: true                  |   `reasoning`: summary [summary_text], encrypted_content the thoughtSignature when |
// |                                            |   it has one, provenance {envelope "gemini", part "thought", model} |
// |   thoughtSignature on any other part       |   `gemini:thoughtSignature` on the part or item, byte for byte   |
// |   executableCode, codeExecutionResult,     |   an extension item `gemini:<key>` holding the whole part        |
// |   toolCall, toolResponse, any other part   |                                                                 |
// | snake_case spellings (function_call…)      | read alike; `gemini:spelling` "snake" on the item or part, so the way back writes them |
// | a field no item holds (partMetadata…)      | `gemini:<field>` on the item or part                            |
// | a content field other than role and parts, | losses                                                          |
// |   a call in a user content, a role other   |                                                                 |
// |   than user and model                      |                                                                 |
//
// A call_id or arguments made up for a part that has none are reported at the
// item's field in the record being made (`itemsAt`), as every synthesized value
// is; a caller that writes the items alone gets the part's path.
//
// A request's calls are completed; a response's take their status from its
// finishReason (`callStatusOf`). Items get no `id`.
import { ownStopReason } from "../../src/models/own-stop-reason.js";
import type { Converted, Loss } from "../../src/models/loss.js";
import type { CanonicalItem, ItemStatus } from "../../src/models/open-responses.js";
import { argumentsOfArgs } from "./args.js";
import { CallPairing } from "./call-ids.js";
import { carryFields, isPresent, isRecord, lossAt, PREFIX, read, SLUG, typeOf, type Fields, type PointerTokens, type Spelling } from "./fields.js";
import { inputPartOf, type InputPart } from "./parts.js";
import { outputOfResponse } from "./response-output.js";

/** The spellings of a stop reason a message record may carry beside its content. */
const STOP_REASON_NAMES = ["finishReason", "finish_reason"];

const TARGET = "Open Responses";

export interface ContentsToItemsArgs {
  contents: readonly unknown[];
  systemInstruction?: unknown;
  /** The model that wrote the model turns, when the record says it: kept in each reasoning item's provenance. */
  model?: string;
  /** A response's finishReason (null while streaming): it sets the calls' status. A request leaves it out. */
  finishReason?: string | null;
  /**
   * The journal's pairing, when a conversation is converted record by record:
   * calls without id wait there for the results of later records.
   */
  pairing?: CallPairing;
  /** The contents are a whole conversation (a request body's): the pairing starts again. */
  whole?: boolean;
  /**
   * Where the items are written in the record being made (`/input`, `/output`)
   * and the index there of the first: a value synthesized for an item is
   * reported at the item's path. Without it, at the path of the part that lacks it.
   */
  itemsAt?: ItemsAt;
  /** Filled, when given, with the pointer of the part each item of a model content comes from (the first of the text parts joined into one message). */
  origins?: PointerTokens[];
}

export interface ItemsAt {
  path: string;
  offset: number;
}

/** What a reasoning item carries to say whose signature its encrypted_content is. */
export interface Provenance {
  envelope: typeof SLUG;
  part: "thought";
  model?: string;
}

/**
 * The keys of a part that say what it is; any other key is a field of it. A key
 * written null says nothing: the API reads null as absent, and the Python SDK's
 * model_dump writes every field of a Part, null but the one it holds (ADK's
 * sessions and eval sets are written so).
 */
const DATA_KEYS = ["text", "inlineData", "fileData", "functionCall", "functionResponse"] as const;

export function contentsToItems({ contents, systemInstruction, model, finishReason, pairing, whole = false, itemsAt, origins }: ContentsToItemsArgs): Converted<CanonicalItem[]> {
  if (!Array.isArray(contents)) throw new TypeError("contentsToItems expects an array of Gemini contents");
  if (whole) pairing?.restart();
  const items: CanonicalItem[] = [];
  const losses: Loss[] = [];
  if (systemInstruction !== undefined && systemInstruction !== null) {
    const item = instructions(systemInstruction, ["systemInstruction"], losses);
    if (item) items.push(item);
  }
  const context: Context = { model, finishReason, items, losses, pairing: pairing ?? new CallPairing(), itemsAt, origins };
  contents.forEach((content, index) => convertContent(content, ["contents", index], index === contents.length - 1, context));
  return { value: items, losses };
}

/**
 * The status of a response's call: finishReason null (still streaming) leaves it
 * in_progress; STOP completes it; MAX_TOKENS cuts the last part, so a call that
 * is the last part is incomplete; any other reason (SAFETY, RECITATION,
 * MALFORMED_FUNCTION_CALL…) says the turn did not end as the model meant, so
 * its calls are incomplete and blocked.
 */
export function callStatusOf(finishReason: string | null | undefined, isLastPart: boolean): ItemStatus {
  if (finishReason === undefined) return "completed";
  if (finishReason === null) return "in_progress";
  switch (finishReason) {
    case "STOP":
      return "completed";
    case "MAX_TOKENS":
      return isLastPart ? "incomplete" : "completed";
    default:
      return "incomplete";
  }
}

interface Context {
  model?: string;
  finishReason?: string | null;
  items: CanonicalItem[];
  losses: Loss[];
  pairing: CallPairing;
  itemsAt?: ItemsAt;
  origins?: PointerTokens[];
}

/** Where a value synthesized for the next item is reported: the item's field in the record made, else the part's field it stands for. */
function synthesizedAt({ items, itemsAt }: Context, field: string, source: PointerTokens): PointerTokens {
  if (itemsAt === undefined) return source;
  return [...itemsAt.path.split("/").slice(1), itemsAt.offset + items.length, field];
}

function instructions(system: unknown, at: PointerTokens, losses: Loss[]): CanonicalItem | undefined {
  if (typeof system === "string") return { type: "message", role: "system", content: system };
  if (!isRecord(system) || !Array.isArray(system.parts)) {
    losses.push(lossAt(at, "unsupported_item", `systemInstruction is ${typeOf(system)}, not a content of parts`));
    return undefined;
  }
  const parts = system.parts.flatMap((part: unknown, index) => {
    const input = inputPartOf(part, [...at, "parts", index], losses);
    return input ? [input] : [];
  });
  const item: Fields = { type: "message", role: "system", content: parts };
  if (system.role !== undefined) item[`${PREFIX}role`] = system.role;
  carryFields(system, ["role", "parts"], item);
  return item as CanonicalItem;
}

function convertContent(content: unknown, at: PointerTokens, isLast: boolean, context: Context): void {
  const { losses } = context;
  if (!isRecord(content) || !Array.isArray(content.parts)) {
    losses.push(lossAt(at, "unsupported_item", `a ${typeOf(content)} is not a Gemini content: it has no parts`));
    return;
  }
  for (const key of Object.keys(content)) {
    if (key !== "role" && key !== "parts" && content[key] !== undefined) {
      losses.push(lossAt([...at, key], "provider_extension", `"${key}" is not a field of a Gemini content; ${TARGET} has no place for it`));
    }
  }
  if (content.parts.length === 0) {
    losses.push(lossAt(at, "unsupported_item", "a content without parts gives no item"));
    return;
  }
  const role: unknown = content.role ?? "user";
  switch (role) {
    case "user":
      context.pairing.userTurn();
      userParts(content.parts, [...at, "parts"], context);
      return;
    case "model": {
      context.pairing.modelTurn();
      // A content that carries its candidate's finishReason ended as that says: its calls get the status it gives.
      const finishReason = ownStopReason(content, STOP_REASON_NAMES, context.finishReason);
      if (finishReason === context.finishReason) modelParts(content.parts, [...at, "parts"], isLast, context);
      else modelParts(content.parts, [...at, "parts"], true, { ...context, finishReason });
      return;
    }
    default:
      losses.push(lossAt([...at, "role"], "unsupported_item", `role ${JSON.stringify(role)} has no Open Responses item`));
  }
}

function userParts(parts: readonly unknown[], at: PointerTokens, context: Context): void {
  const { items, losses } = context;
  let run: InputPart[] = [];
  let afterOutputs = false;
  const flush = () => {
    if (run.length === 0) return;
    const item: Fields = { type: "message", role: "user", content: run };
    if (afterOutputs) item[`${PREFIX}joined`] = true;
    items.push(item as CanonicalItem);
    run = [];
  };
  parts.forEach((part, index) => {
    const partAt = [...at, index];
    if (isRecord(part)) {
      const response = read(part, "functionResponse");
      if (isPresent(response.value)) {
        flush();
        items.push(functionResponse(part, response.value, response.spelling, partAt, context));
        afterOutputs = true;
        return;
      }
      if (isPresent(read(part, "functionCall").value) || part.thought === true) {
        losses.push(lossAt(partAt, "unsupported_part", "a call or a thought belongs to a model content, not a user content"));
        return;
      }
    }
    const input = inputPartOf(part, partAt, losses);
    if (input) run.push(input);
  });
  flush();
}

function functionResponse(part: Fields, response: unknown, spelling: Spelling, at: PointerTokens, context: Context): CanonicalItem {
  const { losses, pairing } = context;
  const fields = isRecord(response) ? response : {};
  const responseAt = [...at, spelling === "snake" ? "function_response" : "functionResponse"];
  if (!isRecord(response)) losses.push(lossAt(responseAt, "unsupported_part", `a functionResponse that is ${typeOf(response)} answers nothing`));
  const { callId, how } = pairing.output(fields.id, fields.name);
  const callIdAt = synthesizedAt(context, "call_id", [...responseAt, "id"]);
  if (how === "paired") losses.push(lossAt(callIdAt, "synthesized", `a functionResponse without id answers the earliest unanswered call of its name: call_id ${callId}`));
  if (how === "synthesized") losses.push(lossAt(callIdAt, "synthesized", `a functionResponse without id that follows no unanswered call of its name: call_id ${callId} synthesized; it answers no call`));
  const text = outputOfResponse(fields.response, [...responseAt, "response"], losses);
  // A multimodal result (`parts` beside `response`) is an output of parts: the response's text first, then its files.
  // An empty text tells the model nothing and is what a result of files alone is written with: it gives no part.
  const output = Array.isArray(fields.parts)
    ? [...(text === "" ? [] : [{ type: "input_text", text }]), ...fields.parts.flatMap((part: unknown, index) => inputPartOf(part, [...responseAt, "parts", index], losses) ?? [])]
    : text;
  const item: Fields = { type: "function_call_output", call_id: callId, output };
  if (typeof fields.name === "string") item[`${PREFIX}name`] = fields.name;
  if (spelling === "snake") item[`${PREFIX}spelling`] = "snake";
  carryFields(fields, ["id", "name", "response", ...(Array.isArray(fields.parts) ? ["parts"] : [])], item);
  carryFields(part, [spelling === "snake" ? "function_response" : "functionResponse"], item);
  return item as CanonicalItem;
}

function modelParts(parts: readonly unknown[], at: PointerTokens, isLast: boolean, context: Context): void {
  const { losses, pairing } = context;
  let run: Fields[] = [];
  let runAt: PointerTokens = at;
  const push = (item: CanonicalItem, from: PointerTokens) => {
    context.items.push(item);
    context.origins?.push(from);
  };
  const flush = () => {
    if (run.length > 0) push({ type: "message", role: "assistant", content: run } as CanonicalItem, runAt);
    run = [];
  };
  parts.forEach((part, index) => {
    const partAt = [...at, index];
    if (run.length === 0) runAt = partAt;
    if (!isRecord(part)) {
      losses.push(lossAt(partAt, "unsupported_part", `a ${typeOf(part)} is not a Gemini part`));
      return;
    }
    const kind = partKind(part);
    if (kind === "text" && part.thought !== true) {
      if (typeof part.text !== "string") {
        losses.push(lossAt(partAt, "unsupported_part", "a text part without text has nothing to carry"));
        return;
      }
      const text: Fields = { type: "output_text", text: part.text, annotations: [] };
      carryFields(part, ["text"], text);
      run.push(text);
      return;
    }
    flush();
    switch (kind) {
      case "text":
        // The flag is what makes the part a reasoning item; the way back writes it again from the item's type.
        losses.push(lossAt([...partAt, "thought"], "form_changed", "thought: true is said by the reasoning item the part becomes, not written as a field"));
        push(thought(part, context.model), partAt);
        return;
      case "functionCall": {
        const call = read(part, "functionCall");
        const fields = isRecord(call.value) ? call.value : {};
        const callAt = [...partAt, call.key];
        // A dump (the part written `function_call`, as the Python SDK's model_dump writes it) writes
        // null for args a call without parameters has none of; the API's own JSON never writes a
        // null, so there `args: null` is what a reader of it passes the tool, judged as written.
        const args = argumentsOfArgs(fields.args === null && call.spelling === "snake" ? undefined : fields.args);
        const { callId, how } = pairing.call(fields.id, fields.name, args.value);
        if (how === "synthesized") losses.push(lossAt(synthesizedAt(context, "call_id", [...callAt, "id"]), "synthesized", `a functionCall without id: call_id ${callId} synthesized from its rank among the conversation's calls, its name and its args`));
        if (typeof fields.name !== "string") losses.push(lossAt([...callAt, "name"], "target_rejects", `the call's name is ${typeOf(fields.name)}: written as it is`));
        if (args.loss) losses.push(lossAt(args.loss.code === "synthesized" ? synthesizedAt(context, "arguments", [...callAt, "args"]) : [...callAt, "args"], args.loss.code, args.loss.detail));
        // A piece of a call streamed in parts (partialArgs, or more to come) holds no whole arguments:
        // `args` is not what the call was, so it never runs from this record.
        // In either spelling, and a willContinue of any value but false or null (`"true"` too);
        // partialArgs null is none, as the Python SDK's model_dump writes it for a whole call.
        const partial = isPresent(fields.partialArgs) ? "partialArgs" : isPresent(fields.partial_args) ? "partial_args" : undefined;
        const more = [fields.willContinue, fields.will_continue].some((value) => value !== undefined && value !== null && value !== false);
        const piece = partial !== undefined || more;
        if (piece) losses.push(lossAt(callAt, "form_changed", `a functionCall with ${partial ?? "willContinue"} is a piece of a call streamed in parts: its arguments are not whole, so it is written incomplete`));
        const status = piece ? "incomplete" : callStatusOf(context.finishReason, isLast && index === parts.length - 1);
        const item: Fields = { type: "function_call", call_id: callId, name: fields.name, arguments: args.value, status };
        if (call.spelling === "snake") item[`${PREFIX}spelling`] = "snake";
        if (fields.args === undefined) item[`${PREFIX}argsAbsent`] = true;
        carryFields(fields, ["id", "name", "args"], item);
        carryFields(part, [call.key], item);
        push(item as CanonicalItem, partAt);
        return;
      }
      case "functionResponse":
      case "inlineData":
      case "fileData":
        losses.push(lossAt(partAt, "unsupported_part", `a ${kind} part belongs to a user content, not a model content`));
        return;
      case "other":
        // A part with no field but nulls is the empty Part the Python SDK dumps for
        // a turn that said nothing: there is nothing to keep, and no provider takes it back.
        if (!Object.values(part).some(isPresent)) {
          losses.push(lossAt(partAt, "unsupported_part", "a part whose every field is null holds nothing"));
          return;
        }
        // Code execution, server-side tool calls and their results, parts not
        // known yet: the same provider takes them back as they are; no other runs them.
        push({ type: `${PREFIX}${extensionName(part)}`, ...part } as CanonicalItem, partAt);
        return;
      default: {
        const unknownKind: never = kind;
        losses.push(lossAt(partAt, "unsupported_part", `a ${String(unknownKind)} part has no item`));
      }
    }
  });
  flush();
}

type PartKind = (typeof DATA_KEYS)[number] | "other";

export function partKind(part: Fields): PartKind {
  for (const key of DATA_KEYS) if (isPresent(read(part, key).value)) return key;
  return "other";
}

/** The data key of a part that is none of the portable ones: `executableCode`, `toolCall`… */
function extensionName(part: Fields): string {
  const key = Object.keys(part).find((name) => isPresent(part[name]) && !/^thought(_s|S)ignature$/.test(name) && name !== "thought" && name !== "partMetadata" && name !== "part_metadata");
  return key ?? "part";
}

function thought(part: Fields, model: string | undefined): CanonicalItem {
  const signature = read(part, "thoughtSignature");
  const provenance: Provenance = { envelope: SLUG, part: "thought" };
  if (model !== undefined) provenance.model = model;
  const item: Fields = { type: "reasoning", summary: [{ type: "summary_text", text: part.text }] };
  if (signature.value !== undefined) item.encrypted_content = signature.value;
  item.provenance = provenance;
  if (signature.spelling === "snake") item[`${PREFIX}spelling`] = "snake";
  carryFields(part, ["text", "thought", signature.key], item);
  return item as CanonicalItem;
}
