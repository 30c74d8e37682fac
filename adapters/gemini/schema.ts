// A Gemini declaration's `parameters` (Gemini's OpenAPI 3.0 subset) as the JSON
// Schema the gate judges arguments by.
//
// | Gemini Schema                            | JSON Schema 2020-12                                        |
// |------------------------------------------|------------------------------------------------------------|
// | type STRING, OBJECT… (any case), or the  | the lower-case type; TYPE_UNSPECIFIED or another: no type, reported, |
// |   enum's number (1 STRING … 6 OBJECT)    |                                                            |
// |                                          |   and `not: {}` there, so no value passes unseen           |
// | nullable: true                           | type [t, "null"]; an enum also takes null                  |
// | properties, items, anyOf                 | the same, each translated                                  |
// | format, enum, required, min/max Items,   | the same; a count written as a decimal string (int64 in    |
// |   Length, Properties, minimum, maximum,  |   protobuf's JSON: "3") is the number it spells            |
// |   pattern, title, description, default   |                                                            |
// | example, propertyOrdering                | kept: annotations that constrain nothing                   |
// | any other key                            | kept and reported, with `not: {}` beside it: a constraint the |
// |                                          |   gate cannot read is never taken as no constraint         |
import type { Loss } from "../../src/models/loss.js";
import { isRecord, lossAt, typeOf, type Fields, type PointerTokens } from "./fields.js";

const TYPES = new Set(["string", "number", "integer", "boolean", "array", "object", "null"]);
/**
 * The types of the enum's numbers, as a Google client that sends enums as
 * numbers writes them (Go's: `"type": 6`); both APIs number them so. 0 is
 * TYPE_UNSPECIFIED, which has no meaning.
 */
const TYPE_NUMBERS: Readonly<Record<number, string>> = { 1: "string", 2: "number", 3: "integer", 4: "boolean", 5: "array", 6: "object" };
const COPIED = new Set(["format", "enum", "required", "minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties", "minimum", "maximum", "pattern", "title", "description", "default", "example", "propertyOrdering"]);

export function jsonSchemaOfGemini(schema: unknown, at: PointerTokens, losses: Loss[]): unknown {
  if (!isRecord(schema)) {
    losses.push(lossAt(at, "target_rejects", `a schema that is ${typeOf(schema)}: written as it is`));
    return schema;
  }
  const out: Fields = {};
  let refuse = false;
  const nullable = schema.nullable === true;
  for (const [key, value] of Object.entries(schema)) {
    switch (key) {
      case "type": {
        const type = typeof value === "string" ? value.toLowerCase() : typeof value === "number" ? TYPE_NUMBERS[value] : undefined;
        if (type === undefined || !TYPES.has(type)) {
          losses.push(lossAt([...at, key], "target_rejects", `type ${JSON.stringify(value)} has no JSON Schema meaning: no value is accepted here`));
          refuse = true;
        } else out.type = nullable && type !== "null" ? [type, "null"] : type;
        break;
      }
      case "nullable":
        if (typeof value !== "boolean") {
          losses.push(lossAt([...at, key], "target_rejects", `nullable is ${typeOf(value)}: no value is accepted here`));
          refuse = true;
        }
        break;
      case "properties":
        if (!isRecord(value)) {
          losses.push(lossAt([...at, key], "target_rejects", `properties is ${typeOf(value)}: no value is accepted here`));
          refuse = true;
        } else out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, jsonSchemaOfGemini(sub, [...at, key, name], losses)]));
        break;
      case "items":
        out.items = jsonSchemaOfGemini(value, [...at, key], losses);
        break;
      case "anyOf":
        out.anyOf = Array.isArray(value) ? value.map((sub, index) => jsonSchemaOfGemini(sub, [...at, key, index], losses)) : value;
        break;
      case "minItems":
      case "maxItems":
      case "minLength":
      case "maxLength":
      case "minProperties":
      case "maxProperties":
        // Gemini's API writes these int64 counts as decimal strings in JSON ("3"), as protobuf's JSON does.
        out[key] = typeof value === "string" && /^(0|[1-9]\d{0,14})$/.test(value) ? Number(value) : value;
        break;
      default:
        out[key] = value;
        if (!COPIED.has(key)) {
          losses.push(lossAt([...at, key], "target_rejects", `"${key}" is not a keyword of Gemini's schema, and the gate cannot tell what it allows: no value is accepted here`));
          refuse = true;
        }
    }
  }
  if (nullable && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (refuse) out.not = {};
  return out;
}
