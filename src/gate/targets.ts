// Replay targets: what a provider accepts, how a journal is rewritten toward it
// (`normalize --for`, every change reported) and how it is checked (`gate --for`).
//
// | target            | items it holds                                   | rewrite                                      |
// |-------------------|--------------------------------------------------|----------------------------------------------|
// | open-responses    | message, function_call, function_call_output      | other items removed; foreign ids removed; a typeless message gets `type`; a call_id past 64 characters rewritten (target-ids.ts) |
// | openai-responses  | the portable items, reasoning with an `rs` id,    | `openai:` slug removed from OpenAI's types;  |
// |                   | item_reference, compaction, OpenAI's own types    | other extensions removed; ids of another provider's form removed |
// | chat-completions  | messages, function_call, function_call_output;    | other items removed; a turn's text, then its calls, then their outputs (an output that came before its call too) |
// |                   |   reasoning with text when a dialect's field takes it (`reasoningField`) | reasoning kept with the turn's text |
// | strict            | everything, without `status`                      | `status` removed from every item but an unfinished call (reported) |
// | adjacent          | everything                                        | each output moved directly after its call, even one that came before it |
// | anthropic, gemini,| what their profile takes (target-profile-checks.ts): | ids rewritten to the profile's grammar; opaque reasoning of |
// | bedrock, deepseek,|   their own extension items and reasoning, ids of |   another family, extension items of another provider and |
// | mistral           |   their grammar, non-empty text where required    |   empty text removed (target-rewriter.ts)   |
//
// A provider's target is data, its profile, kept beside its envelope's adapter;
// the caller hands it over (`TargetOptions.profile`), since the gate imports no
// adapter. A profile handed with another target adds its rules to that target's.
//
// The rewrite itself, with its reordering, is in target-rewriter.ts.
//
// Checks give findings: `target_rejects` for an item or field the target cannot
// hold, or a turn out of the order its profile requires (`turns`: a later system
// message, a first turn not the user's, a call before the user spoke),
// `target_order` for an output away from where the target needs it. A
// foreign id is already a journal finding (`foreign_id`) and is not reported twice.
import type { LossCode } from "../models/loss.js";
import { pointer } from "../models/json-pointer.js";
import type { JournalItem } from "../models/journal-item.js";
import { functionCallItemSchema, functionCallOutputItemSchema, messageItemSchema } from "../models/open-responses.js";
import { foreignIdReason, itemFields, itemKind, type ItemKind } from "./item-kind.js";
import type { Target } from "./target-names.js";
import type { Finding, ItemCheck } from "./journal-checks.js";
import { OPENAI_ITEM_TYPES } from "../models/provider-item-types.js";
import type { TargetProfile } from "../models/target-profile.js";
import { assertTarget, PROFILE_TARGETS } from "./target-names.js";
import { hasText, profileFindings, profileRejection, ruleDetail } from "./target-profile-checks.js";
import type { ConversationCalls } from "../journal/conversation-calls.js";
import type { TargetIdRewrites } from "./target-ids.js";

export { isTarget, PROFILE_TARGETS, TARGETS, type Target } from "./target-names.js";

export const TARGET_CHANGE_CODES = [
  /** An item the target cannot hold was removed (reasoning, an extension item…). */
  "unsupported_item",
  /** A field the target rejects was removed (`status` for strict). */
  "unsupported_field",
  /** A value was rewritten to the target's form (a slug removed, a `type` added). */
  "form_changed",
  /** A placeholder or another provider's id was removed; the target assigns its own. */
  "foreign_id_removed",
  /** The item was moved to where the target needs it: ahead of earlier items, or an output after its call. */
  "reordered",
  /** An output whose call comes neither before it nor soon after: left where it is, which the target rejects. */
  "orphan_output",
  /** A call_id outside the target's grammar, rewritten for the call and its output (`--id-map` keeps the original). */
  "id_rewritten",
  /** A value the target needs and the item lacked, taken from the journal (an output's function name, from its call). */
  "synthesized",
] as const satisfies ReadonlyArray<LossCode | "foreign_id_removed" | "orphan_output" | "id_rewritten">;
export type TargetChangeCode = (typeof TARGET_CHANGE_CODES)[number];

/** One change made for a target: a loss, placed by the item's line and index. */
export interface TargetChange {
  source?: string;
  line: number;
  index: number;
  /** JSON Pointer into the item ("" for the whole item). */
  path: string;
  code: TargetChangeCode;
  detail: string;
}

export interface Rewritten {
  items: JournalItem[];
  changes: TargetChange[];
}

export interface TargetOptions {
  /**
   * chat-completions: the field of the Chat dialect that takes the model's
   * reasoning (`reasoning_content`, `reasoning`, `reasoning_details`). A reasoning
   * item with text is then kept, with the turn it leads to, where it would be removed.
   */
  reasoningField?: string;
  /** The provider's profile: required for a provider's target, and adds its rules to any other. */
  profile?: TargetProfile;
}

export interface RewriteOptions extends TargetOptions {
  /** Call-id rewrites to share with other rewriters of the same journal (`convert --for` rewrites record by record). */
  ids?: TargetIdRewrites;
  /** The names of the journal's calls so far, to share the same way: a result on a later line than its call gets its name where the target needs it. */
  calls?: ConversationCalls;
  /** The call ids met so far, to share the same way: a result whose call is on an earlier record did not come before it. */
  seenCalls?: Set<string>;
  /** The longest turn held back for reordering. */
  maxTurnItems?: number;
}

export const DEFAULT_MAX_TURN_ITEMS = 10_000;


/** The id prefix OpenAI requires of an input item, where it requires one. */
export const OPENAI_ID_PREFIXES: Partial<Record<ItemKind, string>> = { function_call: "fc", message: "msg", reasoning: "rs" };
export const MESSAGE_ROLES = new Set(["user", "assistant", "system", "developer"]);

// ---------------------------------------------------------------- what a target holds

/** Why the target cannot hold an item of this kind, or `undefined`. */
export function rejectionOf(target: Target, kind: ItemKind, fields: Record<string, unknown>, options: TargetOptions = {}): string | undefined {
  switch (target) {
    case "open-responses":
      switch (kind) {
        case "message":
        case "function_call":
        case "function_call_output":
          return undefined;
        case "untyped_message":
          return "a message without `type` is not an Open Responses item";
        case "reasoning":
        case "item_reference":
        case "compaction":
          return `an item of type "${kind}" is not part of the portable core`;
        case "extension":
          return `"${String(fields.type)}" is one provider's extension, not part of the portable core`;
        case "unknown":
          return unknownItem(fields);
        default:
          return assertNever(kind);
      }
    case "openai-responses":
      switch (kind) {
        case "message":
        case "untyped_message":
        case "function_call":
        case "function_call_output":
        case "item_reference":
        case "compaction":
          return undefined;
        case "reasoning":
          return typeof fields.id === "string" && fields.id.startsWith("rs") ? undefined : "OpenAI replays a reasoning item only with its own `rs` id";
        case "extension": {
          const type = String(fields.type);
          return type.startsWith("openai:") && OPENAI_ITEM_TYPES.has(type.slice(7)) ? undefined : `"${type}" is not an item type OpenAI accepts`;
        }
        case "unknown":
          return unknownItem(fields);
        default:
          return assertNever(kind);
      }
    case "chat-completions":
      switch (kind) {
        case "message":
        case "untyped_message":
          return MESSAGE_ROLES.has(String(fields.role)) ? undefined : `a message with role ${JSON.stringify(fields.role)} has no Chat form`;
        case "function_call":
        case "function_call_output":
          return undefined;
        case "reasoning":
          if (options.reasoningField === undefined) return 'an item of type "reasoning" has no Chat Completions form';
          return hasReasoningText(fields) ? undefined : `a reasoning item with no text: ${options.reasoningField} has nothing to carry`;
        case "item_reference":
        case "compaction":
          return `an item of type "${kind}" has no Chat Completions form`;
        case "extension":
          return `"${String(fields.type)}" is one provider's extension and has no Chat Completions form`;
        case "unknown":
          return unknownItem(fields);
        default:
          return assertNever(kind);
      }
    case "strict":
    case "adjacent":
      return undefined;
    case "anthropic":
    case "gemini":
    case "bedrock":
    case "deepseek":
    case "mistral":
      return profileRejection(profileFor(target, options), kind, fields);
    default:
      return assertNever(target);
  }
}

/** The profile a provider's target is checked against; without it the target cannot be judged. */
export function profileFor(target: Target, options: TargetOptions): TargetProfile {
  if (options.profile === undefined || options.profile.name !== target) throw new TypeError(`the target ${target} is judged by its profile, and none was handed over for it`);
  return options.profile;
}

/** A reasoning item a Chat dialect's field can carry: text in its summary or reasoning content, or reasoning_details read from such a field. */
function hasReasoningText(fields: Record<string, unknown>): boolean {
  return hasText(fields) || (Array.isArray(fields.reasoning_details) && fields.reasoning_details.length > 0);
}

function unknownItem(fields: Record<string, unknown>): string {
  return typeof fields.type === "string" ? `"${fields.type}" is not an item type of this target` : "an item without a type";
}

// ---------------------------------------------------------------- checking

type ChatPhase = "none" | "calls" | "outputs";

/**
 * Checks items against a target, one at a time, in journal order; the findings
 * of an item are final when `check` returns. Usable alone, or as one of the
 * `checks` of a `JournalChecker`.
 */
export class TargetChecker implements ItemCheck {
  readonly target: Target;
  /** Every call seen: its line, to point an out-of-place output at it. */
  private readonly calls = new Map<string, number>();
  private previous: { kind: ItemKind; callId: unknown } | undefined;
  private phase: ChatPhase = "none";
  /** Chat: the calls of the current assistant turn still waiting for their tool message. */
  private readonly group = new Set<string>();
  /** Whether the conversation so far shows a model that reasons, with text a target could take back. */
  private thinking = false;
  /** The current assistant turn: whether reasoning leads it, and whether it has made a call yet. */
  private turn = { reasoning: false, calls: false };
  /** Who spoke last among the items the target holds (system and developer messages are "system"), and whether a user message or a tool result has come. */
  private lastTurn: "none" | "system" | "user" | "model" | "tool" = "none";
  private heard = false;
  /** Whether an item other than a system or developer message has come. */
  private begun = false;

  private readonly options: TargetOptions;

  constructor(target: Target, options: TargetOptions = {}) {
    assertTarget(target);
    this.target = target;
    this.options = options;
    if (PROFILE_TARGETS.includes(target)) profileFor(target, options);
  }

  check(journalItem: JournalItem): Finding[] {
    const fields = itemFields(journalItem.item);
    const kind = itemKind(fields);
    const findings: Finding[] = [];
    const rejection = rejectionOf(this.target, kind, fields, this.options);
    if (rejection) findings.push({ code: "target_rejects", detail: rejection, path: kind === "untyped_message" ? "/type" : "" });
    switch (this.target) {
      case "open-responses":
        if (!rejection) findings.push(...portableShapeFindings(kind, fields));
        break;
      case "openai-responses": {
        const prefix = OPENAI_ID_PREFIXES[kind];
        if (kind !== "reasoning" && prefix && typeof fields.id === "string" && fields.id !== "" && !fields.id.startsWith(prefix) && !foreignIdReason(fields, kind)) {
          findings.push({ code: "target_rejects", detail: `OpenAI expects the id of a ${kind} to begin with "${prefix}", not ${JSON.stringify(fields.id)}`, path: "/id" });
        }
        break;
      }
      case "chat-completions":
        findings.push(...this.chatOrder(kind, fields));
        break;
      case "strict":
        if (Object.hasOwn(fields, "status")) findings.push({ code: "target_rejects", detail: "strict input items carry no status", path: "/status" });
        break;
      case "adjacent":
        findings.push(...this.adjacentOrder(kind, fields));
        break;
      case "deepseek":
      case "mistral":
        findings.push(...this.chatOrder(kind, fields));
        break;
      case "anthropic":
      case "gemini":
      case "bedrock":
        break;
      default:
        return assertNever(this.target);
    }
    if (this.options.profile !== undefined) {
      findings.push(...profileFindings(this.options.profile, kind, fields), ...this.reasoningWithCalls(this.options.profile, kind, fields));
      // An item the target cannot hold is no turn of the conversation it is sent.
      if (!rejection) findings.push(...this.turnOrder(this.options.profile, kind, fields));
    }
    if (kind === "function_call" && typeof fields.call_id === "string" && !this.calls.has(fields.call_id)) this.calls.set(fields.call_id, journalItem.provenance.line);
    this.previous = { kind, callId: fields.call_id };
    return findings;
  }

  /**
   * A target that needs the reasoning back with a turn's calls (DeepSeek in
   * thinking mode) refuses a turn whose calls come without it. Thinking mode is
   * read from the conversation: once reasoning with text has been seen, every
   * later turn that makes calls needs its own. The first call of the turn carries
   * the finding, once.
   */
  private reasoningWithCalls(profile: TargetProfile, kind: ItemKind, fields: Record<string, unknown>): Finding[] {
    const rule = profile.reasoning.requiredWithCalls;
    if (rule === undefined) return [];
    switch (kind) {
      case "reasoning":
        if (hasReasoningText(fields)) {
          this.thinking = true;
          this.turn.reasoning = true;
        }
        return [];
      case "function_call": {
        const first = !this.turn.calls;
        this.turn.calls = true;
        if (!first || !this.thinking || this.turn.reasoning) return [];
        return [{ code: "target_rejects", detail: ruleDetail(profile, "an assistant turn makes tool calls without the reasoning written with them", rule), path: "" }];
      }
      case "function_call_output":
        this.turn = { reasoning: false, calls: false };
        return [];
      case "message":
      case "untyped_message":
        if (fields.role !== "assistant") this.turn = { reasoning: false, calls: false };
        return [];
      case "item_reference":
      case "compaction":
      case "extension":
      case "unknown":
        return [];
      default:
        return assertNever(kind);
    }
  }

  /**
   * What the profile's turn rules refuse: a system message once the
   * conversation has begun, a conversation that does not begin with the user,
   * a call before any user message or tool result.
   */
  private turnOrder(profile: TargetProfile, kind: ItemKind, fields: Record<string, unknown>): Finding[] {
    const rules = profile.turns;
    if (rules === undefined) return [];
    const findings: Finding[] = [];
    const speaker = speakerOf(kind, fields);
    if (speaker === undefined) return findings;
    const previous = this.lastTurn;
    this.lastTurn = speaker;
    if (speaker === "system") {
      const rule = rules.laterSystem;
      const refused = rule !== undefined && (rule.afterAnswer === true ? previous === "model" || previous === "tool" : previous !== "none" && previous !== "system");
      if (refused) findings.push({ code: "target_rejects", detail: ruleDetail(profile, `a ${String(fields.role)} message after ${previous === "user" ? "a user message" : previous === "tool" ? "a tool result" : "the model's turn"}`, rule), path: "/role" });
      return findings;
    }
    const first = !this.begun;
    this.begun = true;
    if (first && speaker !== "user" && rules.userFirst !== undefined) {
      findings.push({ code: "target_rejects", detail: ruleDetail(profile, `the conversation begins with ${speaker === "tool" ? "a tool result" : "the model's turn"}, not a user message`, rules.userFirst), path: "" });
    }
    if (kind === "function_call" && !this.heard && rules.callAfterUser !== undefined) {
      findings.push({ code: "target_rejects", detail: ruleDetail(profile, "a call made before any user message or tool result", rules.callAfterUser), path: "" });
    }
    if (speaker === "user" || speaker === "tool") this.heard = true;
    return findings;
  }

  private adjacentOrder(kind: ItemKind, fields: Record<string, unknown>): Finding[] {
    if (kind !== "function_call_output" || typeof fields.call_id !== "string") return [];
    if (this.previous?.kind === "function_call" && this.previous.callId === fields.call_id) return [];
    const callLine = this.calls.get(fields.call_id);
    if (callLine === undefined) return [];
    return [{ code: "target_order", detail: `the output does not directly follow its call (line ${callLine})`, path: "", related_line: callLine }];
  }

  /** Chat: a turn's text, then its calls, then a tool message for each, before anything else. */
  private chatOrder(kind: ItemKind, fields: Record<string, unknown>): Finding[] {
    switch (kind) {
      case "function_call":
        if (this.phase !== "calls") this.group.clear();
        this.phase = "calls";
        if (typeof fields.call_id === "string") this.group.add(fields.call_id);
        return [];
      case "function_call_output": {
        const callId = typeof fields.call_id === "string" ? fields.call_id : undefined;
        if (callId !== undefined && this.group.delete(callId)) {
          this.phase = "outputs";
          return [];
        }
        const callLine = callId === undefined ? undefined : this.calls.get(callId);
        if (callLine === undefined) return [];
        return [{ code: "target_order", detail: `the output is not among the tool messages right after its call (line ${callLine})`, path: "", related_line: callLine }];
      }
      case "message":
      case "untyped_message":
        if (this.phase === "calls" && fields.role === "assistant") {
          return [{ code: "target_order", detail: "assistant text between a turn's calls and their outputs: Chat writes a turn's text before its calls", path: "" }];
        }
        this.phase = "none";
        this.group.clear();
        return [];
      case "reasoning":
      case "item_reference":
      case "compaction":
      case "extension":
      case "unknown":
        // Rejected by the target already, or (reasoning a dialect takes) carried by
        // the assistant message after it; they do not end a turn.
        return [];
      default:
        return assertNever(kind);
    }
  }
}

/** Whose turn an item is part of, as a target's turn rules count them; none for an item that is no one's turn. */
function speakerOf(kind: ItemKind, fields: Record<string, unknown>): "system" | "user" | "model" | "tool" | undefined {
  switch (kind) {
    case "message":
    case "untyped_message":
      return fields.role === "system" || fields.role === "developer" ? "system" : fields.role === "user" ? "user" : "model";
    case "function_call":
    case "reasoning":
      return "model";
    case "function_call_output":
      return "tool";
    case "item_reference":
    case "compaction":
    case "extension":
    case "unknown":
      return undefined;
    default:
      return assertNever(kind);
  }
}

/** The fields of a portable item that break the Open Responses item schema. */
function portableShapeFindings(kind: ItemKind, fields: Record<string, unknown>): Finding[] {
  const schema = kind === "message" ? messageItemSchema : kind === "function_call" ? functionCallItemSchema : kind === "function_call_output" ? functionCallOutputItemSchema : undefined;
  if (!schema) return [];
  const parsed = schema.safeParse(fields);
  if (parsed.success) return [];
  const issue = parsed.error.issues[0];
  const path = pointer(...issue.path.map(String));
  return [{ code: "target_rejects", detail: `not a valid Open Responses ${kind}: ${path || "the item"} ${issue.message}`, path }];
}

/** Checks a whole journal against a target (`TargetChecker` streams). */
export function checkTarget(items: Iterable<JournalItem>, target: Target, options: TargetOptions = {}): Array<JournalItem & { findings: Finding[] }> {
  const checker = new TargetChecker(target, options);
  const checked: Array<JournalItem & { findings: Finding[] }> = [];
  for (const item of items) checked.push({ ...item, findings: checker.check(item) });
  return checked;
}

export function placeOf(item: JournalItem): { source?: string; line: number; index: number } {
  const { source, line, index } = item.provenance;
  return source === undefined ? { line, index } : { source, line, index };
}

export function assertNever(value: never): never {
  throw new Error(`unhandled case ${String(value)}`);
}
