// A call's arguments become an input object in Anthropic, Gemini and Bedrock:
// what JSON.parse does not keep of the text must be reported, in every one of them.
import { describe, expect, test } from "vitest";
import { ENVELOPES, type AdapterName } from "../../adapters/index.js";
import { inexactness } from "../../src/models/inexact-json.js";

const call = (args: string) => ({ type: "function_call", call_id: "call_1", name: "lookup_order", arguments: args, status: "completed" }) as const;
const argumentLosses = (envelope: AdapterName, args: string) =>
  ENVELOPES[envelope]
    .itemsToMessages([{ type: "message", role: "user", content: "Where is my order?" }, call(args)])
    .losses.filter((loss: { path: string }) => loss.path.endsWith("/arguments"))
    .map((loss: { code: string; detail: string }) => [loss.code, loss.detail]);

/** The input object (or text) the call's arguments were written as, wherever the envelope keeps it. */
function writtenInput(envelope: AdapterName, args: string): unknown {
  const written = JSON.stringify(ENVELOPES[envelope].itemsToMessages([call(args)]).value);
  const found = [/"input":("(?:[^"\\]|\\.)*")/, /"args":("(?:[^"\\]|\\.)*")/].map((pattern) => pattern.exec(written)).find((match) => match !== null);
  return found ? JSON.parse(found[1]!) : undefined;
}

describe("inexactness of a JSON text", () => {
  test("names a member name given twice, even spelled with an escape, and a number a double does not hold", () => {
    expect(inexactness('{"region":"global","region":"apac"}')).toBe('the name "region" is given twice in one object');
    expect(inexactness('{"a":{"region":1},"b":[{"region":2,"regio\\u006e":3}]}')).toBe('the name "region" is given twice in one object');
    expect(inexactness('{"order":12345678901234567891}')).toBe("the number 12345678901234567891 is not one a double holds");
    expect(inexactness('{"order":-9007199254740993}')).toBe("the number -9007199254740993 is not one a double holds");
  });

  test("says nothing of spelling: spaces, escapes, exponents, trailing zeros, the same name in two objects", () => {
    expect(inexactness('{ "a" : 1.50, "b": 1e2, "c": -0.0, "d": "\\u0041", "e": [{"x":1},{"x":2}], "f": 9007199254740992 }')).toBeUndefined();
  });
});

describe.each(["anthropic", "gemini", "bedrock"] as const)("%s: arguments written as an object", (envelope) => {
  // The object would be a call whose value no one wrote, which the gate may pass where it blocked the text.
  test("a name given twice is written as the text it is, which the target rejects: no value is chosen", () => {
    expect(argumentLosses(envelope, '{"region":"global","region":"apac"}')).toEqual([["target_rejects", expect.stringMatching(/^the name "region" is given twice in one object: the (input|args) object would not hold what the arguments text says, so the text is written as it is, which (Anthropic|Gemini|Bedrock) rejects$/)]]);
    expect(writtenInput(envelope, '{"region":"global","region":"apac"}')).toEqual('{"region":"global","region":"apac"}');
  });

  test("an integer a double does not hold is written as the text it is, not rounded", () => {
    expect(argumentLosses(envelope, '{"order":12345678901234567891}')).toEqual([["target_rejects", expect.stringMatching(/^the number 12345678901234567891 is not one a double holds: /)]]);
    expect(writtenInput(envelope, '{"order":12345678901234567891}')).toEqual('{"order":12345678901234567891}');
  });

  test("arguments spelled as the object's JSON text gives them give no loss", () => {
    expect(argumentLosses(envelope, '{"order":42,"note":"café","tags":["a"]}')).toEqual([]);
  });

  test("other spelling (spaces, an escape, 1.0) is reported: the values are kept, the text is not", () => {
    for (const args of ['{"order": 42}', '{"note":"caf\\u00e9"}', '{"weight":1.0}']) {
      expect(argumentLosses(envelope, args)).toEqual([
        ["form_changed", expect.stringMatching(/^the arguments text becomes the (input|args) object, whose JSON text is spelled otherwise \(spaces, escapes or number forms\): the values are kept, not the text$/)],
      ]);
    }
  });
});

describe("an input written as a string", () => {
  const records = {
    anthropic: { type: "message", role: "assistant", id: "msg_1", model: "claude", content: [{ type: "tool_use", id: "toolu_1", name: "lookup_order", input: '{"order":42}' }], stop_reason: "tool_use" },
    gemini: { candidates: [{ content: { role: "model", parts: [{ functionCall: { id: "call_1", name: "lookup_order", args: '{"order":42}' } }] }, finishReason: "STOP" }] },
    bedrock: { output: { message: { role: "assistant", content: [{ toolUse: { toolUseId: "tu_1", name: "lookup_order", input: '{"order":42}' } }] } }, stopReason: "tool_use" },
  } as const;

  test.each(["anthropic", "gemini", "bedrock"] as const)("%s: the text of an object in a string is the string, as the tool is handed it, and the gate does not take it for the object", (envelope) => {
    const resource = ENVELOPES[envelope].responseToResource(records[envelope]);
    const output = (resource.value as unknown as { output: Array<Record<string, unknown>> }).output;
    const call = output.find((item) => item.type === "function_call")!;
    expect(call.arguments).toBe(JSON.stringify('{"order":42}'));
    expect(resource.losses.filter((loss) => loss.code === "form_changed" && /holds the text of a JSON object/.test(loss.detail))).toHaveLength(1);
  });
});
