// A word of a command line the page tells its reader to run, written so that a
// POSIX shell reads it back as it is: a journal's conversation key pasted into
// a terminal must never be a command of its own (`"$(touch x)"`).

/** `word` as is when it holds only characters no shell treats specially, else in single quotes. */
export function shellQuoted(word: string): string {
  return /^[\w./:=-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
