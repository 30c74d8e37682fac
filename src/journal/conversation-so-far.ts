// The conversation so far, as the meaning of each of its items, so that the
// normalizer can tell when a request replays it (logged exchanges send the whole
// history each time) and emit only what is new. Memory stays bounded: past a
// size the conversation is no longer followed, and a request that replays it is
// then emitted whole rather than guessed at.
//
// | field of an item       | a replayed item matches when                                  |
// |------------------------|---------------------------------------------------------------|
// | `id`, `status`,        | it leaves the field out (or, `id` and `status`, writes it     |
// | `parsed_arguments`     |   null), or has the same value                                |
// | `arguments` (a string) | it is the same JSON value (members in any order, any spacing), |
// |                        |   or, when either is not JSON or names a member twice, the    |
// |                        |   same string                                                 |
// | `gemini:thoughtSignature` | it holds the same bytes, in base64 or base64url, under     |
// |   (on the item or a part) |   this name or, spelled snake, `gemini:thought_signature`  |
// | `gemini:spelling`      | "snake" is the same as no field                               |
// | a Gemini signature of  | the same as no field                                          |
// |   the placeholder bytes |                                                              |
// | `anthropic:caller`,    | it leaves the field out, or has the same value                |
// |   a reasoning item's   |                                                               |
// |   `provenance.model`   |                                                               |
// | `bedrock:type`         | "tool_use" is the same as no field                            |
// | `gemini:candidate`     | any value is the same as no field: a replay goes on from one  |
// |                        |   candidate of a response, and says not which                 |
// | a reasoning item's     | null is the same as no field                                  |
// |   `encrypted_content`  |                                                               |
// | a reasoning item's     | null or [] is the same as no field                            |
// |   `content`            |                                                               |
// | `anthropic:cache_control`, | it leaves the field out, or writes it null or with       |
// |   `bedrock:cachePoint` | another value                                                 |
// |   (on the item or a part, |                                                            |
// |   an output's too)     |                                                               |
// | a message's `content`  | one text part with nothing but its text (and, output, its     |
// |                        |   empty annotations) is the same as the string it holds        |
// | `anthropic:citations`  | null is the same as no field                                  |
// |   (on a part)          |                                                               |
// | a member of an extension | null is the same as no member, at any depth                 |
// |   item (`openai:…`)    |                                                               |
// | every other field      | it has the same value: the same fields, nested at any depth,  |
// |                        |   whatever their order                                        |
//
// Recordings replay output items as input items that drop `status` (pydantic-ai)
// or both `id` and `status`, or write `status: null` (pydantic-ai: the spec
// makes both nullable on input items, where null says what leaving the field
// out says), and Python SDKs write the arguments again with
// their own spacing, and a Gemini signature in the URL-safe base64 alphabet
// (google-genai writes the bytes it read that way); a call the SDKs' parse helpers gave `parsed_arguments` goes
// back without them, since the API takes none; nothing else is dropped or
// rewritten in a faithful replay. Two more are the response's word on a turn,
// which a request does not say again: Anthropic's `caller` on a tool_use block
// (pydantic-ai sends the block back without it), and the model that wrote a
// thinking block, which a response names and a request, naming only the model
// asked, cannot (anthropic/request-to-body.ts). Bedrock's Converse may write
// `"type":"tool_use"` in a toolUse block of its response, a value its requests
// do not list (only `server_tool_use`): pydantic-ai sends the block back without
// it, and a toolUse with no type is that same client tool call. pydantic-ai
// sends a reasoning item back to DeepSeek's Responses API with
// `"encrypted_content": null` where the response had none: the spec makes it
// nullable on an input reasoning item, where null says what leaving it out says.
// An OpenAI response writes a reasoning item's `"content": []`, which an input
// reasoning item may not hold (the spec allows it only null): pydantic-ai sends
// the item back without it, and an empty list holds no more than no field.
// A cache breakpoint (Anthropic's `cache_control`, Bedrock's `cachePoint`) marks
// where the request that sends it may be cached, not what was said: Anthropic
// asks a multi-turn caller to put it on the last block of each request, so a
// block that carried it is sent again without it (mirascope writes it null).
// A text block of a response sent back as the Anthropic Python SDK's model of it
// dumps it (mirascope) has `"citations": null` where the response wrote no
// field: null holds no citation.
// The OpenAI Python SDK's model of an extension item dumps a field its response
// left out as null (a web_search_call's `action.sources`, mirascope sends it
// back so); such an item is blocked as namespaced whatever it holds, and its
// null members say no more than its absent ones.
// A call, or an output, that the conversation knows by a call_id its reader
// synthesized (Gemini's `gemini_call_…`: the call came without id) may come back
// under a call_id of the client's own (pydantic-ai writes `pyd_ai_…` in
// `functionCall.id` and `functionResponse.id`), as long as the same client id
// stands for the same synthesized one throughout, and everything else is the
// same: the same name, the same arguments, at the same place. The conversation
// keeps each such client id with the call_id it stands for (`knownCallId`), so
// that an output written under it answers the call the gate knew first.
// The system and developer messages a request leads with are its instructions,
// which the caller may change from one request to the next without starting
// another conversation: the OpenAI Agents SDK hands a conversation off to
// another agent by sending the same history under that agent's instructions.
// A request whose leading instructions differ from the conversation's, and
// whose items after them replay the conversation's after its own, replays the
// conversation; replacedInstructions tells the caller how many leading items
// are those new instructions, which are no turn of it, and so no item. A later
// request that repeats them repeats no item either: it is told the same.
// A chat.completion asked for several answers (n > 1) holds one choice each,
// of which the application takes one and sends the conversation on with it: its
// choices are kept as a group of answers, and a request replays the group when
// it replays one of them, the one that replays the most of what it sends
// (`extend` with where each begins, `extendAnswer` for a stream's later choice).
// The calls of the others are owed no output (callsOfOtherAnswers). A request
// that mixes the items of two answers replays neither.
// An item that differs in anything else is new, and is emitted for the gate to
// judge: an item taken for a repeat is never judged.
import type { CanonicalItem } from "../models/open-responses.js";
import { isPlainObject, setOwn } from "../models/json-value.js";
import { jsonTextMeaning, jsonValueMeaning } from "../models/json-meaning.js";

const MAX_CONVERSATION_ITEMS = 10_000;
const MAX_CONVERSATION_CHARS = 16 * 1024 * 1024;
const NO_CALLS: readonly string[] = [];

/**
 * An item as the conversation remembers it. Most items are never compared (a
 * request that replays nothing differs at its first item, and the next request
 * restarts the conversation), so an item is written only when a replay is
 * compared with it. The normalizer's items are objects of its own, which no
 * reader changes, so the item written then is the item seen.
 */
interface SeenItem {
  /** The item, until it is written. */
  item?: unknown;
  /**
   * The item as JSON.stringify writes it: a replay written the same is the same
   * item, with no more work. Undefined until written, and for an item too deep
   * to write, which no replay matches.
   */
  text?: string;
  written: boolean;
  /** A system or developer message: instructions, which a request may give otherwise. */
  instructions: boolean;
  /** An answer of the model with nothing in it (isEmptyAnswer), which a request may leave out. */
  emptyAnswer: boolean;
  /**
   * False when the text holds a number a lossless parser kept exactly: such a
   * number is an object that JSON.stringify writes as it writes a plain object
   * with the same fields, so the same text does not prove the same item.
   */
  textTells: boolean;
  /** Its meaning, worked out the first time a replay is not written the same. */
  meaning?: ItemMeaning;
}

interface ItemMeaning {
  /** Every field but those a replay may leave out (`id`, `status`, `parsed_arguments`, `anthropic:caller`, `provenance.model`), canonically written. */
  body: string;
  id?: string;
  status?: string;
  parsedArguments?: string;
  caller?: string;
  model?: string;
}

export class ConversationSoFar {
  private seen: SeenItem[] = [];
  /**
   * Each call_id of the client's own that a replay wrote for a call the
   * conversation knew by a synthesized one, with that one. It outlives the
   * restart a request makes, as the request's items, under the client's ids, are
   * the conversation then; a request that replays nothing starts it again.
   */
  private readonly clientCallIds = new Map<string, string>();
  /** Characters held in `seen`, counted in the strings of each item, as its text would hold them. */
  private size = 0;
  /** How many of the items in `seen` are empty answers: a request shorter than the others by more replays nothing. */
  private emptyAnswers = 0;
  /** Set once the conversation outgrew the limits: nothing is recognised as repeated until it restarts. */
  private lost = false;
  /**
   * The texts repeatedPrefix wrote of a request's leading items. The normalizer
   * hands the same items, unchanged, to extend right after, and writing a long
   * history twice per request would be most of this class's cost.
   */
  private written: { items: readonly CanonicalItem[]; texts: Array<string | undefined> } | undefined;
  /**
   * How many leading items of the last request repeatedPrefix was given are
   * instructions that take the place of those the conversation's items began
   * with: counted in what it returned, though no item it emitted holds them
   * (they differ from the conversation's, or repeat some that did).
   */
  replacedInstructions = 0;
  /** The instructions the conversation begins with are some a request replaced, which no item holds. */
  private instructionsUnsaid = false;
  /** The answers of `seen` that are alternatives to one another (the choices of one chat.completion), in the order given. */
  private answerGroups: AnswerGroup[] = [];
  /**
   * Where the items the last `extend` or `extendAnswer` gave begin and end in
   * `seen` (-1: none since the conversation began): a streamed completion gives
   * each later choice apart, after its first. Two numbers, not an object: extend
   * runs for every record.
   */
  private lastExtendedFrom = -1;
  private lastExtendedEnd = -1;
  /** The answers the last reading of a request took, one for each group it went through, as indices into its `ends`. */
  private answersTaken: Array<{ group: AnswerGroup; answer: number }> = [];
  /**
   * The call_ids of the answers the last request given to repeatedPrefix did
   * not continue: the other choices of a completion it replays one choice of.
   * The conversation goes on from the one it replays, so no output is owed to
   * the others' calls. Empty unless that request replays the conversation.
   */
  callsOfOtherAnswers: readonly string[] = NO_CALLS;

  /** `synthesizedCallId`: whether a call_id is one a reader made for a call that came without any. */
  constructor(private readonly synthesizedCallId: (callId: string) => boolean = () => false) {}

  /**
   * How many leading items of a request repeat the conversation so far. An empty
   * assistant message the conversation did not have may stand among them, as some
   * SDKs put one before the calls they replay (pydantic-ai, llm): it holds
   * nothing, and is taken with the repeats, where it made the whole history new.
   * The other way round, an answer of empty text the conversation had may be
   * left out (isEmptyAnswer).
   */
  repeatedPrefix(requestItemCount: number, items: readonly CanonicalItem[]): number {
    const unsaid = this.instructionsUnsaid;
    this.instructionsUnsaid = false;
    this.callsOfOtherAnswers = NO_CALLS;
    const renamed = new Map<string, string>();
    let repeated = this.matchedPrefix(requestItemCount, items, unsaid, renamed);
    if (renamed.size > 0 && !this.renamesHold(renamed, items, repeated)) {
      renamed.clear();
      repeated = this.matchedPrefix(requestItemCount, items, unsaid, undefined);
    }
    if (repeated === 0) this.clientCallIds.clear();
    else {
      for (const [clientId, known] of renamed) this.clientCallIds.set(clientId, known);
      // The reading that gave `repeated` was the last one made: its answers are the ones taken.
      if (this.answersTaken.length > 0) this.callsOfOtherAnswers = this.callsNotTaken();
    }
    return repeated;
  }

  /** The call_ids of the answers not taken in each group the last reading went through, but those the taken answer has too. */
  private callsNotTaken(): string[] {
    const calls: string[] = [];
    for (const { group, answer } of this.answersTaken) {
      const taken = new Set<unknown>();
      for (let i = answerFrom(group, answer); i < group.ends[answer]!; i++) taken.add(callIdOf(this.seen[i]!));
      for (let other = 0; other < group.ends.length; other++) {
        if (other === answer) continue;
        for (let i = answerFrom(group, other); i < group.ends[other]!; i++) {
          const item = itemOf(this.seen[i]!);
          if (isPlainObject(item) && item.type === "function_call" && typeof item.call_id === "string" && !taken.has(item.call_id)) calls.push(item.call_id);
        }
      }
    }
    return calls;
  }

  /** The call_id the conversation first knew a call by, when a replay gave it `callId` of the client's own. */
  knownCallId(callId: string): string | undefined {
    return this.clientCallIds.get(callId);
  }

  /**
   * Whether each client id a replay was read under names that call alone: no
   * item the conversation holds has it as its own call_id (a call the model gave
   * that id, which the gate judged as it is), unless an earlier replay already
   * wrote it for the same call; and no new item of the request but an output
   * has it. Otherwise an output written under it could answer either call, and
   * the request is read as its ids say, as if no rename were allowed.
   */
  private renamesHold(renamed: ReadonlyMap<string, string>, items: readonly CanonicalItem[], repeated: number): boolean {
    for (const [clientId, known] of renamed) {
      if (this.clientCallIds.get(clientId) !== known && this.seen.some((seen) => callIdOf(seen) === clientId)) return false;
    }
    for (let i = repeated; i < items.length; i++) {
      const item: unknown = items[i];
      if (isPlainObject(item) && typeof item.call_id === "string" && renamed.has(item.call_id) && item.type !== "function_call_output") return false;
    }
    return true;
  }

  /**
   * The client id a call_id stands for stands no more once an item other than an
   * output answering that call is given under it (a call the model gave that
   * id, in a response or a loose line): from then on the id is that item's.
   */
  forgetClientCallId(callId: unknown): void {
    if (typeof callId === "string") this.clientCallIds.delete(callId);
  }

  /** Whether any client id stands for a synthesized one. */
  get holdsClientCallIds(): boolean {
    return this.clientCallIds.size > 0;
  }

  /**
   * `unsaid`: the conversation begins with instructions a request replaced.
   * `renamed`: where the client ids a replay is read under are gathered, or
   * undefined when none may be.
   */
  private matchedPrefix(requestItemCount: number, items: readonly CanonicalItem[], unsaid: boolean, renamed: Map<string, string> | undefined): number {
    const count = requestItemCount > 0 ? requestItemCount : items.length;
    this.written = undefined;
    this.replacedInstructions = 0;
    // More items seen than the request holds may still be replayed, when the ones it leaves out are empty answers.
    if (this.lost || this.seen.length === 0) return 0;
    const texts: Array<string | undefined> = [];
    this.written = { items, texts };
    let requestLead = 0;
    while (requestLead < count && isInstructions(items[requestLead])) requestLead++;
    // Each reading gathers its own renames: those of one that failed name nothing.
    const whole = renamed === undefined ? undefined : new Map<string, string>();
    const repeated = this.replayedFrom(0, 0, count, items, texts, whole);
    if (repeated > 0) {
      for (const [clientId, known] of whole ?? []) renamed!.set(clientId, known);
      // Instructions that repeat ones no item holds are no more said than those.
      if (unsaid) this.replaceInstructions(requestLead);
      return repeated;
    }
    const seenLead = this.leadingInstructions();
    if ((seenLead === 0 && requestLead === 0) || seenLead === this.seen.length) return 0;
    // Instructions the request gives as the conversation gave them put the second reading where the first one went, to the same end.
    if (seenLead === requestLead && this.sameInstructions(seenLead, items, texts)) return 0;
    // The texts of the instructions too, which extend keeps with the others.
    for (let next = 0; next < requestLead; next++) texts[next] ??= textOf(items[next]);
    const replayed = this.replayedFrom(seenLead, requestLead, count, items, texts, renamed);
    if (replayed > 0) this.replaceInstructions(requestLead);
    return replayed;
  }

  private replaceInstructions(count: number): void {
    this.replacedInstructions = count;
    this.instructionsUnsaid = count > 0;
  }

  /**
   * The end of the items from `next` on that replay the conversation from `from`
   * on; 0 when they do not. An empty assistant message the conversation did not
   * have may stand among them, and an answer of empty text it had may be left
   * out (isEmptyAnswer).
   */
  private replayedFrom(from: number, next: number, count: number, items: readonly CanonicalItem[], texts: Array<string | undefined>, renamed: Map<string, string> | undefined): number {
    if (this.answersTaken.length > 0) this.answersTaken = [];
    // Fewer items than the conversation's from `from`, leaving out all its empty answers and the answers no request can take together, cannot replay them.
    if (this.seen.length - from - this.emptyAnswers - this.answersLeftOut(from) > count - next) return 0;
    let i = from;
    for (const group of this.answerGroups) {
      if (group.from < from) continue;
      next = this.replayedRange(i, group.from, next, count, items, texts, renamed);
      if (next < 0) return 0;
      // A request continues one answer of the group: the one that replays the most of what it sends.
      let taken: { answer: number; next: number; renamed: Map<string, string> | undefined } | undefined;
      for (let answer = 0; answer < group.ends.length; answer++) {
        const own = renamed === undefined ? undefined : new Map(renamed);
        const reached = this.replayedRange(answerFrom(group, answer), group.ends[answer]!, next, count, items, texts, own);
        if (reached >= 0 && (taken === undefined || reached > taken.next)) taken = { answer, next: reached, renamed: own };
      }
      if (taken === undefined) return 0;
      if (renamed !== undefined) for (const [clientId, known] of taken.renamed!) renamed.set(clientId, known);
      this.answersTaken.push({ group, answer: taken.answer });
      next = taken.next;
      i = group.ends[group.ends.length - 1]!;
    }
    next = this.replayedRange(i, this.seen.length, next, count, items, texts, renamed);
    return next < 0 ? 0 : next;
  }

  /**
   * Where the items from `next` on end that replay `seen` from `from` to `end`;
   * -1 when they do not. An empty assistant message the conversation did not
   * have may stand among them, and an answer of empty text it had may be left
   * out (isEmptyAnswer).
   */
  private replayedRange(from: number, end: number, next: number, count: number, items: readonly CanonicalItem[], texts: Array<string | undefined>, renamed: Map<string, string> | undefined): number {
    for (let i = from; i < end; ) {
      const seen = write(this.seen[i]!);
      if (next < count) {
        const text = (texts[next] ??= textOf(items[next]));
        if (replays(items[next], text, seen) || (renamed !== undefined && this.replaysUnderClientId(items[next], seen, renamed))) {
          i++;
          next++;
          continue;
        }
        if (isEmptyAssistantMessage(items[next])) {
          next++;
          continue;
        }
      }
      if (!seen.emptyAnswer) return -1;
      i++;
    }
    return next;
  }

  /** How many items of the groups from `from` on no request replays: all but the shortest answer of each. */
  private answersLeftOut(from: number): number {
    let left = 0;
    for (const group of this.answerGroups) {
      if (group.from < from) continue;
      let shortest = Infinity;
      for (let answer = 0; answer < group.ends.length; answer++) shortest = Math.min(shortest, group.ends[answer]! - answerFrom(group, answer));
      left += group.ends[group.ends.length - 1]! - group.from - shortest;
    }
    return left;
  }

  /** Whether the request's first `lead` items replay the conversation's, its instructions (their texts written by the first reading). */
  private sameInstructions(lead: number, items: readonly CanonicalItem[], texts: Array<string | undefined>): boolean {
    for (let i = 0; i < lead; i++) if (!replays(items[i], (texts[i] ??= textOf(items[i])), write(this.seen[i]!))) return false;
    return true;
  }

  /** How many system or developer messages the conversation begins with. */
  private leadingInstructions(): number {
    let lead = 0;
    while (lead < this.seen.length && this.seen[lead]!.instructions) lead++;
    return lead;
  }

  /**
   * Whether `item` replays `seen` but for its call_id: one of the client's own
   * where `seen` has one its reader synthesized. One client id stands for one
   * synthesized id, and the other way round, in `renamed` and in what earlier
   * requests gave: a client id written for two calls is no replay of either.
   */
  private replaysUnderClientId(item: unknown, seen: SeenItem, renamed: Map<string, string>): boolean {
    if (!isPlainObject(item) || typeof item.call_id !== "string" || this.synthesizedCallId(item.call_id) || seen.text === undefined) return false;
    const clientId = item.call_id;
    const known = (JSON.parse(seen.text) as Record<string, unknown>).call_id;
    if (typeof known !== "string" || known === clientId || !this.synthesizedCallId(known)) return false;
    const standsFor = renamed.get(clientId) ?? this.clientCallIds.get(clientId);
    if (standsFor !== undefined && standsFor !== known) return false;
    for (const names of [renamed, this.clientCallIds]) for (const [otherClientId, other] of names) if (other === known && otherClientId !== clientId) return false;
    const asKnown = { ...item, call_id: known };
    if (!replays(asKnown, textOf(asKnown), seen)) return false;
    renamed.set(clientId, known);
    return true;
  }

  /**
   * Items that continue the conversation. `answers`: where each answer of a
   * record that gives several begins among `items` (the choices of a
   * chat.completion, after the items of its request in an exchange), the last
   * running to the end; a request continues one of them.
   */
  extend(items: readonly CanonicalItem[], answers?: readonly number[]): void {
    const from = this.seen.length;
    this.append(items);
    if (this.lost) return;
    const several = answers !== undefined && answers.length > 1;
    this.lastExtendedFrom = several ? from + answers[0]! : from;
    this.lastExtendedEnd = this.seen.length;
    if (several) this.answerGroups.push({ from: from + answers[0]!, ends: [...answers.slice(1).map((start) => from + start), this.seen.length] });
  }

  /**
   * The items of another answer to the request that the items the last
   * `extend` or `extendAnswer` gave answer: a later choice of a streamed
   * completion, which the stream gives apart from its first.
   */
  extendAnswer(items: readonly CanonicalItem[]): void {
    const before = this.seen.length;
    const answered = this.lastExtendedEnd === before ? this.lastExtendedFrom : -1;
    this.append(items);
    if (this.lost) return;
    this.lastExtendedFrom = answered >= 0 ? answered : before;
    this.lastExtendedEnd = this.seen.length;
    // Where what it answers is not known, the items are followed as any that continue the conversation.
    if (answered < 0) return;
    const group = this.answerGroups[this.answerGroups.length - 1];
    if (group !== undefined && group.from === answered && group.ends[group.ends.length - 1] === before) group.ends.push(this.seen.length);
    else this.answerGroups.push({ from: answered, ends: [before, this.seen.length] });
  }

  private append(items: readonly CanonicalItem[]): void {
    const written = this.written?.items === items ? this.written.texts : [];
    this.written = undefined;
    if (this.lost) return;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const seen = i < written.length ? seenAs(item, written[i]) : { item, written: false, textTells: true, instructions: isInstructions(item), emptyAnswer: isEmptyAnswer(item) };
      this.seen.push(seen);
      this.size += i < written.length ? (written[i]?.length ?? 1) : charsOf(item);
      if (seen.emptyAnswer) this.emptyAnswers += 1;
    }
    if (this.seen.length > MAX_CONVERSATION_ITEMS || this.size > MAX_CONVERSATION_CHARS) this.forget(true);
  }

  /** A request carries the whole history: the conversation starts again from it. */
  restart(): void {
    this.forget(false);
  }

  private forget(lost: boolean): void {
    // A restart keeps instructionsUnsaid: the request it restarts from begins the conversation with them.
    if (lost) {
      this.clientCallIds.clear();
      this.instructionsUnsaid = false;
    }
    this.seen = [];
    this.size = 0;
    this.emptyAnswers = 0;
    if (this.answerGroups.length > 0) this.answerGroups = [];
    this.lastExtendedFrom = -1;
    this.lastExtendedEnd = -1;
    if (this.answersTaken.length > 0) this.answersTaken = [];
    this.lost = lost;
  }
}

/**
 * Answers that are alternatives to one another, the choices of one
 * chat.completion (n > 1): a request that replays the conversation goes on
 * from one of them, the one its application took, and never holds the others.
 */
interface AnswerGroup {
  /** Where the first answer begins in `seen`. */
  from: number;
  /** Where each answer ends in `seen`; each but the first begins where the one before it ends. */
  ends: number[];
}

function answerFrom(group: AnswerGroup, answer: number): number {
  return answer === 0 ? group.from : group.ends[answer - 1]!;
}

/** An item with its text. Where the text cannot tell, the meaning is worked out now, from the item itself. */
function seenAs(item: unknown, text: string | undefined): SeenItem {
  const kinds = { instructions: isInstructions(item), emptyAnswer: isEmptyAnswer(item) };
  return text?.includes(LOSSLESS_NUMBER) ? { text, written: true, textTells: false, ...kinds, meaning: meaningOf(item) } : { text, written: true, textTells: true, ...kinds };
}

/** A remembered item, read back from its text where it was written. */
function itemOf(seen: SeenItem): unknown {
  return seen.written ? (seen.text === undefined ? undefined : JSON.parse(seen.text)) : seen.item;
}

/** The call_id of a remembered item, written or not. */
function callIdOf(seen: SeenItem): unknown {
  const item = itemOf(seen);
  return isPlainObject(item) ? item.call_id : undefined;
}

/** `seen`, written if it was not yet; the item itself is let go then. */
function write(seen: SeenItem): SeenItem {
  if (seen.written) return seen;
  const done = seenAs(seen.item, textOf(seen.item));
  seen.item = undefined;
  seen.written = true;
  seen.text = done.text;
  seen.textTells = done.textTells;
  if (done.meaning !== undefined) seen.meaning = done.meaning;
  return seen;
}

/**
 * About the characters JSON.stringify would write for `value`: those of its
 * strings and names, and one for each value. It bounds the memory the items held
 * take without writing them.
 */
function charsOf(value: unknown): number {
  let chars = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    chars += 1;
    if (typeof next === "string") chars += next.length;
    else if (Array.isArray(next)) for (let i = 0; i < next.length; i++) pending.push(next[i]);
    else if (next !== null && typeof next === "object") {
      const fields = next as Record<string, unknown>;
      for (const name in fields) {
        chars += name.length;
        pending.push(fields[name]);
      }
    }
  }
  return chars;
}

const LOSSLESS_NUMBER = '"isLosslessNumber":true';

/** Whether `item`, written as `text`, replays `seen`: written the same, or the same body with no id or status of its own that `seen` lacks. */
function replays(item: unknown, text: string | undefined, seen: SeenItem): boolean {
  if (seen.text === undefined || text === undefined) return false;
  if (text === seen.text && seen.textTells) return true;
  const replay = meaningOf(item);
  if (seen.textTells && !("meaning" in seen)) seen.meaning = meaningOf(JSON.parse(seen.text));
  if (replay === undefined || seen.meaning === undefined || replay.body !== seen.meaning.body) return false;
  if (replay.id !== undefined && replay.id !== seen.meaning.id) return false;
  if (replay.parsedArguments !== undefined && replay.parsedArguments !== seen.meaning.parsedArguments) return false;
  if (replay.caller !== undefined && replay.caller !== seen.meaning.caller) return false;
  if (replay.model !== undefined && replay.model !== seen.meaning.model) return false;
  return replay.status === undefined || replay.status === seen.meaning.status;
}

/**
 * Whether `item` is an answer of the model with nothing in it: an assistant
 * message, with its id and status or not, whose every part is an output_text
 * with no text and no annotation. A Gemini stream may end in a part of empty
 * text, which the SDKs that replay the conversation leave out (pydantic-ai):
 * leaving out what holds nothing replays the rest.
 */
function isEmptyAnswer(item: unknown): boolean {
  if (!isPlainObject(item) || item.type !== "message" || item.role !== "assistant") return false;
  for (const key in item) if (key !== "type" && key !== "role" && key !== "content" && key !== "id" && key !== "status") return false;
  const content = item.content;
  if (content === "" || content === null) return true;
  return Array.isArray(content) && content.every((part) => isPlainObject(part) && part.type === "output_text" && part.text === "" && Object.keys(part).every((key) => key === "type" || key === "text" || (key === "annotations" && Array.isArray(part.annotations) && part.annotations.length === 0)));
}

/** A system or developer message item: what a request says its model is to do, not a turn of the conversation. */
export function isInstructions(item: unknown): boolean {
  return isPlainObject(item) && item.type === "message" && (item.role === "system" || item.role === "developer");
}

/** An assistant message item with nothing in it: no text, no part, no field but its type, role and content. */
function isEmptyAssistantMessage(item: unknown): boolean {
  if (!isPlainObject(item) || item.type !== "message" || item.role !== "assistant") return false;
  for (const key in item) if (key !== "type" && key !== "role" && key !== "content") return false;
  const content = item.content;
  return content === "" || content === null || (Array.isArray(content) && content.length === 0);
}

const SIGNATURE_FIELDS = ["gemini:thoughtSignature", "gemini:thought_signature"];
/** How a Gemini part was spelled (`"snake"`: `function_call`, `thought_signature`…), kept so that the way back spells it alike. */
const SPELLING = "gemini:spelling";
/** The candidate of a Gemini response of several that an item comes from: the answer a replay goes on from, which no replayed item says. */
const GEMINI_CANDIDATE = "gemini:candidate";
/** The type of a Bedrock toolUse block, carried on its call. */
const BEDROCK_TYPE = "bedrock:type";
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
/**
 * The bytes "skip_thought_signature_validator" in base64, unpadded: the signature
 * Gemini takes for a call it did not sign (one another model made, or one its
 * response gave none), which pydantic-ai writes on such a call it sends back. It
 * holds nothing of the call, and says what no signature says.
 */
const PLACEHOLDER_SIGNATURE = "c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I";

/**
 * The item, and each of its content parts, with each Gemini signature in one
 * alphabet and under one name, and without the spelling of its part: a
 * signature is bytes, which the Python SDK writes back in base64url where the
 * API wrote base64, and they are the same bytes; and the SDK writes a Vertex
 * request in snake_case (`function_call`, `thought_signature`) where the
 * response was in camelCase, which says how the part was written, not what it
 * holds.
 */
function withSignatureBytes(item: Record<string, unknown>): Record<string, unknown> {
  let written = bytesWritten(item);
  if (Array.isArray(written.content)) {
    const parts = written.content.map((part) => (isPlainObject(part) ? bytesWritten(part) : part));
    if (parts.some((part, index) => part !== (written.content as unknown[])[index])) written = { ...written, content: parts };
  }
  return written;
}

function bytesWritten(fields: Record<string, unknown>): Record<string, unknown> {
  let written = fields;
  for (const name of SIGNATURE_FIELDS) {
    const signature = fields[name];
    if (typeof signature !== "string" || !BASE64.test(signature)) continue;
    const bytes = signature.replace(/=+$/, "").replaceAll("-", "+").replaceAll("_", "/");
    if (bytes === PLACEHOLDER_SIGNATURE) {
      const { [name]: _placeholder, ...rest } = written;
      written = rest;
    } else if (bytes !== signature) written = { ...written, [name]: bytes };
  }
  if (written[SPELLING] === "snake") {
    const { [SPELLING]: _spelling, ...rest } = written;
    written = rest;
    // One signature under both names is not one name's: it stays as it is, and matches only the same.
    if (SIGNATURE_FIELDS[1]! in written && !(SIGNATURE_FIELDS[0]! in written)) {
      const { [SIGNATURE_FIELDS[1]!]: signature, ...others } = written;
      written = { ...others, [SIGNATURE_FIELDS[0]!]: signature };
    }
  }
  return written;
}

const CACHE_MARKS = ["anthropic:cache_control", "bedrock:cachePoint"];
const CITATIONS = "anthropic:citations";
const CACHE_MARKS_AND_CITATIONS = [...CACHE_MARKS, CITATIONS];

/**
 * The item and its parts without their cache breakpoints, and each part without
 * a null `citations`. An output's parts are its `output`: the blocks of an
 * Anthropic tool_result take a cache_control as a message's blocks do, and the
 * caller that moves it to the last block sends a result marked before unmarked.
 */
function withoutCacheMarksOrNullCitations(item: Record<string, unknown>): Record<string, unknown> {
  const written = withoutFields(item, CACHE_MARKS);
  const field = written.type === "function_call_output" ? "output" : "content";
  const held = written[field];
  if (!Array.isArray(held)) return written;
  const parts = held.map((part) => (isPlainObject(part) ? withoutFields(part, part[CITATIONS] === null ? CACHE_MARKS_AND_CITATIONS : CACHE_MARKS) : part));
  return parts.some((part, index) => part !== held[index]) ? { ...written, [field]: parts } : written;
}

/**
 * A message whose content is one plain text part, as the string that part
 * holds. Bedrock has no string content: its reader writes a lone text block as a
 * string, and the same block beside a cachePoint as a part that holds it, so a
 * message sent again once the breakpoint has moved on is written the other way.
 * A part with anything more (annotations, citations, a breakpoint kept) stays a part.
 */
function withPlainTextAsString(item: Record<string, unknown>): Record<string, unknown> {
  if (item.type !== "message" || !Array.isArray(item.content) || item.content.length !== 1) return item;
  const part: unknown = item.content[0];
  if (!isPlainObject(part) || typeof part.text !== "string") return item;
  const plainInput = part.type === "input_text" && Object.keys(part).length === 2;
  const plainOutput = part.type === "output_text" && Object.keys(part).length === 3 && Array.isArray(part.annotations) && part.annotations.length === 0;
  return plainInput || plainOutput ? { ...item, content: part.text } : item;
}

function withoutFields(fields: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  if (!names.some((name) => name in fields)) return fields;
  const kept = { ...fields };
  for (const name of names) delete kept[name];
  return kept;
}

/**
 * The value without the members written null, in its objects at any depth. An
 * object of a class (a lossless parser's number) is a value of its own, kept as
 * it is.
 */
function withoutNullMembers<T>(value: T): T {
  if (Array.isArray(value)) {
    const elements = value.map(withoutNullMembers);
    return (elements.some((element, index) => element !== value[index]) ? elements : value) as T;
  }
  if (!isPlainObject(value)) return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  let kept: Record<string, unknown> | undefined;
  for (const name of Object.keys(value)) {
    const member = value[name];
    const written = member === null ? undefined : withoutNullMembers(member);
    if (written === member) continue;
    kept ??= { ...value };
    if (written === undefined) delete kept[name];
    else setOwn(kept, name, written);
  }
  return (kept ?? value) as T;
}

/** The item as JSON; undefined when it is too deep to write (or is not JSON at all). */
function textOf(item: unknown): string | undefined {
  try {
    return JSON.stringify(item);
  } catch {
    return undefined;
  }
}

/** The meaning of an item; undefined when it is too deep to compare. */
function meaningOf(item: unknown): ItemMeaning | undefined {
  try {
    if (!isPlainObject(item)) return { body: "v" + jsonValueMeaning(item) };
    const { id, status, arguments: args, parsed_arguments: parsedArguments, "anthropic:caller": caller, ...rest } = withPlainTextAsString(withoutCacheMarksOrNullCitations(withSignatureBytes(item)));
    if (rest[BEDROCK_TYPE] === "tool_use") delete rest[BEDROCK_TYPE];
    delete rest[GEMINI_CANDIDATE];
    if (rest.type === "reasoning") {
      if (rest.encrypted_content === null) delete rest.encrypted_content;
      if (rest.content === null || (Array.isArray(rest.content) && rest.content.length === 0)) delete rest.content;
    }
    const model = isPlainObject(rest.provenance) ? rest.provenance.model : undefined;
    if (model !== undefined) {
      const { model: _model, ...provenance } = rest.provenance as Record<string, unknown>;
      rest.provenance = provenance;
    }
    const compared = typeof rest.type === "string" && rest.type.includes(":") ? withoutNullMembers(rest) : rest;
    // The arguments are written apart, tagged with how they compare: as a JSON
    // value (J) or, when they have no single meaning, as the string they are (S).
    let argumentsField = "";
    if (typeof args === "string") {
      const meaning = jsonTextMeaning(args);
      argumentsField = meaning === undefined ? "S" + JSON.stringify(args) : "J" + meaning;
    } else if (args !== undefined) argumentsField = "V" + jsonValueMeaning(args);
    return {
      body: "o" + jsonValueMeaning(compared) + argumentsField,
      ...(id !== undefined && id !== null ? { id: jsonValueMeaning(id) } : {}),
      ...(status !== undefined && status !== null ? { status: jsonValueMeaning(status) } : {}),
      ...(parsedArguments !== undefined ? { parsedArguments: jsonValueMeaning(parsedArguments) } : {}),
      ...(caller !== undefined ? { caller: jsonValueMeaning(caller) } : {}),
      ...(model !== undefined ? { model: jsonValueMeaning(model) } : {}),
    };
  } catch {
    return undefined;
  }
}
