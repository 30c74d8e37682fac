import { describe, expect, test } from "vitest";
import { diffJournals, diffJournalsAsync, JournalDiffer } from "../src/diff.js";
import type { Envelope, JournalItem } from "../src/models/journal-item.js";

function at(place: string, envelope: Envelope, item: Record<string, unknown>): JournalItem {
  const [line, index] = place.split(".").map(Number);
  return { item, provenance: { line, index, envelope } };
}

const apac = "{\"region\":\"apac\"}";
const salesCall = { type: "function_call", id: "fc_001", name: "get_latest_sales_report", call_id: "call_123", status: "completed", arguments: apac };
const salesOutput = { type: "function_call_output", call_id: "call_123", output: "sales report for apac" };
const question = { type: "message", role: "user", content: "sales for apac?" };

describe("the seed case", () => {
  test("a function_call replayed as openai:function_call", () => {
    const origin = [at("1.0", "chat", question), at("2.0", "responses", salesCall), at("3.0", "chat", salesOutput)];
    const replay = [at("1.0", "responses", question), at("2.0", "responses", { ...salesCall, type: "openai:function_call" }), at("3.0", "responses", salesOutput)];
    expect(diffJournals(origin, replay)).toEqual([
      {
        code: "type_changed",
        detail: 'the function_call became the extension item "openai:function_call": it is never replayed as a call, and its output would answer nothing',
        path: "/type",
        origin: { line: 2, index: 0 },
        replay: { line: 2, index: 0 },
      },
    ]);
  });

  test("a function_call replayed with another call_id", () => {
    const origin = [at("1.0", "chat", question), at("2.0", "chat", { ...salesCall, id: undefined }), at("3.0", "chat", salesOutput)];
    const replay = [at("1.0", "responses", question), at("2.0", "responses", { ...salesCall, id: undefined, call_id: "fc_001" }), at("3.0", "responses", { ...salesOutput, call_id: "fc_001" })];
    expect(diffJournals(origin, replay)).toEqual([
      {
        code: "call_id_mismatch",
        detail: 'call_id "call_123" in the origin, "fc_001" in the replay: an output written for one answers no call of the other',
        path: "/call_id",
        origin: { line: 2, index: 0 },
        replay: { line: 2, index: 0 },
      },
      {
        code: "call_id_mismatch",
        detail: 'call_id "call_123" in the origin, "fc_001" in the replay: an output written for one answers no call of the other',
        path: "/call_id",
        origin: { line: 3, index: 0 },
        replay: { line: 3, index: 0 },
      },
    ]);
  });
});

describe("calls lined up by call_id", () => {
  test("parallel calls in another order pair by call_id", () => {
    const weather = { type: "function_call", call_id: "call_W", name: "get_weather", arguments: "{\"city\":\"Paris\"}", status: "completed" };
    const origin = [at("1.0", "chat", salesCall), at("1.1", "chat", weather)];
    const replay = [at("4.0", "responses", weather), at("4.1", "responses", salesCall)];
    expect(diffJournals(origin, replay)).toEqual([]);
  });

  test("a changed name and changed arguments", () => {
    const origin = [at("1.0", "chat", salesCall)];
    const replay = [at("7.2", "responses", { ...salesCall, name: "get_sales_report", arguments: "{\"region\": \"apac\"}" })];
    expect(diffJournals(origin, replay)).toEqual([
      { code: "name_changed", detail: 'name "get_latest_sales_report" in the origin, "get_sales_report" in the replay', path: "/name", origin: { line: 1, index: 0 }, replay: { line: 7, index: 2 } },
      {
        code: "arguments_changed",
        detail: 'arguments "{\\"region\\":\\"apac\\"}" in the origin, "{\\"region\\": \\"apac\\"}" in the replay',
        path: "/arguments",
        origin: { line: 1, index: 0 },
        replay: { line: 7, index: 2 },
      },
    ]);
  });

  test("arguments stored as an object differ from the same arguments as a string", () => {
    const origin = [at("1.0", "chat", salesCall)];
    const replay = [at("1.0", "responses", { ...salesCall, arguments: { region: "apac" } })];
    expect(diffJournals(origin, replay).map((difference) => difference.code)).toEqual(["arguments_changed"]);
  });

  test("an output is lined up with the output, not with the call of the same call_id", () => {
    const origin = [at("1.0", "chat", salesCall), at("2.0", "chat", salesOutput)];
    const replay = [at("1.0", "responses", salesOutput), at("2.0", "responses", salesCall)];
    expect(diffJournals(origin, replay)).toEqual([]);
  });
});

describe("items with nothing to pair with", () => {
  test("an origin call missing from the replay", () => {
    const origin = [at("1.0", "chat", question), at("2.0", "chat", salesCall), at("3.0", "chat", salesOutput)];
    const replay = [at("1.0", "responses", question), at("2.0", "responses", salesOutput)];
    expect(diffJournals(origin, replay)).toEqual([
      { code: "missing_in_replay", detail: 'function_call "call_123" has no counterpart in the replay', path: "", origin: { line: 2, index: 0 } },
    ]);
  });

  test("an extra item in the replay", () => {
    const origin = [at("1.0", "chat", question)];
    const replay = [at("1.0", "responses", question), at("1.1", "responses", { type: "openai:web_search_call", id: "ws_001", status: "completed" })];
    expect(diffJournals(origin, replay)).toEqual([
      { code: "extra_in_replay", detail: "openai:web_search_call has no counterpart in the origin", path: "", replay: { line: 1, index: 1 } },
    ]);
  });

  test("items without call_id pair by position and compare their types", () => {
    const origin = [at("1.0", "chat", question), at("2.0", "chat", { type: "message", role: "assistant", content: "Here." })];
    const replay = [at("1.0", "responses", question), at("2.0", "responses", { type: "reasoning", id: "rs_1", summary: [] })];
    expect(diffJournals(origin, replay)).toEqual([
      { code: "type_changed", detail: 'type "message" in the origin, "reasoning" in the replay', path: "/type", origin: { line: 2, index: 0 }, replay: { line: 2, index: 0 } },
    ]);
  });

  test("identical journals have no difference", () => {
    const journal = [at("1.0", "chat", question), at("2.0", "chat", salesCall), at("3.0", "chat", salesOutput)];
    expect(diffJournals(journal, journal)).toEqual([]);
  });
});

describe("streaming input", () => {
  test("async iterables give the same differences", async () => {
    async function* items(list: JournalItem[]) {
      yield* list;
    }
    const origin = [at("1.0", "chat", salesCall)];
    const replay = [at("1.0", "responses", { ...salesCall, type: "openai:function_call" })];
    expect(await diffJournalsAsync(items(origin), items(replay))).toEqual(diffJournals(origin, replay));
  });

  test("one side may be fed entirely before the other", () => {
    const differ = new JournalDiffer();
    differ.pushOrigin(at("1.0", "chat", salesCall));
    differ.pushOrigin(at("2.0", "chat", salesOutput));
    differ.pushReplay(at("1.0", "responses", salesCall));
    differ.pushReplay(at("2.0", "responses", { ...salesOutput, call_id: "call_999" }));
    expect(differ.finish()).toEqual([
      {
        code: "call_id_mismatch",
        detail: 'call_id "call_123" in the origin, "call_999" in the replay: an output written for one answers no call of the other',
        path: "/call_id",
        origin: { line: 2, index: 0 },
        replay: { line: 2, index: 0 },
      },
    ]);
  });
});
