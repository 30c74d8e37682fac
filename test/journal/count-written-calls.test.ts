import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { countWrittenCalls, tallyWritten, writtenCallPaths } from "../../src/journal/count-written-calls.js";
import { holdsParsedArguments } from "../../src/journal/parsed-arguments-numbers.js";
import { firstNamesFoldedTwice, RECORD_NAMES } from "../../src/models/names-folded-twice.js";

const chatCall = { id: "call_1", type: "function", function: { name: "f", arguments: "{}" } };

describe("the calls a record writes, in any envelope's form", () => {
  test("each form counts once, where it sits", () => {
    const record = {
      choices: [{ message: { tool_calls: [chatCall, chatCall], function_call: { name: "f", arguments: "{}" } } }],
      candidates: [{ content: { parts: [{ text: "x", functionCall: { name: "f", args: {} } }] } }],
      output: { message: { content: [{ toolUse: { toolUseId: "t", name: "f", input: {} } }] } },
      input: [{ type: "function_call", call_id: "c", name: "f", arguments: "{}" }],
      content: [{ type: "tool_use", id: "toolu_1", name: "f", input: {} }],
      contents: [{ parts: [{ text: "x", function_call: { name: "f", args: {} } }] }],
    };
    expect(countWrittenCalls(record)).toBe(8);
    expect(writtenCallPaths(record, 10)).toEqual([
      "/choices/0/message/tool_calls/0",
      "/choices/0/message/tool_calls/1",
      "/choices/0/message/function_call",
      "/candidates/0/content/parts/0/functionCall",
      "/output/message/content/0/toolUse",
      "/input/0",
      "/content/0",
      "/contents/0/parts/0/function_call",
    ]);
    expect(writtenCallPaths(record, 2)).toEqual(["/choices/0/message/tool_calls/0", "/choices/0/message/tool_calls/1"]);
  });

  test("a request's tools and choices, results and a forced function name are no calls", () => {
    const body = {
      model: "m",
      messages: [{ role: "tool", tool_call_id: "call_1", content: "x" }],
      tools: [{ type: "function", function: { name: "f", parameters: {} } }],
      tool_choice: { type: "function", function: { name: "f" } },
      function_call: { name: "f" },
      toolConfig: { functionCallingConfig: { mode: "ANY" } },
      contents: [{ parts: [{ functionResponse: { name: "f", response: {} } }, { toolResult: { toolUseId: "t", content: [] } }] }],
      tool_calls: [],
    };
    expect(countWrittenCalls(body)).toBe(0);
    expect(writtenCallPaths(body, 3)).toEqual([]);
  });

  test("an object a member holds as a call is one call, whatever type it gives itself", () => {
    // As Bedrock writes a server tool's toolUse, and a Chat tool call given a Responses type.
    const record = {
      output: { message: { content: [{ toolUse: { toolUseId: "t", name: "code", input: {}, type: "server_tool_use" } }, { toolUse: { toolUseId: "u", name: "f", input: {}, type: "tool_use" } }] } },
      choices: [{ message: { tool_calls: [{ ...chatCall, type: "function_call" }], function_call: { name: "f", arguments: "{}", type: "function_call" } } }],
      parts: [{ functionCall: { name: "f", args: {}, type: "tool_use" } }],
    };
    expect(countWrittenCalls(record)).toBe(5);
    expect(tallyWritten(record)?.calls).toBe(5);
    expect(writtenCallPaths(record, 10)).toEqual([
      "/output/message/content/0/toolUse",
      "/output/message/content/1/toolUse",
      "/choices/0/message/tool_calls/0",
      "/choices/0/message/function_call",
      "/parts/0/functionCall",
    ]);
    // Deeper inside such a call, or in an array inside a tool_calls array, a call is a call of its own.
    expect(countWrittenCalls({ toolUse: { name: "f", input: { nested: { type: "function_call" } } } })).toBe(2);
    const inArray = { tool_calls: [chatCall, [{ type: "function_call" }]] };
    expect([countWrittenCalls(inArray), tallyWritten(inArray)?.calls, writtenCallPaths(inArray, 5)]).toEqual([2, 2, ["/tool_calls/0", "/tool_calls/1/0"]]);
  });

  test("a call type spelled so that a reader that trims, folds case or normalizes Unicode reads it counts", () => {
    const spellings = ["Tool_use", "TOOL_USE", "tool_use ", "tool_use\u200b", "\uff54\uff4f\uff4f\uff4c\uff3f\uff55\uff53\uff45", "Function_Call", " function_call", "function_call\u00ad"];
    for (const type of spellings) {
      const record = { role: "assistant", content: [{ type: "text", text: "x" }, { type, id: "toolu_1", name: "f", input: {} }] };
      expect([type, countWrittenCalls(record), tallyWritten(record)?.calls, writtenCallPaths(record, 3)]).toEqual([type, 1, 1, ["/content/1"]]);
    }
    // Types no fold turns into a call's stay what they are.
    expect(countWrittenCalls({ content: [{ type: "tool_result" }, { type: "function_call_output" }, { type: "ToolUse" }, { type: "server_tool_use" }] })).toBe(0);
  });

  test("a record nested far deeper than the call stack is counted", () => {
    let deep: unknown = { type: "function_call" };
    for (let i = 0; i < 100_000; i++) deep = { inner: deep };
    expect(countWrittenCalls(deep)).toBe(1);
  });
});

describe("one walk that counts members and calls", () => {
  const deepRecord = (levels: number, inner: unknown) => {
    let value = inner;
    for (let i = 0; i < levels; i++) value = { inner: value };
    return value as object;
  };

  test("counts every form as countWrittenCalls does, and every object's own keys", () => {
    const record = {
      choices: [{ message: { tool_calls: [chatCall, 1, [chatCall], chatCall], function_call: { name: "f", arguments: "{}" } } }],
      candidates: [{ content: { parts: [{ functionCall: { name: "f", args: {} } }, { functionCall: [] }, { toolUse: "x" }, { text: "x", function_call: { name: "g" } }] } }],
      items: [{ type: "function_call" }, { type: "tool_use" }, { type: ["function_call"] }, { type: "function_call_output" }],
      // A request's function_call forcing a name, beside its messages, is no call.
      forced: { model: "m", messages: [], function_call: { name: "f" }, tool_calls: {} },
    };
    const members = JSON.stringify(record).match(/":/g)!.length;
    expect(tallyWritten(record)).toEqual({ members, calls: countWrittenCalls(record), parsedArguments: false, foldedTwice: false });
    expect(countWrittenCalls(record)).toBe(7);
  });

  test("a member named __proto__ is an own key like any other, and the call it holds counts", () => {
    const record = JSON.parse('{"__proto__":{"type":"function_call"},"a":1}') as object;
    expect(tallyWritten(record)).toEqual({ members: 3, calls: 1, parsedArguments: false, foldedTwice: false });
  });

  test("a call written with escapes in its names counts as one written plainly", () => {
    const record = JSON.parse(String.raw`{"content":[{"type":"tool_use"}],"tool_calls":[{}]}`) as object;
    expect(tallyWritten(record)).toEqual({ members: 3, calls: 2, parsedArguments: false, foldedTwice: false });
  });

  test("past the depth of the walk it counts nothing, and says so", () => {
    expect(tallyWritten(deepRecord(300, { type: "function_call" }))).toBeUndefined();
    expect(tallyWritten(deepRecord(200, { type: "function_call" }))).toEqual({ members: 201, calls: 1, parsedArguments: false, foldedTwice: false });
  });

  test("agrees with countWrittenCalls on any JSON value with calls put in it (property)", () => {
    const call = fc.constantFrom<unknown>(chatCall, { type: "function_call" }, { type: "tool_use" }, { functionCall: {} }, { toolUse: {} }, { toolUse: { type: "tool_use" } }, { function_call: { name: "f", args: {} } }, { tool_calls: [{}, { type: "function_call" }, [{ type: "tool_use" }]] }, { function_call: { name: "f" } });
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, fc.jsonValue({ maxDepth: 2 }), call, fc.array(tie("node"), { maxLength: 4 }), fc.dictionary(fc.constantFrom("a", "tool_calls", "type", "functionCall", "toolUse", "function_call", "__proto__", "parsed_arguments", "Tool_calls", "Type", "functioncall", "TOOLUSE", "\uff54\uff59\uff50\uff45", "A", ...FOLDING_KEYS), tie("node"), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(value, (generated) => {
        const record = JSON.parse(JSON.stringify({ generated })) as object;
        const tally = tallyWritten(record);
        expect(tally).toEqual({ members: membersByStack(record), calls: countWrittenCalls(record), parsedArguments: holdsParsedArguments(record), foldedTwice: firstNamesFoldedTwice(record, RECORD_NAMES, true) !== undefined });
      }),
      { numRuns: 500 },
    );
  });

  test("agrees with firstNamesFoldedTwice on names folded from other scripts and invisible characters, inside and outside the places that hold data (property)", () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small" }, fc.constantFrom(1, "tool_use", "tool_call", "tool_call_response"), fc.array(tie("node"), { maxLength: 3 }), fc.dictionary(fc.constantFrom(...FOLDING_KEYS), tie("node"), { maxKeys: 5 })),
    })).node;
    fc.assert(
      fc.property(value, (generated) => {
        const record = JSON.parse(JSON.stringify({ generated })) as object;
        expect(tallyWritten(record)?.foldedTwice).toBe(firstNamesFoldedTwice(record, RECORD_NAMES, true) !== undefined);
      }),
      { numRuns: 2000 },
    );
  });
});

/**
 * Names that fold to one a call is read by (a long s, a Kelvin sign, full
 * width, a zero-width space, a soft hyphen), and the members of the places that
 * hold data and of those that hold them.
 */
const FOLDING_KEYS = [
  "status", "\u017ftatus", "STATUS", "contentBlockStart", "contentBloc\u212aStart", "\uff53tatus", "stat\u200bus", "sta\u00adtus", "type",
  "properties", "Properties", "json", "JSON", "input", "args", "response", "functionResponse", "function_response", "functionCall", "toolUse", "inputSchema", "arguments", "Arguments",
];

/** Own keys of every object, with a stack: the count the walk must agree with. */
function membersByStack(value: unknown): number {
  let members = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== "object") continue;
    if (Array.isArray(next)) pending.push(...next);
    else {
      members += Object.keys(next).length;
      pending.push(...Object.values(next));
    }
  }
  return members;
}
