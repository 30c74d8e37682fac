// The members of a request body whose own members reach the model as members of
// the request it reads, where the envelope's reader of the body sees only an
// opaque value:
//
// | member                            | who passes it on                                          |
// |-----------------------------------|-----------------------------------------------------------|
// | `extra_body`                      | the OpenAI and Anthropic SDKs merge it into the top of    |
// |                                   |   the request they send (google-genai's `http_options`    |
// |                                   |   holds one too)                                          |
// | `model_extra`                     | a pydantic model's fields beyond its own, which a dump of |
// |                                   |   the SDK's request object writes apart and sends as the  |
// |                                   |   request's own                                           |
// | `additionalModelRequestFields`,   | Bedrock Converse hands it to the model as it is: for      |
// |   `additional_model_request_fields` |   Claude, Anthropic's own request fields (`tool_choice`)  |
// |                                   |   (the second as a Python dump of LangChain's or          |
// |                                   |   LlamaIndex's Converse settings writes it)               |
//
// A limit written there (a tool choice, one call a turn) limits the calls as
// much as one written at the top, and the gate, convert and the stored-log
// readers read it through one-call-flag.ts and foreign-limits.ts.

/** The members the SDK that sends the body merges into its top, where they replace what the body says. */
export const MERGED_INTO_BODY: ReadonlySet<string> = new Set(["extra_body", "extraBody", "model_extra"]);

/** The members Bedrock Converse hands to the model as the model's own request fields. */
export const PASSED_TO_MODEL: ReadonlySet<string> = new Set(["additionalModelRequestFields", "additional_model_request_fields"]);

/** Every member whose members reach the model as its request's own, in the order a detail names them. */
export const PASSED_THROUGH: readonly string[] = [...MERGED_INTO_BODY, ...PASSED_TO_MODEL];
