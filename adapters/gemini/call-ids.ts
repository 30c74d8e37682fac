// Call ids between Gemini, whose calls often carry none, and the items, where
// every call and output needs one.
//
// | Gemini                                       | Open Responses call_id                                      |
// |----------------------------------------------|-------------------------------------------------------------|
// | functionCall with `id`                       | the id, exactly                                             |
// | functionCall without `id`                    | `gemini_call_<16 hex>`: sha256 of the scope (a response's   |
// |                                              |   responseId, or none for a request), the part's position   |
// |                                              |   and the name; reported                                    |
// | functionResponse with `id`                   | the id, exactly                                             |
// | functionResponse without `id`                | the call_id of the earliest unanswered call of that name    |
// |                                              |   (by name and order); none: synthesized from its position, |
// |                                              |   reported, and it answers no call                          |
//
// Back, a call_id of the synthesized form goes without `id`, as the call came;
// any other call_id is written in `id`, which Gemini accepts and echoes.
import { digest } from "./fields.js";

const SYNTHESIZED = /^gemini_call_[0-9a-f]{16}$/;

export function isSynthesizedCallId(id: unknown): boolean {
  return typeof id === "string" && SYNTHESIZED.test(id);
}

export function synthesizeCallId(scope: string, position: string, name: unknown): string {
  return `gemini_call_${digest(`${scope}\u0000${position}\u0000${String(name)}`, 16)}`;
}

export class CallPairing {
  private readonly waiting: Array<{ callId: string; name: unknown }> = [];

  constructor(private readonly scope = "") {}

  /** The call_id of a call: its own id, or one derived from where it stands. */
  call(id: unknown, name: unknown, position: string): { callId: string; synthesized: boolean } {
    const synthesized = typeof id !== "string" || id === "";
    const callId = synthesized ? synthesizeCallId(this.scope, position, name) : (id as string);
    this.waiting.push({ callId, name });
    return { callId, synthesized };
  }

  /** The call_id an output answers: its own id, or the earliest unanswered call of its name. */
  output(id: unknown, name: unknown, position: string): { callId: string; synthesized: boolean } {
    if (typeof id === "string" && id !== "") {
      const index = this.waiting.findIndex((call) => call.callId === id);
      if (index !== -1) this.waiting.splice(index, 1);
      return { callId: id, synthesized: false };
    }
    const index = this.waiting.findIndex((call) => call.name === name);
    if (index !== -1) return { callId: this.waiting.splice(index, 1)[0]!.callId, synthesized: false };
    return { callId: synthesizeCallId(this.scope, position, name), synthesized: true };
  }
}
