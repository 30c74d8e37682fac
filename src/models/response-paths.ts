/**
 * Where a response converter reports the values it makes up for the items it
 * gives (item ids, call ids, arguments written as text). By default at their
 * path in the response object it writes (`/output/2/id`), which is where
 * `convert` puts them. With `sourcePaths`, at the block, part or field of the
 * provider's response the item comes from (`/content/1`), for a caller that
 * writes the items alone, as `normalize` does.
 */
export interface ResponsePathsOption {
  sourcePaths?: boolean;
}
