// Counts in the summaries read as English: "1 line", "2 lines", "0 errors".
/** `count` and its noun, the noun made plural with an s unless the count is one; `plural` for a noun that does not take one. */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}
