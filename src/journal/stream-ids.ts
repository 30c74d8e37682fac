// The ids a stream record names its stream by, where every record of the stream
// (or the ones that matter) carries one: a Chat chunk's completion `id`, a Gemini
// chunk's `responseId`, an Open Responses event's response and item ids, an
// Anthropic `message_start`'s message id. A reader that joins records into
// streams by these ids, and not by the conversation key beside them, puts a
// record written under one conversation's key into another's stream.

/** The ids, each led by its envelope, that tie this record to a stream; none for a record of no stream or of one without ids. */
export function streamIdsOf(record: unknown): string[] | undefined {
  if (record === null || typeof record !== "object" || Array.isArray(record)) return undefined;
  const fields = record as Record<string, unknown>;
  if (fields.object === "chat.completion.chunk") return typeof fields.id === "string" ? [`chat ${fields.id}`] : undefined;
  if (Array.isArray(fields.candidates)) return typeof fields.responseId === "string" ? [`gemini ${fields.responseId}`] : undefined;
  const type = fields.type;
  if (typeof type !== "string") return undefined;
  if (type === "message_start") {
    const id = idOf(fields.message);
    return id === undefined ? undefined : [`anthropic ${id}`];
  }
  if (!type.startsWith("response.")) return undefined;
  const ids: string[] = [];
  const response = idOf(fields.response);
  if (response !== undefined) ids.push(`responses ${response}`);
  if (typeof fields.item_id === "string") ids.push(`responses item ${fields.item_id}`);
  const item = idOf(fields.item);
  if (item !== undefined) ids.push(`responses item ${item}`);
  return ids.length === 0 ? undefined : ids;
}

function idOf(value: unknown): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const id = (value as { id?: unknown }).id;
  return typeof id === "string" && id !== "" ? id : undefined;
}
