// A name or type as a loose reader may compare it. Readers that trim, fold case
// or normalize Unicode take `Delete_File`, `delete_file\u200b` and the full-width
// `ｄｅｌｅｔｅ＿ｆｉｌｅ` for `delete_file`; whatever the gate tells apart by its
// exact spelling, such a reader may not.

/** NFKC, lower case, without white space, format or other characters Unicode says to ignore when not shown. */
export function foldName(name: string): string {
  return name.normalize("NFKC").toLowerCase().replace(/[\p{White_Space}\p{Cf}\p{Default_Ignorable_Code_Point}]/gu, "");
}
