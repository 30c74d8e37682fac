// Reads a JSON Schema pattern as ECMA-262 reads it with the u flag (the dialect
// JSON Schema names). regexpp gives the syntax tree and rejects what the grammar
// rejects; this process's own RegExp must accept the pattern too, so a construct
// newer than the running engine (modifiers, a duplicate group name, a property of a
// later Unicode version) is refused rather than given a meaning the engine would
// not give it.
import { RegExpParser, RegExpSyntaxError, visitRegExpAST, type AST } from "@eslint-community/regexpp";

// The newest grammar regexpp knows; the check against RegExp narrows it to what
// this engine accepts.
const parser = new RegExpParser({ ecmaVersion: 2025 });

/** Most groups a pattern may nest, one in another: `((a))` is two. */
export const MAX_GROUP_DEPTH = 500;

/**
 * How deep the groups of a pattern nest, read without recursion: a `(` outside a
 * class opens one, a `)` closes it, an escaped character is skipped, and a class
 * (`[…]`, which nests nothing under the u flag) is stepped over whole.
 */
function groupDepth(pattern: string): number {
  let depth = 0;
  let deepest = 0;
  let inClass = false;
  for (let at = 0; at < pattern.length; at++) {
    const char = pattern.charCodeAt(at);
    if (char === 0x5c) at += 1;
    else if (inClass) inClass = char !== 0x5d;
    else if (char === 0x5b) inClass = true;
    else if (char === 0x28) deepest = Math.max(deepest, ++depth);
    else if (char === 0x29) depth -= 1;
  }
  return deepest;
}

/** Most Unicode property escapes (`\p{…}`, `\P{…}`) one pattern may hold. */
export const MAX_PROPERTY_ESCAPES = 256;

/**
 * `properties`: the distinct property escapes, each as `\p{…}` names it
 * (`Script=Greek`, `L`), one set each to build (pattern-properties.ts).
 */
export type ParsedPattern = { ok: true; tree: AST.Pattern; properties: readonly string[] } | { ok: false; reason: string };

/** The syntax tree of `pattern` in u mode, or why it is not an ECMA-262 pattern. */
export function parseEcmaPattern(pattern: string): ParsedPattern {
  // The parsers below recurse once a group, and how deep they get before the
  // stack runs out changes with what ran before (optimized code takes less):
  // left to the stack, the verdict on a deep pattern would depend on the run.
  const depth = groupDepth(pattern);
  if (depth > MAX_GROUP_DEPTH) throw unread(pattern, new Error(`it nests groups ${depth} deep, more than the ${MAX_GROUP_DEPTH} the gate reads`));
  let tree: AST.Pattern;
  try {
    tree = parser.parsePattern(pattern, 0, pattern.length, { unicode: true });
  } catch (error) {
    if (!(error instanceof RegExpSyntaxError)) throw unread(pattern, error);
    return { ok: false, reason: `is not an ECMA-262 regular expression with the u flag (${reasonOf(pattern, error)})` };
  }
  // This engine's RegExp builds each property escape's set anew, about a
  // millisecond apiece: past the bound the check would take seconds, and it is
  // not made, which leaves the answer unknown (see unread).
  let properties = 0;
  const names = new Set<string>();
  try {
    visitRegExpAST(tree, {
      onCharacterSetEnter: (node) => {
        if (node.kind !== "property") return;
        properties++;
        names.add(node.value === null ? node.key : `${node.key}=${node.value}`);
      },
    });
  } catch (error) {
    throw unread(pattern, error);
  }
  if (properties > MAX_PROPERTY_ESCAPES) throw unread(pattern, new Error(`it holds ${properties} Unicode property escapes, more than the ${MAX_PROPERTY_ESCAPES} the gate reads in one pattern`));
  try {
    new RegExp(pattern, "u");
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw unread(pattern, error);
    return { ok: false, reason: `is not accepted by this JavaScript engine's RegExp with the u flag (${reasonOf(pattern, error)})` };
  }
  return { ok: true, tree, properties: [...names] };
}

/**
 * A parser that stopped for want of stack (a pattern nested thousands of groups
 * deep), or a check not made, has not said whether the text is a pattern: neither
 * answer may be given, so the caller's check fails, and the call it was judging
 * is blocked.
 */
function unread(pattern: string, error: unknown): Error {
  const shown = pattern.length > 40 ? `${JSON.stringify(pattern.slice(0, 40))}…` : JSON.stringify(pattern);
  return new Error(`the pattern ${shown} could not be checked (${error instanceof Error ? error.message : String(error)}), so whether it is an ECMA-262 regular expression is not known`);
}

/** Whether `pattern` is an ECMA-262 regular expression with the u flag, as this engine reads it. */
export function isEcmaPattern(pattern: string): boolean {
  return parseEcmaPattern(pattern).ok;
}

// regexpp's and RegExp's messages repeat the whole pattern before their reason;
// the caller quotes the pattern already.
function reasonOf(pattern: string, error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const prefix = `Invalid regular expression: /${pattern}/u: `;
  const reason = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  const index = (error as { index?: unknown }).index;
  const said = reason.charAt(0).toLowerCase() + reason.slice(1);
  return typeof index === "number" ? `${said} at offset ${index}` : said;
}
