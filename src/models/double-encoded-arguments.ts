// Arguments encoded twice: a JSON string whose value is itself the JSON text of
// an object or an array. The gate names them (and blocks them, as the schema
// refuses a string); the journal layer decodes them only when asked.
/** The JSON text inside arguments encoded twice, or undefined when they are not. */
export function innerArguments(argumentsText: string): string | undefined {
  // Cheap test first: encoded twice, the text is a JSON string literal.
  if (argumentsText.length < 4 || argumentsText.trimStart()[0] !== '"') return undefined;
  let inner: unknown;
  try {
    inner = JSON.parse(argumentsText);
  } catch {
    return undefined;
  }
  if (typeof inner !== "string") return undefined;
  const first = inner.trimStart()[0];
  if (first !== "{" && first !== "[") return undefined;
  try {
    JSON.parse(inner);
  } catch {
    return undefined;
  }
  return inner;
}
