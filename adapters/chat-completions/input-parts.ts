// Chat content parts -> Open Responses input parts, for the messages a model reads
// (system, developer, user) and for tool results.
//
// | Chat part                     | Open Responses                                         |
// |-------------------------------|--------------------------------------------------------|
// | text                          | input_text                                             |
// | image_url                     | input_image, `detail` only if present                  |
// | file with file_data           | input_file (filename kept; file_id lost: no such field) |
// | file known only by file_id    | loss                                                   |
// | input_audio                   | loss: messages take no audio input                     |
// | any part but text, in system, developer and tool messages | loss                       |
import type { ChatTextPart, ChatUserPart } from "../../src/models/chat-completions.js";
import type { Loss } from "../../src/models/loss.js";
import { describeValue } from "../../src/models/json-value.js";
import type { InputImagePart, InputTextPart, UserContentPart } from "../../src/models/open-responses.js";
import { extensionFieldLosses, isPresent, isRecord, lossAt, type PointerTokens } from "./message-fields.js";

const TARGET = "Open Responses";

/** A user message part as an input part, or `undefined` with the loss that says why it has none. */
export function userPart(part: ChatUserPart, at: PointerTokens, losses: Loss[]): UserContentPart | undefined {
  switch (part.type) {
    case "text":
      if (typeof part.text !== "string") return lostPart(at, losses, "a text part without text has nothing to carry");
      return textPart(part, at, losses);
    case "image_url": {
      const image: unknown = part.image_url;
      if (!isRecord(image) || typeof image.url !== "string") return lostPart(at, losses, "an image_url part without url has nothing to carry");
      losses.push(...extensionFieldLosses(part, ["type", "image_url"], at, TARGET));
      losses.push(...extensionFieldLosses(image, ["url", "detail"], [...at, "image_url"], TARGET));
      return isPresent(image.detail)
        ? { type: "input_image", image_url: image.url, detail: image.detail as InputImagePart["detail"] }
        : { type: "input_image", image_url: image.url };
    }
    case "file": {
      const file: unknown = part.file;
      if (!isRecord(file) || !isPresent(file.file_data)) {
        losses.push(lossAt(at, "unsupported_part", "a file known only by its file_id cannot be sent as an Open Responses input_file"));
        return undefined;
      }
      losses.push(...extensionFieldLosses(part, ["type", "file"], at, TARGET));
      losses.push(...extensionFieldLosses(file, ["filename", "file_data", "file_id"], [...at, "file"], TARGET));
      if (isPresent(file.file_id)) {
        losses.push(lossAt([...at, "file", "file_id"], "unsupported_field", "input_file has no file_id; the inline file_data is kept"));
      }
      return isPresent(file.filename)
        ? { type: "input_file", filename: file.filename as string, file_data: file.file_data as string }
        : { type: "input_file", file_data: file.file_data as string };
    }
    case "input_audio":
      losses.push(lossAt(at, "unsupported_part", "Open Responses messages take no audio input"));
      return undefined;
    default: {
      const unknownPart: never = part;
      const type = (unknownPart as { type?: unknown }).type;
      losses.push(lossAt(at, "unsupported_part", typeof type === "string" ? `a ${JSON.stringify(type)} part has no Open Responses equivalent` : `a part with ${describeValue(type)} for its type has no Open Responses equivalent`));
      return undefined;
    }
  }
}

function lostPart(at: PointerTokens, losses: Loss[], detail: string): undefined {
  losses.push(lossAt(at, "unsupported_part", detail));
  return undefined;
}

function textPart(part: ChatTextPart, at: PointerTokens, losses: Loss[]): InputTextPart {
  losses.push(...extensionFieldLosses(part, ["type", "text"], at, TARGET));
  return { type: "input_text", text: part.text };
}

/** Text parts of system, developer and tool messages: anything else is a lost part. */
export function textParts(parts: readonly unknown[], at: PointerTokens, losses: Loss[]): InputTextPart[] {
  const converted: InputTextPart[] = [];
  parts.forEach((part, index) => {
    if (isRecord(part) && part.type === "text" && typeof part.text === "string") {
      converted.push(textPart(part as ChatTextPart, [...at, index], losses));
    } else {
      const type = isRecord(part) ? String(part.type) : typeof part;
      losses.push(lossAt([...at, index], "unsupported_part", `only text parts are kept here, not a "${type}" part`));
    }
  });
  return converted;
}
