// Gates a normalized journal record by record: each item gets the single-item
// verdict (with the schema of its tool), then the journal-wide checks attach
// their findings. Any finding blocks, like a blocking verdict.
import type { InexactSchemaNumber } from "../journal/inexact-numbers.js";
import { isReadLine } from "../journal/read.js";
import { normalizeJournal, type JournalInput, type NormalizeOptions } from "../journal/normalize.js";
import type { AnswerStarts, JournalItem } from "../models/journal-item.js";
import type { Loss } from "../models/loss.js";
import { conversationGate, withConversation, type ConversationGateRecord } from "./conversation-gate.js";
import { GateHalves } from "./gate-halves.js";
import { PreparedGate, type GateRecord } from "./prepared-gate.js";
import type { SchemaCache, ToolSchema } from "./schema.js";
import { TargetChecker, type Target, type TargetOptions } from "./targets.js";
import type { EnvelopeToolsReader, ToolRegistry } from "./tool-registry.js";
import { ToolsInForce } from "./tools-in-force.js";
import { GATE_READING } from "../journal/gate-reading.js";
import { recordText } from "../journal/record-text.js";

export { PreparedGate, type GateRecord, type PreparedItem, type PreparedRecord } from "./prepared-gate.js";
export { ToolsInForce } from "./tools-in-force.js";

export interface JournalGateOptions {
  /** One schema for every call (`gate --schema`); otherwise each call's tool schema from the registry. */
  schema?: ToolSchema;
  /** The tools in force; request bodies met in the journal are added to it. */
  registry?: ToolRegistry;
  /** Reads the tools of a request body of another envelope (Anthropic, Gemini, Bedrock): the caller hands it over, since the gate imports no adapter. */
  readTools?: EnvelopeToolsReader;
  /** Also check that the target would accept each item (`gate --for`). */
  target?: Target;
  /** What the target is judged by: a provider's target needs its profile (adapters/profiles.ts), which the caller hands over. */
  targetOptions?: TargetOptions;
  /** Leave `source` out of the records (a journal read from one source). */
  omitSource?: boolean;
  /** The compile cache; a new one by default. A cache brings its own `assertFormats`. */
  cache?: SchemaCache;
  /** Check `format` as an assertion rather than an annotation (the 2020-12 default); `gate --assert-formats`. */
  assertFormats?: boolean;
}

/** How `gateJournal` tells the conversations of a journal apart. */
export interface ConversationOptions {
  /**
   * A JSON Pointer to each record's conversation key (`/conversation_id`): every
   * state that spans lines is then kept per conversation, and each record says
   * its `conversation`. Without it the whole journal is one conversation.
   */
  conversation?: string;
  /** Conversations open at once (DEFAULT_MAX_OPEN_CONVERSATIONS, 4096, by default); opening one more closes the least recently seen. */
  maxOpenConversations?: number;
}

/** One record of a normalized journal: its items and, for a request body, the body. */
export interface GateInput {
  source?: string;
  line: number;
  items: readonly JournalItem[];
  request?: Record<string, unknown>;
  /** The numbers of the request body's line that a schema judges by and a double reads as others (NormalizedRecord's `requestNumbers`). */
  requestNumbers?: readonly InexactSchemaNumber[];
  /** What the normalizer could not carry: a tool call it gave no item for blocks the line. */
  losses?: readonly Loss[];
  /** A response object's own `tool_choice` and `tools` (NormalizedRecord's `responseTools`). */
  responseTools?: Record<string, unknown>;
  /** The calls of the choices a request's replay did not continue, which wait for no output (NormalizedRecord's `callsOfOtherAnswers`). */
  callsOfOtherAnswers?: readonly string[];
  /** Where the record's answers that are alternatives to one another begin (NormalizedRecord's `answers`). */
  answers?: AnswerStarts;
}

/**
 * Gates a normalized journal record by record (both halves in one thread): the
 * library's gate. The `gate` command puts the same halves together itself
 * (GateHalves, in gate-jobs.ts), so that it loads the replay targets, and Zod
 * with them, only for `--for`.
 */
export class JournalGate extends GateHalves {
  constructor(options: JournalGateOptions = {}) {
    super(
      new ToolsInForce(options),
      new PreparedGate({ checks: options.target ? [new TargetChecker(options.target, options.targetOptions)] : [], omitSource: options.omitSource, cache: options.cache, assertFormats: options.assertFormats }),
    );
  }

  /**
   * One record whose items a caller built, judged as the JSON text a journal line
   * would hold of it (record-text.ts): a getter, a `toJSON` or an inherited member
   * cannot show the gate one item and the replayer another. A record that cannot
   * be written as JSON is an error on its line.
   */
  override push(input: GateInput): GateRecord[] {
    const written = recordText(input);
    if (!written.ok) return this.error(typeof input?.source === "string" ? input.source : undefined, typeof input?.line === "number" ? input.line : 0, written.message);
    return super.push(JSON.parse(written.text) as GateInput);
  }

  /** A record the normalizer gave, plain data already: gated as it is. */
  pushNormalized(input: GateInput): GateRecord[] {
    return super.push(input);
  }
}

/**
 * Normalizes a journal and gates every item: one `GateRecord` per item (or per
 * line that gave none), in journal order, with the journal-wide findings.
 * `record.blocked` is the answer: replay only what is not blocked. With
 * `conversation`, each conversation is gated as if it were alone in the journal.
 */
export async function* gateJournal(input: JournalInput, options: JournalGateOptions & NormalizeOptions & ConversationOptions = {}): AsyncGenerator<ConversationGateRecord> {
  const conversation = options.conversation;
  if (conversation !== undefined) {
    yield* gateConversations(input, { ...options, conversation });
    return;
  }
  const gate = new JournalGate(options);
  for await (const record of normalizeJournal(input, { ...options, ...GATE_READING })) {
    if (record.kind === "error") yield* gate.error(record.source, record.line, record.detail);
    else yield* gate.pushNormalized({ source: record.source, line: record.line, items: record.items, request: record.request, requestNumbers: record.requestNumbers, losses: record.losses, responseTools: record.responseTools, callsOfOtherAnswers: record.callsOfOtherAnswers, answers: record.answers });
  }
  yield* gate.finish();
}

async function* gateConversations(input: JournalInput, options: JournalGateOptions & NormalizeOptions & ConversationOptions & { conversation: string }): AsyncGenerator<ConversationGateRecord> {
  const target = options.target;
  const router = conversationGate(
    {
      ...options,
      checks: target === undefined ? undefined : () => [new TargetChecker(target, options.targetOptions)],
      normalize: { origin: options.origin },
    },
    withConversation,
  );
  // Numbered as normalizeJournal numbers them: strings are lines of stdin, other values records.
  let line = 0;
  for await (const entry of input as AsyncIterable<unknown>) {
    line += 1;
    if (typeof entry === "string") yield* router.pushLine({ source: "-", line, text: entry });
    else if (isReadLine(entry)) yield* router.pushLine(entry);
    else yield* router.pushRecord(entry, { line });
  }
  yield* router.finish();
}
