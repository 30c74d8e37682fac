// The commands on journals shaped as real recordings: what a user sees, from
// the command line, for each shape the readers once got wrong.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runOrbridge } from "../support/run-cli.js";
import { scratchFolder } from "../support/scratch.js";
import { withoutNeutralFields } from "../support/response-neutrals.js";
import { eventFrame } from "../adapters/bedrock/event-stream-frames.js";

const jsonl = (records: unknown[]) => records.map((record) => JSON.stringify(record)).join("\n") + "\n";
const parse = (stdout: string) => stdout.trimEnd().split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));

/** Gates a two-line journal of one call and its answer: the call runs, its output may be written, and nothing else is said. */
async function expectOneCallRunOnce(journal: string): Promise<void> {
  const result = await runOrbridge(["gate", "--format", "json"], journal);
  expect(parse(result.stdout).map((verdict) => [verdict.line, verdict.type, verdict.reason, verdict.blocked, verdict.findings])).toEqual([
    [1, "message", "not_function_call", false, []],
    [1, "function_call", "ok", false, []],
    [2, "function_call_output", "not_function_call", false, []],
    [2, "message", "not_function_call", false, []],
  ]);
  expect(result.code).toBe(0);
}

describe("logged exchanges whose request replays the calls with re-serialized arguments", () => {
  // Shaped as pydantic-ai's streaming Responses cassette: one tool, a call, then a
  // request replaying it as a Python SDK writes it (spaces, no status).
  const tool = { type: "function", name: "get_capital", description: "", parameters: { additionalProperties: false, properties: { country: { type: "string" } }, required: ["country"], type: "object" }, strict: true };
  const call = { type: "function_call", id: "fc_67e554a1de488191af0831d35cbe082e0794405d35281ae2", call_id: "call_kL0PCQV7M2WMoVX8V8OtYSAL", name: "get_capital", arguments: '{"country":"France"}', status: "completed" };
  const { status: _status, ...replayed } = call;
  const user = { role: "user", content: "Which city governs France?" };
  const journal = jsonl([
    { request: { model: "gpt-4o", input: [user], tools: [tool] }, response: { id: "resp_67e554a1", object: "response", status: "completed", output: [call] } },
    {
      request: { model: "gpt-4o", input: [user, { ...replayed, arguments: '{"country": "France"}' }, { type: "function_call_output", call_id: call.call_id, output: "Paris" }], tools: [tool] },
      response: { id: "resp_67e554a2", object: "response", status: "completed", output: [{ type: "message", id: "msg_67e554a28bec", status: "completed", role: "assistant", content: [{ type: "output_text", text: "Paris governs France.", annotations: [] }] }] },
    },
  ]);

  test("normalize emits the history once", async () => {
    const result = await runOrbridge(["normalize"], journal);
    expect(parse(result.stdout).map((item) => item.type)).toEqual(["message", "function_call", "function_call_output", "message"]);
    expect(result.stderr).toBe("read 2 lines, 2 records: 2 emitted (4 items, 2 repeated items skipped), 0 reported; 0 losses, 8 record fields left behind\n");
    expect(result.code).toBe(0);
  });

  test("gate lets the call run: no duplicate ids, no missing output", async () => {
    await expectOneCallRunOnce(journal);
  });
});

describe("logged Chat exchanges whose request puts an empty assistant message before the call it replays", () => {
  // Shaped as llm's tool cassettes: the SDK writes the turn back as an empty
  // assistant message, then the call on a message of its own, with Python's spacing.
  const tool = { type: "function", function: { name: "multiply", description: "Multiply two numbers.", parameters: { properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"], type: "object" } } };
  const user = { role: "user", content: "What is 47 * 59?" };
  const completion = (id: string, message: Record<string, unknown>, finishReason: string) => ({ id, object: "chat.completion", created: 1747148049, model: "gpt-4o-mini-2024-07-18", choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }] });
  const call = { id: "call_7QmZ2xVfR4nLs8TcYb0WkH1p", type: "function", function: { name: "multiply", arguments: '{"a":47,"b":59}' } };
  const journal = jsonl([
    { request: { model: "gpt-4o-mini", messages: [user], tools: [tool] }, response: completion("chatcmpl-A1", { role: "assistant", content: null, tool_calls: [call], refusal: null, annotations: [] }, "tool_calls") },
    {
      request: {
        model: "gpt-4o-mini",
        messages: [user, { role: "assistant", content: "" }, { role: "assistant", tool_calls: [{ type: "function", id: call.id, function: { name: "multiply", arguments: '{"a": 47, "b": 59}' } }] }, { role: "tool", tool_call_id: call.id, content: "2773" }],
        tools: [tool],
      },
      response: completion("chatcmpl-A2", { role: "assistant", content: "It is 2773.", refusal: null, annotations: [] }, "stop"),
    },
  ]);

  test("gate lets the call run once and its output be written: the history is not taken for new calls", async () => {
    await expectOneCallRunOnce(journal);
  });
});

describe("logged Gemini exchanges whose request writes the call's signature back in base64url", () => {
  // Shaped as an ADK run on google-genai: the API answers with a standard base64
  // thoughtSignature, and the Python SDK sends the same bytes back URL-safe.
  const tool = { functionDeclarations: [{ name: "multiply", description: "Multiply two integers.", parameters: { type: "OBJECT", properties: { a: { type: "INTEGER" }, b: { type: "INTEGER" } }, required: ["a", "b"] } }] };
  const user = { role: "user", parts: [{ text: "What is 12 times 31?" }] };
  const call = (thoughtSignature: string) => ({ role: "model", parts: [{ functionCall: { name: "multiply", args: { a: 12, b: 31 } }, thoughtSignature }] });
  const answer = (parts: unknown[]) => ({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }], modelVersion: "gemini-2.5-flash", responseId: "Vx3kaL2qB9" });
  const journal = jsonl([
    { request: { contents: [user], tools: [tool] }, response: answer(call("CvECAdHt+im8rZe/H2au6SXN")["parts"]) },
    {
      request: { contents: [user, call("CvECAdHt-im8rZe_H2au6SXN"), { role: "user", parts: [{ functionResponse: { name: "multiply", response: { product: 372 } } }] }], tools: [tool] },
      response: { ...answer([{ text: "12 times 31 is 372." }]), responseId: "Vx3kaL2qC4" },
    },
  ]);

  test("gate lets the call run once and its answer be written", async () => {
    const result = await runOrbridge(["gate", "--format", "json"], journal);
    expect(parse(result.stdout).map((verdict) => [verdict.line, verdict.type, verdict.reason, verdict.blocked])).toEqual([
      [1, "message", "not_function_call", false],
      [1, "function_call", "ok", false],
      [2, "function_call_output", "not_function_call", false],
      [2, "message", "not_function_call", false],
    ]);
    expect(result.code).toBe(0);
  });
});

describe("a Chat stream that Perplexity ends with its own chunk", () => {
  // Shaped as a Perplexity sonar stream: every chunk repeats the role, the
  // running usage and the citations, and the finish_reason comes in a last chunk
  // whose object is "chat.completion.done".
  const base = { id: "b7e0c2f4-1d9a-4c3e-8f21-5a6b7c8d9e0f", model: "sonar", created: 1770768233 };
  const citations = ["https://example.org/tide-tables", "https://example.org/harbour-notes"];
  const chunk = (content: string, completionTokens: number, extra: Record<string, unknown> = {}) => ({
    ...base,
    usage: { prompt_tokens: 9, completion_tokens: completionTokens, total_tokens: 9 + completionTokens },
    citations,
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta: { role: "assistant", content } }],
    ...extra,
  });
  const done = { ...chunk("", 4), object: "chat.completion.done", choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: "stop" }] };
  const journal = jsonl([chunk("High tide", 2), chunk(" is at noon[1]", 4), done]);

  test("normalize reads the last chunk: the message is finished, no line reported", async () => {
    const result = await runOrbridge(["normalize"], journal);
    expect(parse(result.stdout)).toEqual([{ type: "message", role: "assistant", content: "High tide is at noon[1]" }]);
    expect(result.stderr).toBe("read 3 lines, 1 record: 1 emitted (1 item), 0 reported; 0 losses, 6 record fields left behind\n");
    expect(result.code).toBe(0);
  });

  test("convert --to responses writes a completed response", async () => {
    const result = await runOrbridge(["convert", "--to", "responses"], journal);
    const [response] = parse(result.stdout);
    expect([response.status, response.output.map((item: { status: string }) => item.status)]).toEqual(["completed", ["completed"]]);
    expect(result.code).toBe(0);
  });
});

describe("a logged exchange whose request names a stored prompt in place of its input", () => {
  // Shaped as a Responses call made with a reusable prompt: the request holds only
  // the prompt's id, version and variables; the response echoes the prompt and
  // writes the messages it made of it as its instructions.
  const prompt = { id: "pmpt_690b24669d8c81948acc0e98da10e6490190feb3a62eee0b", version: "4", variables: { question: "Why do tides turn?" } };
  const answer = { id: "msg_050e05d199bd3ae3", type: "message", status: "completed", content: [{ type: "output_text", annotations: [], logprobs: [], text: "The moon pulls the sea." }], role: "assistant" };
  const exchange = {
    request: { prompt },
    response: {
      id: "resp_050e05d199bd3ae3",
      object: "response",
      created_at: 1762436158,
      status: "completed",
      instructions: [{ type: "message", content: [{ type: "input_text", text: "Answer briefly: Why do tides turn?" }], role: "user" }],
      model: "o4-mini-2025-04-16",
      output: [answer],
      prompt,
    },
  };

  test("normalize writes the response's items and says the prompt is in none of them", async () => {
    const report = join(scratchFolder("stored-prompt"), "report.jsonl");
    const result = await runOrbridge(["normalize", "--report", report], jsonl([exchange]));
    expect(parse(result.stdout)).toEqual([answer]);
    expect(parse(readFileSync(report, "utf8")).filter((loss) => loss.path.startsWith("/request"))).toEqual([
      { line: 1, path: "/request/prompt", code: "left_behind", detail: "prompt of the request body is in no item: normalize writes items only" },
    ]);
    expect(result.code).toBe(0);
  });

  test("gate judges the response's items", async () => {
    const result = await runOrbridge(["gate", "--format", "json"], jsonl([exchange]));
    expect(parse(result.stdout).map((verdict) => [verdict.line, verdict.type, verdict.reason, verdict.blocked])).toEqual([[1, "message", "not_function_call", false]]);
    expect(result.code).toBe(0);
  });
});

describe("a compacted response, as /responses/compact answers", () => {
  // Shaped as OpenAI's answer: no status, no model; the user turns kept with
  // ids of their own, then one compaction item holding the rest, encrypted.
  const user = (id: string, text: string) => ({ content: [{ text, type: "input_text" }], id, role: "user", status: "completed", type: "message" });
  const compaction = { encrypted_content: "gAAAAABpzfWEq2Zr1Xb7", id: "cmp_0fe74db124a77f9a0169cdf581740c819490de6e615d95448d", type: "compaction" };
  const compacted = (output: unknown[]) => ({
    created_at: 1775105412,
    id: "resp_0fe74db124a77f9a0169cdf58037d48194b164c5044ded5c5f",
    object: "response.compaction",
    output,
    usage: { input_tokens: 120, input_tokens_details: { cached_tokens: 0 }, output_tokens: 150, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 270 },
  });
  const turns = [user("msg_0fe74db124a77f9a0169cdf5803c748194bdf5b4eca162ba92", "How far is the lighthouse?"), user("msg_0fe74db124a77f9a0169cdf5803cbc8194bdf61e6f2d19f69b", "And the harbour?")];

  test("normalize writes its items; its id, creation time and usage are left behind", async () => {
    const result = await runOrbridge(["normalize"], jsonl([compacted([...turns, compaction])]));
    expect(parse(result.stdout)).toEqual([...turns, compaction]);
    expect(result.stderr).toBe("read 1 line, 1 record: 1 emitted (3 items), 0 reported; 0 losses, 3 record fields left behind\n");
    expect(result.code).toBe(0);
  });

  test("a call among its items is history: written incomplete, said, and blocked", async () => {
    const call = { arguments: '{"place":"harbour"}', call_id: "call_Hx2", id: "fc_0fe7", name: "distance", status: "completed", type: "function_call" };
    const journal = jsonl([compacted([turns[0], call, compaction])]);
    const report = join(scratchFolder("compacted-response"), "report.jsonl");
    const normalized = await runOrbridge(["normalize", "--report", report], journal);
    expect(parse(normalized.stdout)[1]).toEqual({ ...call, status: "incomplete" });
    expect(parse(readFileSync(report, "utf8")).filter((loss) => loss.code !== "left_behind")).toEqual([
      { line: 1, path: "/output/1/status", code: "form_changed", detail: "the response is a compacted history (response.compaction), whose calls were made before and are not to run again: its completed call is written incomplete, as the recording never ran it" },
    ]);
    const gated = await runOrbridge(["gate", "--format", "json"], journal);
    expect(parse(gated.stdout).map((verdict) => [verdict.type, verdict.reason, verdict.blocked])).toEqual([
      ["message", "not_function_call", false],
      ["function_call", "status", true],
      ["compaction", "not_function_call", false],
    ]);
  });

  test("convert --to responses writes it as it is; to another envelope it is an error that says why", async () => {
    const journal = jsonl([compacted([...turns, compaction])]);
    const same = await runOrbridge(["convert", "--to", "responses"], journal);
    expect(same.stdout).toBe(journal);
    const chat = await runOrbridge(["convert", "--to", "chat"], journal);
    expect(chat.stdout).toBe("");
    expect(chat.stderr).toBe(
      "orbridge convert: line 1: a compacted response (response.compaction) has no Chat equivalent: its output is the history that replaces a conversation, its compaction item encrypted for the Responses API alone\nread 1 line: 0 records, 1 error; 0 losses\n",
    );
    expect(chat.code).toBe(1);
  });
});

describe("Open Responses streams holding extension and error events", () => {
  const folder = scratchFolder("stream-events");
  const tools = join(folder, "tools.json");
  writeFileSync(tools, JSON.stringify([{ type: "function", name: "weather", parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] } }]));
  const golden = (name: string) => readFileSync(`golden/streams/${name}/chunks.jsonl`, "utf8");

  test("extension events: one response, its call emitted once, the events a loss", async () => {
    const result = await runOrbridge(["normalize"], golden("responses-extension-events"));
    expect(parse(result.stdout)).toEqual([
      { id: "fc_04041325ab8ae30400698c51c5468c8197a395f18875a5339f", type: "function_call", status: "completed", arguments: '{"location":"San Francisco"}', call_id: "call_H5DxLSFnsGhiROnUiDHmgyc8", name: "weather" },
    ]);
    expect(result.stderr).toBe("read 14 lines, 1 record: 1 emitted (1 item), 0 reported; 1 loss, 25 record fields left behind\n");
  });

  test("extension events: the gate lets the call run, reported at its output_item.done", async () => {
    const result = await runOrbridge(["gate", "--tools", tools], golden("responses-extension-events"));
    expect(result.stdout).toBe("line 13  function_call call_H5DxLSFnsGhiROnUiDHmgyc8  pass ok: completed call with arguments valid for its schema\n");
    expect(result.code).toBe(0);
  });

  test("an error after the call was done: one failed response, the call blocked, the error reported", async () => {
    const normalized = await runOrbridge(["normalize"], golden("responses-error-after-call-done"));
    expect(parse(normalized.stdout).map((item) => [item.call_id, item.status])).toEqual([["call_H5DxLSFnsGhiROnUiDHmgyc8", "incomplete"]]);
    expect(normalized.stderr).toBe("read 13 lines, 1 record: 1 emitted (1 item), 0 reported; 2 losses, 25 record fields left behind\n");
    const gated = await runOrbridge(["gate", "--tools", tools, "--format", "json"], golden("responses-error-after-call-done"));
    expect(parse(gated.stdout).map((verdict) => [verdict.line, verdict.reason, verdict.blocked, verdict.findings.map((finding: { code: string }) => finding.code)])).toEqual([[11, "status", true, ["incomplete_not_last"]]]);
    expect(gated.code).toBe(1);
  });
});

describe("Chat streams and their non-streamed twins", () => {
  const folder = scratchFolder("chat-twins");
  const tools = join(folder, "tools.json");
  writeFileSync(tools, JSON.stringify([{ type: "function", function: { name: "GetWeatherArgs", parameters: { type: "object", properties: { city: { type: "string" }, country: { type: "string" }, units: { type: "string" } }, required: ["city", "country", "units"] } } }]));
  const sse = (name: string) => readFileSync(`golden/streams/${name}/stream.sse`, "utf8");
  const head = { created: 1727346178, model: "gpt-4o-2024-08-06", system_fingerprint: "fp_5050236cbd" };
  const call = { id: "call_JMW1whyEaYG438VE1OIflxA2", type: "function", function: { name: "GetWeatherArgs", arguments: '{"city": "Edinburgh", "country": "GB", "units": "c"}' } };
  const twoChoicesTwin = {
    id: "chatcmpl-ABfwAwrNePHUgBBezonVC6MX3zd63",
    object: "chat.completion",
    ...head,
    choices: [
      { index: 0, message: { role: "assistant", content: "Edinburgh is cool and grey most days.", refusal: null }, logprobs: null, finish_reason: "stop" },
      { index: 1, message: { role: "assistant", content: null, tool_calls: [call] }, logprobs: null, finish_reason: "tool_calls" },
    ],
    usage: { prompt_tokens: 150, completion_tokens: 51, total_tokens: 201, completion_tokens_details: { reasoning_tokens: 0 } },
  };
  const reportOf = (path: string) => readFileSync(path, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));

  test("n: 2 — the call in the second choice reaches the gate, and runs", async () => {
    const result = await runOrbridge(["gate", "--tools", tools, "--format", "json"], sse("chat-openai-two-choices-call-in-second"));
    expect(parse(result.stdout).map((verdict) => [verdict.line, verdict.type, verdict.call_id ?? null, verdict.reason, verdict.blocked])).toEqual([
      // Each at the chunk with its choice's finish_reason.
      [19, "message", null, "not_function_call", false],
      [21, "function_call", "call_JMW1whyEaYG438VE1OIflxA2", "ok", false],
    ]);
    expect(result.code).toBe(0);
  });

  test("n: 2 stored whole: normalize writes every choice's items as the stream gives them, and the gate judges the call in the second choice", async () => {
    const twin = JSON.stringify(twoChoicesTwin) + "\n";
    const [streamed, stored] = await Promise.all([runOrbridge(["normalize"], sse("chat-openai-two-choices-call-in-second")), runOrbridge(["normalize"], twin)]);
    expect(stored.stdout).toBe(streamed.stdout);
    const offSchema = JSON.stringify({ ...twoChoicesTwin, choices: [twoChoicesTwin.choices[0], { ...twoChoicesTwin.choices[1], message: { ...twoChoicesTwin.choices[1].message, tool_calls: [{ ...call, function: { ...call.function, arguments: '{"city": "Edinburgh"}' } }] } }] }) + "\n";
    const result = await runOrbridge(["gate", "--tools", tools, "--format", "json"], offSchema);
    expect(parse(result.stdout).map((verdict) => [verdict.line, verdict.type, verdict.reason, verdict.blocked])).toEqual([
      [1, "message", "not_function_call", false],
      [1, "function_call", "arguments_schema", true],
    ]);
    expect(result.code).toBe(1);
  });

  test("a stream cut by max_tokens: normalize writes its message incomplete and reports the reason", async () => {
    const report = join(folder, "length.jsonl");
    const result = await runOrbridge(["normalize", "--report", report], sse("chat-openai-length-cut-text"));
    expect(parse(result.stdout)).toEqual([{ type: "message", role: "assistant", content: "The form asks for a name, a", status: "incomplete" }]);
    expect(reportOf(report).filter((loss) => loss.code !== "left_behind")).toEqual([
      { line: 19, path: "/choices/0/finish_reason", code: "form_changed", detail: 'finish_reason "length" written as status incomplete on the choice\'s items' },
    ]);
  });

  test("convert --to responses writes a stream as it writes its twin, with the same losses", async () => {
    const streamReport = join(folder, "stream.jsonl");
    const twinReport = join(folder, "twin.jsonl");
    const streamed = await runOrbridge(["convert", "--to", "responses", "--report", streamReport], sse("chat-openai-two-choices-call-in-second"));
    const stored = await runOrbridge(["convert", "--to", "responses", "--report", twinReport], JSON.stringify(twoChoicesTwin) + "\n");
    expect(streamed.stdout).toBe(stored.stdout);
    expect(withoutNeutralFields(reportOf(streamReport))).toEqual([
      { line: 1, path: "/system_fingerprint", code: "unsupported_field", detail: "system_fingerprint has no counterpart in a response object" },
      { line: 1, path: "/output/0/id", code: "synthesized", detail: "a chat.completion has no item ids: msg_66fc57b1489fc2dc43478c5f542b5878e5e949ee86fc4bba derived from the completion's id and the item's place" },
      { line: 3, path: "/choices/0", code: "unsupported_item", detail: "choice 1 dropped: a response holds one output" },
      { line: 23, path: "/usage/input_tokens_details/cached_tokens", code: "synthesized", detail: "a response's usage requires cached_tokens and the chat.completion's usage has no prompt_tokens_details: 0 written" },
    ]);
    // The same entries; a stream places each on the chunk that carried it, so their order may differ.
    const entries = (report: string) => reportOf(report).map(({ code, detail }) => `${code}: ${detail}`).sort();
    expect(entries(twinReport)).toEqual(entries(streamReport));
  });
});

describe("a Chat completion that Azure's content filter stopped", () => {
  // Shaped as OpenLLMetry's Azure cassette: the choice holds the filter's results
  // and its finish_reason, and no message at all.
  const safe = { filtered: false, severity: "safe" };
  const completion = {
    choices: [{ content_filter_results: { hate: { filtered: true, severity: "high" }, self_harm: safe, sexual: safe, violence: safe }, finish_reason: "content_filter", index: 0, logprobs: null }],
    created: 1714038380,
    id: "chatcmpl-9HpyGSWv1hoKdGaUaiFhfxzTEVlZo",
    model: "gpt-35-turbo",
    object: "chat.completion",
    prompt_filter_results: [{ prompt_index: 0, content_filter_results: { hate: safe, self_harm: safe, sexual: safe, violence: safe } }],
    system_fingerprint: null,
    usage: { completion_tokens: 19, prompt_tokens: 15, total_tokens: 34 },
  };
  const exchange = { request: { messages: [{ role: "user", content: "Write a rude rhyme about the people next door." }], model: "gpt-35-turbo" }, response: completion };

  test("gate reads it as an answer with no item: the request's message is judged, and nothing is an error", async () => {
    const result = await runOrbridge(["gate", "--format", "json"], jsonl([exchange]));
    expect(parse(result.stdout).map((verdict) => [verdict.line, verdict.type, verdict.reason, verdict.blocked])).toEqual([[1, "message", "not_function_call", false]]);
    expect(result.stderr).toBe("read 1 line: 1 item, 0 errors; 0 blocked\n");
    expect(result.code).toBe(0);
  });

  test("a choice without a message that writes a call elsewhere still blocks its line", async () => {
    const call = { id: "call_1", type: "function", function: { name: "lookup", arguments: "{}" } };
    const result = await runOrbridge(["gate", "--format", "json"], jsonl([{ ...completion, choices: [{ ...completion.choices[0], finish_reason: "tool_calls", tool_calls: [call] }] }]));
    expect(parse(result.stdout)).toEqual([
      {
        line: 1,
        index: 0,
        reason: "error",
        detail: "the record holds 1 tool call (at /choices/0/tool_calls/0) and gave 0 to judge: a call written where its kind of record keeps none is never checked, though an SDK of its envelope would run it",
        blocked: true,
        findings: [],
      },
    ]);
    expect(result.code).toBe(1);
  });
});

describe("a ConverseStream answer kept as the AWS event-stream bytes it came in", () => {
  // Shaped as OpenLLMetry's Bedrock cassette: boto3's request, and the body as sent.
  const folder = scratchFolder("converse-event-stream");
  const request = join(folder, "request.json");
  writeFileSync(request, JSON.stringify({ messages: [{ role: "user", content: [{ text: "Is it raining in Oslo?" }] }], toolConfig: { tools: [{ toolSpec: { name: "get_weather", description: "Weather now in a city", inputSchema: { json: { type: "object", properties: { location: { type: "string", description: "The city" } }, required: ["location"] } } } }] }, inferenceConfig: { maxTokens: 300, temperature: 0.5 } }));
  const events: Array<[string, unknown]> = [
    ["messageStart", { p: "abcdefghijklmnopqrstuvwxyzABCDEFGHI", role: "assistant" }],
    ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Looking it up:" }, p: "abcdefghijklmnopqrstuvwxyzABCDE" }],
    ["contentBlockStop", { contentBlockIndex: 0, p: "abcdefghijklmnopqrstuvwx" }],
    ["contentBlockStart", { contentBlockIndex: 1, p: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX", start: { toolUse: { name: "get_weather", toolUseId: "tooluse_yypYDr71TwCwByoyao4-Vg" } } }],
    ["contentBlockDelta", { contentBlockIndex: 1, delta: { toolUse: { input: "" } }, p: "abcdefghijklmnopqrstuvwxyzABCDEF" }],
    ["contentBlockDelta", { contentBlockIndex: 1, delta: { toolUse: { input: '{"locati' } }, p: "abcdefghijklmnopqrstuv" }],
    ["contentBlockDelta", { contentBlockIndex: 1, delta: { toolUse: { input: 'on": "Oslo"}' } }, p: "abcdefghijklmn" }],
    ["contentBlockStop", { contentBlockIndex: 1, p: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS" }],
    ["messageStop", { p: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS", stopReason: "tool_use" }],
    ["metadata", { metrics: { latencyMs: 1176 }, p: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX", usage: { inputTokens: 236, outputTokens: 58, serverToolUsage: {}, totalTokens: 294 } }],
  ];
  const bytes = Buffer.concat(events.map(([type, payload]) => eventFrame(type, payload)));
  const verdicts = (stdout: string) => parse(stdout).map((verdict) => [verdict.line, verdict.type ?? null, verdict.call_id ?? null, verdict.reason, verdict.blocked]);

  test("gate reads the frames and lets the call run", async () => {
    const journal = join(folder, "whole.bin");
    writeFileSync(journal, bytes);
    const result = await runOrbridge(["gate", "--tools", request, "--format", "json", journal]);
    expect(verdicts(result.stdout)).toEqual([
      [10, "message", null, "not_function_call", false],
      [10, "function_call", "tooluse_yypYDr71TwCwByoyao4-Vg", "ok", false],
    ]);
    expect(result.stderr).toBe(`orbridge: ${journal} is AWS event-stream bytes, 10 frames: record N is frame N\nread 10 lines: 2 items, 0 errors; 0 blocked\n`);
    expect(result.code).toBe(0);
  });

  test("cut inside the frame that stops the message: the call is not completed, and the cut is a blocked error line", async () => {
    const journal = join(folder, "cut.bin");
    const stopAt = Buffer.concat(events.slice(0, 8).map(([type, payload]) => eventFrame(type, payload))).length;
    writeFileSync(journal, bytes.subarray(0, stopAt + 20));
    const result = await runOrbridge(["gate", "--tools", request, "--format", "json", journal]);
    expect(verdicts(result.stdout)).toEqual([
      [9, null, null, "error", true],
      [8, "message", null, "not_function_call", false],
      [8, "function_call", "tooluse_yypYDr71TwCwByoyao4-Vg", "status", true],
    ]);
    expect(result.code).toBe(1);
  });
});

describe("Claude streamed through InvokeModelWithResponseStream, kept as its AWS event-stream bytes", () => {
  // Shaped as OpenLLMetry's Bedrock cassette of Claude: each Anthropic event base64 in a chunk frame, Bedrock's metrics in the last.
  const folder = scratchFolder("invoke-event-stream");
  const tools = join(folder, "tools.json");
  writeFileSync(tools, JSON.stringify([{ name: "get_weather", description: "Weather now in a city", input_schema: { type: "object", properties: { location: { type: "string" } }, required: ["location"] } }]));
  const modelEvents = [
    { type: "message_start", message: { id: "msg_bdrk_014eJfxWXNnxFKhmuiT8FYf7", type: "message", role: "assistant", model: "claude-3-sonnet-20240229", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 16, output_tokens: 1 } } },
    { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_bdrk_01Kq7yYF1ZxbNKXh3MbYzPeB", name: "get_weather", input: {} } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"location": "Os' } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: 'lo"}' } },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 21 } },
    { type: "message_stop", "amazon-bedrock-invocationMetrics": { inputTokenCount: 16, outputTokenCount: 21, invocationLatency: 738, firstByteLatency: 378 } },
  ];
  const journal = join(folder, "invoke.bin");
  writeFileSync(journal, Buffer.concat(modelEvents.map((event) => eventFrame("chunk", { bytes: Buffer.from(JSON.stringify(event), "utf8").toString("base64"), p: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ012345" }))));

  test("gate reads each chunk as the Anthropic event it holds and lets the call run", async () => {
    const result = await runOrbridge(["gate", "--tools", tools, "--format", "json", journal]);
    expect(parse(result.stdout).map((verdict) => [verdict.line, verdict.type, verdict.call_id, verdict.reason, verdict.blocked])).toEqual([[7, "function_call", "toolu_bdrk_01Kq7yYF1ZxbNKXh3MbYzPeB", "ok", false]]);
    expect(result.code).toBe(0);
  });
});

describe("records no reader takes: every line emitted or reported", () => {
  const golden = (name: string) => readFileSync(`golden/streams/${name}/chunks.jsonl`, "utf8").trimEnd().split("\n");
  // An event type the specification does not define, carrying arguments that are not the call's.
  const stray = { type: "response.function_call.done", sequence_number: 10, item_id: "fc_04041325ab8ae30400698c51c5468c8197a395f18875a5339f", output_index: 0, arguments: '{"location":"Oslo"}' };

  test("inside a stream, an event of no known type holding a call's fields: the gate blocks its response's line and says why", async () => {
    const lines = golden("responses-azure-function-call");
    const stdin = [...lines.slice(0, 9), JSON.stringify(stray), ...lines.slice(9)].join("\n") + "\n";
    const result = await runOrbridge(["gate", "--format", "json"], stdin);
    expect(parse(result.stdout).map((verdict) => [verdict.line, verdict.type ?? null, verdict.reason, verdict.blocked, verdict.detail])).toEqual([
      [1, null, "error", true, "not checked, since it gave no item: response.function_call.done (line 10) is an event of no known type: ignored; it holds a call's fields, which are not read: the call is not checked"],
      [12, "function_call", "unknown_tool", true, 'no schema is known for "weather"'],
    ]);
  });

  test("a chunk with no choices and a tool call beside them, inside a completion: the gate blocks its line and says why", async () => {
    const lines = golden("chat-groq-whole-call");
    const strayChunk = { id: "chatcmpl-b610d559-f156-4aca-8827-24b4fe6af54f", object: "chat.completion.chunk", created: 1770770843, model: "llama-3.3-70b-versatile", choices: [], tool_calls: [{ id: "call_z9", type: "function", function: { name: "delete_all", arguments: "{}" } }] };
    const result = await runOrbridge(["gate", "--format", "json"], [...lines.slice(0, 2), JSON.stringify(strayChunk), lines[2]].join("\n") + "\n");
    expect(parse(result.stdout).map((verdict) => [verdict.line, verdict.reason, verdict.blocked])).toEqual([
      [1, "error", true],
      [4, "unknown_tool", true],
    ]);
    expect(parse(result.stdout)[0].detail).toBe("not checked, since it gave no item: tool_calls of the chat.completion stands outside any message: no item is made of it, and its call is not checked (at /tool_calls)");
  });

  test("on its own, the event is reported by normalize, on its line, and convert says there is nothing to convert", async () => {
    const folder = scratchFolder("stray-event");
    const report = join(folder, "report.jsonl");
    const normalized = await runOrbridge(["normalize", "--report", report], JSON.stringify(stray) + "\n");
    expect([normalized.stdout, normalized.stderr]).toEqual(["", "read 1 line, 1 record: 1 emitted (0 items), 0 reported; 1 loss\n"]);
    expect(readFileSync(report, "utf8")).toBe(
      JSON.stringify({ line: 1, path: "", code: "unsupported_item", detail: "a streaming event opens no response: response.function_call.done (line 1) is an event of no known type: ignored; it holds a call's fields, which are not read: the call is not checked" }) + "\n",
    );
    const converted = await runOrbridge(["convert", "--to", "chat"], JSON.stringify(stray) + "\n");
    expect(converted).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "orbridge convert: line 1: a streaming event opens no response: response.function_call.done (line 1) is an event of no known type: ignored; it holds a call's fields, which are not read: the call is not checked: nothing to convert\n" +
        "read 1 line: 0 records, 1 error; 0 losses\n",
    });
  });
});
