// The replay gate for one item. The checks run in a fixed order and the first one
// that fails names the verdict; only `ok` lets a tool run and a
// function_call_output with the same call_id be written.
//
// | # | reason            | fails when                                              |
// |---|-------------------|---------------------------------------------------------|
// | 1 | namespaced        | `type` missing, not a string, containing ":", or a type  |
// |   |                   |   neither the spec nor the provider slugs define         |
// | 2 | not_function_call | `type` is another item type than "function_call"         |
// | 3 | status            | `status` is not exactly "completed" (missing counts)     |
// | 4 | arguments_type    | `arguments` is not a string                              |
// | 5 | arguments_parse   | the string is not RFC 8259 JSON, or names a member twice |
// |   |                   |   in one object (as written, or as a loose reader folds  |
// |   |                   |   a name the schema declares: `region`, `Region`), or    |
// |   |                   |   `parsed_arguments` beside it holds another value       |
// | 6 | arguments_schema  | the value fails the tool's JSON Schema, or the schema    |
// |   |                   |   judges numbers and one is written past what a double   |
// |   |                   |   holds (exact-arguments.ts), or it fails as a reader    |
// |   |                   |   folding case reads it (`REGION` as the `region` its    |
// |   |                   |   object declares, folded-reading.ts)                    |
// |   | unknown_tool      | in place of 6 when no schema is known for the name       |
// | 7 | ok                |                                                         |
import { apiErrorOf } from "../models/api-error-body.js";
import { describeDuplicateName, duplicateName } from "../models/duplicate-names.js";
import { describeNamesFoldedTwice, firstNamesFoldedTwice, mayFoldTwice } from "../models/names-folded-twice.js";
import { declaredArgumentNames } from "./declared-argument-names.js";
import { foldedReading, MAX_SCHEMAS_AT_A_PLACE, type FoldedReading } from "./folded-reading.js";
import { describeValue as describe, parseJsonText } from "../models/json-value.js";
import { quoteVisible } from "../models/quote-visible.js";
import { constrainsNumbers, inexactNumber, whyNotStanding } from "./exact-arguments.js";
import { isKnownBareType } from "./item-kind.js";
import { messageOf, SchemaCache, type SchemaValidator, type ToolSchema } from "./schema.js";
import { jsonEqual } from "../models/json-equal.js";
import { innerArguments } from "../models/double-encoded-arguments.js";
import { shownLiteral } from "../models/decimal-value.js";

export const GATE_REASONS = [
  "namespaced",
  "not_function_call",
  "status",
  "arguments_type",
  "arguments_parse",
  "arguments_schema",
  "unknown_tool",
  "ok",
] as const;
export type GateReason = (typeof GATE_REASONS)[number];

export interface Verdict {
  reason: GateReason;
  detail: string;
  /** JSON Pointer into the item, to the field that decided the verdict. */
  path?: string;
}

/** Whether a verdict keeps the item from being replayed. A non-call item is not blocked: it is not a call. */
export function isBlocked(verdict: Verdict): boolean {
  return verdict.reason !== "ok" && verdict.reason !== "not_function_call";
}

export interface GateOptions {
  /** The compile cache to use; one is shared by default. A cache brings its own `assertFormats`. */
  cache?: SchemaCache;
  /** Without a cache: check `format` as an assertion rather than an annotation (the 2020-12 default). */
  assertFormats?: boolean;
}

// Made on first use: a caller that brings its own cache (the journal gate does)
// never pays for a second Ajv instance at start-up.
const sharedCaches: { annotating?: SchemaCache; asserting?: SchemaCache } = {};

function sharedCache(assertFormats: boolean): SchemaCache {
  if (assertFormats) return (sharedCaches.asserting ??= new SchemaCache(undefined, { assertFormats: true }));
  return (sharedCaches.annotating ??= new SchemaCache());
}

/**
 * Decides whether `item` may be replayed as a tool call. `schema` is the JSON
 * Schema of the tool's parameters; `undefined` means no schema is known, and the
 * call is refused (`unknown_tool`). Never throws: an internal error blocks the call.
 */
export function replayGate(item: unknown, schema: ToolSchema | undefined, options: GateOptions = {}): Verdict {
  let step: GateReason = "namespaced";
  try {
    const fields = item !== null && typeof item === "object" && !Array.isArray(item) ? (item as Record<string, unknown>) : undefined;
    // Own members only: a value an item would inherit (through a prototype some reader set) is not one the record wrote.
    const own = (key: string): unknown => (fields !== undefined && Object.hasOwn(fields, key) ? fields[key] : undefined);
    const type = own("type");
    if (typeof type !== "string") {
      const apiError = fields !== undefined && type === undefined ? apiErrorOf(fields) : undefined;
      if (apiError !== undefined) return { reason: "namespaced", detail: `the record is a provider's error body (${apiError}), not an item: the request it answers got no response, and no call`, path: "/type" };
      return { reason: "namespaced", detail: fields ? (type === undefined ? "the item has no type" : `type is ${describe(type)}, not a string`) : `the record is ${describe(item)}, not an item`, path: fields ? "/type" : "" };
    }
    if (type.includes(":")) {
      return { reason: "namespaced", detail: `${quoteVisible(type, 200)} is an extension item, never a portable call`, path: "/type" };
    }
    if (!isKnownBareType(type)) {
      return { reason: "namespaced", detail: `${quoteVisible(type)} is not a type the Open Responses spec defines, nor a provider type with a slug; it is never a portable call`, path: "/type" };
    }
    step = "not_function_call";
    if (type !== "function_call") return { reason: "not_function_call", detail: `"${type}" is not a function_call`, path: "/type" };

    step = "status";
    const status = own("status");
    if (status !== "completed") {
      return { reason: "status", detail: status === undefined ? "the call has no status; only a completed call may run" : `status is ${describe(status)}; only "completed" may run`, path: "/status" };
    }

    step = "arguments_type";
    const args = own("arguments");
    if (typeof args !== "string") {
      return { reason: "arguments_type", detail: args === undefined ? "the call has no arguments" : `arguments is ${describe(args)}, not a JSON string`, path: "/arguments" };
    }

    step = "arguments_parse";
    const parsed = parseJsonText(args);
    if (!parsed.ok) return { reason: "arguments_parse", detail: `arguments is not JSON: ${parsed.message}`, path: "/arguments" };
    const value = parsed.value;
    const duplicate = duplicateName(args, value);
    if (duplicate !== undefined) return { reason: "arguments_parse", detail: describeDuplicateName("arguments", duplicate), path: "/arguments" };
    // Compiled before any other read of the schema, and every check reads what compiled:
    // a schema built in code is read once, as its JSON text (schema.ts). A compile that
    // fails is the schema step's, as it was when the schema was compiled there.
    step = "arguments_schema";
    const compiled = schema === undefined ? undefined : (options.cache ?? sharedCache(options.assertFormats === true)).compile(schema);
    step = "arguments_parse";
    const declared = declaredArgumentNames(compiled?.ok ? compiled.schema : undefined);
    const folded = declared !== undefined && mayFoldTwice(value, declared) ? firstNamesFoldedTwice(value, declared) : undefined;
    if (folded !== undefined) return { reason: "arguments_parse", detail: describeNamesFoldedTwice("arguments", folded), path: "/arguments" };
    // The OpenAI SDKs' parse helpers give a call its arguments once more, read, as
    // `parsed_arguments` (null for a tool they do not parse), and a runner built on
    // them runs that value: it must be the one judged here.
    const parsedArguments = own("parsed_arguments");
    if (parsedArguments !== undefined && parsedArguments !== null) {
      if (!jsonEqual(parsedArguments, value)) {
        return { reason: "arguments_parse", detail: "parsed_arguments holds other arguments than the arguments text: a runner that takes either runs its own", path: "/parsed_arguments" };
      }
      // Equal as doubles says nothing of a number the text writes past a double (9007199254740993).
      const inexact = inexactNumber(args);
      if (inexact !== undefined) {
        return { reason: "arguments_parse", detail: `parsed_arguments cannot be shown to hold the arguments text: arguments${inexact.path} is ${shownLiteral(inexact.literal)}, ${whyNotStanding(inexact.literal)}`, path: "/parsed_arguments" };
      }
    }

    step = "arguments_schema";
    if (compiled === undefined) {
      // Quoted with every character outside printable ASCII escaped: "get_we\u0430ther" (a Cyrillic a)
      // printed as it is reads as the tool the schemas declare, and the reader could not see why none is known.
      const name = typeof fields!.name === "string" ? quoteVisible(fields!.name, 200) : "this call";
      const namespace = own("namespace");
      if (namespace !== undefined && namespace !== null) return { reason: "unknown_tool", detail: `no schema is known for ${name} of namespace ${describe(namespace)}: a namespace's function is another tool than the function of its name`, path: "/namespace" };
      return { reason: "unknown_tool", detail: `no schema is known for ${name}`, path: "/name" };
    }
    if (!compiled.ok) return { reason: "arguments_schema", detail: compiled.error, path: "/arguments" };
    if (!compiled.validate(value)) {
      const errors = describeSchemaErrors(compiled.validate.errors);
      // Arguments encoded twice fail as a string; the detail says why, so that no one "fixes" the schema to take strings.
      if (typeof value === "string" && innerArguments(args) !== undefined) {
        return { reason: "arguments_schema", detail: `arguments are double-encoded (a JSON string holding JSON text; normalize --repair double-encoded decodes them once): ${errors}`, path: "/arguments" };
      }
      return { reason: "arguments_schema", detail: errors, path: "/arguments" };
    }
    // The schema judged doubles; only a number the double stands for was judged as written.
    const inexact = constrainsNumbers(compiled.schema) ? inexactNumber(args) : undefined;
    if (inexact !== undefined) {
      return { reason: "arguments_schema", detail: `arguments${inexact.path} is ${shownLiteral(inexact.literal)}, ${whyNotStanding(inexact.literal)}; the gate does not compare it`, path: "/arguments" };
    }
    // A tool that matches names regardless of case reads a member named otherwise as the parameter of its object it folds to: that reading must pass too.
    const folding = declared === undefined ? undefined : foldedReading(value, compiled.schema);
    if (folding !== undefined) {
      const refused = refusedFoldedReading(folding, compiled.validate);
      if (refused !== undefined) return { reason: "arguments_schema", detail: refused, path: "/arguments" };
    }
    return { reason: "ok", detail: "completed call with arguments valid for its schema" };
  } catch (error) {
    // Fail closed: whatever went wrong, the step that was running blocks the call.
    // `not_function_call` does not block, so an error while telling the type apart
    // blocks as `namespaced`: the item could not be shown to be a plain call.
    const reason = step === "not_function_call" ? "namespaced" : step;
    return { reason, detail: `the gate could not finish the ${reason} check: ${messageOf(error)}` };
  }
}

/** Why the arguments as a folding reader reads them are refused, or undefined when that reading passes the schema too. */
function refusedFoldedReading(folding: FoldedReading, validate: SchemaValidator): string | undefined {
  const reader = "a reader that matches names regardless of case or width (Go's encoding/json does)";
  if ("ambiguous" in folding) {
    const { name, path, declared } = folding.ambiguous;
    return `arguments has the member ${quoteVisible(name)} at ${quoteVisible(path, 200)}, which ${reader} may take for any of the parameters ${declared.map((spelling) => quoteVisible(spelling)).join(", ")} its object declares`;
  }
  if ("unfollowed" in folding) {
    const { name, path, declared } = folding.unfollowed;
    return `arguments has the member ${quoteVisible(name)} at ${quoteVisible(path, 200)}, which ${reader} may take for the parameter ${declared.map((spelling) => quoteVisible(spelling)).join(" or ")}; more than ${MAX_SCHEMAS_AT_A_PLACE} schemas apply where it or an object holding it sits, too many to follow to the names its object declares`;
  }
  if (validate(folding.value)) return undefined;
  const { name, path, declared } = folding.renamed;
  return `arguments has the member ${quoteVisible(name)} at ${quoteVisible(path, 200)}, which ${reader} takes for the parameter ${quoteVisible(declared[0]!)} its object declares; so read, ${describeSchemaErrors(validate.errors)}`;
}

type AjvError = { instancePath: string; message?: string; params?: Record<string, unknown> };

function describeSchemaErrors(errors: readonly AjvError[] | null | undefined): string {
  const first = errors?.[0];
  if (!first) return "arguments do not match the tool schema";
  const where = first.instancePath === "" ? "arguments" : `arguments${first.instancePath}`;
  const allowed = Array.isArray(first.params?.allowedValues) ? ` (${(first.params!.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")})` : "";
  return `${where} ${first.message ?? "is invalid"}${allowed}`;
}
