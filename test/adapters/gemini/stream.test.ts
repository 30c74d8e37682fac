// The stream assembler on chunks shaped like the recorded ones: text joined,
// whole calls, partialArgs pieces, a cut stream, two responses in one recording.
import { describe, expect, test } from "vitest";
import { synthesizedCallId } from "../../../adapters/gemini/call-ids.js";
import { GeminiStreamAssembler, type GeminiAssembledResponse } from "../../../adapters/gemini/stream.js";
import { outputItemId } from "../../../adapters/gemini/generate-content-to-response.js";
import { RESPONSE_NEUTRALS } from "../../../src/models/response-neutrals.js";
import { withoutNeutralFields } from "../../support/response-neutrals.js";
import { specErrors } from "../../support/spec-validator.js";

const ID = "2FpeaMz2ApGtz7IP4rG2-QE";
const chunk = (parts: unknown[], extra: Record<string, unknown> = {}, responseId = ID) => ({
  candidates: [{ content: { parts, role: "model" }, ...extra }],
  modelVersion: "gemini-2.0-flash",
  responseId,
});

/** The responses as normalize reads them: items and losses; what convert writes is `record`, looked at apart. */
function run(chunks: unknown[]): GeminiAssembledResponse[] {
  return records(chunks).map(({ record: _record, merged: _merged, ...response }) => ({ ...response, losses: withoutNeutralFields(response.losses) }));
}

function records(chunks: unknown[]): GeminiAssembledResponse[] {
  const assembler = new GeminiStreamAssembler();
  return [...chunks.flatMap((value, index) => assembler.push(value, index + 1)), ...assembler.finish()];
}

const created = { path: "/created_at", code: "synthesized", detail: "a Gemini response has no creation time: created_at 0 written", line: 1 };
const leftBehind = (line: number, key: string, whose = "the response") => ({ line, path: whose === "the response" ? `/${key}` : `/candidates/0/${key}`, code: "left_behind", detail: `${key} of ${whose} is in no item: normalize writes items only` });
const modelAndId = (line: number) => [leftBehind(line, "modelVersion"), leftBehind(line, "responseId")];

describe("text chunks", () => {
  test("are joined into one part, the signature of the last set on it", () => {
    const out = run([chunk([{ text: "The capital" }]), chunk([{ text: " is Lisbon." }]), chunk([{ text: "", thoughtSignature: "EoECCv4B" }], { finishReason: "STOP" })]);
    expect(out).toEqual([
      {
        id: ID,
        status: "completed",
        items: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "The capital is Lisbon.", annotations: [], "gemini:thoughtSignature": "EoECCv4B" }] }],
        losses: [created, ...modelAndId(1), ...modelAndId(2), ...modelAndId(3), leftBehind(3, "finishReason", "candidate 0")],
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

  test("a functionCall that only says more will follow, as Vertex sends after each object of an array, keeps the call open", () => {
    const args = '{"list":{"items":[{"qty":"2","name":"pears"},{"qty":"1","name":"bread"}],"title":"Market"}}';
    const [response] = run([
      chunk([{ functionCall: { name: "make_list", willContinue: true } }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: "$.list.items[0].qty", stringValue: "2", willContinue: true }], willContinue: true } }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: "$.list.items[0].qty", stringValue: "" }], willContinue: true } }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: "$.list.items[0].name", stringValue: "pears" }], willContinue: true } }]),
      chunk([{ functionCall: { willContinue: true } }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: "$.list.items[1].qty", stringValue: "1" }], willContinue: true } }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: "$.list.items[1].name", stringValue: "bread" }], willContinue: true } }]),
      chunk([{ functionCall: { willContinue: true } }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: "$.list.title", stringValue: "Market" }], willContinue: true } }]),
      chunk([{ functionCall: {} }], { finishReason: "STOP" }),
    ]);
    expect(response!.items).toEqual([{ type: "function_call", call_id: synthesizedCallId(1, "make_list", args), name: "make_list", arguments: args, status: "completed" }]);
  });

  describe("pieces that cannot be set as written", () => {
    const pieced = (pieces: unknown[], closing: Record<string, unknown> = {}) => [
      chunk([{ functionCall: { name: "write_note", willContinue: true } }]),
      chunk([{ functionCall: { partialArgs: [{ jsonPath: "$.title", stringValue: "Shopping" }, ...pieces], willContinue: true } }]),
      chunk([{ functionCall: closing }]),
      chunk([{ text: "" }], { finishReason: "STOP" }),
    ];
    const statuses = (response: GeminiAssembledResponse) => response.items.filter((item) => item.type === "function_call").map((item) => (item as { status?: unknown }).status);

    test("a step __proto__ or constructor.prototype names a member of the args, and never reaches a prototype", () => {
      for (const jsonPath of ["$.__proto__.status", "$.constructor.prototype.status", "$['__proto__']"]) {
        const [response] = run(pieced([{ jsonPath, stringValue: "completed" }]));
        expect(({} as Record<string, unknown>).status).toBeUndefined();
        expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain("status");
        // Set as the piece says: a member the schema then judges, a call the gate then sees as written.
        expect(response!.items[0]).toMatchObject({ type: "function_call", status: "completed" });
        expect(JSON.parse((response!.items[0] as { arguments: string }).arguments)).toHaveProperty("title", "Shopping");
      }
    });

    test("an index that would leave a hole, or go into a value that is no array or object, is not applied, and the calls are incomplete", () => {
      for (const jsonPath of ["$.tags[4000000000]", "$.tags[1]", "$.title[0]", "$.title.x", "$..x"]) {
        const [response] = run(pieced([{ jsonPath, stringValue: "x" }]));
        expect(statuses(response!)).toEqual(["incomplete"]);
        expect(response!.losses.filter((loss) => loss.code === "unsupported_field").map((loss) => loss.detail)).toEqual([expect.stringMatching(/not applied, so the response's calls are written incomplete$/)]);
      }
    });

    test("a piece that one reader appends and another puts in place, a piece with two values, or a name with an escape: not applied, the calls incomplete", () => {
      const cases: Array<[unknown[], RegExp]> = [
        // "$.title" was set by a piece that said it was its last.
        [[{ jsonPath: "$.title", stringValue: "/../etc" }], /after the piece that said it was the last of it/],
        [[{ jsonPath: "$.count", numberValue: 5, willContinue: true }, { jsonPath: "$.count", numberValue: 1000000 }], /continuing a value that is not a string/],
        [[{ jsonPath: "$.count", numberValue: 1000000 }, { jsonPath: "$.count", numberValue: 5 }], /after the piece that said it was the last of it/],
        [[{ jsonPath: "$.tags[0]", stringValue: "a" }, { jsonPath: "$.tags", stringValue: "b" }], /where the pieces before built a value/],
        [[{ jsonPath: "$.count", numberValue: 5, stringValue: "1000000" }], /with 2 values/],
        [[{ jsonPath: "$['\\u0063ount']", numberValue: 1000000 }], /is not of the form/],
        [[{ jsonPath: "$.co-unt", numberValue: 1 }], /is not of the form/],
      ];
      for (const [pieces, why] of cases) {
        const [response] = run(pieced(pieces));
        expect(statuses(response!)).toEqual(["incomplete"]);
        expect(response!.losses.filter((loss) => loss.code === "unsupported_field").map((loss) => loss.detail)).toEqual([expect.stringMatching(why)]);
      }
      // A string continued over chunks, each piece saying more follows, is one value to every reader.
      const [continued] = run([
        chunk([{ functionCall: { name: "write_note", willContinue: true } }]),
        chunk([{ functionCall: { partialArgs: [{ jsonPath: "$.title", stringValue: "Shop", willContinue: true }], willContinue: true } }]),
        chunk([{ functionCall: { partialArgs: [{ jsonPath: "$['title']", stringValue: "ping", willContinue: true }], willContinue: true } }]),
        chunk([{ functionCall: { partialArgs: [{ jsonPath: "$.title", stringValue: "!" }] } }]),
        chunk([{ text: "" }], { finishReason: "STOP" }),
      ]);
      expect(statuses(continued!)).toEqual(["completed"]);
      expect(JSON.parse((continued!.items[0] as { arguments: string }).arguments)).toEqual({ title: "Shopping!" });
    });

    test("whole args given beside the pieces: the pieces make the args, the call is incomplete, reported", () => {
      const [response] = run(pieced([], { args: { title: "Something else" } }));
      expect(statuses(response!)).toEqual(["incomplete"]);
      expect(response!.losses).toContainEqual({ line: 3, path: "/candidates/0/content/parts/0/functionCall/args", code: "form_changed", detail: "args given whole beside the call's partialArgs pieces: the pieces make the args, a reader that takes these sees another call, so the response's calls are written incomplete" });
    });

    test("a piece or the close that names the call otherwise, or gives it another id, leaves the calls incomplete; the same name again changes nothing", () => {
      const [renamed] = run(pieced([], { name: "delete_note" }));
      expect(statuses(renamed!)).toEqual(["incomplete"]);
      expect(renamed!.items[0]).toMatchObject({ name: "write_note" });
      expect(renamed!.losses).toContainEqual({ line: 3, path: "/candidates/0/content/parts/0/functionCall/name", code: "form_changed", detail: 'a piece of the call gives its name as "delete_note", where it opened as "write_note": a reader that keeps the first and one that takes the last read other calls, so the response\'s calls are written incomplete' });
      // A last piece that names it, and a piece that gives it an id it did not open with.
      const piece = { partialArgs: [{ jsonPath: "$.body", stringValue: "milk" }] };
      for (const odd of [{ ...piece, name: "delete_note" }, { ...piece, id: "call_other", willContinue: true }]) {
        const [response] = run([...pieced([]).slice(0, 2), chunk([{ functionCall: odd }]), ...pieced([]).slice(2)]);
        expect(statuses(response!)[0]).toBe("incomplete");
        expect(statuses(response!)).not.toContain("completed");
      }
      const [same] = run(pieced([], { name: "write_note" }));
      expect(statuses(same!)).toEqual(["completed"]);
    });
  });

  test("a call whose pieces were still coming when the stream ended is in_progress, reported on its line", () => {
    const [response] = run([chunk([{ functionCall: { name: "write_note", willContinue: true } }]), chunk([{ functionCall: { partialArgs: [{ jsonPath: "$.title", stringValue: "Sho", willContinue: true }], willContinue: true } }])]);
    expect(response!.status).toBe("in_progress");
    expect(response!.items).toEqual([{ type: "function_call", call_id: synthesizedCallId(1, "write_note", '{"title":"Sho"}'), name: "write_note", arguments: '{"title":"Sho"}', status: "in_progress" }]);
    expect(response!.losses.filter((loss) => loss.code === "form_changed")).toEqual([
      { line: 1, path: "/candidates/0/content/parts/0/functionCall/willContinue", code: "form_changed", detail: "willContinue marks a call whose args come in pieces: the call is written once they have all come" },
      { line: 1, path: "/candidates/0/content/parts/0", code: "form_changed", detail: "the stream ended before this call's last piece: it stays in_progress" },
      { line: 2, path: "/candidates/0/content/parts/0/functionCall/partialArgs", code: "form_changed", detail: "partialArgs pieces are set at their jsonPath into the call's args: the call is written whole" },
      { line: 2, path: "/candidates/0/content/parts/0/functionCall/willContinue", code: "form_changed", detail: "willContinue marks a call whose args come in pieces: the call is written once they have all come" },
    ]);
  });

  test("finish_reason in snake case finishes a candidate too: a part after it, or a call still in pieces, leaves the calls not completed", () => {
    const whole = { functionCall: { name: "get_capital", args: { country: "Portugal" } } };
    const [finished] = run([chunk([whole], { finish_reason: "STOP" })]);
    expect(finished!.items.map((item) => (item as { status?: string }).status)).toEqual(["completed"]);
    const [late] = run([chunk([whole], { finish_reason: "STOP" }), chunk([{ functionCall: { name: "get_capital", args: { country: "Spain" } } }])]);
    expect(late!.items.map((item) => (item as { status?: string }).status)).not.toContain("completed");
    const [cut] = run([chunk([{ functionCall: { name: "write_note", willContinue: true } }]), chunk([{ functionCall: { partialArgs: [{ jsonPath: "$.title", stringValue: "Sho", willContinue: true }], willContinue: true } }], { finish_reason: "STOP" })]);
    expect(cut!.items.map((item) => (item as { status?: string }).status)).toEqual(["in_progress"]);
  });

  test("a whole call in a stream that never finished is in_progress", () => {
    const [response] = run([chunk([{ functionCall: { name: "get_capital", args: { country: "Portugal" } } }])]);
    expect(response!.items.map((item) => (item as { status?: string }).status)).toEqual(["in_progress"]);
  });
});

describe("a stream whose finishReason is the enum's number", () => {
  test("1 completes its call, as STOP does", () => {
    const [response] = run([chunk([{ functionCall: { name: "get_capital", args: { country: "Portugal" } } }], { finishReason: 1 })]);
    expect(response!.items.map((item) => [item.type, (item as { status?: string }).status])).toEqual([["function_call", "completed"]]);
  });

  test("a call after it leaves the response's calls incomplete, as after STOP", () => {
    const [response] = run([chunk([{ text: "Looking." }], { finishReason: 1 }), chunk([{ functionCall: { name: "get_capital", args: { country: "Portugal" } } }])]);
    expect(response!.items.map((item) => [item.type, (item as { status?: string }).status])).toEqual([
      ["message", undefined],
      ["function_call", "incomplete"],
    ]);
    expect(response!.losses.filter((loss) => loss.code === "form_changed")).toEqual([
      { line: 2, path: "/candidates/0/content/parts", code: "form_changed", detail: "parts came after candidate 0's finishReason (line 1): a reader that stops there and one that reads on see different calls, so the response's calls are written incomplete" },
    ]);
  });
});

describe("two candidates, one of which goes on after its finishReason", () => {
  const both = (first: unknown[], second: unknown[], finish: [string | undefined, string | undefined]) => ({
    candidates: [
      { content: { role: "model", parts: first }, index: 0, ...(finish[0] ? { finishReason: finish[0] } : {}) },
      { content: { role: "model", parts: second }, index: 1, ...(finish[1] ? { finishReason: finish[1] } : {}) },
    ],
    modelVersion: "gemini-2.0-flash",
    responseId: ID,
  });
  const call = { functionCall: { name: "get_capital", args: { country: "Portugal" } } };

  test("writes the response's calls incomplete, reported on the late chunk's line", () => {
    const [response] = run([both([call], [{ text: "Thinking" }], ["STOP", undefined]), both([{ functionCall: { name: "get_capital", args: { country: "Spain" } } }], [{ text: " done." }], [undefined, "STOP"])]);
    expect(response!.items.filter((item) => item.type === "function_call").map((item) => (item as { status?: string }).status)).toEqual(["incomplete", "incomplete"]);
    expect(response!.losses).toContainEqual({ line: 2, path: "/candidates/0/content/parts", code: "form_changed", detail: "parts came after candidate 0's finishReason (line 1): a reader that stops there and one that reads on see different calls, so the response's calls are written incomplete" });
  });

  test("an empty text after the finishReason changes nothing", () => {
    const [response] = run([both([call], [{ text: "Thinking" }], ["STOP", undefined]), both([{ text: "" }], [{ text: " done." }], [undefined, "STOP"])]);
    expect(response!.items.filter((item) => item.type === "function_call").map((item) => (item as { status?: string }).status)).toEqual(["completed"]);
    expect(response!.losses.filter((loss) => loss.detail.includes("finishReason ("))).toEqual([]);
  });
});

describe("a chunk of the same responseId after every candidate finished", () => {
  const call = (country: string) => ({ functionCall: { name: "get_capital", args: { country } } });

  test("goes on the finished response, whose calls are then incomplete: a reader that stops at the finishReason and one that reads on see other calls", () => {
    const out = run([chunk([call("Portugal")]), chunk([], { finishReason: "STOP" }), chunk([call("Spain")])]);
    expect(out).toHaveLength(1);
    expect(out[0]!.items.filter((item) => item.type === "function_call").map((item) => (item as { status?: string }).status)).toEqual(["incomplete", "incomplete"]);
    expect(out[0]!.losses).toContainEqual({ line: 3, path: "/candidates/0/content/parts", code: "form_changed", detail: "parts came after candidate 0's finishReason (line 2): a reader that stops there and one that reads on see different calls, so the response's calls are written incomplete" });
  });

  test("with a finishReason of its own, as a whole response on its line, goes on it too", () => {
    const out = run([chunk([call("Portugal")]), chunk([], { finishReason: "STOP" }), chunk([call("Spain")], { finishReason: "STOP" })]);
    expect(out).toHaveLength(1);
    expect(out[0]!.items.filter((item) => item.type === "function_call").map((item) => (item as { status?: string }).status)).toEqual(["incomplete", "incomplete"]);
  });
});

describe("a candidate that gives a finishReason and then another", () => {
  const call = { functionCall: { name: "get_capital", args: { country: "Portugal" } } };
  const callStatuses = (response: GeminiAssembledResponse) => response.items.filter((item) => item.type === "function_call").map((item) => (item as { status?: string }).status);

  test.each([["MAX_TOKENS"], ["SAFETY"], ["MALFORMED_FUNCTION_CALL"]])("%s, then STOP: the response's calls are written incomplete, reported where the second said it", (first) => {
    const [response] = run([chunk([call], { finishReason: first }), chunk([], { finishReason: "STOP" })]);
    expect(callStatuses(response!)).toEqual(["incomplete"]);
    expect(response!.losses.filter((loss) => loss.detail.includes("two ways"))).toEqual([
      { line: 2, path: "/candidates/0/finishReason", code: "form_changed", detail: `candidate 0 gives finishReason "STOP" after "${first}" on line 1: a reader that stops at the first and one that reads on see its calls end two ways, so the response's calls are written incomplete` },
    ]);
  });

  test("in the snake case of the Python SDK's dumps too", () => {
    const [response] = run([chunk([call], { finish_reason: "MAX_TOKENS" }), chunk([], { finish_reason: "STOP" })]);
    expect(callStatuses(response!)).toEqual(["incomplete"]);
  });

  test("the same finishReason said again keeps the call completed", () => {
    const [response] = run([chunk([call], { finishReason: "STOP" }), chunk([], { finishReason: "STOP" })]);
    expect(callStatuses(response!)).toEqual(["completed"]);
  });
});

describe("a promptFeedback that says the prompt blocked, and then otherwise", () => {
  const call = { functionCall: { name: "get_capital", args: { country: "Portugal" } } };

  test("a later chunk without its blockReason: the response's calls are written incomplete, reported where it said so", () => {
    const [response] = run([{ ...chunk([call]), promptFeedback: { blockReason: "SAFETY" } }, { ...chunk([], { finishReason: "STOP" }), promptFeedback: {} }]);
    expect(response!.items.filter((item) => item.type === "function_call").map((item) => (item as { status?: string }).status)).toEqual(["incomplete"]);
    expect(response!.losses.filter((loss) => loss.path === "/promptFeedback" && loss.code === "form_changed")).toEqual([
      { line: 2, path: "/promptFeedback", code: "form_changed", detail: 'the promptFeedback gives no blockReason after blockReason "SAFETY" on line 1: a reader of that chunk saw the prompt blocked, so the response\'s calls are written incomplete' },
    ]);
  });

  test("a promptFeedback without blockReason in every chunk keeps the call completed", () => {
    const [response] = run([{ ...chunk([call]), promptFeedback: {} }, { ...chunk([], { finishReason: "STOP" }), promptFeedback: {} }]);
    expect(response!.items.filter((item) => item.type === "function_call").map((item) => (item as { status?: string }).status)).toEqual(["completed"]);
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

describe("the fields every chunk says again", () => {
  const usage = (prompt: number, candidates?: number) => ({ usageMetadata: { promptTokenCount: prompt, ...(candidates === undefined ? {} : { candidatesTokenCount: candidates }) } });
  const chunks = [
    { ...chunk([{ text: "Lisbon" }]), ...usage(12) },
    { ...chunk([{ text: " it is." }], { finishReason: "STOP", index: 0 }), ...usage(12, 4) },
  ];

  test("normalize leaves each one behind where its chunk said it", () => {
    const [response] = run(chunks);
    expect(response!.losses).toEqual([
      created,
      ...modelAndId(1),
      { line: 1, path: "/usageMetadata", code: "left_behind", detail: "usageMetadata of the response is in no item: normalize writes items only" },
      ...modelAndId(2),
      { line: 2, path: "/usageMetadata", code: "left_behind", detail: "usageMetadata of the response is in no item: normalize writes items only" },
      leftBehind(2, "finishReason", "candidate 0"),
      leftBehind(2, "index", "candidate 0"),
    ]);
  });

  test("convert writes the response object the last chunk completes, and reports the earlier value it replaced", () => {
    const [response] = records(chunks);
    const { value, losses } = response!.record!();
    expect(value).toEqual({
      ...RESPONSE_NEUTRALS,
      id: ID,
      object: "response",
      created_at: 0,
      status: "completed",
      incomplete_details: null,
      model: "gemini-2.0-flash",
      output: [{ id: outputItemId(ID, 0, "message"), type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "Lisbon it is.", annotations: [] }] }],
      usage: { input_tokens: 12, output_tokens: 4, total_tokens: 16, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
      "gemini:candidates": [{ finishReason: "STOP", index: 0 }],
      "gemini:usageMetadata": { promptTokenCount: 12, candidatesTokenCount: 4 },
    });
    expect(withoutNeutralFields(losses)).toEqual([
      created,
      { line: 1, path: "/output/0/id", code: "synthesized", detail: `a Gemini part has no item id: ${outputItemId(ID, 0, "message")} derived from the response id and the item's place` },
      { line: 1, path: "/usageMetadata", code: "left_behind", detail: "usageMetadata of the response as this chunk said it, which another chunk's replaced: the response holds one value" },
    ]);
    expect(specErrors("ResponseResource", value)).toEqual([]);
  });
});
