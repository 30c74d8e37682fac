// Content a model reads (user messages, system blocks, tool results), block by
// part, both ways.
//
// | Anthropic block                          | Open Responses part                                   |
// |------------------------------------------|-------------------------------------------------------|
// | text                                     | input_text                                            |
// | image, source base64                     | input_image, image_url `data:<media_type>;base64,<data>` |
// | image, source url                        | input_image, image_url the url                        |
// | document, source base64                  | input_file, file_data `data:<media_type>;base64,<data>` |
// | document, source text                    | input_file, file_data `data:<media_type>;base64,` of the text's UTF-8 |
// | document, source url                     | input_file, file_url                                  |
// | image or document by file_id, document   | loss unsupported_part: no part holds it               |
// |   of content blocks, any other block     |                                                       |
// | cache_control, citations, title, context…| kept as `anthropic:<field>` (fields.ts)               |
//
// Back, a data URL gives the source it came from (`text/plain` a text source);
// an image's `detail`, a file's `filename` or `file_id`, and a video are losses.
import type { Loss } from "../../src/models/loss.js";
import type { FunctionCallOutputPart, InputFilePart, InputImagePart, InputTextPart } from "../../src/models/open-responses.js";
import { carryFields, isPresent, isRecord, lossAt, restoreFields, TARGET, typeOf, type Fields, type PointerTokens } from "./fields.js";

export type InputPart = InputTextPart | InputImagePart | InputFilePart;

const DATA_URL = /^data:([^;,]+)((?:;[^;,]*)*);base64,/;

/** A block of user content (or of a tool result) as an input part, or undefined with the loss that says why. */
export function partOfBlock(block: unknown, at: PointerTokens, losses: Loss[]): InputPart | undefined {
  if (!isRecord(block)) {
    losses.push(lossAt(at, "unsupported_part", `a ${typeOf(block)} is not a content block`));
    return undefined;
  }
  switch (block.type) {
    case "text": {
      if (typeof block.text !== "string") return lost(at, losses, "a text block without text has nothing to carry");
      const part: Fields = { type: "input_text", text: block.text };
      carryFields(block, ["type", "text"], part);
      return part as InputTextPart;
    }
    case "image": {
      const source = block.source;
      const url = isRecord(source) ? sourceUrl(source) : undefined;
      if (url === undefined) return lost([...at, "source"], losses, `an image whose source is ${describeSource(source)} has no input_image form`);
      const part: Fields = { type: "input_image", image_url: url };
      carryFields(block, ["type", "source"], part);
      return part as InputImagePart;
    }
    case "document": {
      const source = block.source;
      const part: Fields = { type: "input_file" };
      if (isRecord(source) && source.type === "url" && typeof source.url === "string") part.file_url = source.url;
      else if (isRecord(source) && source.type === "text" && typeof source.data === "string" && typeof source.media_type === "string") {
        part.file_data = `data:${source.media_type};base64,${Buffer.from(source.data, "utf8").toString("base64")}`;
      } else {
        const url = isRecord(source) && source.type === "base64" ? sourceUrl(source) : undefined;
        if (url === undefined) return lost([...at, "source"], losses, `a document whose source is ${describeSource(source)} has no input_file form`);
        part.file_data = url;
      }
      carryFields(block, ["type", "source"], part);
      return part as InputFilePart;
    }
    default:
      return lost(at, losses, `a ${typeOf(block)} block has no Open Responses part`);
  }
}

/** An input part as a block of user content or of a tool result, or undefined with the loss. */
export function blockOfPart(part: unknown, at: PointerTokens, losses: Loss[]): Fields | undefined {
  if (!isRecord(part)) {
    losses.push(lossAt(at, "unsupported_part", `a ${typeOf(part)} is not a content part`));
    return undefined;
  }
  const typed = part as FunctionCallOutputPart;
  switch (typed.type) {
    case "input_text": {
      if (typeof typed.text !== "string") return lost(at, losses, "an input_text part without text has nothing to carry");
      const block: Fields = { type: "text", text: typed.text };
      restoreFields(part, ["type", "text"], block, at, losses);
      return block;
    }
    case "input_image": {
      const source = typeof typed.image_url === "string" ? urlSource(typed.image_url) : undefined;
      if (source === undefined) return lost(at, losses, "an image without an http(s) or base64 data image_url cannot be sent to Anthropic");
      const block: Fields = { type: "image", source };
      if (isPresent(typed.detail)) losses.push(lossAt([...at, "detail"], "unsupported_field", `Anthropic images have no detail ("${String(typed.detail)}")`));
      restoreFields(part, ["type", "image_url", "detail"], block, at, losses);
      return block;
    }
    case "input_file": {
      const file = part as InputFilePart & Fields;
      let source: Fields | undefined;
      if (typeof file.file_data === "string") {
        source = urlSource(file.file_data);
        if (isPresent(file.file_url)) losses.push(lossAt([...at, "file_url"], "unsupported_field", "a document has one source; the inline file_data is kept"));
      } else if (typeof file.file_url === "string") source = { type: "url", url: file.file_url };
      if (source === undefined) return lost(at, losses, "a file without base64 data URL file_data or a file_url cannot be sent to Anthropic");
      if (isPresent(file.filename)) losses.push(lossAt([...at, "filename"], "unsupported_field", "an Anthropic document has no filename"));
      if (isPresent(file.file_id)) losses.push(lossAt([...at, "file_id"], "unsupported_field", "a file id of another provider means nothing to Anthropic"));
      const block: Fields = { type: "document", source };
      restoreFields(part, ["type", "file_data", "file_url", "filename", "file_id"], block, at, losses);
      return block;
    }
    case "input_video":
      return lost(at, losses, `${TARGET} takes no video`);
    default: {
      const unknownPart: never = typed;
      return lost(at, losses, `a ${typeOf(unknownPart)} part has no Anthropic block`);
    }
  }
}

function lost(at: PointerTokens, losses: Loss[], detail: string): undefined {
  losses.push(lossAt(at, "unsupported_part", detail));
  return undefined;
}

function sourceUrl(source: Fields): string | undefined {
  if (source.type === "url" && typeof source.url === "string") return source.url;
  if (source.type === "base64" && typeof source.media_type === "string" && typeof source.data === "string") return `data:${source.media_type};base64,${source.data}`;
  return undefined;
}

/** The source a URL gives: a data URL its base64 (or, for text/plain, text) source, an http(s) URL a url source. */
function urlSource(url: string): Fields | undefined {
  const match = DATA_URL.exec(url);
  if (match) {
    const data = url.slice(match[0].length);
    if (match[1] === "text/plain") return { type: "text", media_type: match[1], data: Buffer.from(data, "base64").toString("utf8") };
    return { type: "base64", media_type: match[1], data };
  }
  return /^https?:\/\//i.test(url) ? { type: "url", url } : undefined;
}

function describeSource(source: unknown): string {
  return isRecord(source) ? `of type ${JSON.stringify(source.type)}` : "missing";
}
