// A string quoted so that a reader sees every character it holds. JSON.stringify
// leaves a zero-width space, a no-break space or a fullwidth colon as they are,
// and `function_call\u200b` would read as `function_call`: outside printable
// ASCII, each UTF-16 unit is written as a \u escape.

/** `text` as a JSON string whose characters are all printable ASCII, cut after `maxLength` characters. */
export function quoteVisible(text: string, maxLength = 60): string {
  const shown = text.length > maxLength ? text.slice(0, maxLength) : text;
  const quoted = JSON.stringify(shown).replace(/[^\x20-\x7e]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return shown === text ? quoted : `${quoted}…`;
}
