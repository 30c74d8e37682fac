// A response reassembled from a stream, written as the whole record of the other
// envelope: the record the stream amounts to goes through the same converter as
// a record of that kind on its own line.
//
// | stream              | written as                                                          |
// |---------------------|---------------------------------------------------------------------|
// | chat.completion     | a response object: the chat.completion the chunks give (the opening |
// |   chunks            |   chunk's fields, the message rebuilt from the items, the           |
// |                     |   finish_reason, the usage), with the status the stream left when a |
// |                     |   finish_reason cannot give it (a cut stream is in_progress)        |
// | Open Responses      | a chat.completion: the last response object the events showed, with |
// |   events            |   the reassembled output and status                                 |
// | a damaged stream    | a loss; when the response holds calls, status incomplete where it   |
// |                     |   would be completed, so that no call comes out completed           |
//
// Every loss names the line of the record it points into: a field of the rebuilt
// message points at the delta of the opening chunk, an output item at the event
// that last set it, a field of the response object at the event that carried it.
import { chatCompletionToResponse } from "../../adapters/chat-completions/completion-to-response.js";
import { itemsToMessages } from "../../adapters/chat-completions/items-to-messages.js";
import { responseToChatCompletion } from "../../adapters/chat-completions/response-to-completion.js";
import type { AssembledResponse, StreamLoss } from "../models/assembled-response.js";
import type { ChatCompletion } from "../models/chat-completions.js";
import type { Envelope } from "../models/journal-item.js";
import { isPlainObject } from "../models/json-value.js";
import type { Loss } from "../models/loss.js";
import { pointer } from "../models/json-pointer.js";
import type { CanonicalItem, ResponseResource } from "../models/open-responses.js";

type Fields = Record<string, unknown>;

export interface ConvertedStream {
  /** A response object (from a Chat stream) or a chat.completion (from an event stream). */
  value: unknown;
  /** The losses of the reassembly and of the conversion, in line order. */
  losses: StreamLoss[];
}

/**
 * Converts one reassembled response, given the envelope of the stream it came
 * from and, when a line inside that stream could not be read, the damage loss.
 * Throws when the record the stream amounts to cannot be converted.
 */
export function convertAssembledResponse(args: { envelope: Envelope; response: AssembledResponse; damage?: Loss }): ConvertedStream {
  const { envelope, response, damage } = args;
  // A chat.completion has no status per call: only the response's can keep one from passing as completed.
  const damaged = damage !== undefined && response.items.some((item) => isPlainObject(item) && item.type === "function_call");
  const converted = envelope === "chat" ? chatStreamToResponse(response, damaged) : responsesStreamToCompletion(response, damaged);
  const losses = [...response.losses, ...converted.losses];
  if (damage) losses.push({ ...damage, line: response.line });
  return { value: converted.value, losses: losses.sort((a, b) => a.line - b.line) };
}

/** The status a damaged response with calls is written with: never completed. */
function statusOf(response: AssembledResponse, damaged: boolean): string | undefined {
  return damaged && response.status === "completed" ? "incomplete" : response.status;
}

/**
 * The chat.completion the chunks give (its message rebuilt from the items) goes
 * through the same converter as a non-streamed one. A status a finish_reason
 * cannot give (a cut stream is in_progress; an unknown reason incomplete) is the
 * stream's.
 */
function chatStreamToResponse(response: AssembledResponse, damaged: boolean): ConvertedStream {
  const streamed = response.completion;
  const items = response.items.map((item) => {
    if (!isPlainObject(item) || !("status" in item)) return item;
    const { status: _status, ...rest } = item;
    return rest as CanonicalItem;
  });
  const line = streamed?.fields.line ?? response.line;
  const delta = pointer("choices", streamed?.position ?? 0, "delta");
  const rebuilt = itemsToMessages({ items });
  const losses: StreamLoss[] = rebuilt.losses.map((loss) => ({ ...loss, line, path: delta }));
  const message = rebuilt.value.find((candidate) => candidate.role === "assistant") ?? { role: "assistant", content: null };
  const finish = streamed?.finish;
  const completion: Fields = {
    ...(streamed?.fields.value ?? (response.id !== undefined ? { id: response.id } : {})),
    object: "chat.completion",
    choices: [{ index: 0, message, finish_reason: finish?.value ?? null }],
  };
  if (streamed?.usage !== undefined) completion.usage = streamed.usage.value;
  const converted = chatCompletionToResponse({ completion: completion as ChatCompletion });
  const value = converted.value as ResponseResource & Fields;
  const streamStatus = statusOf(response, damaged);
  const restatus = streamStatus !== undefined && streamStatus !== value.status;
  for (const loss of converted.losses) {
    if (loss.path === "/choices/0/finish_reason") {
      if (restatus) continue;
      losses.push({ ...loss, line: finish?.line ?? line, path: pointer("choices", finish?.position ?? 0, "finish_reason") });
    } else if (loss.path.startsWith("/usage")) losses.push({ ...loss, line: streamed?.usage?.line ?? line });
    else if (loss.path.startsWith("/choices/0/message")) losses.push({ ...loss, line, path: delta });
    else losses.push({ ...loss, line });
  }
  if (restatus) {
    value.status = streamStatus;
    for (const item of value.output as Fields[]) if ("status" in item) item.status = streamStatus;
    if (finish !== undefined) {
      losses.push({ line: finish.line, path: pointer("choices", finish.position, "finish_reason"), code: "form_changed", detail: `finish_reason ${JSON.stringify(finish.value)} written as status ${streamStatus}` });
    }
  }
  return { value, losses };
}

/**
 * The last response object the events showed, with the reassembled output and
 * status, goes through the same converter as a response object on its own line.
 */
function responsesStreamToCompletion(response: AssembledResponse, damaged: boolean): ConvertedStream {
  const snapshot = response.resource?.snapshot;
  const itemLines = response.resource?.itemLines;
  const status = statusOf(response, damaged);
  const restatus = status !== response.status;
  const resource = { ...(snapshot?.value ?? (response.id !== undefined ? { id: response.id } : {})), object: "response", status, output: response.items };
  const converted = responseToChatCompletion({ response: resource as unknown as ResponseResource });
  const losses: StreamLoss[] = [];
  for (const loss of converted.losses) {
    // The incomplete status is the damage's, which its own loss reports.
    if (restatus && (loss.path === "/status" || loss.path === "/incomplete_details")) continue;
    const item = /^\/output\/(\d+)(.*)$/.exec(loss.path);
    const itemLine = item ? itemLines?.[Number(item[1])] : undefined;
    if (item && itemLine !== undefined) losses.push({ ...loss, line: itemLine, path: "/item" + item[2] });
    else if (snapshot !== undefined) losses.push({ ...loss, line: snapshot.line, path: "/response" + loss.path });
    else losses.push({ ...loss, line: response.line });
  }
  return { value: converted.value, losses };
}
