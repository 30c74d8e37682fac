// Validates values against the project's copy of the official Open Responses
// component schemas (Ajv, JSON Schema 2020-12, strict off as the OpenAPI document
// uses keywords Ajv does not know).
import { Ajv2020 } from "ajv/dist/2020.js";
import spec from "../../src/models/spec/open-responses.components.json" with { type: "json" };

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ $id: "openresponses", components: spec.components }, "openresponses");

const validators = new Map<string, ReturnType<typeof ajv.compile>>();

/** The errors of `value` against component `name`, or an empty list when it is valid. */
export function specErrors(name: string, value: unknown): string[] {
  let validate = validators.get(name);
  if (!validate) {
    if (!(name in spec.components.schemas)) throw new Error(`no component schema named ${name}`);
    validate = ajv.compile({ $ref: `openresponses#/components/schemas/${name}` });
    validators.set(name, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message}`);
}

export function isValidAgainstSpec(name: string, value: unknown): boolean {
  return specErrors(name, value).length === 0;
}
