// Content a model reads (user contents, systemInstruction, multimodal tool
// results), part by part, both ways.
//
// | Gemini part                              | Open Responses part                                         |
// |------------------------------------------|-------------------------------------------------------------|
// | text                                     | input_text                                                  |
// | inlineData {mimeType image/*, data}      | input_image, image_url `data:<mimeType>;base64,<data>`, data as written (URL-safe stays so) |
// | inlineData of another mimeType           | input_file, file_data the same data URL                     |
// | fileData {mimeType image/*, fileUri}     | input_image, image_url the fileUri, `gemini:mimeType`       |
// | fileData of another mimeType             | input_file, file_url the fileUri, `gemini:mimeType`         |
// | inline_data, file_data, mime_type…       | read alike; `gemini:spelling` "snake"                       |
// | displayName, videoMetadata, other fields | `gemini:<field>` (inside inlineData or fileData: the same, put back inside) |
// | any other part                           | loss unsupported_part                                       |
//
// Back, a data URL gives inlineData, any other URL fileData (with the mimeType
// kept, or none: reported); an image's `detail`, a file's `filename` and
// `file_id` are losses; a video URL is fileData.
import type { Loss } from "../../src/models/loss.js";
import type { FunctionCallOutputPart, InputFilePart, InputImagePart, InputTextPart } from "../../src/models/open-responses.js";
import { carryFields, isPresent, isRecord, lossAt, PREFIX, read, restoreFields, spelled, typeOf, type Fields, type PointerTokens, type Spelling } from "./fields.js";

export type InputPart = InputTextPart | InputImagePart | InputFilePart;

const DATA_URL = /^data:([^;,]+)((?:;[^;,]*)*);base64,/;
const INNER_FIELDS = ["mimeType", "mime_type", "data", "fileUri", "file_uri"];

/** A part of user content as an input part, or undefined with the loss that says why. */
export function inputPartOf(part: unknown, at: PointerTokens, losses: Loss[]): InputPart | undefined {
  if (!isRecord(part)) return lost(at, losses, `a ${typeOf(part)} is not a Gemini part`);
  if (typeof part.text === "string") {
    const input: Fields = { type: "input_text", text: part.text };
    carryFields(part, ["text"], input);
    return input as InputTextPart;
  }
  const inline = read(part, "inlineData");
  if (isRecord(inline.value)) {
    const mimeType = read(inline.value, "mimeType");
    const data = inline.value.data;
    if (typeof mimeType.value !== "string" || typeof data !== "string") return lost([...at, inline.key], losses, "inlineData without a mimeType and data has no part");
    const url = `data:${mimeType.value};base64,${data}`;
    const input: Fields = mimeType.value.startsWith("image/") ? { type: "input_image", image_url: url } : { type: "input_file", file_data: url };
    return finish(input, part, inline.key, inline.value, inline.spelling);
  }
  const file = read(part, "fileData");
  if (isRecord(file.value)) {
    const mimeType = read(file.value, "mimeType");
    const uri = read(file.value, "fileUri");
    if (typeof uri.value !== "string") return lost([...at, file.key], losses, "fileData without a fileUri has no part");
    const input: Fields = typeof mimeType.value === "string" && mimeType.value.startsWith("image/") ? { type: "input_image", image_url: uri.value } : { type: "input_file", file_url: uri.value };
    if (mimeType.value !== undefined) input[`${PREFIX}mimeType`] = mimeType.value;
    return finish(input, part, file.key, file.value, file.spelling);
  }
  return lost(at, losses, `a part holding ${Object.keys(part).map((key) => JSON.stringify(key)).join(", ") || "nothing"} has no Open Responses input part`);
}

function finish(input: Fields, part: Fields, key: string, inner: Fields, spelling: Spelling): InputPart {
  if (spelling === "snake") input[`${PREFIX}spelling`] = "snake";
  carryFields(inner, INNER_FIELDS, input);
  carryFields(part, [key], input);
  return input as InputPart;
}

/** An input part as a Gemini part, or undefined with the loss. */
export function partOfInput(part: unknown, at: PointerTokens, losses: Loss[]): Fields | undefined {
  if (!isRecord(part)) return lost(at, losses, `a ${typeOf(part)} is not a content part`);
  const typed = part as FunctionCallOutputPart;
  const spelling: Spelling = part[`${PREFIX}spelling`] === "snake" ? "snake" : "camel";
  switch (typed.type) {
    case "input_text": {
      if (typeof typed.text !== "string") return lost(at, losses, "an input_text part without text has nothing to carry");
      const out: Fields = { text: typed.text };
      restoreFields(part, ["type", "text"], out, at, losses);
      return out;
    }
    case "input_image": {
      if (typeof typed.image_url !== "string") return lost(at, losses, "an image without an image_url cannot be sent to Gemini");
      if (isPresent(typed.detail)) losses.push(lossAt([...at, "detail"], "unsupported_field", `Gemini images have no detail ("${String(typed.detail)}")`));
      return located(part, typed.image_url, ["type", "image_url", "detail"], spelling, at, losses);
    }
    case "input_file": {
      const file = part as InputFilePart & Fields;
      if (isPresent(file.filename)) losses.push(lossAt([...at, "filename"], "unsupported_field", "a Gemini part has no filename"));
      if (isPresent(file.file_id)) losses.push(lossAt([...at, "file_id"], "unsupported_field", "a file id of another provider means nothing to Gemini"));
      const url = typeof file.file_data === "string" ? file.file_data : typeof file.file_url === "string" ? file.file_url : undefined;
      if (url === undefined) return lost(at, losses, "a file without file_data or file_url cannot be sent to Gemini");
      if (typeof file.file_data === "string" && isPresent(file.file_url)) losses.push(lossAt([...at, "file_url"], "unsupported_field", "a part has one source; the inline file_data is kept"));
      return located(part, url, ["type", "file_data", "file_url", "filename", "file_id"], spelling, at, losses);
    }
    case "input_video":
      return located(part, typed.video_url, ["type", "video_url"], spelling, at, losses);
    default: {
      const unknownPart: never = typed;
      return lost(at, losses, `a ${typeOf(unknownPart)} part has no Gemini part`);
    }
  }
}

/** inlineData for a data URL, fileData for any other; inner `gemini:` fields go back inside. */
function located(part: Fields, url: string, portable: string[], spelling: Spelling, at: PointerTokens, losses: Loss[]): Fields {
  const match = DATA_URL.exec(url);
  const inner: Fields = {};
  let key: string;
  if (match) {
    key = spelled("inlineData", spelling);
    inner[spelled("mimeType", spelling)] = match[1];
    inner.data = url.slice(match[0].length);
  } else {
    key = spelled("fileData", spelling);
    const mimeType = part[`${PREFIX}mimeType`];
    if (mimeType !== undefined) inner[spelled("mimeType", spelling)] = mimeType;
    else losses.push(lossAt(at, "form_changed", "no mimeType is known for this URL: fileData written without one"));
    inner[spelled("fileUri", spelling)] = url;
  }
  const out: Fields = { [key]: inner };
  const outer: Fields = {};
  restoreFields(part, [...portable, `${PREFIX}spelling`, `${PREFIX}mimeType`], outer, at, losses);
  // A field of the inline or file data itself was read from inside it; the rest sat beside it.
  for (const [field, value] of Object.entries(outer)) {
    if (INNER_PART_FIELDS.has(field)) inner[field] = value;
    else out[field] = value;
  }
  return out;
}

const INNER_PART_FIELDS = new Set(["displayName", "display_name"]);

function lost(at: PointerTokens, losses: Loss[], detail: string): undefined {
  losses.push(lossAt(at, "unsupported_part", detail));
  return undefined;
}
