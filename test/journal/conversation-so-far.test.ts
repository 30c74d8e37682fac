import { describe, expect, test } from "vitest";
import { ConversationSoFar } from "../../src/journal/conversation-so-far.js";
import type { CanonicalItem } from "../../src/models/open-responses.js";

/** How a lossless JSON parser hands over a number a double cannot hold. */
class LosslessNumber {
  readonly isLosslessNumber = true;
  constructor(readonly value: string) {}
}

const repeated = (seen: unknown[], request: unknown[]): number => {
  const conversation = new ConversationSoFar();
  conversation.extend(seen as CanonicalItem[]);
  return conversation.repeatedPrefix(request.length, request as CanonicalItem[]);
};

describe("items holding numbers a lossless parser kept", () => {
  const output = (value: unknown) => ({ type: "function_call_output", call_id: "call_1", output: [{ type: "input_text", text: "order" }], order_id: value });

  test("the same number, from either parser, is the same item", () => {
    expect(repeated([output(new LosslessNumber("12345678901234567890"))], [output(new LosslessNumber("12345678901234567890"))])).toBe(1);
    expect(repeated([output(new LosslessNumber("42"))], [output(42)])).toBe(1);
  });

  test("two integers past 2^53 that a double would round alike are different items", () => {
    expect(repeated([output(new LosslessNumber("12345678901234567890"))], [output(new LosslessNumber("12345678901234567891"))])).toBe(0);
  });

  test("a plain object spelling the parser's fields does not pass for the number", () => {
    expect(repeated([output(new LosslessNumber("42"))], [output({ isLosslessNumber: true, value: "42" })])).toBe(0);
    expect(repeated([output({ isLosslessNumber: true, value: "42" })], [output(new LosslessNumber("42"))])).toBe(0);
  });
});

describe("the fields a replay may leave out", () => {
  const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "f", arguments: "{}", status: "completed" };

  test("id and status, each or both", () => {
    const { id: _id, status: _status, ...bare } = call;
    expect(repeated([call], [{ ...bare, id: "fc_1" }])).toBe(1);
    expect(repeated([call], [{ ...bare, status: "completed" }])).toBe(1);
    expect(repeated([call], [bare])).toBe(1);
  });

  test("id and status written null, as the spec's input items may write them", () => {
    const { id: _id, status: _status, ...bare } = call;
    expect(repeated([call], [{ ...bare, status: null }])).toBe(1);
    expect(repeated([call], [{ ...bare, id: null, status: null }])).toBe(1);
    expect(repeated([call], [{ ...bare, id: "fc_1", status: null }])).toBe(1);
  });

  test("a null status does not replay an item whose own status is another than the replay's", () => {
    const { status: _status, ...bare } = call;
    expect(repeated([{ ...bare, status: null }], [{ ...bare, status: "completed" }])).toBe(0);
  });

  test("no other field", () => {
    for (const key of ["type", "call_id", "name", "arguments"]) {
      const replay: Record<string, unknown> = { ...call };
      delete replay[key];
      expect(repeated([call], [replay])).toBe(0);
    }
  });
});

describe("what a response says of its turn and a request does not say again", () => {
  const call = { type: "function_call", id: "fc_1", call_id: "toolu_1", name: "stock_lookup", arguments: '{"symbol":"AAPL"}', status: "completed", "anthropic:caller": { type: "direct" } };
  const { "anthropic:caller": _caller, id: _id, ...replayedCall } = call;
  const thinking = (provenance: Record<string, unknown>) => ({ type: "reasoning", summary: [{ type: "summary_text", text: "Look it up." }], encrypted_content: "EqQBCkgIAxABGAIiQL", provenance });

  test("a tool_use block sent back without its caller replays the call (pydantic-ai)", () => {
    expect(repeated([call], [replayedCall])).toBe(1);
  });

  test("one sent back with another caller, or a caller the call did not have, is new", () => {
    expect(repeated([call], [{ ...replayedCall, "anthropic:caller": { type: "code_execution_20250825", tool_id: "srvtoolu_1" } }])).toBe(0);
    expect(repeated([replayedCall], [call])).toBe(0);
  });

  test("a thinking block a request sends back, naming no model, replays the one a response's model wrote", () => {
    expect(repeated([thinking({ envelope: "anthropic", block: "thinking", model: "claude-sonnet-4-5-20250929" })], [thinking({ envelope: "anthropic", block: "thinking" })])).toBe(1);
  });

  test("one naming another model, or another block, is new", () => {
    const seen = thinking({ envelope: "anthropic", block: "thinking", model: "claude-sonnet-4-5-20250929" });
    expect(repeated([seen], [thinking({ envelope: "anthropic", block: "thinking", model: "claude-opus-4-1" })])).toBe(0);
    expect(repeated([seen], [thinking({ envelope: "anthropic", block: "redacted_thinking" })])).toBe(0);
  });
});

describe("a Bedrock toolUse block's type", () => {
  // Converse writes "type":"tool_use" in a response's toolUse block; pydantic-ai sends the block back without it.
  const call = { type: "function_call", call_id: "tooluse_waI1Qe4zR0Q4XuXquDJTKo", name: "get_file", arguments: "{}", status: "completed" };

  test('"tool_use" and no type are the same call, either way round', () => {
    expect(repeated([{ ...call, "bedrock:type": "tool_use" }], [call])).toBe(1);
    expect(repeated([call], [{ ...call, "bedrock:type": "tool_use" }])).toBe(1);
  });

  test("another type is another call", () => {
    expect(repeated([{ ...call, "bedrock:type": "tool_use" }], [{ ...call, "bedrock:type": "server_tool_use" }])).toBe(0);
    expect(repeated([{ ...call, "bedrock:type": "server_tool_use" }], [call])).toBe(0);
  });
});

describe("a reasoning item's encrypted_content written null", () => {
  // DeepSeek's Responses API gives none; pydantic-ai sends the item back with "encrypted_content": null.
  const thought = { type: "reasoning", id: "76f8b89e-4a41-46fb-86ae-546cc1e4ba6c", summary: [], content: [{ type: "reasoning_text", text: "Call get_temperature for Tokyo." }], status: "completed" };

  test("replays the item that had none, and null is replayed by no field", () => {
    const { status: _status, ...replayed } = thought;
    expect(repeated([thought], [{ ...replayed, encrypted_content: null }])).toBe(1);
    expect(repeated([{ ...thought, encrypted_content: null }], [replayed])).toBe(1);
  });

  test("does not replay an item that had one", () => {
    expect(repeated([{ ...thought, encrypted_content: "gAAAAB-opaque" }], [{ ...thought, encrypted_content: null }])).toBe(0);
  });
});

describe("a reasoning item's empty content", () => {
  // An OpenAI response writes "content": []; pydantic-ai sends the item back without content, as input items must.
  const thought = { type: "reasoning", id: "rs_07fb6c700c679e0b006a285d27d7c4819ebb375614ce1d2b6a", summary: [], content: [], encrypted_content: "gAAAAABqKF0p-opaque" };
  const { content: _content, ...replayed } = thought;

  test("no content, or content null, replays the item whose content was []", () => {
    expect(repeated([thought], [replayed])).toBe(1);
    expect(repeated([thought], [{ ...replayed, content: null }])).toBe(1);
  });

  test("content that holds text is not empty", () => {
    expect(repeated([{ ...thought, content: [{ type: "reasoning_text", text: "Fetch the file first." }] }], [replayed])).toBe(0);
  });
});

describe("a cache breakpoint moved to the last block", () => {
  // Anthropic asks a multi-turn caller to mark the last block of each request; the block marked before is sent again without it.
  const output = { type: "function_call_output", call_id: "toolu_01", output: "sunny" };
  const ask = (part: Record<string, unknown>) => ({ type: "message", role: "user", content: [{ type: "input_text", text: "Weather in Paris?", ...part }] });

  test("an item or a part sent again without its breakpoint, with it null or with another is the same item", () => {
    expect(repeated([{ ...output, "anthropic:cache_control": { type: "ephemeral" } }], [output])).toBe(1);
    expect(repeated([{ ...output, "anthropic:cache_control": { type: "ephemeral" } }], [{ ...output, "anthropic:cache_control": null }])).toBe(1);
    expect(repeated([output], [{ ...output, "anthropic:cache_control": { type: "ephemeral", ttl: "1h" } }])).toBe(1);
    expect(repeated([ask({ "anthropic:cache_control": { type: "ephemeral" } })], [ask({})])).toBe(1);
    expect(repeated([{ ...output, "bedrock:cachePoint": { type: "default" } }], [output])).toBe(1);
  });

  test("a part of an output sent again without its breakpoint, or with it null, is the same item", () => {
    const parts = (part: Record<string, unknown>) => ({ ...output, output: [{ type: "input_text", text: "sunny", ...part }] });
    expect(repeated([parts({ "anthropic:cache_control": { type: "ephemeral" } })], [parts({})])).toBe(1);
    expect(repeated([parts({ "anthropic:cache_control": { type: "ephemeral" } })], [parts({ "anthropic:cache_control": null })])).toBe(1);
    expect(repeated([parts({})], [parts({ "anthropic:cache_control": { type: "ephemeral" } })])).toBe(1);
    expect(repeated([parts({ "anthropic:cache_control": { type: "ephemeral" } })], [{ ...output, output: [{ type: "input_text", text: "rainy" }] }])).toBe(0);
  });

  test("a lone text part whose breakpoint is gone is the string it holds, either way round", () => {
    // Bedrock's reader writes a lone text block as a string, and one beside a cachePoint as a part.
    const said = { type: "message", role: "user", content: "Weather in Paris?" };
    expect(repeated([ask({ "bedrock:cachePoint": { type: "default" } })], [said])).toBe(1);
    expect(repeated([said], [ask({ "bedrock:cachePoint": { type: "default" } })])).toBe(1);
    const answer = (content: unknown) => ({ type: "message", role: "assistant", content });
    expect(repeated([answer([{ type: "output_text", text: "Sunny.", annotations: [], "bedrock:cachePoint": { type: "default" } }])], [answer("Sunny.")])).toBe(1);
  });

  test("a lone part that holds more than its text is not the string", () => {
    const said = { type: "message", role: "user", content: "Weather in Paris?" };
    expect(repeated([ask({ "anthropic:citations": [] })], [said])).toBe(0);
    expect(repeated([said], [{ ...said, content: [{ type: "input_text", text: "Weather in Lyon?" }] }])).toBe(0);
    const answer = (content: unknown) => ({ type: "message", role: "assistant", content });
    expect(repeated([answer([{ type: "output_text", text: "Sunny.", annotations: [{ type: "url_citation", url: "https://example.test/" }] }])], [answer("Sunny.")])).toBe(0);
  });

  test("what the marked block says still counts", () => {
    expect(repeated([{ ...output, "anthropic:cache_control": { type: "ephemeral" } }], [{ ...output, output: "rainy" }])).toBe(0);
    expect(repeated([ask({ "anthropic:cache_control": { type: "ephemeral" } })], [ask({ "anthropic:citations": [] })])).toBe(0);
  });
});

describe("a text block sent back with citations null", () => {
  // The Anthropic Python SDK's model of a response's text block dumps "citations": null where the response wrote none.
  const said = (part: Record<string, unknown>) => ({ type: "message", role: "assistant", content: [{ type: "output_text", text: "I will look it up.", annotations: [], ...part }] });

  test("null and no citations are the same part, either way round", () => {
    expect(repeated([said({})], [said({ "anthropic:citations": null })])).toBe(1);
    expect(repeated([said({ "anthropic:citations": null })], [said({})])).toBe(1);
  });

  test("citations the response did not write make a new item", () => {
    const citation = { type: "char_location", cited_text: "It rains.", document_index: 0, start_char_index: 0, end_char_index: 9 };
    expect(repeated([said({})], [said({ "anthropic:citations": [citation] })])).toBe(0);
    expect(repeated([said({ "anthropic:citations": [citation] })], [said({ "anthropic:citations": null })])).toBe(0);
  });
});

describe("an extension item sent back with null members", () => {
  // The OpenAI Python SDK's model of a web_search_call dumps the action's sources, which the response left out, as null.
  const search = (action: Record<string, unknown>) => ({ type: "openai:web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "bitcoin price", ...action } });

  test("a member written null is no member, at any depth, either way round", () => {
    expect(repeated([search({})], [search({ sources: null })])).toBe(1);
    expect(repeated([search({ sources: null })], [search({})])).toBe(1);
    expect(repeated([search({ filters: [{ domains: ["a.example"] }] })], [search({ filters: [{ domains: ["a.example"], region: null }] })])).toBe(1);
  });

  test("a value where the item had none, or none where it had one, is new", () => {
    expect(repeated([search({})], [search({ sources: [] })])).toBe(0);
    expect(repeated([search({ sources: [{ type: "url", url: "https://a.example" }] })], [search({ sources: null })])).toBe(0);
  });

  test("a portable item keeps its null members", () => {
    const output = { type: "function_call_output", call_id: "call_1", output: "sunny" };
    expect(repeated([output], [{ ...output, tool: null }])).toBe(0);
  });
});

describe("a Gemini signature written back in the other base64 alphabet", () => {
  const signed = (signature: string) => ({ type: "function_call", call_id: "gemini_call_3ee8", name: "multiply", arguments: '{"a":12,"b":31}', status: "completed", "gemini:thoughtSignature": signature });
  const part = (signature: string) => ({ type: "message", role: "assistant", content: [{ type: "output_text", text: "Done.", "gemini:thoughtSignature": signature }] });

  test("the same bytes in base64url, padded or not, replay the item", () => {
    expect(repeated([signed("CvEC+dH/tim8r+Ze/H2a==")], [signed("CvEC-dH_tim8r-Ze_H2a")])).toBe(1);
    expect(repeated([signed("CvEC+dH/tim8r+Ze/H2a==")], [signed("CvEC-dH_tim8r-Ze_H2a==")])).toBe(1);
    expect(repeated([part("Qk+/Yw==")], [part("Qk-_Yw")])).toBe(1);
  });

  test("other bytes do not", () => {
    expect(repeated([signed("CvEC+dH/tim8r+Ze/H2a==")], [signed("CvEC-dH_tim8r-Ze_H2b")])).toBe(0);
    expect(repeated([part("Qk+/Yw==")], [part("Qk-_Yx")])).toBe(0);
  });
});

describe("an empty assistant message put among the repeats", () => {
  const user = { type: "message", role: "user", content: "Which port is nearest?" };
  const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "nearest_port", arguments: "{}", status: "completed" };
  const { id: _id, status: _status, ...replayedCall } = call;
  const output = { type: "function_call_output", call_id: "call_1", output: "Harwich" };

  test("one with empty text, no parts or null content is taken with the repeats, as SDKs write one before the calls they replay", () => {
    for (const content of ["", [], null]) {
      expect(repeated([user, call], [user, { type: "message", role: "assistant", content }, replayedCall, output])).toBe(3);
    }
  });

  test("one that holds text, or a field of its own, is not: the request is new from it", () => {
    expect(repeated([user, call], [user, { type: "message", role: "assistant", content: "Looking it up." }, replayedCall, output])).toBe(0);
    expect(repeated([user, call], [user, { type: "message", role: "assistant", content: "", id: "msg_9" }, replayedCall, output])).toBe(0);
    expect(repeated([user, call], [user, { type: "message", role: "user", content: "" }, replayedCall, output])).toBe(0);
  });

  test("the repeats must all come: an empty message in place of the call does not stand for it", () => {
    expect(repeated([user, call], [user, { type: "message", role: "assistant", content: "" }])).toBe(0);
    expect(repeated([user, call], [user, { type: "message", role: "assistant", content: "" }, output])).toBe(0);
  });
});

describe("a Gemini call sent back with the placeholder signature", () => {
  // pydantic-ai signs a call Gemini gave no signature with these bytes, "skip_thought_signature_validator", when it sends it back.
  const placeholder = Buffer.from("skip_thought_signature_validator").toString("base64");
  const call = { type: "function_call", call_id: "gemini_call_0eb58b65a78211d1", name: "temperature", arguments: '{"city":"London"}', status: "completed" };

  test("is the call without signature, in base64 or base64url", () => {
    expect(repeated([call], [{ ...call, "gemini:thoughtSignature": placeholder }])).toBe(1);
    expect(repeated([call], [{ ...call, "gemini:thoughtSignature": placeholder.replace(/=+$/, "") }])).toBe(1);
  });

  test("another signature, or the placeholder on another call, is not", () => {
    expect(repeated([call], [{ ...call, "gemini:thoughtSignature": "CiQBjz1rX8" }])).toBe(0);
    expect(repeated([call], [{ ...call, arguments: '{"city":"Paris"}', "gemini:thoughtSignature": placeholder }])).toBe(0);
  });
});

describe("an answer of empty text the replay leaves out", () => {
  // A Gemini stream that ends in a part of empty text, as the model writes it after a call.
  const user = { type: "message", role: "user", content: [{ type: "input_text", text: "Which port is nearest?" }] };
  const call = { type: "function_call", call_id: "call_1", name: "nearest_port", arguments: "{}", status: "completed" };
  const empty = { type: "message", role: "assistant", content: [{ type: "output_text", text: "", annotations: [] }] };
  const output = { type: "function_call_output", call_id: "call_1", output: "Harwich" };

  test("the rest replays the conversation, with the answer in the middle or at the end", () => {
    expect(repeated([user, call, empty], [user, call, output])).toBe(2);
    expect(repeated([user, empty, call], [user, call, output])).toBe(2);
    expect(repeated([user, call, { ...empty, id: "msg_1", status: "completed" }, { ...empty, content: "" }], [user, call, output])).toBe(2);
  });

  test("an answer that holds text, an annotation or a field of its own must come back", () => {
    const part = empty.content[0]!;
    for (const answer of [
      { ...empty, content: [{ ...part, text: " " }] },
      { ...empty, content: [{ ...part, annotations: [{ type: "url_citation", url: "https://example.com", title: "t", start_index: 0, end_index: 0 }] }] },
      { ...empty, content: [{ ...part, "gemini:thoughtSignature": "CiQB" }] },
      { ...empty, "gemini:thoughtSignature": "CiQB" },
      { ...empty, role: "user" },
    ]) {
      expect(repeated([user, call, answer], [user, call, output])).toBe(0);
    }
  });
});

describe("a request's items written once", () => {
  const message = (text: string) => ({ type: "message", role: "user", content: [{ type: "input_text", text }] });

  test("the items a request continues with are remembered as they are", () => {
    const conversation = new ConversationSoFar();
    conversation.extend([message("a")] as CanonicalItem[]);
    const request = [message("a"), message("b")] as CanonicalItem[];
    expect(conversation.repeatedPrefix(2, request)).toBe(1);
    conversation.restart();
    conversation.extend(request);
    expect(conversation.repeatedPrefix(3, [message("a"), message("b"), message("c")] as CanonicalItem[])).toBe(2);
  });

  test("other items than the request's are written afresh", () => {
    const conversation = new ConversationSoFar();
    conversation.extend([message("a")] as CanonicalItem[]);
    expect(conversation.repeatedPrefix(2, [message("a"), message("b")] as CanonicalItem[])).toBe(1);
    conversation.restart();
    conversation.extend([message("x"), message("y")] as CanonicalItem[]);
    expect(conversation.repeatedPrefix(2, [message("a"), message("b")] as CanonicalItem[])).toBe(0);
    expect(conversation.repeatedPrefix(2, [message("x"), message("y")] as CanonicalItem[])).toBe(2);
  });

  test("a request that stops matching part way leaves nothing behind for the next items", () => {
    const conversation = new ConversationSoFar();
    conversation.extend([message("a"), message("b")] as CanonicalItem[]);
    const request = [message("a"), message("c")] as CanonicalItem[];
    expect(conversation.repeatedPrefix(2, request)).toBe(0);
    conversation.restart();
    conversation.extend(request);
    expect(conversation.repeatedPrefix(2, [message("a"), message("c")] as CanonicalItem[])).toBe(2);
    expect(conversation.repeatedPrefix(2, [message("a"), message("b")] as CanonicalItem[])).toBe(0);
  });
});

describe("a conversation past its limits", () => {
  const message = (text: string) => ({ type: "message", role: "user", content: [{ type: "input_text", text }] });

  test("items whose strings hold more than 16 MiB are not followed: their replay is emitted whole", () => {
    const conversation = new ConversationSoFar();
    const long = message("x".repeat(16 * 1024 * 1024));
    conversation.extend([long] as CanonicalItem[]);
    expect(conversation.repeatedPrefix(2, [long, message("b")] as CanonicalItem[])).toBe(0);
  });

  test("a request restarts it, and its items are followed again", () => {
    const conversation = new ConversationSoFar();
    conversation.extend([message("x".repeat(16 * 1024 * 1024))] as CanonicalItem[]);
    conversation.restart();
    conversation.extend([message("a")] as CanonicalItem[]);
    expect(conversation.repeatedPrefix(2, [message("a"), message("b")] as CanonicalItem[])).toBe(1);
  });

  test("a short item, well under the limit, is followed", () => {
    const conversation = new ConversationSoFar();
    const item = message("x".repeat(1024 * 1024));
    conversation.extend([item] as CanonicalItem[]);
    expect(conversation.repeatedPrefix(2, [item, message("b")] as CanonicalItem[])).toBe(1);
  });
});

describe("instructions a request gives otherwise", () => {
  const instructions = (role: string, text: string) => ({ type: "message", role, content: text });
  const user = { type: "message", role: "user", content: "Soccer news?" };
  const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "transfer_to_summarizer", arguments: "{}", status: "completed" };
  const output = { type: "function_call_output", call_id: "call_1", output: "Summarizer" };
  const replayed = (seen: unknown[], request: unknown[]) => {
    const conversation = new ConversationSoFar();
    conversation.extend(seen as CanonicalItem[]);
    return [conversation.repeatedPrefix(request.length, request as CanonicalItem[]), conversation.replacedInstructions];
  };

  test("other leading system or developer messages over the same history replay it, and are counted apart", () => {
    expect(replayed([instructions("system", "You research."), user, call], [instructions("system", "You summarize."), user, call, output])).toEqual([3, 1]);
    expect(replayed([instructions("developer", "You research."), user, call], [instructions("developer", "You summarize."), instructions("system", "Be brief."), user, call, output])).toEqual([4, 2]);
  });

  test("instructions the conversation had and the request leaves out, or the other way round", () => {
    expect(replayed([instructions("system", "You research."), user, call], [user, call, output])).toEqual([2, 0]);
    expect(replayed([user, call], [instructions("system", "You summarize."), user, call, output])).toEqual([3, 1]);
  });

  test("the same instructions are repeats, as any item", () => {
    expect(replayed([instructions("system", "You research."), user, call], [instructions("system", "You research."), user, call, output])).toEqual([3, 0]);
  });

  test("a history that differs after the instructions is new", () => {
    expect(replayed([instructions("system", "You research."), user, call], [instructions("system", "You summarize."), user, { ...call, arguments: '{"to":"x"}' }, output])).toEqual([0, 0]);
  });

  test("a conversation of instructions alone is not replayed by a request that gives others", () => {
    expect(replayed([instructions("system", "You research.")], [instructions("system", "You summarize."), user])).toEqual([0, 0]);
  });

  test("a later request that repeats the replacing instructions is told they are not the conversation's either", () => {
    const conversation = new ConversationSoFar();
    const first = [instructions("system", "You research."), user, call];
    const second = [instructions("system", "You summarize."), user, call, output];
    const third = [...second, { type: "message", role: "assistant", content: "Done." }, { type: "message", role: "user", content: "Thanks." }];
    conversation.extend(first as CanonicalItem[]);
    const counts = [second, third].map((request) => {
      const repeated = conversation.repeatedPrefix(request.length, request as CanonicalItem[]);
      const replaced = conversation.replacedInstructions;
      conversation.restart();
      conversation.extend(request as CanonicalItem[]);
      return [repeated, replaced];
    });
    expect(counts).toEqual([
      [3, 1],
      [4, 1],
    ]);
  });

  test("a request emitted whole says its instructions: the next that repeats them repeats items", () => {
    const conversation = new ConversationSoFar();
    const first = [instructions("system", "You research."), user, call];
    const second = [instructions("system", "You summarize."), user, call, output];
    conversation.extend(first as CanonicalItem[]);
    conversation.repeatedPrefix(second.length, second as CanonicalItem[]);
    conversation.restart();
    conversation.extend(second as CanonicalItem[]);
    const unrelated = [instructions("system", "You translate."), { type: "message", role: "user", content: "Bonjour?" }];
    expect(conversation.repeatedPrefix(unrelated.length, unrelated as CanonicalItem[])).toBe(0);
    conversation.restart();
    conversation.extend(unrelated as CanonicalItem[]);
    const next = [...unrelated, { type: "message", role: "assistant", content: "Hello?" }];
    expect([conversation.repeatedPrefix(next.length, next as CanonicalItem[]), conversation.replacedInstructions]).toEqual([2, 0]);
  });

  test("a system message after the first turn is a turn: one the request gives otherwise makes it new", () => {
    expect(replayed([user, instructions("system", "Now summarize."), call], [user, instructions("system", "Now research."), call, output])).toEqual([0, 0]);
  });
});

describe("the choices of a completion of several, of which a request continues one", () => {
  const user = { type: "message", role: "user", content: "Weather in Paris and Lyon?" };
  const call = (callId: string, city: string) => ({ type: "function_call", call_id: callId, name: "get_weather", arguments: JSON.stringify({ city }), status: "completed" });
  const output = (callId: string) => ({ type: "function_call_output", call_id: callId, output: "sunny" });
  const said = { type: "message", role: "assistant", content: [{ type: "output_text", text: "Let me look.", annotations: [] }] };
  // Choice 0 calls twice, choice 1 says something and calls once.
  const choices = [[call("call_a1", "Paris"), call("call_a2", "Lyon")], [said, call("call_b1", "Paris")]];
  /** What a request replays of a conversation whose record gave `choices` after `user`, and the calls it owes no output. */
  const replayed = (request: unknown[], streamed = false) => {
    const conversation = new ConversationSoFar();
    if (streamed) {
      conversation.extend([user] as CanonicalItem[]);
      conversation.extend(choices[0] as CanonicalItem[]);
      conversation.extendAnswer(choices[1] as CanonicalItem[]);
    } else conversation.extend([user, ...choices[0]!, ...choices[1]!] as CanonicalItem[], [1, 3]);
    const repeats = conversation.repeatedPrefix(request.length, request as CanonicalItem[]);
    return { repeats, others: conversation.callsOfOtherAnswers };
  };

  for (const streamed of [false, true]) {
    describe(streamed ? "given apart, as a stream gives its choices" : "given in one record", () => {
      test("a request that replays either choice with its outputs replays the conversation; the other choice's calls are owed nothing", () => {
        expect(replayed([user, ...choices[0]!, output("call_a1"), output("call_a2")], streamed)).toEqual({ repeats: 3, others: ["call_b1"] });
        expect(replayed([user, ...choices[1]!, output("call_b1")], streamed)).toEqual({ repeats: 3, others: ["call_a1", "call_a2"] });
      });

      test("a request that mixes the calls of two choices, drops a call, or changes its arguments replays nothing", () => {
        const none = { repeats: 0, others: [] };
        expect(replayed([user, call("call_a1", "Paris"), call("call_b1", "Paris"), output("call_a1"), output("call_b1")], streamed)).toEqual(none);
        expect(replayed([user, said, call("call_a1", "Paris"), call("call_b1", "Paris")], streamed)).toEqual(none);
        expect(replayed([user, call("call_a1", "Paris"), output("call_a1")], streamed)).toEqual(none);
        expect(replayed([user, said, output("call_b1")], streamed)).toEqual(none);
        expect(replayed([user, call("call_a1", "Paris"), call("call_a2", "Nice"), output("call_a1"), output("call_a2")], streamed)).toEqual(none);
      });

      test("the other choice's items sent after one choice are new, for the gate to judge", () => {
        expect(replayed([user, ...choices[0]!, ...choices[1]!, output("call_a1")], streamed)).toEqual({ repeats: 3, others: ["call_b1"] });
      });

      test("a request that replays the question alone replays it, and no choice", () => {
        expect(replayed([user], streamed)).toEqual({ repeats: 0, others: [] });
      });
    });
  }

  test("a later request replays the conversation the choice taken began, and no longer the other", () => {
    const conversation = new ConversationSoFar();
    conversation.extend([user, ...choices[0]!, ...choices[1]!] as CanonicalItem[], [1, 3]);
    const first = [user, ...choices[1]!, output("call_b1")];
    expect(conversation.repeatedPrefix(first.length, first as CanonicalItem[])).toBe(3);
    conversation.restart();
    conversation.extend(first as CanonicalItem[]);
    const second = [...first, { type: "message", role: "user", content: "And Nice?" }];
    expect(conversation.repeatedPrefix(second.length, second as CanonicalItem[])).toBe(4);
    expect(conversation.callsOfOtherAnswers).toEqual([]);
    const other = [user, ...choices[0]!, output("call_a1"), output("call_a2")];
    expect(conversation.repeatedPrefix(other.length, other as CanonicalItem[])).toBe(0);
  });

  test("a call_id both choices give is owed its output still", () => {
    const conversation = new ConversationSoFar();
    conversation.extend([user, call("call_1", "Paris"), call("call_1", "Paris"), call("call_2", "Lyon")] as CanonicalItem[], [1, 2]);
    const request = [user, call("call_1", "Paris"), output("call_1")];
    expect(conversation.repeatedPrefix(request.length, request as CanonicalItem[])).toBe(2);
    expect(conversation.callsOfOtherAnswers).toEqual(["call_2"]);
  });
});
