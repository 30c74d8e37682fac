// Call ids between Gemini, whose calls often carry none, and the items, where
// every call and output needs one.
//
// | Gemini                                       | Open Responses call_id                                      |
// |----------------------------------------------|-------------------------------------------------------------|
// | functionCall with `id`                       | the id, exactly                                             |
// | functionCall without `id`                    | `gemini_call_<16 hex>`: sha256 of the call's rank among the |
// |                                              |   conversation's calls (with an id or not), its name and    |
// |                                              |   its args; reported                                        |
// | functionResponse with `id`                   | the id, exactly                                             |
// | functionResponse without `id`                | the call_id of the earliest unanswered call of that name    |
// |                                              |   (by name and order), reported; none: `gemini_call_<16 hex>` |
// |                                              |   of its rank among such outputs and its name, reported,    |
// |                                              |   and it answers no call. For the gate, only the calls of   |
// |                                              |   the model's last turn wait, as Gemini pairs them          |
//
// One pairing follows one conversation across the records of a journal: a
// request body carries the whole conversation (generateContent keeps no state),
// so it starts the count again; a response and loose contents continue it. A
// call therefore gets the same id in the response that made it and in every
// request that replays it without id, and a result written on a later line than
// its call answers it. A request that replays it under an id of the client's own
// keeps the rank of each call it replays, so the model's next call is not given
// the id of an earlier one; the normalizer takes the replay for the call
// (src/journal/conversation-so-far.ts). Other candidates than the first are
// alternatives, counted apart.
//
// Back, a call_id of the synthesized form goes without `id`, as the call came;
// any other call_id is written in `id`, which Gemini accepts and echoes.
import { digest } from "./fields.js";

const SYNTHESIZED = /^gemini_call_[0-9a-f]{16}$/;

export function isSynthesizedCallId(id: unknown): boolean {
  return typeof id === "string" && SYNTHESIZED.test(id);
}

/** The id of a call without id, the `rank`-th call of its conversation (from 1). */
export function synthesizedCallId(rank: number, name: unknown, argumentsText: string, scope = ""): string {
  return `gemini_call_${digest(`${scope}\u0000${rank}\u0000${String(name)}\u0000${argumentsText}`, 16)}`;
}

/** The id of the `rank`-th output without id that answers no call (from 1). */
export function unansweredOutputId(rank: number, name: unknown, scope = ""): string {
  return `gemini_call_${digest(`${scope}\u0000output\u0000${rank}\u0000${String(name)}`, 16)}`;
}

export type Pairing = { callId: string; how: "own" | "synthesized" | "paired" };

interface WaitingCall {
  callId: string;
  name: unknown;
}

export class CallPairing {
  private calls = 0;
  private unanswerable = 0;
  private waiting: WaitingCall[] = [];
  private inModelTurn = false;

  /**
   * `scope`: what sets apart ids counted outside the conversation (another
   * candidate). `lastTurnOnly` (the gate's reading): Gemini pairs a result with
   * the calls of the model's turn just before it, so a call an earlier turn left
   * unanswered waits no more once the model takes another turn; taking the
   * earliest call of a name would give a result to a call Gemini never gives it.
   */
  constructor(
    private readonly scope = "",
    private readonly lastTurnOnly = false,
  ) {}

  /**
   * A content of the model: the first after another's starts its turn, and in
   * the gate's reading the calls of earlier turns wait no more. Model contents in
   * a row are one turn, whose calls all wait.
   */
  modelTurn(): void {
    if (this.lastTurnOnly && !this.inModelTurn) this.waiting = [];
    this.inModelTurn = true;
  }

  /** A content of the user: the model's next content starts a turn. */
  userTurn(): void {
    this.inModelTurn = false;
  }

  /** A request body: the conversation starts again from its first content. */
  restart(): void {
    this.calls = 0;
    this.unanswerable = 0;
    this.waiting = [];
    this.inModelTurn = false;
  }

  /** A pairing for an alternative to what follows (another candidate): it starts where this one is and changes nothing here. */
  fork(scope: string): CallPairing {
    const fork = new CallPairing(`${this.scope}${scope}`, this.lastTurnOnly);
    fork.calls = this.calls;
    fork.unanswerable = this.unanswerable;
    fork.waiting = [...this.waiting];
    fork.inModelTurn = this.inModelTurn;
    return fork;
  }

  /**
   * The call_id of a call: its own id, or one derived from its rank, name and
   * arguments text. Calls with an id of their own count in the rank too: a client
   * may replay the calls Gemini made without id under ids of its own
   * (pydantic-ai's `pyd_ai_…`), and the next call the model makes must not take
   * the rank, and so the id, of one it replays.
   */
  call(id: unknown, name: unknown, argumentsText: string): Pairing {
    this.calls += 1;
    if (typeof id === "string" && id !== "") {
      this.waiting.push({ callId: id, name });
      return { callId: id, how: "own" };
    }
    const callId = synthesizedCallId(this.calls, name, argumentsText, this.scope);
    this.waiting.push({ callId, name });
    return { callId, how: "synthesized" };
  }

  /** The call_id an output answers: its own id, or that of the earliest unanswered call of its name. */
  output(id: unknown, name: unknown): Pairing {
    if (typeof id === "string" && id !== "") {
      const index = this.waiting.findIndex((call) => call.callId === id);
      if (index !== -1) this.waiting.splice(index, 1);
      return { callId: id, how: "own" };
    }
    const index = this.waiting.findIndex((call) => call.name === name);
    if (index !== -1) return { callId: this.waiting.splice(index, 1)[0]!.callId, how: "paired" };
    this.unanswerable += 1;
    return { callId: unansweredOutputId(this.unanswerable, name, this.scope), how: "synthesized" };
  }
}
