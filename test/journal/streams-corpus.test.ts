// The recorded streams themselves, when ../shared/corpus is present (it is not in
// a clone of the project: these tests then skip and say so). Each recording must
// reassemble to what it shows; a stream with a non-streamed twin in the corpus
// must give the twin's items; and no prefix of any recording may give a call
// marked completed whose arguments are not its final ones.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { completionToItems } from "../../adapters/chat-completions/completion-to-response.js";
import { assembleRecording, linesOf, type RecordingFormat } from "./stream-recording.js";
import { TRANSPORT_PADDING_DETAIL } from "../../src/models/assembled-response.js";

const corpus = resolve(import.meta.dirname, "../../../shared/corpus");
const present = existsSync(corpus);
if (!present) console.warn(`streams-corpus: ${corpus} is absent; the recorded-stream tests are skipped`);

type Fields = Record<string, unknown>;

function read(path: string): string {
  return readFileSync(join(corpus, path), "utf8");
}

/**
 * The raw SSE bodies of a VCR cassette: its `body.string: |+` block scalars. The
 * cassettes are YAML, and the project has no YAML parser; a literal block keeps
 * its text verbatim once its indentation is removed, which is all this needs.
 */
function cassetteBodies(path: string): string[] {
  const lines = read(path).split("\n");
  const bodies: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const header = /^(\s*)string: \|\+$/.exec(lines[i]);
    if (!header) continue;
    const body: string[] = [];
    let indent = -1;
    for (i++; i < lines.length; i++) {
      const line = lines[i];
      if (line.trim() === "") {
        body.push("");
        continue;
      }
      const lineIndent = line.length - line.trimStart().length;
      if (indent === -1) indent = lineIndent;
      if (lineIndent < indent || lineIndent <= header[1].length) break;
      body.push(line.slice(indent));
    }
    i--;
    bodies.push(body.join("\n") + "\n");
  }
  return bodies;
}

/** The response.completed outputs a Responses recording shows, in order. */
function completedOutputs(records: Fields[]): Array<{ id: unknown; output: unknown }> {
  return records.filter((record) => record.type === "response.completed").map((record) => {
    const response = record.response as Fields;
    return { id: response.id, output: response.output };
  });
}

function jsonRecords(text: string): Fields[] {
  return linesOf(text).filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as Fields);
}

function sseRecords(text: string): Fields[] {
  return linesOf(text).filter((line) => line.startsWith("data: {")).map((line) => JSON.parse(line.slice(6)) as Fields);
}

const call = (callId: string, name: string, args: string) => ({ type: "function_call", call_id: callId, name, arguments: args, status: "completed" });

/**
 * A recording's responses less the record fields they leave behind (id, model,
 * usage…), which the twin tests below and the golden cases pin: the tests that
 * use this are about what the items are.
 */
function reassembled(text: string, format: RecordingFormat): ReturnType<typeof assembleRecording> {
  const result = assembleRecording(text, format);
  return { ...result, responses: result.responses.map((response) => ({ ...response, losses: response.losses.filter((loss) => loss.code !== "left_behind") })) };
}

describe.skipIf(!present)(`recorded Chat streams in ../shared/corpus${present ? "" : " (skipped: the corpus is absent)"}`, () => {
  test("OpenAI parallel calls: two calls, index 0 then index 1, arguments split mid-token", () => {
    const { responses, rejected } = reassembled(read("openai-python-chat-parallel-tools-sse/parallel-tool-calls.sse.txt"), "sse");
    expect(rejected).toEqual([]);
    expect(responses).toEqual([
      {
        id: "chatcmpl-ABfwAwrNePHUgBBezonVC6MX3zd63",
        status: "completed",
        items: [
          call("call_JMW1whyEaYG438VE1OIflxA2", "GetWeatherArgs", "{\"city\": \"Edinburgh\", \"country\": \"GB\", \"units\": \"c\"}"),
          call("call_DNYTawLBoN8fj3KN6qU9N1Ou", "get_stock_price", "{\"ticker\": \"AAPL\", \"exchange\": \"NASDAQ\"}"),
        ],
        losses: [],
        line: 1,
        lastLine: 49,
      },
    ]);
  });

  test("OpenAI refusal: the refusal fragments make one refusal part", () => {
    const { responses } = reassembled(read("openai-python-chat-refusal-sse/refusal.sse.txt"), "sse");
    expect(responses).toEqual([
      {
        id: "chatcmpl-ABfw4IfQfCCrcuybFm41wJyxjbkz7",
        status: "completed",
        items: [{ type: "message", role: "assistant", content: [{ type: "refusal", refusal: "I'm sorry, I can't assist with that request." }] }],
        losses: [],
        line: 1,
        lastLine: 25,
      },
    ]);
  });

  test("pydantic-ai agent run: three streamed completions, in order", () => {
    const bodies = cassetteBodies("pydantic-ai-chat-parallel-tools-stream/test_complex_agent_run.yaml");
    expect(bodies).toHaveLength(3);
    const { responses, rejected } = reassembled(bodies.join(""), "sse");
    expect(rejected).toEqual([]);
    expect(responses.map(({ id, status, items, losses }) => ({ id, status, items, losses }))).toEqual([
      {
        id: "chatcmpl-C2QD1kGWsTW5OWiqAtOSFEAOfPfQH",
        status: "completed",
        items: [call("call_q2UyBRP7eXNTzAoR8lEhjc9Z", "get_country", "{}"), call("call_b51ijcpFkDiTQG1bQzsrmtW5", "get_product_name", "{}")],
        losses: [],
      },
      { id: "chatcmpl-C2QD2NQfRbWW5ww5we2oDjS1mgHtK", status: "completed", items: [call("call_LwxJUB9KppVyogRRLQsamRJv", "get_weather", "{\"city\":\"Mexico City\"}")], losses: [] },
      {
        id: "chatcmpl-C2QD4vblfNcSDeoXmULJR4umoKNqY",
        status: "completed",
        items: [
          call(
            "call_CCGIWaMeYWmxOQ91orkmTvzn",
            "final_result",
            "{\"answers\":[{\"label\":\"Capital\",\"answer\":\"The capital of Mexico is Mexico City.\"},{\"label\":\"Weather\",\"answer\":\"The weather in Mexico City is currently sunny.\"},{\"label\":\"Product Name\",\"answer\":\"The product name is Pydantic AI.\"}]}",
          ),
        ],
        losses: [],
      },
    ]);
  });

  test("Azure: the prompt filter chunk opens nothing and the text is whole", () => {
    const { responses, rejected } = reassembled(read("vercel-ai-azure-chat-filter-chunks/azure-model-router.1.chunks.txt"), "jsonl");
    expect(rejected).toEqual([]);
    expect(responses).toEqual([
      {
        id: "chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt",
        status: "completed",
        items: [{ type: "message", role: "assistant", content: "Capital of Denmark." }],
        losses: [],
        line: 2,
        lastLine: 8,
      },
    ]);
  });

  test("DeepSeek: reasoning_content is a reasoning item, never merged into the text, and the call is whole", () => {
    const { responses } = reassembled(read("vercel-ai-deepseek-chat-tool-call/deepseek-tool-call.chunks.txt"), "jsonl");
    expect(responses).toHaveLength(1);
    const [response] = responses;
    expect(response.items.map((item) => item.type)).toEqual(["reasoning", "function_call"]);
    expect(response.items[1]).toEqual(call("call_00_ioIn7yN9p1ZOMNpDLwd4MgAF", "weather", "{\"location\": \"San Francisco\"}"));
    expect(response.losses.map(({ line, path, code }) => [line, path, code])).toEqual([
      [52, "/choices/0/delta/content", "form_changed"],
      [2, "/choices/0/delta/reasoning_content", "form_changed"],
    ]);
    expect([response.id, response.status, response.line, response.lastLine]).toEqual(["cca85624-4056-401f-b220-d77601d1f70d", "completed", 1, 52]);
  });

  test("Groq: the whole call in one delta", () => {
    const { responses } = reassembled(read("vercel-ai-groq-chat-tool-call/groq-tool-call.chunks.txt"), "jsonl");
    expect(responses).toEqual([
      {
        id: "chatcmpl-b610d559-f156-4aca-8827-24b4fe6af54f",
        status: "completed",
        items: [call("tk85n1k4m", "weather", "{}")],
        losses: [],
        line: 1,
        lastLine: 3,
      },
    ]);
  });

  describe.each([
    ["DeepSeek", "vercel-ai-deepseek-chat-tool-call/deepseek-tool-call"],
    ["Groq", "vercel-ai-groq-chat-tool-call/groq-tool-call"],
  ])("%s stream and its non-streamed twin", (_provider, stem) => {
    // Two separate requests: the call ids and the reasoning's words differ, nothing else may.
    const withoutCallId = (items: unknown[]) =>
      items.map((item) => {
        const fields = item as Fields;
        if (fields.type === "reasoning") return { ...fields, summary: (fields.summary as Fields[]).map((part) => ({ ...part, text: "<differs between the two requests>" })) };
        return { ...fields, call_id: "<differs between the two requests>" };
      });

    const twinItems = () => completionToItems({ completion: JSON.parse(read(`${stem}.json`)) as Fields });

    test("give the same items and status", () => {
      const [streamed] = assembleRecording(read(`${stem}.chunks.txt`), "jsonl").responses;
      const [choice] = twinItems().value;
      expect([withoutCallId(streamed.items), streamed.status]).toEqual([withoutCallId(choice.items), choice.status]);
    });

    test("report the same losses, each at the field that carried it", () => {
      const chunks = read(`${stem}.chunks.txt`);
      const [streamed] = assembleRecording(chunks, "jsonl").responses;
      const twin = twinItems();
      // A field of the twin's message is a field of a chunk's delta. Left out: the
      // twin's tool call `index`, which a stream spends on accumulation, and the
      // completion fields no chunk of this recording has (Groq's stored one adds
      // service_tier).
      const chunkFields = new Set(jsonRecords(chunks).flatMap((record) => Object.keys(record)));
      const sorted = (losses: Array<{ field: string; code: string; detail: string }>) => [...losses].sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
      const twinLosses = [...twin.value[0].losses, ...twin.losses]
        .map(({ path, code, detail }) => ({ field: path.replace(/^\/choices\/0\/message\//, ""), code, detail }))
        .filter(({ field }) => !/^tool_calls\/\d+\/index$/.test(field) && !(/^\/[^/]+$/.test(field) && !chunkFields.has(field.slice(1))));
      const streamedLosses = streamed.losses.map(({ path, code, detail }) => ({ field: path.replace(/^\/choices\/0\/delta\//, ""), code, detail }));
      expect(sorted(streamedLosses)).toEqual(sorted(twinLosses));
    });
  });
});

describe.skipIf(!present)(`recorded Open Responses streams in ../shared/corpus${present ? "" : " (skipped: the corpus is absent)"}`, () => {
  const recordings: Array<[string, () => { text: string; format: RecordingFormat; records: Fields[] }]> = [
    ["Azure function call", () => {
      const text = read("vercel-ai-azure-responses-tool-call/azure-tool-call.1.chunks.txt");
      return { text, format: "jsonl", records: jsonRecords(text) };
    }],
    ["pydantic-ai stream (call, then answer)", () => {
      const text = cassetteBodies("pydantic-ai-responses-stream/test_openai_responses_stream.yaml").join("");
      return { text, format: "sse", records: sseRecords(text) };
    }],
    ["four-response reasoning loop", () => {
      const text = read("vercel-ai-responses-reasoning-function-calls/openai-reasoning-encrypted-content.1.chunks.txt");
      return { text, format: "jsonl", records: jsonRecords(text) };
    }],
  ];

  test.each(recordings)("%s: each response gives the output its response.completed shows, in order, and leaves behind its other fields", (_name, load) => {
    const { text, format, records } = load();
    const { responses, rejected } = assembleRecording(text, format);
    expect(rejected).toEqual([]);
    // As normalize reports a stored response object: every field but object and output that holds something.
    const leftBehind = (response: Fields) =>
      Object.entries(response)
        .filter(([key, value]) => key !== "object" && key !== "output" && value !== null && !(typeof value === "object" && Object.keys(value).length === 0))
        .map(([key]) => ({ path: `/response/${key}`, code: "left_behind", detail: `${key} of the response is in no item: normalize writes items only` }));
    const terminal = records.filter((record) => record.type === "response.completed").map((record) => record.response as Fields);
    const isPadding = (loss: { path: string }) => loss.path === "/obfuscation";
    expect(responses.map(({ id, status, items, losses }) => ({ id, status, output: items, losses: losses.filter((loss) => !isPadding(loss)).map(({ path, code, detail }) => ({ path, code, detail })) }))).toEqual(
      completedOutputs(records).map(({ id, output }, index) => ({ id, status: "completed", output, losses: leftBehind(terminal[index]!) })),
    );
    // Each event's padding is said on the event's own line (a JSON line is one record).
    const padded = records.flatMap((record, index) => (record.obfuscation === undefined ? [] : [index + 1]));
    const said = responses.flatMap((response) => response.losses.filter(isPadding).map((loss) => (loss.code === "left_behind" && loss.detail === TRANSPORT_PADDING_DETAIL ? loss.line : -loss.line)));
    expect(format === "jsonl" ? said : said.length).toEqual(format === "jsonl" ? padded : padded.length);
  });

  test.each(recordings)("%s: the items built from the events alone agree with response.completed, each call in_progress without it", (_name, load) => {
    const { records } = load();
    const withoutTerminal = records.filter((record) => record.type !== "response.completed").map((record) => JSON.stringify(record)).join("\n");
    const fromEvents = assembleRecording(withoutTerminal, "jsonl").responses.map((response) => response.items);
    // The service re-encrypts reasoning between output_item.done and response.completed.
    const comparable = (output: unknown[]) => output.map((item) => ({ ...(item as Fields), encrypted_content: (item as Fields).encrypted_content === undefined ? undefined : "<re-encrypted>" }));
    // Without its terminal event a stream gives no final response to openai-python or the Agents SDKs: its calls are not taken to have run.
    const cut = (output: unknown[]) => output.map((item) => ((item as Fields).type === "function_call" ? { ...(item as Fields), status: "in_progress" } : item));
    expect(fromEvents.map(comparable)).toEqual(completedOutputs(records).map(({ output }) => comparable(cut(output as unknown[]))));
  });

  test("the four-response loop comes out as four responses of one agent loop", () => {
    const [, load] = recordings[2];
    const { text, format } = load();
    const { responses } = assembleRecording(text, format);
    expect(responses.map((response) => response.items.map((item) => (item as Fields).type))).toEqual([["reasoning", "function_call"], ["function_call"], ["function_call"], ["message"]]);
    expect(responses.map((response) => [response.line, response.lastLine])).toEqual([[1, 56], [57, 75], [76, 94], [95, 110]]);
  });
});

describe.skipIf(!present)(`every prefix of every recording${present ? "" : " (skipped: the corpus is absent)"}`, () => {
  const recordings: Array<[string, () => { text: string; format: RecordingFormat }]> = [
    ["openai parallel calls", () => ({ text: read("openai-python-chat-parallel-tools-sse/parallel-tool-calls.sse.txt"), format: "sse" })],
    ["pydantic-ai chat run", () => ({ text: cassetteBodies("pydantic-ai-chat-parallel-tools-stream/test_complex_agent_run.yaml").join(""), format: "sse" })],
    ["deepseek", () => ({ text: read("vercel-ai-deepseek-chat-tool-call/deepseek-tool-call.chunks.txt"), format: "jsonl" })],
    ["groq", () => ({ text: read("vercel-ai-groq-chat-tool-call/groq-tool-call.chunks.txt"), format: "jsonl" })],
    ["azure responses", () => ({ text: read("vercel-ai-azure-responses-tool-call/azure-tool-call.1.chunks.txt"), format: "jsonl" })],
    ["pydantic-ai responses", () => ({ text: cassetteBodies("pydantic-ai-responses-stream/test_openai_responses_stream.yaml").join(""), format: "sse" })],
    ["reasoning loop", () => ({ text: read("vercel-ai-responses-reasoning-function-calls/openai-reasoning-encrypted-content.1.chunks.txt"), format: "jsonl" })],
  ];

  test.each(recordings)("%s: a call marked completed always has its final arguments", (_name, load) => {
    const { text, format } = load();
    const finalArguments = new Map<unknown, unknown>();
    for (const response of assembleRecording(text, format).responses) {
      for (const item of response.items as Fields[]) if (item.type === "function_call") finalArguments.set(item.call_id, item.arguments);
    }
    const lines = linesOf(text);
    const early: string[] = [];
    let cutsWithOpenCalls = 0;
    for (let cut = 1; cut <= lines.length; cut++) {
      const items = assembleRecording(lines.slice(0, cut).join("\n"), format).responses.flatMap((response) => response.items as Fields[]);
      for (const item of items) {
        if (item.type !== "function_call") continue;
        if (item.status === "completed" && item.arguments !== finalArguments.get(item.call_id)) early.push(`line ${cut}: ${String(item.call_id)}`);
        if (item.status !== "completed") cutsWithOpenCalls++;
      }
    }
    expect(early).toEqual([]);
    // The property means something only if some cuts do leave a call open.
    expect(cutsWithOpenCalls).toBeGreaterThan(0);
  });
});
