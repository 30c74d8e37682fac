// What a target's profile (src/models/target-profile.ts) refuses in one item, as
// findings. The profile is handed in by whoever runs the gate; this file reads
// it and imports no adapter.
//
// | item                                   | refused when                                                  |
// |----------------------------------------|---------------------------------------------------------------|
// | function_call, function_call_output    | its call_id does not match the profile's id grammar           |
// | reasoning with encrypted_content       | the payload's family (provenance.envelope; none: OpenAI's, whose field |
// |                                        |   it is) is not the one the target takes back                 |
// | reasoning with text only               | the target refuses reasoning, or has no place for it          |
// | message                                | empty content, or an empty text part, where the target refuses it |
// | function_call_output                   | a part other than text, where the target's tool results hold text only |
// | message                                | an image, file, audio or video part, where the target takes none |
// | an extension item                      | its slug is not the target's                                  |
// | item_reference, compaction             | always: only OpenAI reads them                                |
import type { Finding } from "../models/finding.js";
import type { TargetProfile, TargetRule } from "../models/target-profile.js";
import type { ItemKind } from "./item-kind.js";

/** The finding detail for a broken rule: why, the rule, and the provider's own words when known. */
export function ruleDetail(profile: TargetProfile, why: string, rule: TargetRule): string {
  return `${why}: ${rule.rule}${rule.error === undefined ? "" : `; ${profile.name} answers ${JSON.stringify(rule.error)}`}`;
}

/** Whose opaque reasoning an item carries: its provenance's envelope, or OpenAI's for a bare encrypted_content. */
export function reasoningFamily(fields: Record<string, unknown>): string | undefined {
  if (typeof fields.encrypted_content !== "string" || fields.encrypted_content === "") return undefined;
  const provenance = fields.provenance;
  if (provenance !== null && typeof provenance === "object" && typeof (provenance as { envelope?: unknown }).envelope === "string") return (provenance as { envelope: string }).envelope;
  return "openai";
}

/** Why a target of this profile cannot hold an item of this kind, or `undefined`. */
export function profileRejection(profile: TargetProfile, kind: ItemKind, fields: Record<string, unknown>): string | undefined {
  switch (kind) {
    case "message":
    case "untyped_message":
    case "function_call":
    case "function_call_output":
      return undefined;
    case "reasoning":
      return reasoningRejection(profile, fields);
    case "item_reference":
    case "compaction":
      return `an item of type "${kind}" has no ${profile.name} form: only OpenAI reads it`;
    case "extension": {
      const type = String(fields.type);
      return profile.slug !== undefined && type.startsWith(`${profile.slug}:`) ? undefined : `"${type}" is another provider's extension item, which ${profile.name} does not run`;
    }
    case "unknown":
      return typeof fields.type === "string" ? `"${fields.type}" is not an item type of this target` : "an item without a type";
    default: {
      const unknownKind: never = kind;
      return `an item of kind ${String(unknownKind)} is not known`;
    }
  }
}

function reasoningRejection(profile: TargetProfile, fields: Record<string, unknown>): string | undefined {
  const family = reasoningFamily(fields);
  const { reasoning } = profile;
  if (family !== undefined) {
    if (family === reasoning.family) return undefined;
    return ruleDetail(profile, `the reasoning carries ${family}'s opaque payload`, reasoning.foreign);
  }
  switch (reasoning.text) {
    case "read":
      return hasText(fields) ? undefined : `a reasoning item with no text and no payload: ${profile.name} has nothing to read`;
    case "dropped":
      return `a reasoning item has no ${profile.name} form`;
    case "refused":
      return ruleDetail(profile, "a reasoning item without the target's own payload", reasoning.refused ?? reasoning.foreign);
    default: {
      const unknownText: never = reasoning.text;
      return `reasoning text ${String(unknownText)} is not known`;
    }
  }
}

/** Whether a reasoning item carries text: a non-empty text part in its summary or content. */
export function hasText(fields: Record<string, unknown>): boolean {
  const texts = (parts: unknown) => Array.isArray(parts) && parts.some((part) => part !== null && typeof part === "object" && typeof (part as { text?: unknown }).text === "string" && (part as { text: string }).text !== "");
  return texts(fields.summary) || texts(fields.content);
}

/** A profile's grammars, each compiled once: the checks ask them of every call and output of a journal. */
const grammars = new Map<string, RegExp>();

function matches(pattern: string, value: string): boolean {
  let grammar = grammars.get(pattern);
  if (grammar === undefined) grammars.set(pattern, (grammar = new RegExp(pattern, "u")));
  return grammar.test(value);
}

/** The fields of an item a profile's rules refuse: call ids, tool names, empty text, images in tool results. */
export function profileFindings(profile: TargetProfile, kind: ItemKind, fields: Record<string, unknown>): Finding[] {
  const findings: Finding[] = [];
  if ((kind === "function_call" || kind === "function_call_output") && typeof fields.call_id === "string" && profile.callIds?.pattern !== undefined && !matches(profile.callIds.pattern, fields.call_id)) {
    findings.push({ code: "target_rejects", detail: ruleDetail(profile, `call_id ${JSON.stringify(fields.call_id)} does not match ${profile.callIds.pattern}`, profile.callIds), path: "/call_id" });
  }
  if (kind === "function_call" && typeof fields.name === "string" && profile.toolNames !== undefined && !matches(profile.toolNames.pattern, fields.name)) {
    findings.push({ code: "target_rejects", detail: ruleDetail(profile, `the tool name ${JSON.stringify(fields.name)} does not match ${profile.toolNames.pattern}`, profile.toolNames), path: "/name" });
  }
  if ((kind === "message" || kind === "untyped_message") && !profile.content.emptyText.accepted) {
    const blank = profile.content.emptyText.blank === true;
    for (const path of emptyTexts(fields.content, blank)) findings.push({ code: "target_rejects", detail: ruleDetail(profile, blank ? "empty or blank text" : "empty text", profile.content.emptyText), path });
  }
  if ((kind === "message" || kind === "untyped_message") && profile.content.media?.accepted === false && Array.isArray(fields.content)) {
    const rule = profile.content.media;
    fields.content.forEach((part: unknown, index) => {
      const type = partType(part);
      if (type !== undefined && MEDIA_PARTS.has(type)) findings.push({ code: "target_rejects", detail: ruleDetail(profile, `${describePart(type)} in a message`, rule), path: `/content/${index}` });
    });
  }
  if (kind === "function_call_output" && !profile.content.toolResultParts.accepted && Array.isArray(fields.output)) {
    const rule = profile.content.toolResultParts;
    fields.output.forEach((part: unknown, index) => {
      const type = partType(part);
      if (type === "input_text") return;
      const error = type === undefined ? undefined : rule.errors?.[type];
      findings.push({ code: "target_rejects", detail: ruleDetail(profile, `${describePart(type)} in a tool result`, { ...rule, error }), path: `/output/${index}` });
    });
  }
  return findings;
}

/** The parts a tool result that holds text alone hands to a user message, where the target takes them. */
export const MEDIA_PARTS: ReadonlySet<string> = new Set(["input_image", "input_file", "input_audio", "input_video"]);

/** The `type` of a content part, if it has one. */
export function partType(part: unknown): string | undefined {
  if (part === null || typeof part !== "object") return undefined;
  const type = (part as { type?: unknown }).type;
  return typeof type === "string" ? type : undefined;
}

/** A content part's kind, in words: "an image", "a file", or its type quoted. */
export function describePart(type: string | undefined): string {
  switch (type) {
    case "input_image":
      return "an image";
    case "input_file":
      return "a file";
    case "input_audio":
      return "an audio clip";
    case "input_video":
      return "a video";
    case undefined:
      return "a part without a type";
    default:
      return `a part of type ${JSON.stringify(type)}`;
  }
}

/**
 * Where a message's content is empty text: the whole content, or each empty text
 * part; with `blank`, text of white space alone too. White space is every
 * character JavaScript's `\s` or Python's `str.isspace` takes for it, so that a
 * provider's check in either language finds no blank text this one passes.
 */
export function emptyTexts(content: unknown, blank = false): string[] {
  const isEmpty = (text: unknown) => text === "" || (blank && typeof text === "string" && BLANK.test(text));
  if (isEmpty(content)) return ["/content"];
  if (!Array.isArray(content)) return [];
  if (content.length === 0) return ["/content"];
  return content.flatMap((part: unknown, index) => (part !== null && typeof part === "object" && isEmpty((part as { text?: unknown }).text) ? [`/content/${index}/text`] : []));
}

const BLANK = /^[\s\x1c-\x1f\x85]+$/u;
