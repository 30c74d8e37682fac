import { describe, expect, test } from "vitest";
import { replayGate } from "../../src/gate/replay-gate.js";
import { ResponsesStreamAssembler, type AssembledResponse } from "../../src/journal/responses-stream.js";

const RESP = "resp_0b7f2c1e9a4d";
const FC = "fc_0b7f2c1e9a4d01";
const CALL = "call_Tq8mZ2vLx4Rb";
const MSG = "msg_0b7f2c1e9a4d02";
const RS = "rs_0b7f2c1e9a4d03";

const lookupSchema = { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false };

const response = (status: string, output: unknown[] = [], id = RESP) => ({ id, object: "response", status, output });
const created = (id = RESP) => ({ type: "response.created", response: response("in_progress", [], id) });
const completed = (output: unknown[], id = RESP) => ({ type: "response.completed", response: response("completed", output, id) });
const added = (index: number, item: object) => ({ type: "response.output_item.added", output_index: index, item });
const itemDone = (index: number, item: object) => ({ type: "response.output_item.done", output_index: index, item });
const argsDelta = (index: number, delta: string, itemId = FC) => ({ type: "response.function_call_arguments.delta", item_id: itemId, output_index: index, delta });
const argsDone = (index: number, args: string, itemId = FC) => ({ type: "response.function_call_arguments.done", item_id: itemId, output_index: index, arguments: args });
const textDelta = (index: number, delta: string) => ({ type: "response.output_text.delta", item_id: MSG, output_index: index, content_index: 0, delta });

const CUT_BEFORE_END = "the stream ends before its terminal event (response.completed, .incomplete or .failed), where openai-python and the Agents SDKs give no final response: the call is in_progress";

const callOpened = { id: FC, type: "function_call", status: "in_progress", arguments: "", call_id: CALL, name: "lookup_city" };
const callFinal = { id: FC, type: "function_call", status: "completed", arguments: "{\"city\":\"Lyon\"}", call_id: CALL, name: "lookup_city" };

/** Pushes events numbered from 1; returns what push and finish gave, in order. */
function runWhole(events: unknown[]): AssembledResponse[] {
  const assembler = new ResponsesStreamAssembler();
  const out = events.flatMap((event, i) => assembler.push(event, i + 1));
  return [...out, ...assembler.finish()];
}

/** The same, less the response object's fields left behind, which "the response object's fields" tests. */
function run(events: unknown[]): AssembledResponse[] {
  return runWhole(events).map((response) => ({ ...response, losses: response.losses.filter((loss) => loss.code !== "left_behind") }));
}

describe("function call events", () => {
  const full = [created(), added(0, callOpened), argsDelta(0, "{\"ci"), argsDelta(0, "ty\":\"Ly"), argsDelta(0, "on\"}"), argsDone(0, "{\"city\":\"Lyon\"}"), itemDone(0, callFinal), completed([callFinal])];

  test("a complete stream gives the call as response.completed carries it", () => {
    expect(run(full)).toEqual([{ id: RESP, status: "completed", items: [callFinal], losses: [], line: 1, lastLine: 8 }]);
  });

  test("the response is held after its terminal event, and given at the end of the stream", () => {
    const assembler = new ResponsesStreamAssembler();
    const returned = full.map((event, i) => assembler.push(event, i + 1));
    expect(returned.every((responses) => responses.length === 0)).toBe(true);
    const leftBehind = (key: string) => ({ line: 8, path: `/response/${key}`, code: "left_behind", detail: `${key} of the response is in no item: normalize writes items only` });
    expect(assembler.finish()).toEqual([{ id: RESP, status: "completed", items: [callFinal], losses: [leftBehind("id"), leftBehind("status")], line: 1, lastLine: 8 }]);
  });

  test("the response held after its terminal event is given by the next response.created, which opens another", () => {
    const assembler = new ResponsesStreamAssembler();
    const returned = [...full, created("resp_0b7f2c1e9a4e")].map((event, i) => assembler.push(event, i + 1));
    expect(returned.slice(0, 8).every((responses) => responses.length === 0)).toBe(true);
    expect(returned[8]!.map((response) => [response.id, response.status, response.items, response.lastLine])).toEqual([[RESP, "completed", [callFinal], 8]]);
    expect(assembler.finish().map((response) => [response.id, response.items, response.line])).toEqual([["resp_0b7f2c1e9a4e", [], 9]]);
  });

  test("cut mid-arguments: the call stays in_progress with the prefix, and the gate blocks it", () => {
    const [result] = run(full.slice(0, 4));
    expect(result).toEqual({
      id: RESP,
      status: "in_progress",
      items: [{ ...callOpened, arguments: "{\"city\":\"Ly" }],
      losses: [],
      line: 1,
      lastLine: 4,
    });
    expect(replayGate(result.items[0], lookupSchema).reason).toBe("status");
  });

  test("cut after arguments.done but before output_item.done: full arguments, still in_progress", () => {
    const [result] = run(full.slice(0, 6));
    expect(result.items).toEqual([{ ...callOpened, arguments: "{\"city\":\"Lyon\"}" }]);
    expect(replayGate(result.items[0], lookupSchema).reason).toBe("status");
  });

  test("partial arguments that happen to parse are still not final", () => {
    const [result] = run([created(), added(0, callOpened), argsDelta(0, "{}")]);
    expect(result.items).toEqual([{ ...callOpened, arguments: "{}" }]);
    expect(replayGate(result.items[0], lookupSchema).reason).toBe("status");
  });

  test("arguments.done sets the arguments, whatever the deltas said", () => {
    const [result] = run([created(), added(0, callOpened), argsDelta(0, "{\"city\":\"Pa"), argsDone(0, "{\"city\":\"Lyon\"}")]);
    expect(result.items).toEqual([{ ...callOpened, arguments: "{\"city\":\"Lyon\"}" }]);
  });

  test("output_item.done replaces the item, status included; the terminal event after it lets the call run", () => {
    const [result] = run(full);
    expect(result).toEqual({ id: RESP, status: "completed", items: [callFinal], losses: [], line: 1, lastLine: 8 });
    expect(replayGate(result.items[0], lookupSchema).reason).toBe("ok");
  });

  test("cut after output_item.done, before the terminal event: the call is in_progress, and the gate blocks it", () => {
    const [result] = run(full.slice(0, 7));
    expect(result).toEqual({ id: RESP, status: "in_progress", items: [{ ...callFinal, status: "in_progress" }], losses: [{ line: 7, path: "/item/status", code: "form_changed", detail: CUT_BEFORE_END }], line: 1, lastLine: 7 });
    expect(replayGate(result.items[0], lookupSchema).reason).toBe("status");
  });

  test("the output of response.completed wins over the streamed items", () => {
    const reasoningStreamed = { id: RS, type: "reasoning", encrypted_content: "gAAAAB-first", summary: [] };
    const reasoningFinal = { id: RS, type: "reasoning", encrypted_content: "gAAAAB-final", summary: [{ type: "summary_text", text: "Look the city up." }] };
    const [result] = run([created(), added(0, reasoningStreamed), itemDone(0, reasoningStreamed), completed([reasoningFinal])]);
    expect(result.items).toEqual([reasoningFinal]);
  });

  test("a terminal event with an empty output keeps the streamed items as last seen", () => {
    const [result] = run([created(), added(0, callOpened), argsDelta(0, "{\"ci"), completed([])]);
    expect(result).toEqual({ id: RESP, status: "completed", items: [{ ...callOpened, arguments: "{\"ci" }], losses: [], line: 1, lastLine: 4 });
    expect(replayGate(result.items[0], lookupSchema).reason).toBe("status");
  });

  test("the events given to the assembler are not changed", () => {
    const events = [created(), added(0, callOpened), argsDelta(0, "{\"city\":\"Lyon\"}"), itemDone(0, callFinal), argsDelta(0, "tail")];
    const before = structuredClone(events);
    run(events);
    expect(events).toEqual(before);
  });
});

describe("a stream that finishes a call one way and then says otherwise", () => {
  const other = { ...callFinal, arguments: "{\"city\":\"Paris\"}" };
  const stopped = (item: object, line: number, path: string, why: string) => [{ ...item, status: "incomplete" }, { line, path, code: "form_changed", detail: `${why}: its completed call is written incomplete, as no one reading of the stream runs it` }] as const;

  test("a terminal output without the call an output_item.done finished: the calls are written incomplete, and the gate blocks them", () => {
    const [result] = run([created(), added(0, callOpened), itemDone(0, callFinal), completed([other])]);
    const [item, loss] = stopped(other, 4, "/response/output/0/status", "the stream said two things of one call");
    expect(result).toEqual({
      id: RESP,
      status: "completed",
      items: [item],
      losses: [{ line: 4, path: "", code: "form_changed", detail: "the terminal event's output does not hold the call at output_index 0 as the stream gave it" }, loss],
      line: 1,
      lastLine: 4,
    });
    expect(replayGate(result!.items[0], lookupSchema).reason).toBe("status");
  });

  test("two output_item.done events for one call, each otherwise", () => {
    const [result] = run([itemDone(0, callFinal), itemDone(0, other)]);
    expect(result!.items).toEqual([{ ...other, status: "incomplete" }]);
    expect(result!.losses[0]).toEqual({ line: 2, path: "", code: "form_changed", detail: "the call at output_index 0 is finished twice, each time otherwise" });
  });

  test("a call finished twice compares as the JSON of its call_id, name and arguments: strings or not, and a missing call_id as null", () => {
    const twice = (first: object, second: object) => run([itemDone(0, first), itemDone(0, second)])[0]!.losses.filter((loss) => loss.detail.includes("finished twice"));
    const { call_id: _callId, ...withoutCallId } = callFinal;
    // The same text from an object and from a string is another value: JSON writes them otherwise.
    expect(twice(callFinal, { ...callFinal, arguments: { city: "Lyon" } })).toHaveLength(1);
    expect(twice({ ...callFinal, arguments: { city: "Lyon" } }, callFinal)).toHaveLength(1);
    expect(twice({ ...callFinal, arguments: { city: "Lyon" } }, { ...callFinal, arguments: { city: "Lyon" } })).toEqual([]);
    expect(twice(withoutCallId, { ...callFinal, call_id: null })).toEqual([]);
    expect(twice(callFinal, { ...callFinal, call_id: null })).toHaveLength(1);
    expect(twice(callFinal, { ...callFinal })).toEqual([]);
    expect(twice(callFinal, { ...callFinal, name: "lookup_cit" })).toHaveLength(1);
  });

  test("an output_item.done that says otherwise than the function_call_arguments.done before it", () => {
    const [result] = run([created(), added(0, callOpened), argsDone(0, "{\"city\":\"Lyon\"}"), itemDone(0, other), completed([other])]);
    expect(result!.items).toEqual([{ ...other, status: "incomplete" }]);
  });

  test("an output_item.added at another output_index than the next, which the SDKs append at the next one", () => {
    const gap = { ...callFinal, id: "fc_gap", call_id: "call_gap" };
    const [result] = run([created(), added(1, { ...callOpened, ...{ id: "fc_gap", call_id: "call_gap" } }), argsDelta(1, "{\"city\":\"Lyon\"}", "fc_gap"), itemDone(1, gap), completed([gap])]);
    expect(result!.items).toEqual([{ ...gap, status: "incomplete" }]);
    expect(result!.losses[0]).toEqual({ line: 2, path: "", code: "form_changed", detail: "output_item.added at output_index 1, where the next item is at 0: the SDKs append each item, so they place it, and the events after it, otherwise" });
  });

  test("a function_call_arguments.done that names another function than the call it finishes", () => {
    const [result] = run([created(), added(0, callOpened), argsDelta(0, "{\"city\":\"Lyon\"}"), { ...argsDone(0, "{\"city\":\"Lyon\"}"), name: "delete_city" }, itemDone(0, callFinal), completed([callFinal])]);
    expect(result!.items).toEqual([{ ...callFinal, status: "incomplete" }]);
    expect(result!.losses[0]).toEqual({ line: 4, path: "", code: "form_changed", detail: 'function_call_arguments.done names the function "delete_city", where the call it finishes is "lookup_city"' });
    const [same] = run([created(), added(0, callOpened), argsDelta(0, "{\"city\":\"Lyon\"}"), { ...argsDone(0, "{\"city\":\"Lyon\"}"), name: "lookup_city" }, itemDone(0, callFinal), completed([callFinal])]);
    expect(same!.items).toEqual([callFinal]);
  });

  test.each([
    ["a delta", { ...argsDelta(0, ""), delta: ["../../etc/passwd"] }, 'response.function_call_arguments.delta gives delta as an array, not a string: openai-node appends or sets it as it is, and this reader does not apply it'],
    ["a delta left out", { type: "response.function_call_arguments.delta", item_id: FC, output_index: 0 }, "response.function_call_arguments.delta gives delta as nothing, not a string: openai-node appends or sets it as it is, and this reader does not apply it"],
    ["done arguments", { ...argsDone(0, ""), arguments: { city: "Lyon" } }, "response.function_call_arguments.done gives arguments as an object, not a string: openai-node appends or sets it as it is, and this reader does not apply it"],
  ])("%s that is no string, which openai-node adds to the arguments as it is: the stream's calls are incomplete", (_label, odd, detail) => {
    const [result] = run([created(), added(0, callOpened), argsDelta(0, "{\"city\":\"Lyon\"}"), odd, itemDone(0, callFinal), completed([callFinal])]);
    expect(result!.items).toEqual([{ ...callFinal, status: "incomplete" }]);
    expect(result!.losses).toContainEqual({ line: 4, path: "", code: "form_changed", detail });
    expect(replayGate(result!.items[0]!, lookupSchema).reason).toBe("status");
  });

  test("deltas that spell other arguments than the done event or the terminal output say", () => {
    const mars = "{\"city\":\"Mars\"}";
    for (const events of [
      [created(), added(0, callOpened), argsDelta(0, mars), argsDone(0, "{\"city\":\"Lyon\"}"), itemDone(0, callFinal), completed([callFinal])],
      [created(), added(0, callOpened), argsDelta(0, mars), itemDone(0, callFinal), completed([callFinal])],
      [created(), added(0, callOpened), argsDelta(0, mars), completed([callFinal])],
    ]) {
      expect(run(events)[0]!.items).toEqual([{ ...callFinal, status: "incomplete" }]);
    }
  });

  const invalid = { ...callFinal, arguments: "{\"city\":7}" };
  const message = { id: MSG, type: "message", status: "completed", role: "assistant", content: [] };
  const kept = (line: number) => ({ line, path: "/item", code: "form_changed", detail: "the stream later put another item in this call's place, or left it out of its terminal output: the call is kept, after the response's items" });
  const said = (line: number, detail: string) => ({ line, path: "", code: "form_changed", detail });
  const verdicts = (result: AssembledResponse) => result.items.map((item) => replayGate(item, lookupSchema).reason);

  test("a finished call that a later output_item event puts a message in the place of is kept, incomplete, after the items", () => {
    for (const last of ["response.output_item.added", "response.output_item.done"]) {
      const [result] = run([itemDone(0, invalid), { type: last, output_index: 0, item: message }, itemDone(0, message)]);
      const [item, loss] = stopped(invalid, 1, "/item/status", "the stream said two things of one call");
      expect(result!.items).toEqual([message, item]);
      expect(result!.losses).toEqual([said(2, `${last.slice("response.".length)} at output_index 0 puts an item of type "message" where the stream had given a call`), kept(1), loss]);
      expect(verdicts(result!)).toEqual(["not_function_call", "status"]);
    }
  });

  test("a terminal output that holds no call, where the stream finished one: the call is kept, incomplete", () => {
    const [result] = run([created(), itemDone(0, invalid), itemDone(1, message), completed([message])]);
    expect(result!.items).toEqual([message, { ...invalid, status: "incomplete" }]);
    expect(verdicts(result!)).toEqual(["not_function_call", "status"]);
    expect(result!.losses.slice(0, 2)).toEqual([said(4, "the terminal event's output does not hold the call at output_index 0 as the stream gave it"), kept(2)]);
  });

  test("an output_item.done that names the call otherwise than its output_item.added", () => {
    for (const renamed of [{ ...callFinal, name: "lookup_town" }, { ...callFinal, call_id: "call_9" }]) {
      const [result] = run([created(), added(0, callOpened), argsDelta(0, callFinal.arguments), itemDone(0, renamed)]);
      expect(result!.losses[0]).toEqual(said(4, "output_item.done at output_index 0 names the call otherwise than the output_item.added that opened it"));
      expect(verdicts(result!).every((reason) => reason === "status")).toBe(true);
    }
    const [renamedId] = run([created(), added(0, callOpened), itemDone(0, { ...callFinal, call_id: "call_9" })]);
    expect(renamedId!.items).toEqual([{ ...callFinal, call_id: "call_9", status: "incomplete" }, callOpened]);
  });

  test("arguments carried by output_item.added that the output_item.done contradicts", () => {
    const [result] = run([created(), added(0, { ...callOpened, arguments: invalid.arguments }), itemDone(0, callFinal)]);
    expect(result!.items).toEqual([{ ...callFinal, status: "incomplete" }]);
    expect(result!.losses[0]).toEqual(said(3, "output_item.done at output_index 0 says otherwise than the arguments of the output_item.added before it give"));
  });

  test("argument deltas that fit no call, or come after the call was finished, block the response's calls", () => {
    for (const events of [
      [created(), argsDelta(0, invalid.arguments), added(0, callOpened), itemDone(0, callFinal)],
      [created(), added(0, callOpened), argsDelta(0, invalid.arguments, "fc_X"), itemDone(0, callFinal)],
      [created(), added(0, message), argsDelta(0, invalid.arguments), added(1, callOpened), itemDone(1, callFinal)],
    ]) {
      const [result] = run(events);
      expect(verdicts(result!).filter((reason) => reason !== "not_function_call")).toEqual(["status"]);
      expect(result!.losses.some((loss) => loss.code === "form_changed" && loss.path === "" && loss.detail.includes("fits no call the stream opened"))).toBe(true);
    }
    const [late] = run([created(), added(0, callOpened), itemDone(0, { ...callFinal, arguments: "{\"city\":\"Lyon\"" }), argsDelta(0, "}")]);
    expect(verdicts(late!)).toEqual(["status"]);
    expect(late!.losses[0]).toEqual(said(4, "function_call_arguments.delta comes after its call was finished, and changes its arguments"));
  });

  test("the same call added again after deltas: the deltas a reader may have kept make it say two things", () => {
    const [result] = run([created(), added(0, callOpened), argsDelta(0, invalid.arguments), added(0, callOpened), argsDelta(0, callFinal.arguments), itemDone(0, callFinal)]);
    expect(result!.items).toEqual([{ ...callFinal, status: "incomplete" }]);
    expect(result!.losses[0]).toEqual(said(4, "output_item.added at output_index 0 opens a call again where the stream had already given one"));
  });

  test("an output_item.added sent twice for one call, before any argument: openai-node throws at the second, so the call is written incomplete", () => {
    const [assembled] = run([created(), added(0, callOpened), added(0, callOpened), argsDelta(0, callFinal.arguments), itemDone(0, callFinal), completed([callFinal])]);
    expect(assembled!.items).toEqual([{ ...callFinal, status: "incomplete" }]);
    const why = "output_item.added on line 3 adds an item at output_index 0, where one was added already: openai-node throws there and gives no final response, and openai-python holds both";
    expect(assembled!.losses).toEqual([{ line: 6, path: "/response/output/0/status", code: "form_changed", detail: `${why}: its completed call is written incomplete, as no one reading of the stream runs it` }]);
    expect(replayGate(assembled!.items[0], lookupSchema).reason).toBe("status");
  });

  test("an output_item.done for an item no output_item.added opened: openai-node throws there, so the call is written incomplete", () => {
    const [assembled] = run([created(), itemDone(0, callFinal), completed([callFinal])]);
    expect(assembled!.items).toEqual([{ ...callFinal, status: "incomplete" }]);
    const why = "output_item.done on line 2 finishes an item at output_index 0 that no output_item.added opened: openai-node throws there and gives no final response";
    expect(assembled!.losses).toEqual([{ line: 3, path: "/response/output/0/status", code: "form_changed", detail: `${why}: its completed call is written incomplete, as no one reading of the stream runs it` }]);
    expect(replayGate(assembled!.items[0], lookupSchema).reason).toBe("status");
  });

  test("the same call finished by both events and held by the terminal output is completed", () => {
    expect(run([created(), added(0, callOpened), argsDone(0, "{\"city\":\"Lyon\"}"), itemDone(0, callFinal), completed([callFinal])])[0]!.items).toEqual([callFinal]);
  });
});

describe("message and reasoning events", () => {
  const messageOpened = { id: MSG, type: "message", status: "in_progress", content: [], role: "assistant" };
  const partAdded = { type: "response.content_part.added", item_id: MSG, output_index: 0, content_index: 0, part: { type: "output_text", annotations: [], logprobs: [], text: "" } };

  test("output_text deltas build the text of their part", () => {
    const [result] = run([created(), added(0, messageOpened), partAdded, textDelta(0, "Lyon is"), textDelta(0, " on the Rhône.")]);
    expect(result.items).toEqual([
      { id: MSG, type: "message", status: "in_progress", content: [{ type: "output_text", annotations: [], logprobs: [], text: "Lyon is on the Rhône." }], role: "assistant" },
    ]);
  });

  test("a delta whose content_part.added is missing opens an output_text part", () => {
    const [result] = run([created(), added(0, messageOpened), textDelta(0, "Lyon")]);
    expect(result.items).toEqual([{ ...messageOpened, content: [{ type: "output_text", text: "Lyon", annotations: [] }] }]);
  });

  test("output_text.done sets the text", () => {
    const done = { type: "response.output_text.done", item_id: MSG, output_index: 0, content_index: 0, text: "Lyon.", logprobs: [] };
    const [result] = run([created(), added(0, messageOpened), partAdded, textDelta(0, "Ly"), done]);
    expect(result.items).toEqual([{ ...messageOpened, content: [{ type: "output_text", annotations: [], logprobs: [], text: "Lyon." }] }]);
  });

  test("an annotation is added to its part", () => {
    const annotation = { type: "url_citation", url: "https://example.org/lyon", start_index: 0, end_index: 4, title: "Lyon" };
    const event = { type: "response.output_text.annotation.added", item_id: MSG, output_index: 0, content_index: 0, annotation_index: 0, annotation };
    const [result] = run([created(), added(0, messageOpened), partAdded, textDelta(0, "Lyon"), event]);
    expect(result.items).toEqual([{ ...messageOpened, content: [{ type: "output_text", annotations: [annotation], logprobs: [], text: "Lyon" }] }]);
  });

  test("refusal deltas build a refusal part", () => {
    const refusal = (delta: string) => ({ type: "response.refusal.delta", item_id: MSG, output_index: 0, content_index: 0, delta });
    const [result] = run([created(), added(0, messageOpened), refusal("I will not"), refusal(" help with that.")]);
    expect(result.items).toEqual([{ ...messageOpened, content: [{ type: "refusal", refusal: "I will not help with that." }] }]);
  });

  test("reasoning summary deltas build the summary", () => {
    const opened = { id: RS, type: "reasoning", encrypted_content: "gAAAAB-first", summary: [] };
    const part = { type: "response.reasoning_summary_part.added", item_id: RS, output_index: 0, summary_index: 0, part: { type: "summary_text", text: "" } };
    const delta = (text: string) => ({ type: "response.reasoning_summary_text.delta", item_id: RS, output_index: 0, summary_index: 0, delta: text });
    const [result] = run([created(), added(0, opened), part, delta("**Plan**\n\nFind"), delta(" the city.")]);
    expect(result.items).toEqual([{ ...opened, summary: [{ type: "summary_text", text: "**Plan**\n\nFind the city." }] }]);
  });

  test("a reasoning item without summary gets the empty summary the input shape requires", () => {
    const [result] = run([created(), added(0, { id: RS, type: "reasoning", encrypted_content: "gAAAAB-first" })]);
    expect(result.items).toEqual([{ id: RS, type: "reasoning", encrypted_content: "gAAAAB-first", summary: [] }]);
  });

  test("items come out in output_index order, whatever order they opened in", () => {
    const [result] = run([created(), added(1, callOpened), added(0, messageOpened)]);
    expect(result.items).toEqual([messageOpened, callOpened]);
  });
});

describe("extension events", () => {
  const trace = (sequence: number) => ({ type: "acme:trace_event", sequence_number: sequence, phase: "tool_resolution", latency_ms: 34 });

  test("are ignored inside the response, one provider_extension loss per type: the stream goes on", () => {
    expect(run([created(), added(0, callOpened), trace(3), argsDone(0, "{\"city\":\"Lyon\"}"), trace(5), itemDone(0, callFinal), completed([callFinal])])).toEqual([
      {
        id: RESP,
        status: "completed",
        items: [callFinal],
        losses: [{ line: 3, path: "", code: "provider_extension", detail: "acme:trace_event (2 events, lines 3–5) is an extension event: ignored, as the specification lets clients; its fields are not read" }],
        line: 1,
        lastLine: 7,
      },
    ]);
  });
});

describe("error events", () => {
  const error = { type: "error", sequence_number: 4, error: { type: "server_error", code: "server_error", message: "The server had an error while processing your request.", param: null } };
  const errorLoss = (line: number) => ({ line, path: "", code: "unsupported_item", detail: 'error event: server_error: "The server had an error while processing your request."; the response failed' });
  const failed = (output: unknown[]) => ({ type: "response.failed", response: { ...response("failed", output), error: { code: "server_error", message: "The server had an error while processing your request." } } });

  test("mid-arguments: the response fails, the call stays in_progress, and the response.failed after it closes the same response", () => {
    expect(run([created(), added(0, callOpened), argsDelta(0, "{\"ci"), error, failed([])])).toEqual([
      { id: RESP, status: "failed", items: [{ ...callOpened, arguments: "{\"ci" }], losses: [errorLoss(4)], line: 1, lastLine: 5 },
    ]);
  });

  test("with no response.failed after it, the response still failed when the stream ends", () => {
    expect(run([created(), added(0, callOpened), error])).toEqual([{ id: RESP, status: "failed", items: [callOpened], losses: [errorLoss(3)], line: 1, lastLine: 3 }]);
  });

  test("a call completed before the error is written incomplete, with a loss, at the event that set it", () => {
    expect(run([created(), added(0, callOpened), itemDone(0, callFinal), error])).toEqual([
      {
        id: RESP,
        status: "failed",
        items: [{ ...callFinal, status: "incomplete" }],
        losses: [errorLoss(4), { line: 3, path: "/item/status", code: "form_changed", detail: "the response failed: its completed call is written incomplete, as the recording never ran it" }],
        line: 1,
        lastLine: 4,
      },
    ]);
  });

  test("a response.failed whose output holds a completed call: incomplete, with a loss into that output", () => {
    expect(run([created(), added(0, callOpened), itemDone(0, callFinal), failed([callFinal])])).toEqual([
      {
        id: RESP,
        status: "failed",
        items: [{ ...callFinal, status: "incomplete" }],
        losses: [{ line: 4, path: "/response/output/0/status", code: "form_changed", detail: "the response failed: its completed call is written incomplete, as the recording never ran it" }],
        line: 1,
        lastLine: 4,
      },
    ]);
  });

  test("before any response, an error opens none: the assembler tells it as unplaced", () => {
    const flat = { type: "error", sequence_number: 1, code: "rate_limit_exceeded", message: "Slow down.", param: null };
    const assembler = new ResponsesStreamAssembler();
    expect(assembler.push(flat, 1)).toEqual([]);
    expect(assembler.finish()).toEqual([]);
    expect(assembler.unplaced()).toEqual([{ line: 1, path: "", code: "unsupported_item", detail: 'error event: rate_limit_exceeded: "Slow down."; the response failed' }]);
    expect(assembler.unplaced()).toEqual([]);
  });

  test("before a response, an error fails the response that opens after it", () => {
    const [result] = run([error, created(), added(0, callOpened), itemDone(0, callFinal), completed([callFinal])]);
    expect(result).toEqual({
      id: RESP,
      status: "failed",
      items: [{ ...callFinal, status: "incomplete" }],
      losses: [errorLoss(1), { line: 5, path: "/response/output/0/status", code: "form_changed", detail: "the response failed: its completed call is written incomplete, as the recording never ran it" }],
      line: 2,
      lastLine: 5,
    });
  });
});

describe("events after the terminal event", () => {
  const finished = [created(), added(0, callOpened), argsDelta(0, callFinal.arguments), argsDone(0, callFinal.arguments), itemDone(0, callFinal), completed([callFinal])];
  const other = { ...callFinal, arguments: "{\"city\":\"Paris\"}" };
  const afterEnd = (type: string) => ({ line: 7, path: "", code: "form_changed", detail: `${type} comes after the response's response.completed of line 6: openai-node, openai-python and the Agents SDKs read on and take what it says, where a reader that stops at the terminal event does not` });
  const stoppedBy = (why: string) => `${why}: its completed call is written incomplete, as no one reading of the stream runs it`;

  test.each([
    ["response.function_call_arguments.delta", argsDelta(0, " ")],
    ["response.function_call_arguments.done", argsDone(0, other.arguments)],
    ["response.output_item.done", itemDone(0, other)],
    ["response.output_item.added", added(1, { ...callOpened, id: "fc_0b7f2c1e9a4d09", call_id: "call_Zx9" })],
    ["response.in_progress", { type: "response.in_progress", response: response("in_progress", [callFinal]) }],
  ])("a %s after response.completed: the call a reader that stops at the terminal event runs is written incomplete, and the gate blocks it", (type, event) => {
    const [assembled, ...more] = run([...finished, event]);
    expect(more).toEqual([]);
    expect(assembled!.items[0]).toEqual({ ...callFinal, status: "incomplete" });
    expect(assembled!.losses).toContainEqual(afterEnd(type));
    expect(assembled!.lastLine).toBe(7);
    expect(replayGate(assembled!.items[0], lookupSchema).reason).toBe("status");
  });

  test("a second response.completed with another call: its output stands, the call the first gave is kept after it, both incomplete", () => {
    const later = { ...other, id: "fc_0b7f2c1e9a4d09", call_id: "call_Zx9" };
    const [assembled, ...more] = run([...finished, completed([later])]);
    expect(more).toEqual([]);
    expect(assembled!.items).toEqual([{ ...later, status: "incomplete" }, { ...callFinal, status: "incomplete" }]);
    expect(assembled!.losses).toContainEqual(afterEnd("response.completed"));
    expect(assembled!.losses.filter((loss) => loss.detail.startsWith("the stream said two things of one call"))).toHaveLength(2);
  });

  test("a call that only events after the terminal event give is kept after the items, incomplete", () => {
    const message = { id: MSG, type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "Lyon.", annotations: [] }] };
    const [assembled] = run([created(), added(0, { ...message, status: "in_progress", content: [] }), itemDone(0, message), completed([message]), added(1, callOpened), itemDone(1, callFinal)]);
    expect(assembled!.items).toEqual([message, { ...callFinal, status: "incomplete" }]);
    expect(assembled!.losses).toContainEqual({ line: 6, path: "/item/status", code: "form_changed", detail: stoppedBy("the stream goes on after its terminal event") });
  });

  test("the same terminal event written again says nothing more: the call stays completed", () => {
    expect(run([...finished, completed([callFinal])])).toEqual([{ id: RESP, status: "completed", items: [callFinal], losses: [], line: 1, lastLine: 7 }]);
  });

  test("an error event after response.completed fails the response: its call is written incomplete", () => {
    const [assembled] = run([...finished, { type: "error", error: { type: "server_error", code: "server_error", message: "The server had an error." } }]);
    expect(assembled!.status).toBe("failed");
    expect(assembled!.items).toEqual([{ ...callFinal, status: "incomplete" }]);
  });
});

describe("a terminal event whose response says its calls did not finish", () => {
  const finished = [created(), added(0, callOpened), argsDone(0, callFinal.arguments), itemDone(0, callFinal)];
  test.each([
    [{ type: "response.incomplete", response: { ...response("incomplete", [callFinal]), incomplete_details: { reason: "content_filter" } } }, "the content filter stopped the response"],
    [{ type: "response.completed", response: { ...response("completed", [callFinal]), error: { code: "server_error", message: "The server had an error." } } }, "the response carries an error"],
    [{ type: "response.completed", response: { ...response("completed", [callFinal]), incomplete_details: { reason: "max_output_tokens" } } }, 'the response gives incomplete_details {"reason":"max_output_tokens"} beside the status "completed", so a reader that goes by its details takes its calls for cut'],
    [{ type: "response.completed", response: response("in_progress", [callFinal]) }, "the response is still in progress"],
    [{ type: "response.completed", response: response("cancelled", [callFinal]) }, 'response.completed carries a response whose status is "cancelled"'],
    [{ type: "response.failed", response: response("completed", [callFinal]) }, 'response.failed carries a response whose status is "completed"'],
    [{ type: "response.incomplete", response: response("done", [callFinal]) }, 'response.incomplete carries a response whose status is "done"'],
  ])("%j: its completed call is written incomplete", (terminal, why) => {
    const [assembled] = run([...finished, terminal]);
    expect(assembled!.items).toEqual([{ ...callFinal, status: "incomplete" }]);
    expect(assembled!.losses.map((loss) => loss.detail)).toContain(`${why}: its completed call is written incomplete, as no one reading of the stream runs it`);
  });

  test("a completed response with no error and no filter keeps its call completed", () => {
    expect(run([...finished, { type: "response.completed", response: { ...response("completed", [callFinal]), error: null, incomplete_details: null } }])[0]!.items).toEqual([callFinal]);
  });
});

describe("a terminal event that gives no output of its own after streamed items", () => {
  const finished = [created(), added(0, callOpened), argsDone(0, callFinal.arguments), itemDone(0, callFinal)];
  test.each([
    [{ type: "response.completed" }, "response.completed carries no response object, which openai-node throws at, giving no final response"],
    [{ type: "response.completed", response: { id: RESP, object: "response", status: "completed" } }, "response.completed carries a response with output nothing, not an array, which openai-node throws at, giving no final response"],
    [{ type: "response.incomplete", response: { id: RESP, object: "response", status: "incomplete", output: null } }, "response.incomplete carries a response with output null, not an array, which openai-node throws at, giving no final response"],
    [completed([]), "response.completed carries a response with an empty output: the SDKs' final response is that one, with none of the stream's items, where a reader of output_item.done runs its calls"],
  ])("%j: the streamed call is kept, written incomplete", (terminal, why) => {
    const [assembled] = run([...finished, terminal]);
    expect(assembled!.items).toEqual([{ ...callFinal, status: "incomplete" }]);
    expect(assembled!.losses).toEqual([{ line: 4, path: "/item/status", code: "form_changed", detail: `${why}: its completed call is written incomplete, as no one reading of the stream runs it` }]);
    expect(replayGate(assembled!.items[0], lookupSchema).reason).toBe("status");
  });

  test("an empty output after a stream that gave no item stops nothing, and an output of its own keeps the call completed", () => {
    expect(run([created(), completed([])])[0]!.items).toEqual([]);
    expect(run([...finished, completed([callFinal])])[0]!.items).toEqual([callFinal]);
  });
});

describe("response objects that give their request's limits two ways", () => {
  const finished = [added(0, callOpened), argsDone(0, callFinal.arguments), itemDone(0, callFinal)];
  const createdWith = (limits: object) => ({ type: "response.created", response: { ...response("in_progress"), ...limits } });
  const completedWith = (limits: object) => ({ type: "response.completed", response: { ...response("completed", [callFinal]), ...limits } });
  const stopped = (detail: string) => [
    { line: 5, path: "", code: "form_changed", detail },
    { line: 5, path: "/response/output/0/status", code: "form_changed", detail: "the stream said two things of one call: its completed call is written incomplete, as no one reading of the stream runs it" },
  ];

  test.each([
    ["tool_choice", { tool_choice: "none" }, { tool_choice: "auto" }],
    ["tool_choice", { tool_choice: "none" }, {}],
    ["parallel_tool_calls", { parallel_tool_calls: false }, { parallel_tool_calls: true }],
    ["tools", { tools: [{ type: "function", name: "other_tool", parameters: {} }] }, { tools: [] }],
    ["Tool_choice", { Tool_choice: "none" }, { Tool_choice: "auto" }],
  ])("%s said by response.created and otherwise by response.completed: the call is written incomplete", (key, first, last) => {
    const [result] = run([createdWith(first), ...finished, completedWith(last)]);
    expect(result).toEqual({
      id: RESP,
      status: "completed",
      items: [{ ...callFinal, status: "incomplete" }],
      losses: stopped(`response.completed carries a response whose ${JSON.stringify(key)} is not what the response of line 1 gave: a reader that takes its request's limits from that event allows other calls than one that takes them from this one`),
      line: 1,
      lastLine: 5,
    });
  });

  test("the same limits in every response object keep the call completed", () => {
    const limits = { tool_choice: "auto", parallel_tool_calls: true, tools: [{ type: "function", name: "lookup_city", parameters: lookupSchema }] };
    expect(run([createdWith(limits), ...finished, completedWith(limits)])[0]!.items).toEqual([callFinal]);
  });

  test("a limit only the last response object gives keeps the call completed: the gate holds it to that one", () => {
    expect(run([createdWith({}), ...finished, completedWith({ tool_choice: "required" })])[0]!.items).toEqual([callFinal]);
  });
});

describe("events whose fields cannot be used", () => {
  const textOpened = { id: MSG, type: "message", status: "in_progress", role: "assistant", content: [] };
  const contentDelta = (index: unknown, delta: unknown) => ({ type: "response.output_text.delta", item_id: MSG, output_index: 0, content_index: index, delta });

  test("a part index past the next part is reported, and no list is sized by it", () => {
    const [result] = run([created(), added(0, textOpened), contentDelta(0, "Lyon"), contentDelta(1_000_000_000, "!")]);
    expect(result.items).toEqual([{ ...textOpened, content: [{ type: "output_text", text: "Lyon", annotations: [] }] }]);
    expect(result.losses).toEqual([{ line: 4, path: "/content_index", code: "unsupported_field", detail: "response.output_text.delta: content_index is not an index of the item's content parts (1 so far); the event is not applied" }]);
  });

  test("a delta that is no text is reported, not appended", () => {
    const [result] = run([created(), added(0, callOpened), argsDelta(0, "{\"ci"), { ...argsDelta(0, ""), delta: 42 }, added(1, textOpened), { ...contentDelta(0, null), output_index: 1 }]);
    expect(result.items).toEqual([{ ...callOpened, arguments: "{\"ci" }, textOpened]);
    expect(result.losses).toEqual([
      { line: 4, path: "/delta", code: "unsupported_field", detail: "response.function_call_arguments.delta: delta is not usable (number 42); the event is not applied" },
      { line: 6, path: "/delta", code: "unsupported_field", detail: "response.output_text.delta: delta is not usable (null); the event is not applied" },
      { line: 4, path: "", code: "form_changed", detail: "response.function_call_arguments.delta gives delta as number 42, not a string: openai-node appends or sets it as it is, and this reader does not apply it" },
    ]);
  });

  test("an annotation index past the end is reported, and the list keeps its size", () => {
    const annotation = (index: number) => ({ type: "response.output_text.annotation.added", item_id: MSG, output_index: 0, content_index: 0, annotation_index: index, annotation: { type: "url_citation", url: "https://example.org/lyon" } });
    const [result] = run([created(), added(0, textOpened), contentDelta(0, "Lyon"), annotation(0), annotation(5_000_000)]);
    expect(result.items).toEqual([{ ...textOpened, content: [{ type: "output_text", text: "Lyon", annotations: [{ type: "url_citation", url: "https://example.org/lyon" }] }] }]);
    expect(result.losses).toEqual([{ line: 5, path: "/annotation_index", code: "unsupported_field", detail: "response.output_text.annotation.added: annotation_index is not usable (number 5000000); the event is not applied" }]);
  });

  test("the events given to the assembler are not changed, logprobs included", () => {
    const logprob = (token: string) => ({ token, logprob: -0.1, bytes: [], top_logprobs: [] });
    const events = [created(), added(0, textOpened), { ...contentDelta(0, "Ly"), logprobs: [logprob("Ly")] }, { ...contentDelta(0, "on"), logprobs: [logprob("on")] }];
    const before = structuredClone(events);
    const [result] = run(events);
    expect(events).toEqual(before);
    expect(result.items).toEqual([{ ...textOpened, content: [{ type: "output_text", text: "Lyon", annotations: [], logprobs: [logprob("Ly"), logprob("on")] }] }]);
  });
});

describe("unknown and misplaced events", () => {
  test("events this assembler does not know are ignored, each type reported once as a loss", () => {
    const [result] = run([
      created(),
      { type: "response.web_search_call.searching", output_index: 0, item_id: "ws_1" },
      { type: "response.vendor_custom.delta", output_index: 0, delta: "x" },
      { type: "response.vendor_custom.delta", output_index: 0, delta: "y" },
      { type: "keepalive" },
      added(0, callOpened),
    ]);
    expect(result).toEqual({
      id: RESP,
      status: "in_progress",
      items: [callOpened],
      losses: [
        { line: 2, path: "", code: "unsupported_item", detail: "response.web_search_call.searching (line 2) is an event of no known type: ignored; its fields are not read" },
        { line: 3, path: "", code: "unsupported_item", detail: "response.vendor_custom.delta (2 events, lines 3–4) is an event of no known type: ignored; its fields are not read" },
        { line: 5, path: "", code: "unsupported_item", detail: "keepalive (line 5) is an event of no known type: ignored; its fields are not read" },
      ],
      line: 1,
      lastLine: 6,
    });
  });

  test("an event of no known type that holds a call's fields changes nothing, and says the call is not checked", () => {
    const wrong = { type: "response.function_call.done", output_index: 0, item_id: FC, arguments: "{\"city\":\"Oslo\"}" };
    const [result] = run([created(), added(0, callOpened), argsDone(0, "{\"city\":\"Lyon\"}"), wrong, itemDone(0, callFinal), completed([callFinal])]);
    expect(result).toEqual({
      id: RESP,
      status: "completed",
      items: [callFinal],
      losses: [{ line: 4, path: "", code: "unsupported_tool_call", detail: "response.function_call.done (line 4) is an event of no known type: ignored; it holds a call's fields, which are not read: the call is not checked" }],
      line: 1,
      lastLine: 6,
    });
  });

  test("the arguments event of an item that is no function_call (an mcp_call) belong to that item: ignored, no call unchecked", () => {
    const MCP = "mcp_0c72b1033351981300690ccf7fa1f08193";
    const mcpOpened = { id: MCP, type: "mcp_call", status: "in_progress", approval_request_id: null, arguments: "", error: null, name: "find_pages", output: null, server_label: "docs" };
    const mcpFinal = { ...mcpOpened, status: "completed", arguments: "{\"query\":\"tide tables\", \"limit\": 3}", output: "three pages" };
    const [result] = run([
      created(),
      added(0, mcpOpened),
      { type: "response.mcp_call_arguments.delta", output_index: 0, item_id: MCP, delta: mcpFinal.arguments },
      { type: "response.mcp_call_arguments.done", output_index: 0, item_id: MCP, arguments: mcpFinal.arguments },
      itemDone(0, mcpFinal),
      completed([mcpFinal]),
    ]);
    expect(result).toEqual({
      id: RESP,
      status: "completed",
      items: [mcpFinal],
      losses: [
        { line: 3, path: "", code: "unsupported_item", detail: "response.mcp_call_arguments.delta (line 3) is an event of no known type: ignored; its fields are not read" },
        { line: 4, path: "", code: "unsupported_item", detail: "response.mcp_call_arguments.done (line 4) is an event of no known type: ignored; its fields are not read" },
      ],
      line: 1,
      lastLine: 6,
    });
  });

  test("the same event naming a function_call, or an item that is not at its output_index, still says a call is not checked", () => {
    const events = (event: object) => [created(), added(0, callOpened), event, itemDone(0, callFinal), completed([callFinal])];
    for (const event of [
      { type: "response.mcp_call_arguments.done", output_index: 0, item_id: FC, arguments: "{}" },
      { type: "response.mcp_call_arguments.done", output_index: 1, item_id: FC, arguments: "{}" },
    ]) {
      expect(run(events(event))[0]!.losses.map((loss) => loss.code)).toEqual(["unsupported_tool_call"]);
    }
  });

  test("before any response, an event of no known type opens none; the response that opens after it reports it", () => {
    const assembler = new ResponsesStreamAssembler();
    expect(assembler.push({ type: "response.vendor_custom.delta", delta: "x" }, 1)).toEqual([]);
    expect(assembler.finish()).toEqual([]);
    expect(run([{ type: "response.vendor_custom.delta", delta: "x" }, created(), added(0, callOpened)])).toEqual([
      { id: RESP, status: "in_progress", items: [callOpened], losses: [{ line: 1, path: "", code: "unsupported_item", detail: "response.vendor_custom.delta (line 1) is an event of no known type: ignored; its fields are not read" }], line: 2, lastLine: 3 },
    ]);
  });

  test("a delta whose item_id names another open item than the one at its output_index is applied to the item named, and no call of the response is completed", () => {
    const other = { ...callOpened, id: "fc_other", call_id: "call_other" };
    const [result] = run([created(), added(0, callOpened), added(1, other), argsDelta(0, "{}", "fc_other")]);
    expect(result.items).toEqual([callOpened, { ...other, arguments: "{}" }]);
    // The SDKs apply the deltas by output_index: each call there gets the other's arguments.
    const invalid = { ...callFinal, arguments: "{\"city\":7}" };
    const message = { id: MSG, type: "message", status: "completed", role: "assistant", content: [] };
    const verdicts = (response: AssembledResponse) => response.items.map((item) => replayGate(item, lookupSchema).reason);
    const said = (line: number, detail: string) => ({ line, path: "", code: "form_changed", detail });
    const crossed = [
      created(),
      added(0, callOpened),
      added(1, other),
      argsDelta(0, invalid.arguments, "fc_other"),
      argsDelta(1, callFinal.arguments, FC),
      argsDone(0, invalid.arguments, "fc_other"),
      argsDone(1, callFinal.arguments, FC),
      itemDone(0, callFinal),
      itemDone(1, { ...other, status: "completed", arguments: invalid.arguments }),
      completed([callFinal, { ...other, status: "completed", arguments: invalid.arguments }]),
    ];
    const [both] = run(crossed);
    expect(verdicts(both!)).toEqual(["status", "status"]);
    expect(both!.losses).toContainEqual(said(4, "response.function_call_arguments.delta names item fc_other, which is not the item at its output_index 0: a reader that places it by output_index applies it to that item"));
    // Text of a message named from a call's index moves that call's arguments too.
    const [misplaced] = run([created(), added(0, message), added(1, callOpened), argsDelta(0, callFinal.arguments, FC), argsDone(1, callFinal.arguments), itemDone(1, callFinal)]);
    expect(verdicts(misplaced!).filter((reason) => reason !== "not_function_call")).toEqual(["status"]);
  });

  test("a delta that matches no open item is reported with its line, not applied, and the stream is taken to say two things of its calls", () => {
    const withoutItemId = { type: "response.function_call_arguments.delta", output_index: 3, delta: "{}" };
    const [result] = run([created(), added(0, callOpened), argsDelta(0, "{}", "fc_unknown"), withoutItemId]);
    expect(result.items).toEqual([callOpened]);
    expect(result.losses).toEqual([
      { line: 3, path: "/delta", code: "unsupported_field", detail: "response.function_call_arguments.delta for item fc_unknown at output_index 0 matches no open item; not applied" },
      { line: 4, path: "/delta", code: "unsupported_field", detail: "response.function_call_arguments.delta at output_index 3 matches no open item; not applied" },
      { line: 3, path: "", code: "form_changed", detail: "response.function_call_arguments.delta at output_index 0 fits no call the stream opened: a reader that places it otherwise runs other arguments" },
    ]);
  });

  test("a delta whose item_id is right but output_index wrong goes to the item it names", () => {
    const [result] = run([created(), added(0, callOpened), argsDelta(5, "{}")]);
    expect(result.items).toEqual([{ ...callOpened, arguments: "{}" }]);
    expect(result.losses).toEqual([]);
  });

  test("an arguments event whose item_id is right but whose output_index is wrong or missing: applied, but the call it finishes is not completed, as the SDKs fail there", () => {
    const { output_index: _index, ...unindexed } = argsDelta(0, callFinal.arguments);
    for (const delta of [argsDelta(5, callFinal.arguments), unindexed]) {
      const [result] = run([created(), added(0, callOpened), delta, argsDone(0, callFinal.arguments), itemDone(0, callFinal), completed([callFinal])]);
      expect(result!.items).toEqual([{ ...callFinal, status: "incomplete" }]);
      const where = "output_index" in delta ? "output_index 5" : "no output_index";
      expect(result!.losses).toEqual([
        {
          line: 6,
          path: "/response/output/0/status",
          code: "form_changed",
          detail: `response.function_call_arguments.delta on line 3 names item ${FC} at ${where}, where no item is: readers that place events by output_index fail there (openai-python throws, as openai-node does at a missing or wrong index) and give no final response: its completed call is written incomplete, as no one reading of the stream runs it`,
        },
      ]);
      expect(replayGate(result!.items[0], lookupSchema).reason).toBe("status");
    }
  });

  test("a response whose first event is not response.created, which openai-python and openai-node throw at: its completed calls are written incomplete", () => {
    const [result] = run([added(0, callOpened), argsDelta(0, callFinal.arguments), itemDone(0, callFinal), completed([callFinal])]);
    expect(result!.items).toEqual([{ ...callFinal, status: "incomplete" }]);
    expect(result!.losses).toEqual([
      {
        line: 4,
        path: "/response/output/0/status",
        code: "form_changed",
        detail: "the response's first event is response.output_item.added (line 1), not response.created: openai-python and openai-node throw at a stream that does not open with it, and give no final response: its completed call is written incomplete, as no one reading of the stream runs it",
      },
    ]);
    expect(replayGate(result!.items[0], lookupSchema).reason).toBe("status");
    // A terminal event alone is the whole response, as a logger that keeps the last event writes it: its calls are as it gives them.
    const [alone] = run([completed([callFinal])]);
    expect(alone!.items).toEqual([callFinal]);
    expect(replayGate(alone!.items[0], lookupSchema).reason).toBe("ok");
  });

  test("an output_item.done that gives its item another id than the output_item.added, which openai-node throws at: its completed call is written incomplete", () => {
    const renamed = { ...callFinal, id: "fc_0b7f2c1e9a4d99" };
    const [result] = run([created(), added(0, callOpened), argsDelta(0, callFinal.arguments), itemDone(0, renamed), completed([renamed])]);
    expect(result!.items).toEqual([{ ...renamed, status: "incomplete" }]);
    expect(result!.losses).toEqual([
      {
        line: 5,
        path: "/response/output/0/status",
        code: "form_changed",
        detail: `output_item.done on line 4 gives the item at output_index 0 the id "fc_0b7f2c1e9a4d99", where it was added as "${FC}": openai-node throws there and gives no final response: its completed call is written incomplete, as no one reading of the stream runs it`,
      },
    ]);
    expect(replayGate(result!.items[0], lookupSchema).reason).toBe("status");
    // An id left out of the done event is another too.
    const { id: _id, ...idless } = callFinal;
    expect(run([created(), added(0, callOpened), itemDone(0, idless), completed([idless])])[0]!.items).toEqual([{ ...idless, status: "incomplete" }]);
  });

  test("an arguments event without item_id, or about a call added without id, which openai-node throws at: applied, but the call it finishes is not completed", () => {
    const { item_id: _itemId, ...unnamed } = argsDelta(0, callFinal.arguments);
    const [result] = run([created(), added(0, callOpened), unnamed, itemDone(0, callFinal), completed([callFinal])]);
    expect(result!.items).toEqual([{ ...callFinal, status: "incomplete" }]);
    expect(result!.losses).toEqual([
      {
        line: 5,
        path: "/response/output/0/status",
        code: "form_changed",
        detail: "response.function_call_arguments.delta on line 3 gives no item_id for the item at output_index 0: openai-node throws there and gives no final response: its completed call is written incomplete, as no one reading of the stream runs it",
      },
    ]);
    expect(replayGate(result!.items[0], lookupSchema).reason).toBe("status");
    const { id: _id, ...idlessOpened } = callOpened;
    const { id: _finalId, ...idlessFinal } = callFinal;
    const [idless] = run([created(), added(0, idlessOpened), argsDelta(0, callFinal.arguments), itemDone(0, idlessFinal), completed([idlessFinal])]);
    expect(idless!.items).toEqual([{ ...idlessFinal, status: "incomplete" }]);
  });

  test("an item with no usable output_index is reported", () => {
    const [result] = run([created(), { type: "response.output_item.added", output_index: -1, item: callOpened }]);
    expect(result.items).toEqual([]);
    expect(result.losses).toEqual([{ line: 2, path: "/output_index", code: "unsupported_field", detail: "output_index is not a non-negative integer; the item is not placed" }]);
  });

  test("an item replaced at its output_index no longer takes events by its id; the call it replaced is kept after the items", () => {
    const other = { ...callOpened, id: "fc_other", call_id: "call_other" };
    const [result] = run([created(), added(0, callOpened), added(0, other), argsDelta(4, "{}")]);
    expect(result.items).toEqual([other, callOpened]);
    expect(result.losses).toEqual([
      { line: 4, path: "/delta", code: "unsupported_field", detail: `response.function_call_arguments.delta for item ${FC} at output_index 4 matches no open item; not applied` },
      { line: 3, path: "", code: "form_changed", detail: "output_item.added at output_index 0 opens a call again where the stream had already given one" },
      { line: 2, path: "/item", code: "form_changed", detail: "the stream later put another item in this call's place, or left it out of its terminal output: the call is kept, after the response's items" },
    ]);
  });

  test("a huge output_index places the item without sizing anything by it", () => {
    const [result] = run([created(), added(1_000_000_000, callOpened)]);
    expect(result.items).toEqual([callOpened]);
  });

  test("something that is not an event object is refused", () => {
    const assembler = new ResponsesStreamAssembler();
    expect(() => assembler.push("response.created", 1)).toThrow(TypeError);
    expect(() => assembler.push({ sequence_number: 1 }, 1)).toThrow(TypeError);
  });
});

const unfinished = (line: number) => ({ line, path: "/item/status", code: "form_changed", detail: "added as completed, but the stream ended before the item was done: it is in_progress" });

describe("several responses in one recording", () => {
  const second = "resp_0b7f2c1e9a4e";
  const answer = { id: MSG, type: "message", status: "completed", content: [{ type: "output_text", annotations: [], text: "Lyon." }], role: "assistant" };

  test("responses come out in order, each with its own lines", () => {
    const events = [created(), added(0, callOpened), itemDone(0, callFinal), completed([callFinal]), created(second), added(0, answer), itemDone(0, answer), completed([answer], second)];
    expect(run(events)).toEqual([
      { id: RESP, status: "completed", items: [callFinal], losses: [], line: 1, lastLine: 4 },
      { id: second, status: "completed", items: [answer], losses: [], line: 5, lastLine: 8 },
    ]);
  });

  test("the fields of the last response object the stream showed are left behind, as a stored response's are", () => {
    const withSettings = { type: "response.completed", response: { ...response("completed", [callFinal]), model: "gpt-5.1", temperature: 1, tools: [], metadata: {}, error: null } };
    expect(runWhole([created(), added(0, callOpened), itemDone(0, callFinal), withSettings])).toEqual([
      {
        id: RESP,
        status: "completed",
        items: [callFinal],
        losses: ["id", "status", "model", "temperature"].map((key) => ({ line: 4, path: `/response/${key}`, code: "left_behind", detail: `${key} of the response is in no item: normalize writes items only` })),
        line: 1,
        lastLine: 4,
      },
    ]);
  });

  test("a field that holds a member, a tool or a key named __proto__ is left behind; an empty one is not", () => {
    const fields = JSON.parse('{"tools":[{"type":"function","name":"f"}],"metadata":{"k":"v"},"reasoning":{"__proto__":null},"text":{},"include":[]}');
    const settled = { type: "response.completed", response: { ...response("completed", [callFinal]), ...fields } };
    const [whole] = runWhole([created(), added(0, callOpened), itemDone(0, callFinal), settled]);
    expect(whole!.losses.map((loss) => loss.path)).toEqual(["/response/id", "/response/status", "/response/tools", "/response/metadata", "/response/reasoning"]);
  });

  test("asked for the resource, the assembler leaves the response object to its converter: nothing is left behind", () => {
    const assembler = new ResponsesStreamAssembler({ resource: true });
    const [whole] = [...[created(), added(0, callOpened), itemDone(0, callFinal), completed([callFinal])].flatMap((event, i) => assembler.push(event, i + 1)), ...assembler.finish()];
    expect(whole.losses).toEqual([]);
  });

  test("a response.created with another id closes the response left open, as last seen", () => {
    const events = [created(), added(0, callOpened), argsDelta(0, "{\"ci"), created(second), added(0, answer)];
    expect(run(events)).toEqual([
      { id: RESP, status: "in_progress", items: [{ ...callOpened, arguments: "{\"ci" }], losses: [], line: 1, lastLine: 3 },
      { id: second, status: "in_progress", items: [{ ...answer, status: "in_progress" }], losses: [unfinished(5)], line: 4, lastLine: 5 },
    ]);
  });

  test("an item added as completed is not done until its output_item.done: cut before it, a call is in_progress", () => {
    const claimed = { ...callOpened, status: "completed" };
    expect(run([created(), added(0, claimed), argsDelta(0, "{\"city\":\"Paris\"}")])).toEqual([
      { id: RESP, status: "in_progress", items: [{ ...claimed, arguments: "{\"city\":\"Paris\"}", status: "in_progress" }], losses: [unfinished(2)], line: 1, lastLine: 3 },
    ]);
    const done = { type: "response.output_item.done", output_index: 0, item: { ...claimed, arguments: "{\"city\":\"Paris\"}" } };
    expect(run([created(), added(0, claimed), argsDelta(0, "{\"city\":\"Paris\"}"), done])).toEqual([
      { id: RESP, status: "in_progress", items: [{ ...claimed, arguments: "{\"city\":\"Paris\"}", status: "in_progress" }], losses: [{ line: 4, path: "/item/status", code: "form_changed", detail: CUT_BEFORE_END }], line: 1, lastLine: 4 },
    ]);
  });

  test("incomplete and failed terminal events set their status", () => {
    const incomplete = { type: "response.incomplete", response: { ...response("incomplete", [callFinal]), incomplete_details: { reason: "max_output_tokens" } } };
    const failed = { type: "response.failed", response: { ...response("failed", [], second), error: { code: "server_error", message: "down" } } };
    expect(run([created(), incomplete, created(second), failed])).toEqual([
      { id: RESP, status: "incomplete", items: [callFinal], losses: [], line: 1, lastLine: 2 },
      { id: second, status: "failed", items: [], losses: [], line: 3, lastLine: 4 },
    ]);
  });

  test("events before any response.created open a response without an id", () => {
    expect(run([added(0, callOpened), argsDelta(0, "{")])).toEqual([{ items: [{ ...callOpened, arguments: "{" }], losses: [], line: 1, lastLine: 2 }]);
  });
});
