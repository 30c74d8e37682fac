import { describe, expect, test } from "vitest";
import { ChatStreamAssembler } from "../../adapters/chat-completions/stream.js";
import { ResponsesStreamAssembler } from "../../src/journal/responses-stream.js";
import type { AssembledResponse } from "../../src/models/assembled-response.js";

/** Pushes records numbered from 1 into an assembler; returns what push and finish gave, in order. */
function run(assembler: ChatStreamAssembler | ResponsesStreamAssembler, records: unknown[]): AssembledResponse[] {
  const out = records.flatMap((record, i) => assembler.push(record, i + 1));
  return [...out, ...assembler.finish()];
}

const CHAT_ID = "chatcmpl-Bq7TnX2kLm9Pw4Rs";
const fields = { id: CHAT_ID, object: "chat.completion.chunk", created: 1754693439, model: "gpt-4o-2024-08-06", system_fingerprint: "fp_07871e2ad8" };
const opening = { ...fields, obfuscation: "x8Qe" };
const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ ...opening, choices, ...extra });
const choice = (index: number, delta: Record<string, unknown>, finishReason: string | null = null) => ({ index, delta, logprobs: null, finish_reason: finishReason });
const usage = { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 };
const padding = (line: number) => ({ line, path: "/obfuscation", code: "left_behind", detail: "obfuscation is padding of the transport: no item or record holds it" });

describe("Chat chunks, asked for the completion", () => {
  test("the opening chunk's fields, the first choice's finish_reason and the usage, each with its line", () => {
    const [response] = run(new ChatStreamAssembler({ completion: true }), [
      chunk([choice(0, { role: "assistant", content: "" })]),
      chunk([choice(0, { content: "Lyon." })]),
      chunk([choice(0, {}, "stop")]),
      chunk([], { usage }),
    ]);
    const { completion, ...rest } = response;
    const { rebuilt, ...streamed } = completion!;
    // The converter says what the completion cannot hold; the chunks' padding no completion holds.
    expect(rest).toEqual({ id: CHAT_ID, status: "completed", items: [{ type: "message", role: "assistant", content: "Lyon." }], losses: [1, 2, 3, 4].map(padding), line: 1, lastLine: 4 });
    expect(streamed).toEqual({ fields: { value: fields, line: 1 }, position: 0, finish: { value: "stop", line: 3, position: 0 }, usage: { value: usage, line: 4 } });
    expect(rebuilt?.value).toEqual({ ...fields, object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: "Lyon." }, logprobs: null, finish_reason: "stop" }], usage });
    expect(["/system_fingerprint", "/usage/total_tokens", "/choices/0/message/content", "/choices/0/finish_reason", "/choices/0"].map((path) => rebuilt?.place(path))).toEqual([
      { line: 1, path: "/system_fingerprint" },
      { line: 4, path: "/usage/total_tokens" },
      { line: 1, path: "/choices/0/delta/content" },
      { line: 3, path: "/choices/0/finish_reason" },
      { line: 1, path: "/choices/0" },
    ]);
  });

  test("the choice that continues the conversation is the lowest index, wherever it stands in its chunk", () => {
    const [response] = run(new ChatStreamAssembler({ completion: true }), [
      chunk([choice(1, { role: "assistant", content: "Nantes." }), choice(0, { role: "assistant", content: "Lyon." })]),
      chunk([choice(0, {}, "stop"), choice(1, {}, "length")]),
    ]);
    const { rebuilt, ...streamed } = response.completion!;
    expect(streamed).toEqual({ fields: { value: fields, line: 1 }, position: 1, finish: { value: "stop", line: 2, position: 0 } });
    expect(rebuilt?.value.choices).toEqual([
      { index: 0, message: { role: "assistant", content: "Lyon." }, logprobs: null, finish_reason: "stop" },
      { index: 1, message: { role: "assistant", content: "Nantes." }, logprobs: null, finish_reason: "length" },
    ]);
    expect(["/choices/0/message/content", "/choices/1/finish_reason"].map((path) => rebuilt?.place(path))).toEqual([
      { line: 1, path: "/choices/1/delta/content" },
      { line: 2, path: "/choices/1/finish_reason" },
    ]);
  });

  test("a usage chunk that names another completion is not this one's", () => {
    const [response] = run(new ChatStreamAssembler({ completion: true }), [chunk([choice(0, { role: "assistant", content: "Lyon." })]), chunk([], { id: "chatcmpl-other", usage })]);
    const { rebuilt, ...streamed } = response.completion!;
    expect(streamed).toEqual({ fields: { value: fields, line: 1 }, position: 0 });
    expect(rebuilt?.value).not.toHaveProperty("usage");
  });

  test("not asked, the response holds no completion", () => {
    const [response] = run(new ChatStreamAssembler(), [chunk([choice(0, { role: "assistant", content: "Lyon." }, "stop")], { usage })]);
    const leftBehind = (path: string, what = "the chat.completion") => ({ line: 1, path, code: "left_behind", detail: `${path.split("/").pop()} of ${what} is in no item: normalize writes items only` });
    expect(response).toEqual({
      id: CHAT_ID,
      status: "completed",
      items: [{ type: "message", role: "assistant", content: "Lyon." }],
      losses: [leftBehind("/choices/0/finish_reason", "the choice"), ...["/id", "/created", "/model", "/system_fingerprint", "/usage"].map((path) => leftBehind(path)), padding(1)],
      line: 1,
      lastLine: 1,
    });
  });
});

const RESP = "resp_0b7f2c1e9a4d";
const FC = "fc_0b7f2c1e9a4d01";
const MSG = "msg_0b7f2c1e9a4d02";
const call = { id: FC, type: "function_call", status: "completed", arguments: "{\"city\":\"Lyon\"}", call_id: "call_Tq8mZ2vLx4Rb", name: "lookup_city" };
const message = { id: MSG, type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "Looking it up.", annotations: [] }] };
const resource = (status: string, output: unknown[]) => ({ id: RESP, object: "response", created_at: 1754693439, status, model: "gpt-4o-2024-08-06", output });
const created = { type: "response.created", response: resource("in_progress", []) };
const inProgress = { type: "response.in_progress", response: resource("in_progress", []) };
const itemEvent = (type: string, index: number, item: object) => ({ type: `response.output_item.${type}`, output_index: index, item });

describe("Open Responses events, asked for the resource", () => {
  test("the terminal event's response object is the last one shown; its output holds the items, so no item lines", () => {
    const completed = { type: "response.completed", response: resource("completed", [message, call]) };
    const events = [created, itemEvent("added", 0, message), itemEvent("done", 0, message), itemEvent("added", 1, call), itemEvent("done", 1, call), completed];
    const [response] = run(new ResponsesStreamAssembler({ resource: true }), events);
    expect(response).toEqual({ id: RESP, status: "completed", items: [message, call], losses: [], line: 1, lastLine: 6, resource: { snapshot: { value: completed.response, line: 6 } } });
  });

  test("streamed items each name the line of the event that last set them, in output order", () => {
    const [response] = run(new ResponsesStreamAssembler({ resource: true }), [created, inProgress, itemEvent("added", 1, call), itemEvent("added", 0, message), itemEvent("done", 1, call)]);
    expect(response.resource).toEqual({ snapshot: { value: inProgress.response, line: 2 }, itemLines: [4, 5] });
  });

  test("not asked, the response holds no resource", () => {
    const [response] = run(new ResponsesStreamAssembler(), [created, itemEvent("added", 0, call), itemEvent("done", 0, call)]);
    const leftBehind = (key: string) => ({ line: 1, path: `/response/${key}`, code: "left_behind", detail: `${key} of the response is in no item: normalize writes items only` });
    const cut = { line: 3, path: "/item/status", code: "form_changed", detail: "the stream ends before its terminal event (response.completed, .incomplete or .failed), where openai-python and the Agents SDKs give no final response: the call is in_progress" };
    expect(response).toEqual({ id: RESP, status: "in_progress", items: [{ ...call, status: "in_progress" }], losses: [cut, ...["id", "created_at", "status", "model"].map(leftBehind)], line: 1, lastLine: 3 });
  });
});
