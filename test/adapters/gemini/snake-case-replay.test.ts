// A Vertex AI request that google-genai writes in snake_case (`function_call`,
// `function_response`, `thought_signature`) replays the calls its camelCase
// response made: the spelling says how a part was written, not what it holds.
import { describe, expect, test } from "vitest";
import { synthesizedCallId } from "../../../adapters/gemini/call-ids.js";
import { gatedCalls as gate, journalOf as journal } from "../../support/gated-calls.js";

const declarations = [{ functionDeclarations: [{ name: "get_file", parametersJsonSchema: { type: "object", additionalProperties: false, properties: { name: { type: "string" } } } }] }];
const ask = { role: "user", parts: [{ text: "Describe the file." }] };
// The signature as the API writes it (base64) and as the SDK sends it back (base64url): the same bytes.
const signature = "Cp4KAY89a1+1s6oql4/w";
const response = { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "get_file", args: { name: "a.png" } }, thoughtSignature: signature }] }, finishReason: "STOP", index: 0 }], modelVersion: "gemini-3-flash-preview", responseId: "r1" };
const replayed = (sent: string) => ({ role: "model", parts: [{ function_call: { id: "pyd_ai_1", name: "get_file", args: { name: "a.png" } }, thought_signature: sent }] });
const answered = { role: "user", parts: [{ function_response: { id: "pyd_ai_1", name: "get_file", response: { return_value: "a cat" } } }] };
const done = { candidates: [{ content: { role: "model", parts: [{ text: "A cat." }] }, finishReason: "STOP", index: 0 }], modelVersion: "gemini-3-flash-preview", responseId: "r2" };
const callId = synthesizedCallId(1, "get_file", '{"name":"a.png"}');

describe("logged exchanges of Vertex AI, the requests in snake_case", () => {
  test("the replayed call is the call of the response, and the output answers it", async () => {
    const text = journal([
      { request: { contents: [ask], tools: declarations }, response },
      { request: { contents: [ask, replayed("Cp4KAY89a1-1s6oql4_w"), answered], tools: declarations }, response: done },
    ]);
    expect(await gate(text)).toEqual({
      code: 0,
      verdicts: [
        [1, "function_call", callId, "ok", []],
        [2, "function_call_output", callId, "not_function_call", []],
      ],
    });
  });

  test("a signature of other bytes is another call, judged again", async () => {
    const text = journal([
      { request: { contents: [ask], tools: declarations }, response },
      { request: { contents: [ask, replayed("Cp4KAY89a1-1s6oql4_x"), answered], tools: declarations }, response: done },
    ]);
    const { code, verdicts } = await gate(text);
    expect(code).toBe(1);
    expect(verdicts).toContainEqual([2, "function_call", "pyd_ai_1", "ok", []]);
  });
});
