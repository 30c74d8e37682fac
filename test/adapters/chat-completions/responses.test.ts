import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { chatCompletionToResponse, outputItemId } from "../../../adapters/chat-completions/completion-to-response.js";
import { responseToChatCompletion } from "../../../adapters/chat-completions/response-to-completion.js";
import type { ChatCompletion } from "../../../src/models/chat-completions.js";
import type { ResponseResource } from "../../../src/models/open-responses.js";
import { RESPONSE_FIELDS, SYNTHESIZED_RESPONSE_VALUES } from "../../../src/models/response-neutrals.js";
import { isNeutralField, withoutNeutralFields } from "../../support/response-neutrals.js";
import { specErrors } from "../../support/spec-validator.js";
import { responseWith } from "../../support/response-object.js";


const openaiUsage = {
  completion_tokens: 8,
  prompt_tokens: 503,
  total_tokens: 511,
  prompt_tokens_details: { cached_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0 },
};
const responseUsage = {
  input_tokens: 503,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 8,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 511,
};

/**
 * The response a completion gives, valid against the spec, with every required
 * field the completion cannot tell reported `synthesized` at its path (and no
 * other field reported so); the losses returned are the rest.
 */
/** A setting a completion has no place for, said by the response at its neutral value: lost, and reported. */
const neutralLost = (field: string, value: unknown) => ({ path: `/${field}`, code: "unsupported_field", detail: `a chat.completion has no ${field}: the response's ${JSON.stringify(value)} (the neutral value) is not written` });
/** What a response written as responseWith writes it, with ids of its own, loses of its settings: every one that says something. */
const neutralSettingsLost = (
  [
    ["tool_choice", "auto"],
    ["truncation", "disabled"],
    ["parallel_tool_calls", true],
    ["top_p", 1],
    ["presence_penalty", 0],
    ["frequency_penalty", 0],
    ["top_logprobs", 0],
    ["temperature", 1],
    ["store", false],
    ["background", false],
  ] as const
).map(([field, value]) => neutralLost(field, value));

function toResponse(completion: ChatCompletion) {
  const result = chatCompletionToResponse({ completion });
  expect(specErrors("ResponseResource", result.value)).toEqual([]);
  const given = new Set([completion.usage === undefined ? "" : "usage", completion.service_tier === undefined ? "" : "service_tier"]);
  expect(result.losses.filter(isNeutralField).map((loss) => loss.path)).toEqual(
    RESPONSE_FIELDS.filter((field) => field in SYNTHESIZED_RESPONSE_VALUES && !given.has(field)).map((field) => `/${field}`),
  );
  // Every output item's id is derived, and said so at its place in the output, once.
  const itemIds = (loss: { code: string; path: string }) => loss.code === "synthesized" && /^\/output\/\d+\/id$/.test(loss.path);
  expect(result.losses.filter(itemIds)).toEqual(
    result.value.output.map((item, index) => ({ path: `/output/${index}/id`, code: "synthesized", detail: `a chat.completion has no item ids: ${(item as { id: string }).id} derived from the completion's id and the item's place` })),
  );
  return { value: result.value, losses: withoutNeutralFields(result.losses).filter((loss) => !itemIds(loss)) };
}

describe("chat.completion to response object", () => {
  test("a text answer becomes one completed message with an output_text part", () => {
    const completion: ChatCompletion = {
      id: "chatcmpl-BRmTI0Y2zmkGw27kLarhsmiFQTGxR",
      object: "chat.completion",
      created: 1745960880,
      model: "gpt-4o-2024-08-06",
      choices: [{ index: 0, message: { role: "assistant", content: "It is a pear." }, logprobs: null, finish_reason: "stop" }],
      usage: openaiUsage,
      service_tier: "default",
    };
    expect(toResponse(completion)).toEqual({
      value: responseWith({
        id: "chatcmpl-BRmTI0Y2zmkGw27kLarhsmiFQTGxR",
        created_at: 1745960880,
        model: "gpt-4o-2024-08-06",
        output: [
          {
            id: "msg_1a639b04518dc882f8e4fe864ed0d190088366caa14ecea2",
            type: "message",
            status: "completed",
            content: [{ type: "output_text", annotations: [], logprobs: [], text: "It is a pear." }],
            role: "assistant",
          },
        ],
        usage: responseUsage,
      }),
      losses: [],
    });
  });

  test("tool calls become function_call items with their call_id and arguments as they are; DeepSeek's reasoning a reasoning item ahead of them; provider fields are losses", () => {
    const completion = {
      id: "7a630f5b-b7e6-4878-82f8-d77db164d42b",
      object: "chat.completion",
      created: 1764665845,
      model: "deepseek-reasoner",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "",
            reasoning_content: "The user wants a forecast, so I call the tool.",
            tool_calls: [{ index: 0, id: "call_00_9V0vrf86Pc9aelHCJMZqnJBo", type: "function", function: { name: "weather", arguments: '{"location": "Lisbon"}' } }],
          },
          logprobs: null,
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 339, completion_tokens: 92, total_tokens: 431, prompt_tokens_details: { cached_tokens: 320 }, completion_tokens_details: { reasoning_tokens: 48 } },
      system_fingerprint: "fp_eaab8d114b_prod0820_fp8_kvcache",
    } as ChatCompletion;
    expect(toResponse(completion)).toEqual({
      value: responseWith({
        id: "7a630f5b-b7e6-4878-82f8-d77db164d42b",
        created_at: 1764665845,
        model: "deepseek-reasoner",
        output: [
          {
            id: outputItemId({ responseId: "7a630f5b-b7e6-4878-82f8-d77db164d42b", choiceIndex: 0, outputIndex: 0, type: "reasoning" }),
            type: "reasoning",
            summary: [{ type: "summary_text", text: "The user wants a forecast, so I call the tool." }],
            chat_field: "reasoning_content",
          },
          {
            id: outputItemId({ responseId: "7a630f5b-b7e6-4878-82f8-d77db164d42b", choiceIndex: 0, outputIndex: 1, type: "function_call" }),
            type: "function_call",
            status: "completed",
            arguments: '{"location": "Lisbon"}',
            call_id: "call_00_9V0vrf86Pc9aelHCJMZqnJBo",
            name: "weather",
          },
        ],
        usage: { input_tokens: 339, input_tokens_details: { cached_tokens: 320 }, output_tokens: 92, output_tokens_details: { reasoning_tokens: 48 }, total_tokens: 431 },
      }),
      losses: [
        { path: "/choices/0/message/content", code: "form_changed", detail: 'content "" beside tool calls holds no text: no message item is made of it' },
        {
          path: "/choices/0/message/reasoning_content",
          code: "form_changed",
          detail: "reasoning_content (DeepSeek's dialect, vLLM's before it took `reasoning`) read as a reasoning item: its text is the item's summary",
        },
        { path: "/choices/0/message/tool_calls/0/index", code: "provider_extension", detail: '"index" is not a field of the portable shape; Open Responses has no place for it' },
        { path: "/system_fingerprint", code: "unsupported_field", detail: "system_fingerprint has no counterpart in a response object" },
      ],
    });
  });

  test("finish_reason length makes the response and its items incomplete", () => {
    const completion: ChatCompletion = {
      id: "chatcmpl-CutShort01",
      object: "chat.completion",
      created: 1745960900,
      model: "gpt-4o",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "Checking", tool_calls: [{ id: "call_cut", type: "function", function: { name: "search", arguments: '{"q":"tid' } }] },
          finish_reason: "length",
        },
      ],
      service_tier: "default",
    };
    const result = toResponse(completion);
    expect(result.value).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, usage: null });
    expect(result.value.output).toEqual([
      {
        id: "msg_058ccdac135f8e751eec56e53db1853c919133218944194c",
        type: "message",
        status: "incomplete",
        content: [{ type: "output_text", annotations: [], logprobs: [], text: "Checking" }],
        role: "assistant",
      },
      { id: "fc_ac02cd00e9405b9ebb3efc969cb074d379845fad8b30598f", type: "function_call", status: "incomplete", arguments: '{"q":"tid', call_id: "call_cut", name: "search" },
    ]);
    expect(result.losses).toEqual([]);
  });

  test("finish_reason content_filter is incomplete for the reason content_filter", () => {
    const completion: ChatCompletion = {
      id: "chatcmpl-Filtered",
      object: "chat.completion",
      created: 1745960901,
      model: "gpt-4o",
      choices: [{ index: 0, message: { role: "assistant", content: "" }, finish_reason: "content_filter" }],
      service_tier: "default",
    };
    expect(toResponse(completion).value).toMatchObject({ status: "incomplete", incomplete_details: { reason: "content_filter" } });
  });

  test("a null finish_reason (the choice never finished) is written as in_progress", () => {
    const completion: ChatCompletion = {
      id: "chatcmpl-NoReason",
      object: "chat.completion",
      created: 1745960902,
      model: "gpt-4o",
      choices: [{ index: 0, message: { role: "assistant", content: "Done." }, finish_reason: null }],
      service_tier: "default",
    };
    const result = toResponse(completion);
    expect(result.value.status).toBe("in_progress");
    expect(result.value.output.map((item) => item.status)).toEqual(["in_progress"]);
    expect(result.losses).toEqual([]);
  });

  test("a finish_reason the way back would not give again is a loss: stop beside tool calls", () => {
    const completion: ChatCompletion = {
      id: "chatcmpl-StopWithCalls",
      object: "chat.completion",
      created: 1745960906,
      model: "llama-3.1-8b-instant",
      choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: "call_s1", type: "function", function: { name: "ping", arguments: "{}" } }] }, finish_reason: "stop" }],
      service_tier: "default",
    };
    const result = toResponse(completion);
    expect(result.value.status).toBe("completed");
    expect(result.losses).toEqual([{ path: "/choices/0/finish_reason", code: "form_changed", detail: 'finish_reason "stop" written as status completed; it comes back as "tool_calls"' }]);
    expect(responseToChatCompletion({ response: result.value }).value.choices[0].finish_reason).toBe("tool_calls");
  });

  test("choices after the first are lost: a response holds one output", () => {
    const completion: ChatCompletion = {
      id: "chatcmpl-TwoChoices",
      object: "chat.completion",
      created: 1745960903,
      model: "gpt-4o",
      choices: [
        { index: 0, message: { role: "assistant", content: "Red." }, finish_reason: "stop" },
        { index: 1, message: { role: "assistant", content: "Crimson." }, finish_reason: "stop" },
      ],
      service_tier: "default",
    };
    const result = toResponse(completion);
    expect(result.value.output).toHaveLength(1);
    expect(result.losses).toEqual([{ path: "/choices/1", code: "unsupported_item", detail: "choice 1 dropped: a response holds one output" }]);
  });

  test("usage without details gets zeros, reported synthesized; provider usage fields are losses", () => {
    const completion = {
      id: "chatcmpl-1fd017fc-60b8-44eb-a736-375b8e1bc3e7",
      object: "chat.completion",
      created: 1770770815,
      model: "llama-3.3-70b-versatile",
      choices: [{ index: 0, message: { role: "assistant", tool_calls: [{ id: "ax9fskhev", type: "function", function: { name: "weather", arguments: "{}" } }] }, logprobs: null, finish_reason: "tool_calls" }],
      usage: { queue_time: 0.179481775, prompt_tokens: 218, completion_tokens: 15, total_tokens: 233 },
      service_tier: "on_demand",
    } as ChatCompletion;
    const result = toResponse(completion);
    expect(result.value.usage).toEqual({ input_tokens: 218, input_tokens_details: { cached_tokens: 0 }, output_tokens: 15, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 233 });
    expect(result.value.service_tier).toBe("on_demand");
    expect(result.losses).toEqual([
      { path: "/usage/queue_time", code: "provider_extension", detail: '"queue_time" is not a field of the portable shape; Open Responses has no place for it' },
      {
        path: "/usage/input_tokens_details/cached_tokens",
        code: "synthesized",
        detail: "a response's usage requires cached_tokens and the chat.completion's usage has no prompt_tokens_details: 0 written",
      },
      {
        path: "/usage/output_tokens_details/reasoning_tokens",
        code: "synthesized",
        detail: "a response's usage requires reasoning_tokens and the chat.completion's usage has no completion_tokens_details: 0 written",
      },
    ]);
  });

  test("the choice's logprobs go to the output_text part", () => {
    const tokenLogprob = { token: "Yes", logprob: -0.01, bytes: [89, 101, 115], top_logprobs: [] };
    const completion: ChatCompletion = {
      id: "chatcmpl-Logprobs",
      object: "chat.completion",
      created: 1745960904,
      model: "gpt-4o",
      choices: [{ index: 0, message: { role: "assistant", content: "Yes" }, logprobs: { content: [tokenLogprob], refusal: null }, finish_reason: "stop" }],
      service_tier: "default",
    };
    const result = toResponse(completion);
    expect(result.value.output[0]).toMatchObject({ content: [{ type: "output_text", annotations: [], logprobs: [tokenLogprob], text: "Yes" }] });
    expect(result.losses).toEqual([]);
  });

  test("a refusal becomes a refusal part", () => {
    const completion: ChatCompletion = {
      id: "chatcmpl-Refusal",
      object: "chat.completion",
      created: 1745960905,
      model: "gpt-4o-2024-08-06",
      choices: [{ index: 0, message: { role: "assistant", content: null, refusal: "I can't help with that." }, finish_reason: "stop" }],
      service_tier: "default",
    };
    expect(toResponse(completion).value.output).toEqual([
      { id: outputItemId({ responseId: "chatcmpl-Refusal", choiceIndex: 0, outputIndex: 0, type: "message" }), type: "message", status: "completed", content: [{ type: "refusal", refusal: "I can't help with that." }], role: "assistant" },
    ]);
  });

  test("a stored completion's own tool_choice, tools and parallel_tool_calls go to the response's, never a neutral value in their place", () => {
    const completion = {
      id: "chatcmpl-Stored",
      object: "chat.completion",
      created: 1745960905,
      model: "gpt-4o-2024-08-06",
      tool_choice: { type: "allowed_tools", allowed_tools: { mode: "auto", tools: [{ type: "function", function: { name: "get_weather" } }] } },
      tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }],
      parallel_tool_calls: false,
      choices: [{ index: 0, message: { role: "assistant", content: "Sunny." }, finish_reason: "stop" }],
      service_tier: "default",
    } as unknown as ChatCompletion;
    const converted = chatCompletionToResponse({ completion });
    expect(converted.value).toMatchObject({
      tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "get_weather" }] },
      tools: [{ type: "function", name: "get_weather", parameters: { type: "object" } }],
      parallel_tool_calls: false,
    });
    expect(converted.losses.filter((loss) => ["/tool_choice", "/tools", "/parallel_tool_calls"].includes(loss.path))).toEqual([]);
  });

  test("a completion's tool_choice or tools that cannot be read allow no call, as the gate reads them: written as tool_choice \"none\", reported", () => {
    const completion = (fields: Record<string, unknown>) => ({ id: "chatcmpl-Odd", object: "chat.completion", created: 1, model: "m", ...fields, choices: [{ index: 0, message: { role: "assistant", content: "Hi." }, finish_reason: "stop" }] }) as unknown as ChatCompletion;
    const choice = chatCompletionToResponse({ completion: completion({ tool_choice: 7 }) });
    expect(choice.value.tool_choice).toBe("none");
    expect(choice.losses).toContainEqual({ path: "/tool_choice", code: "form_changed", detail: 'tool_choice that cannot be read (7) allows no call, as the gate reads it: written as tool_choice "none"' });
    const tools = chatCompletionToResponse({ completion: completion({ tools: ["x"], tool_choice: "auto" }) });
    expect(tools.value.tool_choice).toBe("none");
    expect(tools.losses).toContainEqual({ path: "/tools", code: "form_changed", detail: 'tools that cannot be read (["x"]) allows no call, as the gate reads it: written as tool_choice "none"' });
  });

  test("a value that is not a chat.completion is refused", () => {
    expect(() => chatCompletionToResponse({ completion: { object: "response", output: [] } as unknown as ChatCompletion })).toThrow(TypeError);
  });
});

describe("output item ids", () => {
  test("each id is prefixed by its type, differs by position and completion, and is never the call_id or the completion id", () => {
    const ids = [
      outputItemId({ responseId: "chatcmpl-A", choiceIndex: 0, outputIndex: 0, type: "message" }),
      outputItemId({ responseId: "chatcmpl-A", choiceIndex: 0, outputIndex: 1, type: "function_call" }),
      outputItemId({ responseId: "chatcmpl-A", choiceIndex: 0, outputIndex: 2, type: "function_call" }),
      outputItemId({ responseId: "chatcmpl-B", choiceIndex: 0, outputIndex: 1, type: "function_call" }),
    ];
    expect(ids[0]).toMatch(/^msg_[0-9a-f]{48}$/);
    for (const id of ids.slice(1)) expect(id).toMatch(/^fc_[0-9a-f]{48}$/);
    expect(new Set(ids).size).toBe(4);
    expect(ids.some((id) => id.includes("chatcmpl"))).toBe(false);
  });
});

describe("response object to chat.completion", () => {
  const phaseResponse = {
    id: "resp_0465b6d1ae1f97c500699f88318ee481a3b627f7fcb4875152",
    object: "response",
    created_at: 1772062769,
    status: "completed",
    model: "gpt-5.3-codex",
    output: [
      {
        id: "msg_0465b6d1ae1f97c500699f883243a481a3b50b985223592984",
        type: "message",
        status: "completed",
        content: [{ type: "output_text", annotations: [], logprobs: [], text: "I'll look up a few sources first." }],
        phase: "commentary",
        role: "assistant",
      },
      {
        id: "msg_0465b6d1ae1f97c500699f8835e09c81a3b91e9d502ff18555",
        type: "message",
        status: "completed",
        content: [{ type: "output_text", annotations: [], logprobs: [], text: "Here is the summary." }],
        phase: "final_answer",
        role: "assistant",
      },
    ],
    usage: { input_tokens: 7243, input_tokens_details: { cached_tokens: 3072 }, output_tokens: 423, output_tokens_details: { reasoning_tokens: 58 }, total_tokens: 7666 },
    service_tier: "default",
  } as ResponseResource;

  test("a usage without token details, and a response without service_tier, give a completion without them: nothing written that the response did not say", () => {
    const response = { ...phaseResponse, output: [phaseResponse.output[1]], usage: { input_tokens: 12, output_tokens: 3, total_tokens: 15 } } as ResponseResource;
    delete (response as Partial<ResponseResource>).service_tier;
    const completion = responseToChatCompletion({ response }).value;
    expect([completion.usage, "service_tier" in completion]).toEqual([{ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 }, false]);
  });

  test("texts a turn folds into one message's parts, or a cited part beside another, are joined into the content string, and the join is said", () => {
    const text = (id: string, value: string, annotations: unknown[] = []) => ({ id, type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", annotations, text: value }] });
    const call = (id: string, callId: string) => ({ id, type: "function_call", status: "completed", call_id: callId, name: "lookup", arguments: "{}" });
    const joined = { path: "/output", code: "form_changed", detail: "the assistant message's 2 text parts joined into one string, with nothing between them: a completion's content is a string" };
    const folded = responseToChatCompletion({ response: { ...phaseResponse, output: [text("msg_1", "Checking 1"), call("fc_1", "call_1"), text("msg_2", "and 2"), call("fc_2", "call_2")] } as ResponseResource });
    expect(folded.value.choices[0]!.message.content).toBe("Checking 1and 2");
    expect(folded.losses).toContainEqual(joined);
    const cited = { type: "url_citation", start_index: 0, end_index: 5, url: "https://example.com/paris", title: "Paris" };
    const parts = { id: "msg_1", type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", annotations: [cited], text: "Paris" }, { type: "output_text", annotations: [], text: "Lyon" }] };
    const withCitation = responseToChatCompletion({ response: { ...phaseResponse, output: [parts] } as ResponseResource });
    expect(withCitation.value.choices[0]!.message.content).toBe("ParisLyon");
    expect(withCitation.losses).toContainEqual(joined);
  });

  test("several assistant messages merge into the one message of a completion", () => {
    expect(responseToChatCompletion({ response: phaseResponse })).toEqual({
      value: {
        id: "resp_0465b6d1ae1f97c500699f88318ee481a3b627f7fcb4875152",
        object: "chat.completion",
        created: 1772062769,
        model: "gpt-5.3-codex",
        choices: [{ index: 0, message: { role: "assistant", content: "I'll look up a few sources first.\n\nHere is the summary." }, logprobs: null, finish_reason: "stop" }],
        usage: { prompt_tokens: 7243, completion_tokens: 423, total_tokens: 7666, prompt_tokens_details: { cached_tokens: 3072 }, completion_tokens_details: { reasoning_tokens: 58 } },
        service_tier: "default",
      },
      losses: [
        { path: "/output/0/id", code: "unsupported_field", detail: "item ids have no place in a chat.completion" },
        { path: "/output/0/phase", code: "unsupported_field", detail: "phase has no counterpart in Chat Completions" },
        { path: "/output/1", code: "form_changed", detail: "merged into the first assistant message (a completion holds one); texts joined by a blank line" },
        { path: "/output/1/id", code: "unsupported_field", detail: "item ids have no place in a chat.completion" },
        { path: "/output/1/phase", code: "unsupported_field", detail: "phase has no counterpart in Chat Completions" },
      ],
    });
  });

  test("a refusal part of a merged message moves to the message's refusal, with a loss", () => {
    const response = {
      id: "resp_1",
      object: "response",
      created_at: 1,
      status: "completed",
      model: "m",
      output: [
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Part one.", annotations: [] }, { type: "refusal", refusal: "I won't do the rest." }] },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Part two.", annotations: [] }] },
      ],
    } as unknown as ResponseResource;
    expect(responseToChatCompletion({ response })).toEqual({
      value: {
        id: "resp_1",
        object: "chat.completion",
        created: 1,
        model: "m",
        choices: [{ index: 0, message: { role: "assistant", content: "Part one.\n\nPart two.", refusal: "I won't do the rest." }, logprobs: null, finish_reason: "stop" }],
      },
      losses: [
        { path: "/output/0/content/1", code: "form_changed", detail: "a refusal part of a merged message moved to the message's refusal" },
        { path: "/output/1", code: "form_changed", detail: "merged into the first assistant message (a completion holds one); texts joined by a blank line" },
      ],
    });
  });

  test("citations of a merged message point into the merged text, whatever the form of the first message", () => {
    const response = {
      id: "resp_2",
      object: "response",
      created_at: 1,
      status: "completed",
      model: "m",
      output: [
        {
          type: "message",
          role: "assistant",
          content: [
            { type: "output_text", text: "Hello ", annotations: [] },
            { type: "output_text", text: "world", annotations: [{ type: "url_citation", url: "http://w", title: "W", start_index: 0, end_index: 5 }] },
          ],
        },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Second", annotations: [{ type: "url_citation", url: "http://s", title: "S", start_index: 0, end_index: 6 }] }] },
      ],
    } as unknown as ResponseResource;
    const { value, losses } = responseToChatCompletion({ response });
    const message = value.choices[0].message;
    expect(message).toEqual({
      role: "assistant",
      content: "Hello world\n\nSecond",
      annotations: [{ type: "url_citation", url_citation: { url: "http://s", title: "S", start_index: 13, end_index: 19 } }],
    });
    expect((message.content as string).slice(13, 19)).toBe("Second");
    expect(losses).toEqual([
      { path: "/output/0/content/1/annotations", code: "unsupported_field", detail: "citations of one of several text parts have no place in a Chat message" },
      { path: "/output/1", code: "form_changed", detail: "merged into the first assistant message (a completion holds one); texts joined by a blank line" },
    ]);
  });

  test("a reasoning item, fields away from their neutral value, and a neutral value the response said are losses", () => {
    const response = {
      ...phaseResponse,
      output: [
        { id: "rs_0f35ed53", type: "reasoning", encrypted_content: "gAAAAABpPMlc", summary: [{ type: "summary_text", text: "Adding first." }] },
        { id: "msg_0f35ed53", type: "message", status: "completed", content: [{ type: "output_text", annotations: [], logprobs: [], text: "Final result: 570" }], role: "assistant" },
      ],
      billing: { payer: "developer" },
      reasoning: { effort: "high", summary: "detailed" },
      temperature: 1,
      text: { format: { type: "text" }, verbosity: "medium" },
      tools: [{ type: "function", name: "calculator", description: null, parameters: null, strict: true }],
      user: null,
    } as ResponseResource;
    const result = responseToChatCompletion({ response });
    expect(result.value.choices).toEqual([{ index: 0, message: { role: "assistant", content: "Final result: 570" }, logprobs: null, finish_reason: "stop" }]);
    expect(result.losses).toEqual([
      { path: "/output/0", code: "unsupported_item", detail: "Chat Completions cannot replay a reasoning item" },
      { path: "/output/1/id", code: "unsupported_field", detail: "item ids have no place in a chat.completion" },
      { path: "/billing", code: "provider_extension", detail: '"billing" is not a field of the portable shape; Chat Completions has no place for it' },
      { path: "/reasoning", code: "unsupported_field", detail: "a chat.completion has no reasoning (a value other than null is lost)" },
      neutralLost("temperature", 1),
      { path: "/text/verbosity", code: "unsupported_field", detail: "text.verbosity has no place in a chat.completion" },
      { path: "/tools", code: "unsupported_field", detail: "a chat.completion has no tools (a value other than [] is lost)" },
    ]);
  });

  test("function_call items become tool_calls, and the finish_reason tool_calls", () => {
    const response = responseWith({
      id: "resp_calls",
      created_at: 1757687080,
      model: "gpt-5",
      output: [{ id: "fc_68c42d3e", type: "function_call", status: "completed", arguments: '{"plan":"rhyme"}', call_id: "call_gL7JE6", name: "update_plan" }],
      usage: null,
    });
    expect(responseToChatCompletion({ response })).toEqual({
      value: {
        id: "resp_calls",
        object: "chat.completion",
        created: 1757687080,
        model: "gpt-5",
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: null, tool_calls: [{ id: "call_gL7JE6", type: "function", function: { name: "update_plan", arguments: '{"plan":"rhyme"}' } }] },
            logprobs: null,
            finish_reason: "tool_calls",
          },
        ],
        service_tier: "default",
      },
      losses: [{ path: "/output/0/id", code: "unsupported_field", detail: "item ids have no place in a chat.completion" }, ...neutralSettingsLost],
    });
  });

  test("a response the way in wrote (its items carry the ids it makes) said none of its neutral settings: none is reported again", () => {
    const completion = {
      id: "chatcmpl-CfQ2ns8Yd1",
      object: "chat.completion",
      created: 1757687080,
      model: "gpt-5",
      choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: "call_gL7JE6", type: "function", function: { name: "update_plan", arguments: '{"plan":"rhyme"}' } }] }, logprobs: null, finish_reason: "tool_calls" }],
    } as ChatCompletion;
    const response = toResponse(completion).value;
    expect(responseToChatCompletion({ response }).losses).toEqual([]);
    // The same response, its call id no longer the way in's: its settings are the response's own, each lost.
    const said = { ...response, output: [{ ...(response.output[0] as Record<string, unknown>), id: "fc_68c42d3e" }] } as ResponseResource;
    expect(responseToChatCompletion({ response: said }).losses).toEqual([{ path: "/output/0/id", code: "unsupported_field", detail: "item ids have no place in a chat.completion" }, ...neutralSettingsLost]);
  });

  test("a neutral setting the step before wrote, as its synthesized entries say, is not reported lost; the others are", () => {
    const response = responseWith({ id: "msg_01XFDUDYJgAACzvnptvVoYEL", created_at: 0, model: "claude-sonnet-4-5", output: [{ id: "msg_01XFDUDYJgAACzvnptvVoYEL", type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "Dry today.", annotations: [] }] }], usage: null });
    const said = ["/top_p", "/temperature"];
    const synthesized = neutralSettingsLost.map((loss) => loss.path).filter((path) => !said.includes(path));
    expect(responseToChatCompletion({ response, synthesized }).losses).toEqual([
      { path: "/output/0/id", code: "unsupported_field", detail: "item ids have no place in a chat.completion" },
      neutralLost("top_p", 1),
      neutralLost("temperature", 1),
    ]);
  });

  /** A completion's choice needs a message, which an output without one does not give. */
  const emptyMessage = { path: "/choices/0/message", code: "synthesized", detail: "a chat.completion's choice requires a message and the response's output has no assistant message: an empty one written" };

  test.each([
    ["max_output_tokens", "length", [...neutralSettingsLost, emptyMessage]],
    ["content_filter", "content_filter", [...neutralSettingsLost, emptyMessage]],
    ["tool_limit", "length", [{ path: "/incomplete_details", code: "form_changed", detail: 'incomplete for reason "tool_limit" written as finish_reason length' }, ...neutralSettingsLost, emptyMessage]],
  ])("incomplete for %s is finish_reason %s", (reason, finishReason, losses) => {
    const response = responseWith({ id: "resp_cut", created_at: 1, model: "gpt-4o", output: [], usage: null, status: "incomplete", incomplete_details: { reason } });
    const result = responseToChatCompletion({ response });
    expect(result.value.choices[0].finish_reason).toBe(finishReason);
    expect(result.losses).toEqual(losses);
  });

  test("a failed response has no finish_reason, with a loss", () => {
    const response = responseWith({ id: "resp_failed", created_at: 1, model: "gpt-4o", output: [], usage: null, status: "failed", error: { code: "server_error", message: "boom" } });
    const result = responseToChatCompletion({ response });
    expect(result.value.choices).toEqual([{ index: 0, message: { role: "assistant", content: null }, logprobs: null, finish_reason: null }]);
    expect(result.losses).toEqual([
      { path: "/status", code: "unsupported_field", detail: 'status "failed" has no finish_reason; null written' },
      { path: "/error", code: "unsupported_field", detail: "a chat.completion has no error (a value other than null is lost)" },
      ...neutralSettingsLost,
      emptyMessage,
    ]);
  });

  test("items a completion cannot hold are unsupported items", () => {
    const response = responseWith({
      id: "resp_mixed",
      created_at: 1,
      model: "gpt-4o",
      output: [
        { id: "msg_u", type: "message", status: "completed", role: "user", content: [{ type: "input_text", text: "hi" }] },
        { id: "fco_1", type: "function_call_output", status: "completed", call_id: "call_1", output: "42" },
      ],
      usage: null,
    });
    expect(responseToChatCompletion({ response }).losses).toEqual([
      { path: "/output/0", code: "unsupported_item", detail: "a user message has no place in a chat.completion, which holds the assistant's turn only" },
      { path: "/output/1", code: "unsupported_item", detail: "a function_call_output has no place in a chat.completion, which holds the assistant's turn only" },
      ...neutralSettingsLost,
      emptyMessage,
    ]);
  });
});

describe("round trips of completions", () => {
  const completion: ChatCompletion = {
    id: "chatcmpl-Tools02",
    object: "chat.completion",
    created: 1745960879,
    model: "gpt-4o-2024-08-06",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: "I'll check both.",
          tool_calls: [
            { id: "call_q2UyBRP7eXNTzAoR8lEhjc9Z", type: "function", function: { name: "get_country", arguments: "{}" } },
            { id: "call_b51ijcpFkDiTQG1bQzsrmtW5", type: "function", function: { name: "get_product_name", arguments: "" } },
          ],
        },
        logprobs: null,
        finish_reason: "tool_calls",
      },
    ],
    usage: openaiUsage,
    service_tier: "default",
  };

  test("completion to response and back gives the completion, with no loss either way", () => {
    const there = toResponse(completion);
    expect(there.losses).toEqual([]);
    expect(responseToChatCompletion({ response: there.value })).toEqual({ value: completion, losses: [] });
  });

  test("a response made from a completion comes back exactly, its ids included", () => {
    const response = toResponse(completion).value;
    const back = toResponse(responseToChatCompletion({ response }).value);
    expect(back).toEqual({ value: response, losses: [] });
  });
});

// The recorded completions and response objects themselves, when the shared
// corpus sits beside the checkout; a clone without it skips them, visibly.
const corpus = fileURLToPath(new URL("../../../../shared/corpus/", import.meta.url));
const recordedCompletions = ["vercel-ai-deepseek-chat-tool-call/deepseek-tool-call.json", "vercel-ai-groq-chat-tool-call/groq-tool-call.json"];
const recordedResponses = ["vercel-ai-responses-phase/openai-phase.1.json", "vercel-ai-responses-reasoning-function-calls/openai-reasoning-encrypted-content.1.json"];
const hasCorpus = existsSync(corpus);
if (!hasCorpus) console.warn(`recorded completions and responses skipped: ${corpus} is absent`);
const recorded = (file: string) => JSON.parse(readFileSync(join(corpus, file), "utf8"));

describe.skipIf(!hasCorpus)("recorded completions and responses (skipped when ../shared/corpus is absent)", () => {
  test.each(recordedCompletions)("%s converts to a valid response object and back, to its own reasoning dialect, with its call intact", (file) => {
    const completion = recorded(file) as ChatCompletion;
    const response = toResponse(completion).value;
    const back = responseToChatCompletion({ response, reasoningField: "reasoning_content" });
    expect(back.losses).toEqual([]);
    expect(back.value.choices[0].message.tool_calls).toEqual(
      completion.choices[0].message.tool_calls!.map(({ id, type, function: fn }) => ({ id, type, function: { name: fn.name, arguments: fn.arguments } })),
    );
  });

  test.each(recordedResponses)("%s converts to a completion that converts back to a valid response object", (file) => {
    const response = recorded(file) as ResponseResource;
    const completion = responseToChatCompletion({ response });
    expect(completion.value).toMatchObject({ id: response.id, object: "chat.completion", created: response.created_at, model: response.model });
    expect(completion.losses.length).toBeGreaterThan(0);
    toResponse(completion.value);
  });
});

describe("a response that does not say its id, creation time or model (one rebuilt from another provider's stream)", () => {
  test("becomes a valid chat.completion whose id, created and model are synthesized and reported", () => {
    const output = [{ type: "message", id: "msg_1", status: "completed", role: "assistant", content: [{ type: "output_text", text: "Dry.", annotations: [] }] }];
    const { value, losses } = responseToChatCompletion({ response: { object: "response", status: "completed", output } as unknown as ResponseResource });
    expect(value.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect([value.created, value.model]).toEqual([0, ""]);
    expect(losses.filter((loss) => loss.code === "synthesized")).toEqual([
      { path: "/id", code: "synthesized", detail: `a chat.completion requires id and the response has no id: ${JSON.stringify(value.id)} written` },
      { path: "/created", code: "synthesized", detail: "a chat.completion requires created and the response has no created_at: 0 written" },
      { path: "/model", code: "synthesized", detail: 'a chat.completion requires model and the response has no model: "" written' },
    ]);
    expect(responseToChatCompletion({ response: { object: "response", status: "completed", output } as unknown as ResponseResource }).value.id).toBe(value.id);
  });
});
