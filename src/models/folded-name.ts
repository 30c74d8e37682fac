// A name or type as a loose reader may compare it. Readers that trim, fold case
// or normalize Unicode take `Delete_File`, `delete_file\u200b` and the full-width
// `ｄｅｌｅｔｅ＿ｆｉｌｅ` for `delete_file`; whatever the gate tells apart by its
// exact spelling, such a reader may not.

/** NFKC, lower case, without white space, format or other characters Unicode says to ignore when not shown. */
export function foldName(name: string): string {
  const lower = name.normalize("NFKC").toLowerCase();
  return (ASCII.test(lower) ? lower : Array.from(lower, sharedCase).join("")).replace(/[\p{White_Space}\p{Cf}\p{Default_Ignorable_Code_Point}]/gu, "");
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * A lower-case letter as the other letters of its case pair read: upper case and
 * back, when that is one letter. Readers that match names regardless of case
 * compare letter by letter, where lower case alone leaves two letters apart: Go's
 * encoding/json by Unicode's simple case folding (`σ` and the final `ς`, which
 * String#toLowerCase writes for a `Σ` that ends a word; `ι` and U+0345; `в` and
 * its old form `ᲀ`), Java's equalsIgnoreCase by upper case (`ı` and `i`).
 */
function sharedCase(letter: string): string {
  if (letter.charCodeAt(0) < 0x80) return letter;
  const shared = letter.toUpperCase().toLowerCase();
  return Array.from(shared).length === 1 ? shared : letter;
}
