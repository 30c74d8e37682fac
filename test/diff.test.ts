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

  test("a changed name, with the arguments only written otherwise", () => {
    const origin = [at("1.0", "chat", salesCall)];
    const replay = [at("7.2", "responses", { ...salesCall, name: "get_sales_report", arguments: "{\"region\": \"apac\"}" })];
    expect(diffJournals(origin, replay)).toEqual([
      { code: "name_changed", detail: 'name "get_latest_sales_report" in the origin, "get_sales_report" in the replay', path: "/name", origin: { line: 1, index: 0 }, replay: { line: 7, index: 2 } },
    ]);
  });

  test("changed arguments", () => {
    const origin = [at("1.0", "chat", salesCall)];
    const replay = [at("7.2", "responses", { ...salesCall, arguments: "{\"region\": \"emea\"}" })];
    expect(diffJournals(origin, replay)).toEqual([
      {
        code: "arguments_changed",
        detail: 'arguments "{\\"region\\":\\"apac\\"}" in the origin, "{\\"region\\": \\"emea\\"}" in the replay',
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

  test("an item changed into another between two that line up is a changed type", () => {
    const answer = { type: "message", role: "assistant", content: "Done." };
    const origin = [at("1.0", "chat", question), at("2.0", "chat", { type: "message", role: "assistant", content: "Here." }), at("3.0", "chat", answer)];
    const replay = [at("1.0", "responses", question), at("2.0", "responses", { type: "reasoning", id: "rs_1", summary: [] }), at("3.0", "responses", answer)];
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

describe("arguments compared as JSON values", () => {
  const withArguments = (args: unknown) => [at("1.0", "responses", { ...salesCall, arguments: args })];
  const codes = (before: unknown, after: unknown) => diffJournals(withArguments(before), withArguments(after)).map((difference) => difference.code);

  test("spacing and member order are no difference", () => {
    expect(codes('{"region":"apac","limit":1}', '{ "limit" : 1,\n  "region": "apac" }')).toEqual([]);
  });
  test("escapes that write the same string are no difference", () => {
    expect(codes('{"region":"apac"}', '{"region":"\\u0061pac"}')).toEqual([]);
  });
  test("a number written otherwise is a difference", () => {
    expect(codes('{"limit":1}', '{"limit":1.0}')).toEqual(["arguments_changed"]);
  });
  test("integers past 2^53 that a double takes for one are a difference", () => {
    expect(codes('{"id":12345678901234567890}', '{"id":12345678901234567891}')).toEqual(["arguments_changed"]);
  });
  test("a member named twice is compared as written", () => {
    expect(codes('{"region":"apac","region":"emea"}', '{"region":"emea"}')).toEqual(["arguments_changed"]);
    expect(codes('{"region":"apac","region":"emea"}', '{"region":"apac","region":"emea"}')).toEqual([]);
  });
  test("text that is not JSON is compared as written", () => {
    expect(codes("{region: apac}", "{region: apac}")).toEqual([]);
    expect(codes("{region: apac}", "{region:apac}")).toEqual(["arguments_changed"]);
  });
  test("objects are compared by value, whatever their member order", () => {
    expect(codes({ region: "apac", limit: 1 }, { limit: 1, region: "apac" })).toEqual([]);
  });
  test("parsed_arguments that hold other arguments than the text, which a runner built on the OpenAI SDKs runs, are a difference", () => {
    const parsed = (value: unknown) => [at("1.0", "responses", { ...salesCall, parsed_arguments: value })];
    const differences = diffJournals(withArguments(apac), parsed({ region: "emea" }));
    expect(differences).toEqual([
      {
        code: "arguments_changed",
        detail: "in the replay, parsed_arguments holds other arguments than the arguments text: the arguments cannot be compared as written",
        path: "/arguments",
        origin: { line: 1, index: 0 },
        replay: { line: 1, index: 0 },
      },
    ]);
    expect([diffJournals(withArguments(apac), parsed({ region: "apac" })), diffJournals(withArguments(apac), parsed(null))]).toEqual([[], []]);
  });
  test("a long change is shown from a little before where it starts", () => {
    const plan = (word: string) => JSON.stringify({ plan: `Keep the six initials, rhyme each pair of lines, then check the ${word} again.` });
    const [difference] = diffJournals(withArguments(plan("initials")), withArguments(JSON.stringify(JSON.parse(plan("rhymes")), null, 1)));
    expect(difference).toEqual({
      code: "arguments_changed",
      detail: 'arguments differ at character 73 of their JSON, spacing and member order aside: …"nes, then check the initials again.\\"}" in the origin, …"nes, then check the rhymes again.\\"}" in the replay',
      path: "/arguments",
      origin: { line: 1, index: 0 },
      replay: { line: 1, index: 0 },
    });
  });
});

describe("items lined up by identity, then content, then type", () => {
  const reasoning = (id: string) => ({ type: "reasoning", id, summary: [{ type: "summary_text", text: `thinking ${id}` }] });
  const reply = (text: string) => ({ type: "message", role: "assistant", content: text });
  const call = (n: number) => ({ type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: "get_weather", arguments: `{"city":"c${n}"}`, status: "completed" });
  const output = (n: number) => ({ type: "function_call_output", call_id: `call_${n}`, output: `sunny ${n}` });
  const loop = (turns: number, skip?: string): Record<string, unknown>[] => {
    const items: Record<string, unknown>[] = [question];
    for (let n = 1; n <= turns; n++) items.push(reasoning(`rs_${n}`), call(n), output(n), reply(`weather ${n}`));
    return skip === undefined ? items : items.filter((item) => item.id !== skip);
  };
  const journal = (items: Record<string, unknown>[], envelope: Envelope) => items.map((item, i) => at(`${i + 1}.0`, envelope, item));

  test("one reasoning item dropped is one difference, not a shift of every pair after it", () => {
    expect(diffJournals(journal(loop(12), "responses"), journal(loop(12, "rs_2"), "responses"))).toEqual([
      { code: "missing_in_replay", detail: "reasoning has no counterpart in the replay", path: "", origin: { line: 6, index: 0 } },
    ]);
  });

  test("a message added without an id is one extra item", () => {
    const replay = loop(3);
    replay.splice(5, 0, reply("one more thing"));
    expect(diffJournals(journal(loop(3), "responses"), journal(replay, "chat"))).toEqual([
      { code: "extra_in_replay", detail: "message has no counterpart in the origin", path: "", replay: { line: 6, index: 0 } },
    ]);
  });

  test("the same item id pairs a call whose call_id changed", () => {
    const replay = loop(2).map((item) => (item.call_id === "call_2" && item.type === "function_call" ? { ...item, call_id: "call_X" } : item));
    expect(diffJournals(journal(loop(2), "responses"), journal(replay, "responses"))).toEqual([
      {
        code: "call_id_mismatch",
        detail: 'call_id "call_2" in the origin, "call_X" in the replay: an output written for one answers no call of the other',
        path: "/call_id",
        origin: { line: 7, index: 0 },
        replay: { line: 7, index: 0 },
      },
    ]);
  });

  test("a call_id used twice pairs the first with the first and the second with the second", () => {
    const origin = [at("1.0", "responses", call(1)), at("2.0", "responses", { ...call(1), id: "fc_again", arguments: '{"city":"again"}' })];
    const replay = [at("1.0", "responses", { ...call(1), id: undefined }), at("2.0", "responses", { ...call(1), id: undefined, arguments: '{"city":"again"}' })];
    expect(diffJournals(origin, replay)).toEqual([]);
  });

  test("messages without ids line up by what they say", () => {
    const origin = ["one", "two", "three", "four"].map((text, i) => at(`${i + 1}.0`, "chat", reply(text)));
    const replay = ["one", "three", "four", "five"].map((text, i) => at(`${i + 1}.0`, "chat", reply(text)));
    expect(diffJournals(origin, replay)).toEqual([
      { code: "missing_in_replay", detail: "message has no counterpart in the replay", path: "", origin: { line: 2, index: 0 } },
      { code: "extra_in_replay", detail: "message has no counterpart in the origin", path: "", replay: { line: 4, index: 0 } },
    ]);
  });
});

describe("a stretch too large to align", () => {
  // Items that repeat on both sides, of two types in another order: no item found once, no long common run.
  const items = (first: string, second: string, count: number, envelope: Envelope) =>
    Array.from({ length: count }, (_, i) => at(`${i + 1}.0`, envelope, i % 2 === 0 ? { type: first, summary: [] } : { type: second, summary: [] }));

  test("is lined up by position, with a note saying where", () => {
    const differ = new JournalDiffer({ maxAlignCells: 10 });
    for (const item of items("reasoning", "compaction", 4, "responses")) differ.pushOrigin(item);
    for (const item of items("compaction", "reasoning", 4, "responses")) differ.pushReplay(item);
    const differences = differ.finish();
    expect(differences.map((difference) => [difference.code, difference.origin?.line, difference.replay?.line])).toEqual([
      ["type_changed", 1, 1],
      ["type_changed", 2, 2],
      ["type_changed", 3, 3],
      ["type_changed", 4, 4],
    ]);
    expect(differ.notes).toEqual([
      {
        detail: "4 origin items and 4 replay items, too many to align (more than 10 pairs) and with no item found once on each side, were lined up by position: differences there may come from the lining up",
        origin: { line: 1, index: 0 },
        replay: { line: 1, index: 0 },
      },
    ]);
  });

  test("within the bound, the same journals line up along their longest common run", () => {
    const differ = new JournalDiffer();
    for (const item of items("reasoning", "compaction", 4, "responses")) differ.pushOrigin(item);
    for (const item of items("compaction", "reasoning", 4, "responses")) differ.pushReplay(item);
    expect(differ.finish().map((difference) => [difference.code, difference.origin?.line, difference.replay?.line])).toEqual([
      ["missing_in_replay", 1, undefined],
      ["extra_in_replay", undefined, 4],
    ]);
    expect(differ.notes).toEqual([]);
  });

  test("20,000 items a side with no id, one dropped and one added far apart, are lined up exactly", () => {
    const texts = Array.from({ length: 20_000 }, (_, i) => `message ${i}`);
    const origin = texts.map((text, i) => at(`${i + 1}.0`, "chat", { type: "message", role: "user", content: text }));
    const replay = origin.filter((_, i) => i !== 10);
    replay.splice(18_000, 0, at("30000.0", "chat", { type: "reasoning", summary: [] }));
    const differ = new JournalDiffer();
    for (const item of origin) differ.pushOrigin(item);
    for (const item of replay) differ.pushReplay(item);
    expect(differ.finish()).toEqual([
      { code: "missing_in_replay", detail: "message has no counterpart in the replay", path: "", origin: { line: 11, index: 0 } },
      { code: "extra_in_replay", detail: "reasoning has no counterpart in the origin", path: "", replay: { line: 30000, index: 0 } },
    ]);
    expect(differ.notes).toEqual([]);
  }, 60_000);
});

describe("values nested 100,000 deep", () => {
  const deepText = "[".repeat(100_000) + "]".repeat(100_000);
  const deepValue = JSON.parse('{"a":'.repeat(100_000) + "1" + "}".repeat(100_000)) as unknown;

  test("the same deep arguments are no difference, as text or as a value", () => {
    expect(diffJournals([at("1.0", "responses", { ...salesCall, arguments: deepText })], [at("1.0", "responses", { ...salesCall, arguments: deepText })])).toEqual([]);
    expect(diffJournals([at("1.0", "responses", { ...salesCall, arguments: deepValue })], [at("1.0", "responses", { ...salesCall, arguments: deepValue })])).toEqual([]);
  });

  test("deep arguments that differ are a difference, shown in part", () => {
    const [difference] = diffJournals([at("1.0", "responses", { ...salesCall, arguments: deepText })], [at("1.0", "responses", { ...salesCall, arguments: deepValue })]);
    expect(difference).toEqual({
      code: "arguments_changed",
      detail: `arguments "${"[".repeat(79)}… in the origin, ${'{"a":'.repeat(16)}… in the replay`,
      path: "/arguments",
      origin: { line: 1, index: 0 },
      replay: { line: 1, index: 0 },
    });
  });

  test("a deep field of an item lines it up by what it says, like any other", () => {
    const deepItem = { type: "message", role: "user", content: "hi", metadata: deepValue };
    expect(diffJournals([at("1.0", "chat", question), at("2.0", "chat", deepItem)], [at("1.0", "chat", deepItem)])).toEqual([
      { code: "missing_in_replay", detail: "message has no counterpart in the replay", path: "", origin: { line: 1, index: 0 } },
    ]);
  });
});

describe("what a replayed call and output say", () => {
  const weather = { type: "function_call", call_id: "call_w", name: "weather", status: "completed", arguments: '{"city":"Oslo"}' };
  const forecast = { type: "function_call", call_id: "call_f", name: "forecast", status: "completed", arguments: '{"days":2}' };
  const output = (callId: string, said: unknown) => ({ type: "function_call_output", call_id: callId, output: said });

  test("a call whose status differs is status_changed; one left out beside completed is not", () => {
    expect(diffJournals([at("1.0", "responses", weather)], [at("1.0", "responses", { ...weather, status: "incomplete" })])).toEqual([
      { code: "status_changed", detail: 'status "completed" in the origin, "incomplete" in the replay: only a completed call runs', path: "/status", origin: { line: 1, index: 0 }, replay: { line: 1, index: 0 } },
    ]);
    const { status: _, ...unstated } = weather;
    expect(diffJournals([at("1.0", "responses", weather)], [at("1.0", "responses", unstated)])).toEqual([]);
    // Left out where the origin never finished the call: the replay hides that.
    expect(diffJournals([at("1.0", "responses", { ...weather, status: "in_progress" })], [at("1.0", "responses", unstated)]).map((difference) => difference.code)).toEqual(["status_changed"]);
  });

  test("outputs that swapped what they say, each keeping its call_id, are each output_changed", () => {
    const origin = [at("1.0", "responses", weather), at("1.1", "responses", forecast), at("2.0", "chat", output("call_w", "rain")), at("3.0", "chat", output("call_f", "sun"))];
    const replay = [at("1.0", "responses", weather), at("1.1", "responses", forecast), at("2.0", "responses", output("call_w", "sun")), at("3.0", "responses", output("call_f", "rain"))];
    expect(diffJournals(origin, replay)).toEqual([
      { code: "output_changed", detail: 'output "rain" in the origin, "sun" in the replay: the model is told something else', path: "/output", origin: { line: 2, index: 0 }, replay: { line: 2, index: 0 } },
      { code: "output_changed", detail: 'output "sun" in the origin, "rain" in the replay: the model is told something else', path: "/output", origin: { line: 3, index: 0 }, replay: { line: 3, index: 0 } },
    ]);
  });

  test("a text and one text part that holds it say the same; a part with more to say does not", () => {
    const origin = [at("1.0", "responses", weather), at("2.0", "chat", output("call_w", "rain"))];
    expect(diffJournals(origin, [at("1.0", "responses", weather), at("2.0", "responses", output("call_w", [{ type: "input_text", text: "rain" }]))])).toEqual([]);
    expect(diffJournals(origin, [at("1.0", "responses", weather), at("2.0", "responses", output("call_w", [{ type: "output_text", text: "rain", annotations: [] }]))])).toEqual([]);
    const annotated = [at("1.0", "responses", weather), at("2.0", "responses", output("call_w", [{ type: "output_text", text: "rain", annotations: [{ type: "url_citation", url: "https://example.com" }] }]))];
    expect(diffJournals(origin, annotated).map((difference) => difference.code)).toEqual(["output_changed"]);
    expect(diffJournals(origin, [at("1.0", "responses", weather), at("2.0", "responses", output("call_w", [{ type: "input_text", text: "ra" }, { type: "input_text", text: "in" }]))]).map((difference) => difference.code)).toEqual(["output_changed"]);
  });
});

describe("the namespace of a call", () => {
  const deleteFile = { type: "function_call", id: "fc_1", name: "delete_file", call_id: "call_1", status: "completed", arguments: '{"path":"/tmp/a"}' };
  const inSandbox = { ...deleteFile, namespace: "sandbox" };
  const place = { origin: { line: 1, index: 0 }, replay: { line: 1, index: 0 } };

  test("a namespace's call replayed as the top-level function of its name is name_changed, at /namespace", () => {
    expect(diffJournals([at("1.0", "responses", inSandbox)], [at("1.0", "responses", deleteFile)])).toEqual([
      {
        code: "name_changed",
        detail: 'name "delete_file" of namespace "sandbox" in the origin, "delete_file" with no namespace in the replay: a namespace\'s function is another tool than the top-level function of its name',
        path: "/namespace",
        ...place,
      },
    ]);
  });

  test("a top-level call replayed in a namespace is name_changed too", () => {
    expect(diffJournals([at("1.0", "responses", deleteFile)], [at("1.0", "responses", inSandbox)])).toEqual([
      {
        code: "name_changed",
        detail: 'name "delete_file" with no namespace in the origin, "delete_file" of namespace "sandbox" in the replay: a namespace\'s function is another tool than the top-level function of its name',
        path: "/namespace",
        ...place,
      },
    ]);
  });

  test("a call replayed in another namespace is name_changed", () => {
    expect(diffJournals([at("1.0", "responses", inSandbox)], [at("1.0", "responses", { ...deleteFile, namespace: "prod" })])).toEqual([
      {
        code: "name_changed",
        detail: 'name "delete_file" of namespace "sandbox" in the origin, "delete_file" of namespace "prod" in the replay: the function of one namespace is another tool than that of another',
        path: "/namespace",
        ...place,
      },
    ]);
  });

  test("a changed name and namespace are one difference, at /name", () => {
    expect(diffJournals([at("1.0", "responses", inSandbox)], [at("1.0", "responses", { ...deleteFile, name: "remove_file" })])).toEqual([
      { code: "name_changed", detail: 'name "delete_file" of namespace "sandbox" in the origin, "remove_file" with no namespace in the replay', path: "/name", ...place },
    ]);
  });

  test("a null namespace is none, as the gate reads it; the same namespace is no difference", () => {
    expect(diffJournals([at("1.0", "responses", deleteFile)], [at("1.0", "responses", { ...deleteFile, namespace: null })])).toEqual([]);
    expect(diffJournals([at("1.0", "responses", inSandbox)], [at("1.0", "responses", { ...inSandbox, arguments: '{"path": "/tmp/a"}' })])).toEqual([]);
  });
});
