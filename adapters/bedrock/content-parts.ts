// Content a model reads (user messages, system blocks, tool results), block by
// part, both ways.
//
// | Bedrock block                              | Open Responses part                                   |
// |--------------------------------------------|-------------------------------------------------------|
// | text                                       | input_text                                            |
// | json (tool results)                        | input_text, text JSON.stringify(json) (member order   |
// |                                            |   kept), `bedrock:json: true`; back, the parsed text  |
// | image {format, source {bytes}}             | input_image, image_url `data:image/<format>;base64,<bytes>` |
// | document {format, name, source {bytes}}    | input_file, filename the name, file_data `data:<media type of format>;base64,<bytes>` |
// | image or document from s3Location, video,  | loss unsupported_part: no part holds it               |
// |   guardContent, any other block            |                                                       |
// | a field of image or document beyond these  | kept as `bedrock:<field>` (fields.ts)                 |
//
// Back, a data URL gives the bytes and the format its media type names; text
// annotations and logprobs, an image by URL, a file by URL or file_id, a video, an image's `detail`, and a
// media type Bedrock has no format for are losses. A document without filename
// is named "document" (loss synthesized): Bedrock requires a name.
import type { Loss } from "../../src/models/loss.js";
import type { InputFilePart, InputImagePart, InputTextPart } from "../../src/models/open-responses.js";
import { blockKind, CACHE_POINT, carryFields, isPresent, isRecord, lossAt, PREFIX, restoreFields, TARGET, typeOf, type Fields, type PointerTokens } from "./fields.js";

export type InputPart = InputTextPart | InputImagePart | InputFilePart;

export const JSON_MARK = `${PREFIX}json`;

const DATA_URL = /^data:([^;,]+)((?:;[^;,]*)*);base64,/;
const DOCUMENT_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  csv: "text/csv",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  html: "text/html",
  txt: "text/plain",
  md: "text/markdown",
};
const IMAGE_FORMATS = ["png", "jpeg", "gif", "webp"];

/** A block of user content (or of a tool result) as an input part, or undefined with the loss that says why. */
export function partOfBlock(block: unknown, at: PointerTokens, losses: Loss[]): InputPart | undefined {
  const kind = isRecord(block) ? blockKind(block) : undefined;
  if (!isRecord(block) || kind === undefined) return lost(at, losses, `a ${typeOf(block)} is not a content block of one member`);
  const inner = block[kind];
  switch (kind) {
    case "text":
      if (typeof inner !== "string") return lost(at, losses, `a text block whose text is ${typeOf(inner)} has nothing to carry`);
      return { type: "input_text", text: inner };
    case "json":
      return { type: "input_text", text: JSON.stringify(inner) ?? "null", [JSON_MARK]: true } as InputPart;
    case "image": {
      const bytes = isRecord(inner) && isRecord(inner.source) ? inner.source.bytes : undefined;
      if (!isRecord(inner) || typeof inner.format !== "string" || typeof bytes !== "string") return lost([...at, kind], losses, "an image not given by its bytes (an s3Location) has no input_image form");
      const part: Fields = { type: "input_image", image_url: `data:image/${inner.format};base64,${bytes}` };
      carryFields(inner, ["format", "source"], part);
      return part as InputImagePart;
    }
    case "document": {
      const bytes = isRecord(inner) && isRecord(inner.source) ? inner.source.bytes : undefined;
      const mediaType = isRecord(inner) && typeof inner.format === "string" ? DOCUMENT_TYPES[inner.format] : undefined;
      if (!isRecord(inner) || typeof bytes !== "string" || mediaType === undefined) {
        return lost([...at, kind], losses, "a document not given by its bytes, or of a format with no media type here, has no input_file form");
      }
      const part: Fields = { type: "input_file" };
      if (typeof inner.name === "string") part.filename = inner.name;
      part.file_data = `data:${mediaType};base64,${bytes}`;
      carryFields(inner, ["format", "name", "source"], part);
      return part as InputFilePart;
    }
    default:
      return lost(at, losses, `a ${kind} block has no Open Responses part`);
  }
}

const TEXT_FIELDS = ["type", "text", JSON_MARK];
const IMAGE_FIELDS = ["type", "image_url", "detail", "file_id"];
const FILE_FIELDS = ["type", "filename", "file_data", "file_url", "file_id"];

/** An input part (of a user message, a system message or an output) as a Bedrock block. */
export function blockOfPart(part: unknown, at: PointerTokens, losses: Loss[]): Fields | undefined {
  if (!isRecord(part)) return lost(at, losses, `a ${typeOf(part)} is not a content part`);
  switch (part.type) {
    case "input_text":
    case "output_text": {
      if (typeof part.text !== "string") return lost(at, losses, "a text part without text has nothing to carry");
      if (Array.isArray(part.annotations) && part.annotations.length > 0) losses.push(lossAt([...at, "annotations"], "unsupported_field", `${TARGET} text has no annotations: ${part.annotations.length} not written`));
      if (Array.isArray(part.logprobs) && part.logprobs.length > 0) losses.push(lossAt([...at, "logprobs"], "unsupported_field", `${TARGET} has no logprobs`));
      restoreFields(part, [...TEXT_FIELDS, "annotations", "logprobs"], {}, at, losses);
      if (part[JSON_MARK] === true) {
        try {
          return { json: JSON.parse(part.text) };
        } catch {
          losses.push(lossAt([...at, "text"], "form_changed", "a JSON result part whose text is not JSON: written as text"));
        }
      }
      return { text: part.text };
    }
    case "input_image": {
      const url = typeof part.image_url === "string" ? DATA_URL.exec(part.image_url) : null;
      const format = url?.[1].startsWith("image/") ? url[1].slice("image/".length) : undefined;
      if (!url || format === undefined || !IMAGE_FORMATS.includes(format)) {
        return lost(at, losses, `${TARGET} takes an image by its bytes in png, jpeg, gif or webp: an image ${url ? `of type ${url[1]}` : "given by URL or file_id"} is not written`);
      }
      if (isPresent(part.detail)) losses.push(lossAt([...at, "detail"], "unsupported_field", `${TARGET} has no image detail ("${String(part.detail)}")`));
      const image: Fields = { format, source: { bytes: (part.image_url as string).slice(url[0].length) } };
      restoreFields(part, IMAGE_FIELDS, image, at, losses);
      return { image };
    }
    case "input_file": {
      const url = typeof part.file_data === "string" ? DATA_URL.exec(part.file_data) : null;
      const format = url ? Object.keys(DOCUMENT_TYPES).find((key) => DOCUMENT_TYPES[key] === url[1]) : undefined;
      if (!url || format === undefined) {
        return lost(at, losses, `${TARGET} takes a document by its bytes in a format it knows: a file ${url ? `of type ${url[1]}` : "given by URL or file_id"} is not written`);
      }
      let name = part.filename;
      if (typeof name !== "string" || name === "") {
        name = "document";
        losses.push(lossAt(at, "synthesized", `${TARGET} requires a document name: "document" written`));
      }
      const document: Fields = { format, name, source: { bytes: (part.file_data as string).slice(url[0].length) } };
      restoreFields(part, FILE_FIELDS, document, at, losses);
      return { document };
    }
    default:
      return lost(at, losses, `a ${typeOf(part)} part has no ${TARGET} block`);
  }
}

/** The cachePoint block a part or item carries, to be written right after its own block. */
export function cachePointAfter(value: Fields): Fields[] {
  return isRecord(value[CACHE_POINT]) ? [{ cachePoint: value[CACHE_POINT] }] : [];
}

function lost(at: PointerTokens, losses: Loss[], detail: string): undefined {
  losses.push(lossAt(at, "unsupported_part", detail));
  return undefined;
}
