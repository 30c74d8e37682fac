// Patterns mean what ECMA-262 gives them with the u flag: each row says what the
// engine answers and checks that this process's RegExp answers the same.
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, test } from "vitest";
import { isEcmaPattern, linearRegExp } from "../../src/gate/linear-regexp.js";

/**
 * RegExp#test as ECMA-262 defines it with the u flag: a match is tried at each
 * code point boundary. V8's own #test also tries the position between the two
 * halves of a surrogate pair for a match that starts with an empty assertion
 * (`/\B/u.test("0\u{1F600}a")` is true on Node 20), so each start is tried
 * with the sticky flag instead.
 */
function regExpTest(pattern: string, text: string): boolean {
  const sticky = new RegExp(pattern, "uy");
  for (let index = 0; ; index += isPairAt(text, index) ? 2 : 1) {
    sticky.lastIndex = index;
    if (sticky.test(text)) return true;
    if (index >= text.length) return false;
  }
}

function isPairAt(text: string, index: number): boolean {
  const high = text.charCodeAt(index);
  return high >= 0xd800 && high <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00;
}

/** The engine's answer beside RegExp's, so a row that is wrong about ECMA-262 fails too. */
function answers(pattern: string, input: string): { engine: boolean; regExp: boolean } {
  return { engine: linearRegExp(pattern, "u").test(input), regExp: regExpTest(pattern, input) };
}
const both = (answer: boolean) => ({ engine: answer, regExp: answer });

function refusalOf(pattern: string, flags = "u"): string {
  try {
    linearRegExp(pattern, flags);
  } catch (error) {
    return (error as Error).message;
  }
  return "compiled";
}

// The code points, as inclusive [from, to] ranges, for which `matches` holds: every
// code point is tried, a lone surrogate as one, as a u-mode RegExp reads a string.
function rangesWhere(matches: (text: string) => boolean): [number, number][] {
  const ranges: [number, number][] = [];
  for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
    if (!matches(String.fromCodePoint(codePoint))) continue;
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last[1] === codePoint - 1) last[1] = codePoint;
    else ranges.push([codePoint, codePoint]);
  }
  return ranges;
}

const whitespace = [
  ["tab", "\t"],
  ["line feed", "\n"],
  ["vertical tab", "\u000b"],
  ["form feed", "\f"],
  ["carriage return", "\r"],
  ["space", " "],
  ["no-break space", "\u00a0"],
  ["ogham space mark", "\u1680"],
  ["en quad", "\u2000"],
  ["hair space", "\u200a"],
  ["every space from U+2000 to U+200A", "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"],
  ["line separator", "\u2028"],
  ["paragraph separator", "\u2029"],
  ["narrow no-break space", "\u202f"],
  ["medium mathematical space", "\u205f"],
  ["ideographic space", "\u3000"],
  ["byte order mark", "\ufeff"],
] as const;

describe("whitespace and line terminators", () => {
  test.each(whitespace)("^\\S+$ rejects a name with a %s in it", (_label, space) => {
    expect(answers("^\\S+$", `admin${space}`)).toEqual(both(false));
  });
  test.each(whitespace)("^[^\\s]+$ rejects a name with a %s in it", (_label, space) => {
    expect(answers("^[^\\s]+$", `a${space}b`)).toEqual(both(false));
  });
  test.each(whitespace)("^\\s+$ accepts a %s", (_label, space) => {
    expect(answers("^\\s+$", space)).toEqual(both(true));
  });
  test.each([
    ["a zero-width space", "\u200b"],
    ["a next line", "\u0085"],
    ["a mongolian vowel separator", "\u180e"],
  ])("^\\s+$ rejects %s, which ECMA-262 does not count", (_label, text) => {
    expect(answers("^\\s+$", text)).toEqual(both(false));
  });
});

describe("the dot", () => {
  test.each([
    ["a line feed", "\n"],
    ["a carriage return", "\r"],
    ["a line separator", "\u2028"],
    ["a paragraph separator", "\u2029"],
  ])("does not match %s", (_label, text) => {
    expect(answers("^.$", text)).toEqual(both(false));
  });
  test.each([
    ["a letter", "a"],
    ["a tab", "\t"],
    ["an astral character", "\u{1f600}"],
    ["a lone high surrogate", "\ud83d"],
    ["a lone low surrogate", "\ude00"],
  ])("matches %s as one code point", (_label, text) => {
    expect(answers("^.$", text)).toEqual(both(true));
  });
  test("takes a surrogate pair as one code point, not two", () => {
    expect(answers("^..$", "\u{1f600}")).toEqual(both(false));
  });
});

describe("surrogates", () => {
  test.each([
    ["the pair it names", "\u{1f600}", true],
    ["its lone high surrogate", "\ud83d", false],
    ["its lone low surrogate", "\ude00", false],
    ["two high surrogates", "\ud83d\ud83d", false],
    ["the two halves in the wrong order", "\ude00\ud83d", false],
  ])("a class of an escaped pair, [\\uD83D\\uDE00], against %s", (_label, text, matches) => {
    expect(answers("^[\\uD83D\\uDE00]$", text)).toEqual(both(matches));
  });
  test.each([
    ["^\\uD83D", "\u{1f600}", false],
    ["\\uDE00$", "\u{1f600}", false],
    ["^\\uD83D$", "\ud83d", true],
    ["^[\\uD800-\\uDBFF]$", "\ud83d", true],
    ["^[\\uD800-\\uDBFF]", "\u{1f600}", false],
    ["^[^a]$", "\ud83d\ud83d", false],
    ["^[^a]{2}$", "\ud83d\ud83d", true],
    ["^\\u{1F600}+$", "\u{1f600}\u{1f600}", true],
    ["^[\\u{1F600}-\\u{1F64F}]$", "\u{1f64f}", true],
  ])("%s against %j", (pattern, text, matches) => {
    expect(answers(pattern, text)).toEqual(both(matches));
  });
});

describe("class escapes and the dot, over every code point", () => {
  test.each(["^\\s$", "^\\S$", "^\\d$", "^\\D$", "^\\w$", "^\\W$", "^.$", "^[^\\s]$", "^\\p{L}$"])("%s matches the code points RegExp matches", (pattern) => {
    const engine = linearRegExp(pattern, "u");
    const regExp = new RegExp(pattern, "u");
    expect(rangesWhere((text) => engine.test(text))).toEqual(rangesWhere((text) => regExp.test(text)));
  });
});

describe("property escapes", () => {
  test.each([
    ["\\p{Letter}", "\u00e9", true],
    ["\\p{Letter}", "1", false],
    ["\\p{L}", "\u4e2d", true],
    ["\\p{Script=Greek}", "\u03b1", true],
    ["\\p{Script=Greek}", "a", false],
    ["\\p{sc=Greek}", "\u03a9", true],
    ["\\P{Lu}", "a", true],
    ["\\P{Lu}", "A", false],
    ["\\p{Lu}", "\u{1d400}", true],
    // "digit" is a Unicode alias of the general category Nd.
    ["\\p{digit}", "\u0663", true],
    ["\\p{General_Category=Decimal_Number}", "7", true],
    ["\\p{White_Space}", "\u0085", true],
    ["[\\p{L}\\d]", "5", true],
    ["[^\\p{L}]", "\u00e9", false],
  ])("^%s$ against %j", (escape, text, matches) => {
    expect(answers(`^${escape}$`, text)).toEqual(both(matches));
  });
});

describe("assertions", () => {
  test.each([
    ["^b", "a\nb", false],
    ["a$", "a\nb", false],
    ["^$", "", true],
    ["\\bfoo\\b", "a foo.", true],
    ["\\bfoo\\b", "afoo", false],
    ["\\bfoo\\b", "foo_", false],
    ["\\Bo\\B", "foo", true],
    ["\\Bo\\B", "o", false],
    ["\\b\u00e9", " \u00e9", false],
    ["a\\b", "a\u00e9", true],
    ["^\\b$", "", false],
    ["^\\B$", "", true],
    // No position lies between the halves of a pair (V8's own RegExp#test finds one).
    ["\\B", "0\u{1f600}a", false],
    ["\\B|[^\\D]", "A\u{1f600}a", false],
    ["\\B", "a\u{1f600}", true],
  ])("%s against %j", (pattern, text, matches) => {
    expect(answers(pattern, text)).toEqual(both(matches));
  });
});

describe("quantifiers and groups", () => {
  test.each([
    ["^a{2,3}$", "aaa", true],
    ["^a{2,3}$", "aaaa", false],
    ["^a{2,3}?$", "aa", true],
    ["^a{2,}$", "a", false],
    ["^(?:ab){2,}$", "ababab", true],
    ["^a{0}$", "", true],
    ["^(a|bc)*?d$", "abcbcad", true],
    ["^(?<year>\\d{4})-(?<month>\\d{2})$", "2026-04", true],
    ["^(?:)$", "", true],
    ["^(a*)*b$", "aaab", true],
    ["x|", "y", true],
    ["^[a-z0-9_-]{3,32}$", "a".repeat(33), false],
    ["^[A-Z]{2}-\\d{4}$", "AB-1234", true],
  ])("%s against %j", (pattern, text, matches) => {
    expect(answers(pattern, text)).toEqual(both(matches));
  });
});

describe("syntax ECMA-262 rejects with the u flag", () => {
  test.each([
    ["(?i)a", "invalid group at offset 1"],
    ["(?s)a", "invalid group at offset 1"],
    ["(?m)a", "invalid group at offset 1"],
    ["(?U)a", "invalid group at offset 1"],
    ["a\\z", "invalid escape at offset 2"],
    ["\\Aa", "invalid escape at offset 1"],
    ["\\Qa\\E", "invalid escape at offset 1"],
    ["\\pL", "invalid property name at offset 2"],
    ["\\p{Greek}", "invalid property name at offset 8"],
    ["\\x{41}", "invalid escape at offset 2"],
    ["\\e", "invalid escape at offset 1"],
    ["\\a", "invalid escape at offset 1"],
    ["\\8", "invalid escape at offset 2"],
    ["\\01", "invalid escape at offset 1"],
    ["a{,3}", "incomplete quantifier at offset 2"],
    ["[\\d-z]", "invalid character class at offset 5"],
    ["(?P<n>a)", "invalid group at offset 1"],
    ["[[:alpha:]]", "lone quantifier brackets at offset 10"],
    ["\\k<x>", "invalid named capture referenced at offset 5"],
    ["[", "unterminated character class at offset 1"],
  ])("%s is refused", (pattern, reason) => {
    expect(refusalOf(pattern)).toBe(`pattern "${pattern}" is not an ECMA-262 regular expression with the u flag (${reason}); the schema is refused`);
  });
  test("each of them is rejected by RegExp too", () => {
    const rejected = ["(?i)a", "a\\z", "\\Qa\\E", "\\pL", "\\p{Greek}", "\\x{41}", "\\e", "\\8", "\\01", "a{,3}", "[\\d-z]", "(?P<n>a)", "[[:alpha:]]", "\\k<x>"];
    expect(rejected.filter((pattern) => isEcmaPattern(pattern) || !throws(() => new RegExp(pattern, "u")))).toEqual([]);
  });
});

function throws(run: () => unknown): boolean {
  try {
    run();
    return false;
  } catch {
    return true;
  }
}

describe("constructs a linear-time engine cannot run", () => {
  test.each([
    ["(?=a)b", "a lookahead \"(?=a)\""],
    ["(?!a)b", "a negative lookahead \"(?!a)\""],
    ["(?<=a)b", "a lookbehind \"(?<=a)\""],
    ["(?<!a)b", "a negative lookbehind \"(?<!a)\""],
    ["(a)\\1", "a backreference \"\\1\""],
    ["(?<x>a)\\k<x>", "a named backreference \"\\k<x>\""],
    ["(a)b(?=c)\\1", "a lookahead \"(?=c)\""],
  ])("%s is refused", (pattern, what) => {
    expect(refusalOf(pattern)).toBe(`pattern "${pattern}" uses ${what}, which a linear-time engine cannot run; the schema is refused`);
  });
  test.each(["(a{1000}){1000}", "a{20001}", "(?:){99999999}", "[a-z]{0,4294967295}"])("%s needs too many states and is refused", (pattern) => {
    expect(refusalOf(pattern)).toBe(`pattern "${pattern}" needs more than 20000 automaton states, past the bound that keeps its run linear and short; the schema is refused`);
  });
  test("distinct classes whose sets hold more than 100,000 range bounds are refused; one class repeated is one set", () => {
    const distinct = Array.from({ length: 80 }, (_, i) => `[^\\p{L}\\p{Ll}${String.fromCharCode(0x30 + (i % 10))}${String.fromCharCode(0x2000 + i)}]`).join("");
    expect(refusalOf(distinct)).toBe(`pattern "${distinct}" needs code point sets of more than 100000 range bounds, past the bound that keeps its compile short; the schema is refused`);
    const repeated = "[^\\p{L}\\p{Ll}0]".repeat(120);
    expect(linearRegExp(`^${repeated}$`, "u").test("1".repeat(120))).toBe(true);
  });
  test("a modifier group is refused, by the engine's RegExp or by the automaton", () => {
    expect(refusalOf("(?i:a)")).toMatch(
      /^pattern "\(\?i:a\)" (is not accepted by this JavaScript engine's RegExp with the u flag \(invalid group\)|uses the modifier group "\(\?i:\)", which a linear-time engine cannot run); the schema is refused$/,
    );
  });
  test("flags other than u are refused", () => {
    expect(refusalOf("a", "")).toBe("pattern \"a\" was given the flags \"\"; a JSON Schema pattern is read with the u flag only, so the schema is refused");
  });
});

describe("hostile input", () => {
  test("^(a+)+$ against 50,000 a's and a b returns false", () => {
    expect(linearRegExp("^(a+)+$", "u").test(`${"a".repeat(50_000)}b`)).toBe(false);
  });
  test("^(a+)+$ against 50,000 a's returns true", () => {
    expect(linearRegExp("^(a+)+$", "u").test("a".repeat(50_000))).toBe(true);
  });
  test("(x+x+)+y against 50,000 x's returns false", () => {
    expect(linearRegExp("(x+x+)+y", "u").test("x".repeat(50_000))).toBe(false);
  });
  test("a pattern whose DFA outgrows its cache still answers right", () => {
    // ^[ab]*a[ab]{12}$ must remember the last 13 letters: 8,192 DFA states.
    let seed = 12345;
    const letters = Array.from({ length: 20_000 }, () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return (seed >> 16) & 1 ? "a" : "b";
    }).join("");
    const engine = linearRegExp("^[ab]*a[ab]{12}$", "u");
    expect([engine.test(`${letters}a${"b".repeat(12)}`), engine.test(`${letters}b${"a".repeat(12)}`)]).toEqual([true, false]);
  });
});

describe("the engine object", () => {
  test("prints as its pattern", () => {
    expect(String(linearRegExp("^[a-z]+$", "u"))).toBe("^[a-z]+$");
  });
  test("compiled twice, answers the same", () => {
    const first = linearRegExp("^x+$", "u");
    const second = linearRegExp("^x+$", "u");
    expect([first.test("xx"), second.test("xx"), first.test("y"), second.test("y")]).toEqual([true, true, false, false]);
  });
});

describe("patterns in one Ajv schema", () => {
  const ajv = new Ajv2020({ strict: false, code: { regExp: linearRegExp } });
  const validate = ajv.compile({
    type: "object",
    properties: { a: { type: "string", pattern: "^x$" }, b: { type: "string", pattern: "^y$" } },
  });
  test("two pattern keywords never share a matcher", () => {
    expect([validate({ a: "x", b: "x" }), validate({ a: "x", b: "y" }), validate({ a: "y", b: "y" })]).toEqual([false, true, false]);
  });
  test("two patternProperties never share a matcher", () => {
    const byName = ajv.compile({
      type: "object",
      patternProperties: { "^n_": { type: "number" }, "^s_": { type: "string" } },
    });
    expect([byName({ n_1: 1, s_1: "x" }), byName({ n_1: "x" }), byName({ s_1: 1 })]).toEqual([true, false, false]);
  });
  test("a refused pattern makes the schema fail to compile", () => {
    expect(() => ajv.compile({ type: "string", pattern: "(a)\\1" })).toThrow("pattern \"(a)\\1\" uses a backreference \"\\1\", which a linear-time engine cannot run; the schema is refused");
  });
});

describe("isEcmaPattern", () => {
  test.each([
    ["^[a-z]+$", true],
    ["\\p{Letter}", true],
    ["(?=a)", true],
    ["(a)\\1", true],
    ["(?i)a", false],
    ["\\pL", false],
    ["[", false],
    ["a{,3}", false],
  ])("%s: %s", (pattern, valid) => {
    expect(isEcmaPattern(pattern)).toBe(valid);
  });
});
