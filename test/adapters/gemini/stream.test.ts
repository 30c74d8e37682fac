// The stream assembler on chunks shaped like the recorded ones: text joined,
// whole calls, partialArgs pieces, a cut stream, two responses in one recording.
import { describe, expect, test } from "vitest";
import { synthesizedCallId } from "../../../adapters/gemini/call-ids.js";
import { GeminiStreamAssembler, type GeminiAssembledResponse } from "../../../adapters/gemini/stream.js";
import { withoutNeutralFields } from "../../support/response-neutrals.js";

const ID = "2FpeaMz2ApGtz7IP4rG2-QE";
const chunk = (parts: unknown[], extra: Record<string, unknown> = {}, responseId = ID) => ({
  candidates: [{ content: { parts, role: "model" }, ...extra }],
  modelVersion: "gemini-2.0-flash",
  responseId,
});

function run(chunks: unknown[]): GeminiAssembledResponse[] {
  const assembler = new GeminiStreamAssembler();
  const assembled = [...chunks.flatMap((value, index) => assembler.push(value, index + 1)), ...assembler.finish()];
  return assembled.map((response) => ({ ...response, losses: withoutNeutralFields(response.losses) }));
}

const created = { path: "", code: "synthesized", detail: "a Gemini response has no creation time: created_at 0 written", line: 1 };

describe("text chunks", () => {
  test("are joined into one part, the signature of the last set on it", () => {
    const out = run([chunk([{ text: "The capital" }]), chunk([{ text: " is Lisbon." }]), chunk([{ text: "", thoughtSignature: "EoECCv4B" }], { finishReason: "STOP" })]);
    expect(out).toEqual([
      {
        id: ID,
        status: "completed",
        items: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "The capital is Lisbon.", annotations: [], "gemini:thoughtSignature": "EoECCv4B" }] }],
        losses: [created],
        line: 1,
        lastLine: 3,
      },
    ]);
  });

  test("a thought is not joined with the answer after it", () => {
    const [response] = run([chunk([{ text: "Thinking.", thought: true }]), chunk([{ text: "Lisbon." }], { finishReason: "STOP" })]);
    expect(response!.items.map((item) => item.type)).toEqual(["reasoning", "message"]);
  });
});

describe("calls", () => {
  test("a whole call in one chunk is completed by its STOP", () => {
    const [response] = run([chunk([{ functionCall: { name: "get_capital", args: { country: "Portugal" } } }], { finishReason: "STOP" })]);
    expect(response!.items).toEqual([
      { type: "function_call", call_id: synthesizedCallId(1, "get_capital", '{"country":"Portugal"}'), name: "get_capital", arguments: '{"country":"Portugal"}', status: "completed" },
    ]);
  });

  test("partialArgs pieces build the arguments, a continued string appended to", () => {
    const [response] = run([
      chunk([{ functionCall: { name: "write_note", willContinue: true } }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: "$.title", stringValue: "Shop", willContinue: true }], willContinue: true } }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: "$.title", stringValue: "ping" }, { jsonPath: "$.tags[0]", stringValue: "home" }, { jsonPath: "$.count", numberValue: 3 }], willContinue: true } }]),
      chunk([{ functionCall: {} }]),
      chunk([{ text: "" }], { finishReason: "STOP" }),
    ]);
    expect(response!.items[0]).toEqual({ type: "function_call", call_id: synthesizedCallId(1, "write_note", '{"title":"Shopping","tags":["home"],"count":3}'), name: "write_note", arguments: '{"title":"Shopping","tags":["home"],"count":3}', status: "completed" });
  });

  test("a call whose pieces were still coming when the stream ended is in_progress, reported on its line", () => {
    const [response] = run([chunk([{ functionCall: { name: "write_note", willContinue: true } }]), chunk([{ functionCall: { partialArgs: [{ jsonPath: "$.title", stringValue: "Sho", willContinue: true }], willContinue: true } }])]);
    expect(response!.status).toBe("in_progress");
    expect(response!.items).toEqual([{ type: "function_call", call_id: synthesizedCallId(1, "write_note", '{"title":"Sho"}'), name: "write_note", arguments: '{"title":"Sho"}', status: "in_progress" }]);
    expect(response!.losses[0]).toEqual({ line: 1, path: "/candidates/0/content/parts/0", code: "form_changed", detail: "the stream ended before this call's last piece: it stays in_progress" });
  });

  test("a whole call in a stream that never finished is in_progress", () => {
    const [response] = run([chunk([{ functionCall: { name: "get_capital", args: { country: "Portugal" } } }])]);
    expect(response!.items.map((item) => (item as { status?: string }).status)).toEqual(["in_progress"]);
  });
});

describe("several responses", () => {
  test("a new responseId closes the one before", () => {
    const out = run([chunk([{ text: "One." }], { finishReason: "STOP" }, "first"), chunk([{ text: "Two." }], { finishReason: "STOP" }, "second")]);
    expect(out.map((response) => [response.id, response.line, response.lastLine])).toEqual([
      ["first", 1, 1],
      ["second", 2, 2],
    ]);
  });
});
