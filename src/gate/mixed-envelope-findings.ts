// The mixed_envelope finding of the journal checks (journal-checks.ts): an item
// that holds a Chat structure, or another envelope's tool call or result, is
// written partly in another envelope, and what it holds there is never gated.
import type { Finding } from "../models/finding.js";
import { pointer } from "../models/json-pointer.js";
import { callPartMember, itemFields } from "./item-kind.js";

/** Chat fields that have no place in an item. */
const CHAT_FIELDS = ["tool_calls", "tool_call_id", "function_call"] as const;
const CHAT_ROLES = new Set(["tool", "function"]);
const CHAT_PART_TYPES = new Set(["image_url", "input_audio", "file"]);
/**
 * Content parts that are another envelope's tool call or result (Anthropic's
 * blocks by type, Gemini's and Bedrock's by member): inside an item they are
 * never gated as calls, so an item that holds one is blocked.
 */
const CALL_PART_TYPES = new Set(["tool_use", "server_tool_use", "mcp_tool_use", "tool_result", "function_call", "function_call_output", "tool_call"]);

/** Adds to `findings` what marks the item as written partly in another envelope; pushed in place, as nearly every item has none. */
export function addMixedEnvelopeFindings(fields: Record<string, unknown>, findings: Finding[]): void {
  for (const field of CHAT_FIELDS) {
    if (fields[field] !== undefined && Object.hasOwn(fields, field)) {
      findings.push({ code: "mixed_envelope", detail: `"${field}" is a Chat Completions field, not part of an item`, path: pointer(field) });
    }
  }
  if (fields.function !== null && typeof fields.function === "object" && Object.hasOwn(fields, "function")) {
    findings.push({ code: "mixed_envelope", detail: `a "function" object is the Chat form of a tool call, not an item`, path: "/function" });
  }
  if (typeof fields.role === "string" && CHAT_ROLES.has(fields.role)) {
    findings.push({ code: "mixed_envelope", detail: `the role "${fields.role}" is a Chat Completions role; an output is a function_call_output item`, path: "/role" });
  }
  // Gemini writes its parts in `parts`: a call hidden there is as hidden as in `content`.
  const parts = fields.parts;
  if (Array.isArray(parts)) {
    for (let index = 0; index < parts.length; index++) {
      const member = callPartMember(itemFields(parts[index]));
      if (member !== undefined) findings.push({ code: "mixed_envelope", detail: `a part with "${member}" is a tool call or result of another envelope inside the item: it is never gated as a call`, path: pointer("parts", index, member) });
    }
  }
  const content = fields.content;
  if (Array.isArray(content)) {
    for (let index = 0; index < content.length; index++) {
      const part = itemFields(content[index]);
      const type = part.type;
      if (typeof type === "string" && CHAT_PART_TYPES.has(type)) {
        findings.push({ code: "mixed_envelope", detail: `a "${type}" part is a Chat Completions content part`, path: pointer("content", index, "type") });
      } else if (typeof type === "string" && CALL_PART_TYPES.has(type)) {
        findings.push({ code: "mixed_envelope", detail: `a "${type}" part is a tool call or result of another envelope inside the item: it is never gated as a call`, path: pointer("content", index, "type") });
      } else {
        const member = callPartMember(part);
        if (member !== undefined) findings.push({ code: "mixed_envelope", detail: `a part with "${member}" is a tool call or result of another envelope inside the item: it is never gated as a call`, path: pointer("content", index, member) });
      }
    }
  }
}
