// Gemini streams recorded by the Python SDK (google-genai) or ADK: each
// `generate_content_stream` chunk written as `model_dump()` JSON, its fields in
// snake_case and every field it does not hold written null. They join into the
// response their camelCase twins join into (same items, verdicts and losses),
// each loss at the field as the line writes it. A stream that turns from one
// spelling to the other is one the Python SDK joins and a reader of the API's
// camelCase reads without the snake_case fields: its calls are not completed.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { GeminiStreamAssembler } from "../../../adapters/gemini/stream.js";
import { runOrbridge } from "../../support/run-cli.js";
import { scratchFolder } from "../../support/scratch.js";

type Json = Record<string, unknown>;

const CASE = new URL("../../../golden/gemini/stream-vertex-partial-args/", import.meta.url);
const camelLines = readFileSync(new URL("chunks.jsonl", CASE), "utf8");
const linesOf = (text: string): Json[] => text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as Json);
const jsonl = (records: unknown[]) => records.map((record) => JSON.stringify(record)).join("\n") + "\n";
const sse = (records: unknown[]) => records.map((record) => `data: ${JSON.stringify(record)}\r\n\r\n`).join("");

// The fields python-genai's models hold, in their order: model_dump writes each, null where the chunk has none.
const FIELDS: Record<string, string[]> = {
  response: ["sdk_http_response", "candidates", "create_time", "model_version", "prompt_feedback", "response_id", "usage_metadata", "model_status", "automatic_function_calling_history", "parsed"],
  candidate: ["content", "citation_metadata", "finish_message", "token_count", "finish_reason", "grounding_metadata", "avg_logprobs", "index", "logprobs_result", "safety_ratings", "url_context_metadata"],
  content: ["parts", "role"],
  part: ["media_resolution", "code_execution_result", "executable_code", "file_data", "function_call", "function_response", "inline_data", "text", "thought", "thought_signature", "video_metadata", "tool_call", "tool_response", "part_metadata"],
  call: ["id", "args", "name", "partial_args", "will_continue"],
  piece: ["bool_value", "json_path", "null_value", "number_value", "string_value", "will_continue"],
};
const snake = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
const snakeKeys = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(snakeKeys) : value !== null && typeof value === "object" ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [snake(key), snakeKeys(inner)])) : value;

/** A camelCase chunk as model_dump writes it; `args` (the model's) as it is. */
function dumped(chunk: Json): Json {
  const level = (kind: string, value: Json, inner: Record<string, (value: never) => unknown>): Json => {
    const given = Object.fromEntries(Object.entries(value).map(([key, field]) => [snake(key), field]));
    return Object.fromEntries(FIELDS[kind]!.map((key) => [key, key in given ? (inner[key] ?? snakeKeys)(given[key] as never) : null]));
  };
  const call = (value: Json) => level("call", value, { args: (args: unknown) => args, partial_args: (pieces: Json[]) => pieces.map((piece) => level("piece", piece, {})) });
  const part = (value: Json) => level("part", value, { function_call: call });
  const content = (value: Json) => level("content", value, { parts: (parts: Json[]) => parts.map(part) });
  const candidate = (value: Json) => level("candidate", value, { content });
  return level("response", chunk, { candidates: (candidates: Json[]) => candidates.map(candidate) });
}

const camel = linesOf(camelLines);
const snakeLines = jsonl(camel.map(dumped));

function toolsFile(): string {
  const file = join(scratchFolder("gemini-snake-stream"), "tools.json");
  const noParameters = { type: "object", additionalProperties: false, properties: {} };
  const screen = { type: "object", additionalProperties: false, required: ["id"], properties: { id: { type: "string" } } };
  writeFileSync(
    file,
    JSON.stringify([
      { type: "function", name: "read_theme", parameters: noParameters },
      { type: "function", name: "read_screen", parameters: screen },
      { type: "function", name: "get_capital", parameters: { type: "object", required: ["country"], properties: { country: { type: "string" } } } },
      { type: "function", name: "write_note", parameters: { type: "object", required: ["title"], properties: { title: { type: "string" } } } },
    ]),
  );
  return file;
}

/** What a command reported, each loss with its path as the line writes it. */
async function reported(command: string[], text: string): Promise<{ code: number; stdout: string; stderr: string; report: Json[] }> {
  const report = join(scratchFolder("gemini-snake-stream"), "report.jsonl");
  const result = await runOrbridge([...command, "--report", report], text);
  return { ...result, report: linesOf(readFileSync(report, "utf8")).map(({ line, path, code, detail }) => ({ line, path, code, detail })) };
}

/** The loss paths of the camelCase twin, spelled as the dump writes the Gemini fields (a model's args keep theirs). */
const spelledAsDumped = (path: string) => path.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
const byLineAndPath = (a: Json, b: Json) => Number(a.line) - Number(b.line) || String(a.path).localeCompare(String(b.path)) || String(a.detail).localeCompare(String(b.detail));

describe("a stream of chunks dumped in snake_case with nulls", () => {
  test("the vertex stream's dump is what model_dump writes: snake_case fields, nulls, the model's args as they are", () => {
    expect(linesOf(snakeLines)[2]).toEqual({
      sdk_http_response: null,
      candidates: [
        {
          content: { parts: [{ media_resolution: null, code_execution_result: null, executable_code: null, file_data: null, function_call: { id: null, args: null, name: "read_screen", partial_args: null, will_continue: true }, function_response: null, inline_data: null, text: null, thought: null, thought_signature: null, video_metadata: null, tool_call: null, tool_response: null, part_metadata: null }], role: "model" },
          citation_metadata: null,
          finish_message: null,
          token_count: null,
          finish_reason: null,
          grounding_metadata: null,
          avg_logprobs: null,
          index: null,
          logprobs_result: null,
          safety_ratings: null,
          url_context_metadata: null,
        },
      ],
      create_time: "2026-05-04T20:01:02.264968Z",
      model_version: "gemini-3-flash-preview",
      prompt_feedback: null,
      response_id: "_vr4aYiWEJnYodAPkujX0QM",
      usage_metadata: { traffic_type: "PROVISIONED_THROUGHPUT" },
      model_status: null,
      automatic_function_calling_history: null,
      parsed: null,
    });
  });

  test("normalize gives the items of the camelCase stream, and its losses, each at the field as the line writes it", async () => {
    const [twin, dump] = [await reported(["normalize"], camelLines), await reported(["normalize"], snakeLines)];
    expect([dump.code, dump.stdout, dump.stderr]).toEqual([0, twin.stdout, twin.stderr]);
    expect(twin.stderr).toBe("read 15 lines, 1 record: 1 emitted (6 items), 0 reported; 16 losses, 61 record fields left behind, 5 values synthesized\n");
    expect(dump.report.sort(byLineAndPath)).toEqual(twin.report.map((loss) => ({ ...loss, path: spelledAsDumped(String(loss.path)) })).sort(byLineAndPath));
    expect(dump.report.filter((loss) => loss.code === "form_changed" && loss.line === 4)).toEqual([
      { line: 4, path: "/candidates/0/content/parts/0/function_call/partial_args", code: "form_changed", detail: "partialArgs pieces are set at their jsonPath into the call's args: the call is written whole" },
      { line: 4, path: "/candidates/0/content/parts/0/function_call/will_continue", code: "form_changed", detail: "willContinue marks a call whose args come in pieces: the call is written once they have all come" },
    ]);
  });

  test("the same dumps in SSE text give the same items", async () => {
    expect((await runOrbridge(["normalize"], sse(linesOf(snakeLines)))).stdout).toBe((await runOrbridge(["normalize"], camelLines)).stdout);
  });

  test("convert writes the camelCase stream's response object, the usage it keeps as the line wrote it", async () => {
    const [twin, dump] = [await reported(["convert", "--to", "responses"], camelLines), await reported(["convert", "--to", "responses"], snakeLines)];
    const [twinResponse, dumpResponse] = [linesOf(twin.stdout)[0]!, linesOf(dump.stdout)[0]!];
    expect(dumpResponse).toEqual({ ...twinResponse, "gemini:usageMetadata": snakeKeys(twinResponse["gemini:usageMetadata"]) });
    expect(dump.report.sort(byLineAndPath)).toEqual(twin.report.map((loss) => ({ ...loss, path: spelledAsDumped(String(loss.path)) })).sort(byLineAndPath));
  });

  test("the gate gives the camelCase stream's verdicts: each call, whole once its last piece came, runs", async () => {
    const tools = toolsFile();
    const [twin, dump] = [await runOrbridge(["gate", "--tools", tools, "--format", "json"], camelLines), await runOrbridge(["gate", "--tools", tools, "--format", "json"], snakeLines)];
    expect([dump.code, dump.stdout]).toEqual([0, twin.stdout]);
    expect(linesOf(dump.stdout).map((verdict) => [verdict.type, verdict.reason])).toEqual([
      ["reasoning", "not_function_call"],
      ["function_call", "ok"],
      ["function_call", "ok"],
      ["function_call", "ok"],
      ["function_call", "ok"],
      ["message", "not_function_call"],
    ]);
  });
});

describe("a call dumped in pieces (partial_args, will_continue)", () => {
  const chunk = (parts: Json[], extra: Json = {}) => dumped({ candidates: [{ content: { role: "model", parts }, ...extra }], responseId: "r1" });
  const opened = { functionCall: { name: "write_note", willContinue: true } };
  const piece = (last: boolean) => ({ functionCall: { partialArgs: [{ jsonPath: "$.title", stringValue: "Shopping", ...(last ? {} : { willContinue: true }) }], willContinue: true } });
  const statuses = (chunks: Json[]) => {
    const assembler = new GeminiStreamAssembler();
    const responses = [...chunks.flatMap((value, index) => assembler.push(value, index + 1)), ...assembler.finish()];
    return responses.flatMap((response) => response.items.filter((item) => item.type === "function_call").map((item) => [(item as { arguments?: string }).arguments, (item as { status?: string }).status]));
  };

  test("a call still in pieces when the candidate finished is in_progress, as its camelCase twin", () => {
    expect(statuses([chunk([opened]), chunk([piece(false)], { finishReason: "STOP" })])).toEqual([['{"title":"Shopping"}', "in_progress"]]);
    expect(statuses([chunk([opened], { finishReason: "STOP" })])).toEqual([["{}", "in_progress"]]);
  });

  test("a call closed by the chunk of nothing but nulls (functionCall {}) is completed, as its camelCase twin", () => {
    const chunks = [chunk([opened]), chunk([piece(true)]), chunk([{ functionCall: {} }], { finishReason: "STOP" })];
    expect(linesOf(jsonl(chunks))[2]!.candidates).toMatchObject([{ content: { parts: [{ function_call: { id: null, args: null, name: null, partial_args: null, will_continue: null } }] } }]);
    expect(statuses(chunks)).toEqual([['{"title":"Shopping"}', "completed"]]);
  });

  test("the gate blocks the piece of a call as not completed", async () => {
    const result = await runOrbridge(["gate", "--tools", toolsFile(), "--format", "json"], jsonl([chunk([opened]), chunk([piece(false)], { finishReason: "STOP" })]));
    expect(result.code).toBe(1);
    expect(linesOf(result.stdout).map((verdict) => [verdict.type, verdict.reason])).toEqual([["function_call", "status"]]);
  });
});

describe("a stream that turns from one spelling to the other", () => {
  const call = { functionCall: { name: "get_capital", args: { country: "Portugal" } } };
  const camelChunk = (parts: Json[], extra: Json = {}) => ({ candidates: [{ content: { role: "model", parts }, ...extra }], responseId: "r1" });

  test("camelCase chunks and then a dumped one: one response, its calls incomplete, reported on the line it turned", async () => {
    const assembler = new GeminiStreamAssembler();
    const [response] = [...assembler.push(camelChunk([call]), 1), ...assembler.push(dumped(camelChunk([], { finishReason: "STOP" })), 2), ...assembler.finish()];
    expect(response!.items.map((item) => [item.type, (item as { status?: string }).status])).toEqual([["function_call", "incomplete"]]);
    expect(response!.losses.filter((loss) => loss.code === "form_changed")).toEqual([
      { line: 2, path: "", code: "form_changed", detail: "this chunk writes its fields in snake_case, where line 1 wrote them in camelCase: the Python SDK reads both and joins them, a reader of the API's camelCase (js-genai) reads none of the snake_case fields, so the response's calls are written incomplete" },
    ]);
  });

  test("the gate blocks the call either way round, and passes it where the spelling holds", async () => {
    const tools = toolsFile();
    const gate = async (chunks: Json[]) => linesOf((await runOrbridge(["gate", "--tools", tools, "--format", "json"], jsonl(chunks))).stdout).map((verdict) => verdict.reason);
    expect(await gate([camelChunk([call]), dumped(camelChunk([], { finishReason: "STOP" }))])).toEqual(["status"]);
    expect(await gate([dumped(camelChunk([call])), camelChunk([], { finishReason: "STOP" })])).toEqual(["status"]);
    expect(await gate([dumped(camelChunk([call])), dumped(camelChunk([], { finishReason: "STOP" }))])).toEqual(["ok"]);
    expect(await gate([camelChunk([call]), camelChunk([], { finishReason: "STOP" })])).toEqual(["ok"]);
  });

  test("a chunk of neither spelling (text, role, index) goes with either", () => {
    const assembler = new GeminiStreamAssembler();
    const neutral = { candidates: [{ content: { role: "model", parts: [{ text: "Looking it up." }] }, index: 0 }] };
    const [response] = [...assembler.push(neutral, 1), ...assembler.push(dumped(camelChunk([call], { finishReason: "STOP" })), 2), ...assembler.finish()];
    expect(response!.items.map((item) => [item.type, (item as { status?: string }).status])).toEqual([
      ["message", undefined],
      ["function_call", "completed"],
    ]);
  });

  test("a chunk that writes a call's fields in both spellings, each chunk so, leaves the calls incomplete: a call opened as functionCall {name, will_continue} is whole without args to a reader of camelCase", () => {
    const assembler = new GeminiStreamAssembler();
    const chunk = (parts: Json[], extra: Json = {}) => ({ candidates: [{ content: { role: "model", parts }, ...extra }], response_id: "r1" });
    const chunks = [chunk([{ functionCall: { name: "get_capital", will_continue: true } }]), chunk([{ functionCall: { partialArgs: [{ jsonPath: "$.country", stringValue: "Portugal" }] } }]), chunk([{ text: "" }], { finishReason: "STOP" })];
    const [response] = [...chunks.flatMap((value, index) => assembler.push(value, index + 1)), ...assembler.finish()];
    expect(response!.items.filter((item) => item.type === "function_call").map((item) => [(item as { arguments?: string }).arguments, (item as { status?: string }).status])).toEqual([['{"country":"Portugal"}', "incomplete"]]);
    expect(response!.losses.filter((loss) => loss.path === "")).toEqual([
      { line: 1, path: "", code: "form_changed", detail: "this chunk writes the fields of calls in both camelCase and snake_case: the Python SDK reads both and joins them, a reader of the API's camelCase (js-genai) reads none of the snake_case fields, so the response's calls are written incomplete" },
    ]);
  });

  test("a call opened in camelCase and given its pieces in snake_case, in chunks that both write other fields in both spellings, leaves the calls incomplete", () => {
    const assembler = new GeminiStreamAssembler();
    const chunk = (parts: Json[], extra: Json = {}) => ({ candidates: [{ content: { role: "model", parts }, ...extra }], response_id: "r1" });
    const chunks = [chunk([{ functionCall: { name: "get_capital", willContinue: true } }]), chunk([{ function_call: { partial_args: [{ json_path: "$.country", string_value: "Portugal" }] } }], { finishReason: "STOP" })];
    const [response] = [...chunks.flatMap((value, index) => assembler.push(value, index + 1)), ...assembler.finish()];
    expect(response!.items.filter((item) => item.type === "function_call").map((item) => [(item as { arguments?: string }).arguments, (item as { status?: string }).status])).toEqual([['{"country":"Portugal"}', "incomplete"]]);
    expect(response!.losses.filter((loss) => loss.path === "")).toEqual([
      { line: 2, path: "", code: "form_changed", detail: "this chunk writes the fields of calls in snake_case, where line 1 wrote them in camelCase: the Python SDK reads both and joins them, a reader of the API's camelCase (js-genai) reads none of the snake_case fields, so the response's calls are written incomplete" },
    ]);
  });

  test("a field given in both spellings in one chunk leaves the calls incomplete, reported at the snake_case one", () => {
    const assembler = new GeminiStreamAssembler();
    const twice = { candidates: [{ content: { role: "model", parts: [{ ...call, function_call: { name: "get_capital", args: { country: "Spain" } } }] }, finishReason: "STOP" }], responseId: "r1" };
    const [response] = [...assembler.push(twice, 1), ...assembler.finish()];
    expect(response!.items.map((item) => [(item as { arguments?: string }).arguments, (item as { status?: string }).status])).toEqual([['{"country":"Portugal"}', "incomplete"]]);
    expect(response!.losses.filter((loss) => loss.code === "form_changed")).toEqual([
      { line: 1, path: "/candidates/0/content/parts/0/function_call", code: "form_changed", detail: "a field given in both camelCase and snake_case: a reader of the API's JSON takes the camelCase one, the Python SDK refuses the chunk, so the response's calls are written incomplete" },
    ]);
  });
});

describe("a field given in both spellings, one of them null", () => {
  const twiceDetail = "a field given in both camelCase and snake_case: a reader of the API's JSON takes the camelCase one, the Python SDK refuses the chunk, so the response's calls are written incomplete";
  const call = { name: "get_capital", args: { country: "Portugal" } };
  const read = (chunks: Json[]) => {
    const assembler = new GeminiStreamAssembler();
    const [response] = [...chunks.flatMap((chunk, index) => assembler.push(chunk, index + 1)), ...assembler.finish()];
    return {
      calls: response!.items.filter((item) => item.type === "function_call").map((item) => [(item as { arguments?: string }).arguments, (item as { status?: string }).status]),
      twice: response!.losses.filter((loss) => loss.detail === twiceDetail),
    };
  };
  const dumpedWith = (part: Json) => {
    const chunk = dumped({ candidates: [{ content: { role: "model", parts: [] }, finishReason: "STOP" }], responseId: "r1" });
    ((chunk.candidates as Json[])[0]!.content as Json).parts = [part];
    return chunk;
  };

  test("a null functionCall beside a function_call, which a reader of the API's JSON reads as no call: not completed, reported at the snake_case one", () => {
    expect(read([dumpedWith({ functionCall: null, function_call: call })])).toEqual({ calls: [], twice: [{ line: 1, path: "/candidates/0/content/parts/0/function_call", code: "form_changed", detail: twiceDetail }] });
  });

  test("a null function_call beside a functionCall, which the Python SDK refuses: the call not completed", () => {
    expect(read([dumpedWith({ function_call: null, functionCall: call })])).toEqual({ calls: [['{"country":"Portugal"}', "incomplete"]], twice: [{ line: 1, path: "/candidates/0/content/parts/0/function_call", code: "form_changed", detail: twiceDetail }] });
  });

  test("a piece's null willContinue beside its will_continue: the call its pieces make, read as the camelCase says (the piece is its path's last), not completed", () => {
    const part = (fields: Json) => ({ function_call: { id: null, args: null, name: null, partial_args: null, will_continue: null, ...fields } });
    const chunks = [
      dumpedWith(part({ name: "get_capital", will_continue: true })),
      dumpedWith(part({ partial_args: [{ json_path: "$.country", string_value: "Port", will_continue: true, willContinue: null }], will_continue: true })),
      dumpedWith(part({ partial_args: [{ json_path: "$.country", string_value: "ugal" }], will_continue: true })),
      dumpedWith(part({})),
    ];
    for (const chunk of chunks.slice(0, -1)) delete (chunk.candidates as Json[])[0]!.finish_reason;
    expect(read(chunks)).toEqual({ calls: [['{"country":"Port"}', "incomplete"]], twice: [{ line: 2, path: "/candidates/0/content/parts/0/function_call/partial_args/0/will_continue", code: "form_changed", detail: twiceDetail }] });
  });
});

describe("a null in a chunk of the API's camelCase", () => {
  // Only a dump writes null for a field it does not hold; a reader of the API's JSON takes a null as written.
  const streamed = (call: Json) => [
    { candidates: [{ content: { role: "model", parts: [{ functionCall: call }] } }], responseId: "r1" },
    { candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP" }], responseId: "r1" },
  ];
  const argumentsOf = (chunks: Json[]) => {
    const assembler = new GeminiStreamAssembler();
    const responses = [...chunks.flatMap((chunk, index) => assembler.push(chunk, index + 1)), ...assembler.finish()];
    return responses.flatMap((response) => response.items.filter((item) => item.type === "function_call").map((item) => (item as { arguments?: string }).arguments));
  };

  test("args: null stays null, as the same response on one line gives it, where the dump's args: null is the args left out", () => {
    const dump = streamed({ name: "get_capital", args: null }).map(dumped);
    expect({ camel: argumentsOf(streamed({ name: "get_capital", args: null })), dump: argumentsOf(dump) }).toEqual({ camel: ["null"], dump: ["{}"] });
  });

  test("on one line, a whole response gives what its stream gives: a dump's args: null is no args, the API's null is null", async () => {
    const camel = { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "read_theme", args: null } }] }, finishReason: "STOP" }], responseId: "r1" };
    const gated = async (record: Json) => {
      const result = await runOrbridge(["gate", "--tools", toolsFile(), "--format", "json"], jsonl([record]));
      return { code: result.code, verdicts: linesOf(result.stdout).map(({ reason }) => reason) };
    };
    expect({ camel: await gated(camel), dump: await gated(dumped(camel)) }).toEqual({ camel: { code: 1, verdicts: ["arguments_schema"] }, dump: { code: 0, verdicts: ["ok"] } });
  });

  test("the gate blocks the camelCase call whose args are null, by its schema, where {} would pass it", async () => {
    const result = await runOrbridge(["gate", "--tools", toolsFile(), "--format", "json"], jsonl(streamed({ name: "read_theme", args: null })));
    const verdicts = linesOf(result.stdout).filter((verdict) => verdict.type === "function_call").map(({ reason, blocked }) => ({ reason, blocked }));
    expect({ code: result.code, verdicts }).toEqual({ code: 1, verdicts: [{ reason: "arguments_schema", blocked: true }] });
  });
});

describe("a finished dumped response followed by a chunk of its response_id", () => {
  const finished = dumped({ candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "get_capital", args: { country: "Portugal" } } }] }, finishReason: "STOP" }], responseId: "r1" });

  test("is one stream, whose calls the gate blocks, as in camelCase", async () => {
    const later = dumped({ candidates: [{ finishReason: "MALFORMED_FUNCTION_CALL" }], responseId: "r1" });
    const result = await runOrbridge(["gate", "--tools", toolsFile(), "--format", "json"], jsonl([finished, later]));
    expect(result.code).toBe(1);
    expect(linesOf(result.stdout).map((verdict) => [verdict.type, verdict.reason])).toEqual([["function_call", "status"]]);
  });

  test("alone, or before a response of another response_id, is a stored response whose call runs", async () => {
    const tools = toolsFile();
    for (const chunks of [[finished], [finished, { ...finished, response_id: "r2" }]]) {
      const result = await runOrbridge(["gate", "--tools", tools, "--format", "json"], jsonl(chunks));
      expect(linesOf(result.stdout).map((verdict) => verdict.reason)).toEqual(chunks.map(() => "ok"));
    }
  });
});
