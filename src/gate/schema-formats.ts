// The formats the gate asserts (with `--assert-formats`), each read by the ABNF of
// the RFC that JSON Schema 2020-12 names for it, and nothing looser: no space for
// the "T" of a date-time, no "+0100" offset, no "urn:uuid:" prefix. ABNF literals
// are case-insensitive ("t", "z", "p" are the same letters). A format not listed
// here has no checker, and a schema that asks to assert it is refused
// (schema-unrunnable.ts), where it would otherwise pass every value.
//
// | format                | grammar                                                  |
// |-----------------------|----------------------------------------------------------|
// | date-time, date, time | RFC 3339 section 5.6 (date-time, full-date, full-time),  |
// |                       |   days within their month, second 60 only at 23:59 UTC   |
// | duration              | RFC 3339 appendix A                                      |
// | email                 | RFC 5321 section 4.1.2 Mailbox, its address literals     |
// |                       |   section 4.1.3's (IPv6 the only standardized tag)       |
// | hostname              | RFC 1123 section 2.1: letters, digits, hyphens, labels   |
// |                       |   of 1 to 63, 253 in all; a label with "--" in its third |
// |                       |   and fourth places (a Punycode A-label) is blocked: its |
// |                       |   IDNA2008 rules are not checked here                    |
// | ipv4                  | RFC 2673 section 3.2, each byte written as RFC 3986's    |
// |                       |   dec-octet (no leading zero)                            |
// | ipv6                  | RFC 4291 section 2.2, as RFC 3986's IPv6address          |
// | uri, uri-reference    | RFC 3986 URI, URI-reference                              |
// | uri-template          | RFC 6570 URI-Template                                    |
// | uuid                  | RFC 4122 UUID, hexadecimal in either case                |
// | json-pointer          | RFC 6901                                                 |
// | relative-json-pointer | draft-bhutton-relative-json-pointer-00                   |
// | regex                 | ECMA-262 with the u flag, as a `pattern` is read         |
//
// Every grammar runs on the gate's linear-time engine, so no value can make a
// format check slow.
import { isEcmaPattern, linearRegExp, type LinearRegExp } from "./linear-regexp.js";

const digit = "[0-9]";
const hex = "[0-9A-Fa-f]";
const alpha = "[A-Za-z]";

// RFC 3986 appendix A.
const decOctet = `(?:25[0-5]|2[0-4]${digit}|1${digit}{2}|[1-9]${digit}|${digit})`;
const ipv4 = `${decOctet}(?:\\.${decOctet}){3}`;
const h16 = `${hex}{1,4}`;
const ls32 = `(?:${h16}:${h16}|${ipv4})`;
const ipv6 = `(?:${[
  `(?:${h16}:){6}${ls32}`,
  `::(?:${h16}:){5}${ls32}`,
  `(?:${h16})?::(?:${h16}:){4}${ls32}`,
  `(?:(?:${h16}:){0,1}${h16})?::(?:${h16}:){3}${ls32}`,
  `(?:(?:${h16}:){0,2}${h16})?::(?:${h16}:){2}${ls32}`,
  `(?:(?:${h16}:){0,3}${h16})?::${h16}:${ls32}`,
  `(?:(?:${h16}:){0,4}${h16})?::${ls32}`,
  `(?:(?:${h16}:){0,5}${h16})?::${h16}`,
  `(?:(?:${h16}:){0,6}${h16})?::`,
].join("|")})`;
const unreserved = "[A-Za-z0-9\\-._~]";
const subDelims = "[!$&'()*+,;=]";
const pctEncoded = `%${hex}{2}`;
const pchar = `(?:${unreserved}|${pctEncoded}|${subDelims}|[:@])`;
const segment = `${pchar}*`;
const segmentNz = `${pchar}+`;
const segmentNzNc = `(?:${unreserved}|${pctEncoded}|${subDelims}|@)+`;
const scheme = `${alpha}[A-Za-z0-9+\\-.]*`;
const userinfo = `(?:${unreserved}|${pctEncoded}|${subDelims}|:)*`;
const ipvFuture = `[Vv]${hex}+\\.(?:${unreserved}|${subDelims}|:)+`;
const host = `(?:\\[(?:${ipv6}|${ipvFuture})\\]|${ipv4}|(?:${unreserved}|${pctEncoded}|${subDelims})*)`;
const authority = `(?:${userinfo}@)?${host}(?::${digit}*)?`;
const pathAbempty = `(?:/${segment})*`;
const pathAbsolute = `/(?:${segmentNz}(?:/${segment})*)?`;
const pathRootless = `${segmentNz}(?:/${segment})*`;
const pathNoscheme = `${segmentNzNc}(?:/${segment})*`;
const query = `(?:${pchar}|[/?])*`;
const uri = `${scheme}:(?://${authority}${pathAbempty}|${pathAbsolute}|${pathRootless}|)(?:\\?${query})?(?:#${query})?`;
const relativeRef = `(?://${authority}${pathAbempty}|${pathAbsolute}|${pathNoscheme}|)(?:\\?${query})?(?:#${query})?`;

// RFC 3339 section 5.6: the shape here, the ranges in `validDate` and `validTime`.
const fullDate = `(${digit}{4})-(${digit}{2})-(${digit}{2})`;
const fullTime = `(${digit}{2}):(${digit}{2}):(${digit}{2})(?:\\.${digit}+)?(?:[Zz]|([+-])(${digit}{2}):(${digit}{2}))`;

// RFC 3339 appendix A.
const durSecond = `${digit}+[Ss]`;
const durMinute = `${digit}+[Mm](?:${durSecond})?`;
const durHour = `${digit}+[Hh](?:${durMinute})?`;
const durTime = `[Tt](?:${durHour}|${durMinute}|${durSecond})`;
const durDay = `${digit}+[Dd]`;
const durMonth = `${digit}+[Mm](?:${durDay})?`;
const durYear = `${digit}+[Yy](?:${durMonth})?`;
const duration = `[Pp](?:(?:${durDay}|${durMonth}|${durYear})(?:${durTime})?|${durTime}|${digit}+[Ww])`;

// RFC 5321 section 4.1.2; atext from RFC 5322 section 3.2.3.
const atom = "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~]+";
const quotedString = '"(?:[\\x20\\x21\\x23-\\x5B\\x5D-\\x7E]|\\\\[\\x20-\\x7E])*"';
const letDig = "[A-Za-z0-9]";
const subDomain = `${letDig}(?:[A-Za-z0-9\\-]*${letDig})?`;
// Snum: one to three digits for a value of 0 to 255.
const snum = `(?:[01]?${digit}?${digit}|2[0-4]${digit}|25[0-5])`;
const smtpIpv4 = `${snum}(?:\\.${snum}){3}`;
// IPv6-addr: full, compressed, and both with an IPv4 tail. The "::" stands for at
// least two groups, so a compressed form writes at most six (four before an IPv4
// tail): `validSmtpIpv6` counts them, which the grammar says in words.
const smtpHex = `${hex}{1,4}`;
const smtpIpv6 = `(?:${smtpHex}(?::${smtpHex}){7}|(?:${smtpHex}(?::${smtpHex}){0,5})?::(?:${smtpHex}(?::${smtpHex}){0,5})?|${smtpHex}(?::${smtpHex}){5}:${smtpIpv4}|(?:${smtpHex}(?::${smtpHex}){0,3})?::(?:${smtpHex}(?::${smtpHex}){0,3}:)?${smtpIpv4})`;
const mailbox = `(?:${atom}(?:\\.${atom})*|${quotedString})@(?:${subDomain}(?:\\.${subDomain})*|\\[(?:${smtpIpv4}|[Ii][Pp][Vv]6:${smtpIpv6})\\])`;

// RFC 6570 section 2.
const ucschar =
  "\\u{A0}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFEF}\\u{10000}-\\u{1FFFD}\\u{20000}-\\u{2FFFD}\\u{30000}-\\u{3FFFD}\\u{40000}-\\u{4FFFD}\\u{50000}-\\u{5FFFD}\\u{60000}-\\u{6FFFD}\\u{70000}-\\u{7FFFD}\\u{80000}-\\u{8FFFD}\\u{90000}-\\u{9FFFD}\\u{A0000}-\\u{AFFFD}\\u{B0000}-\\u{BFFFD}\\u{C0000}-\\u{CFFFD}\\u{D0000}-\\u{DFFFD}\\u{E1000}-\\u{EFFFD}";
const iprivate = "\\u{E000}-\\u{F8FF}\\u{F0000}-\\u{FFFFD}\\u{100000}-\\u{10FFFD}";
const literal = `(?:[\\x21\\x23\\x24\\x26\\x28-\\x3B\\x3D\\x3F-\\x5B\\x5D\\x5F\\x61-\\x7A\\x7E${ucschar}${iprivate}]|${pctEncoded})`;
const varchar = `(?:[A-Za-z0-9_]|${pctEncoded})`;
const varspec = `${varchar}(?:\\.?${varchar})*(?::[1-9]${digit}{0,3}|\\*)?`;
const expression = `\\{[+#./;?&=,!@|]?${varspec}(?:,${varspec})*\\}`;
const uriTemplate = `(?:${literal}|${expression})*`;

// RFC 6901, and the relative form of draft-bhutton-relative-json-pointer-00.
const jsonPointer = "(?:/(?:[^/~]|~[01])*)*";
const relativeJsonPointer = `(?:0|[1-9]${digit}*)(?:[+-][1-9]${digit}*)?(?:#|${jsonPointer})`;

const uuid = `${hex}{8}-${hex}{4}-${hex}{4}-${hex}{4}-${hex}{12}`;

// RFC 1123 section 2.1 labels; the length and A-label rules in `validHostname`.
const hostnameLabel = `${letDig}(?:[A-Za-z0-9\\-]*${letDig})?`;
const hostname = `${hostnameLabel}(?:\\.${hostnameLabel})*`;

/** A whole-string match on the linear engine. */
function grammar(body: string): LinearRegExp {
  return linearRegExp(`^(?:${body})$`, "u");
}

type FormatCheck = (value: string) => boolean;

function matching(body: string): FormatCheck {
  // Built on first use: a gate that asserts no format never pays for the automata.
  let compiled: LinearRegExp | undefined;
  return (value) => (compiled ??= grammar(body)).test(value);
}

const isDateShape = matching(fullDate);
const isTimeShape = matching(fullTime);
const isDateTimeShape = matching(`${fullDate}[Tt]${fullTime}`);

function validDate(value: string): boolean {
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return day <= days;
}

/** A full-time already of the right shape: hours, minutes, seconds and offset within range; second 60 only at 23:59 UTC. */
function validTime(value: string): boolean {
  const hour = Number(value.slice(0, 2));
  const minute = Number(value.slice(3, 5));
  const second = Number(value.slice(6, 8));
  const offset = /[+-](\d\d):(\d\d)$/.exec(value);
  const offsetHour = offset ? Number(offset[1]) : 0;
  const offsetMinute = offset ? Number(offset[2]) : 0;
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  const sign = offset && value[value.length - 6] === "-" ? -1 : 1;
  const utc = (((hour * 60 + minute - sign * (offsetHour * 60 + offsetMinute)) % 1440) + 1440) % 1440;
  return utc === 23 * 60 + 59;
}

const isHostnameShape = matching(hostname);

function validHostname(value: string): boolean {
  if (value.length > 253 || !isHostnameShape(value)) return false;
  for (const label of value.split(".")) {
    if (label.length > 63) return false;
    if (label.length >= 4 && label[2] === "-" && label[3] === "-") return false;
  }
  return true;
}

const isMailboxShape = matching(mailbox);

function validMailbox(value: string): boolean {
  if (!isMailboxShape(value)) return false;
  // Of the domains the shape allows, only an address literal ends in "]".
  if (!value.endsWith("]")) return true;
  const literal = value.slice(value.lastIndexOf("[") + 1, -1);
  if (!/^ipv6:/i.test(literal) || !literal.includes("::")) return true;
  const groups = literal.slice(5).split(/::|:/).filter((group) => group !== "");
  const tail = groups.length > 0 && groups[groups.length - 1].includes(".");
  return tail ? groups.length - 1 <= 4 : groups.length <= 6;
}

const isUriReference = matching(`${uri}|${relativeRef}`);

/** Whether `value` is an RFC 3986 URI-reference, as `format: uri-reference` asserts it. */
export function uriReference(value: string): boolean {
  return isUriReference(value);
}

const CHECKS: ReadonlyMap<string, FormatCheck> = new Map<string, FormatCheck>([
  ["date-time", (value) => isDateTimeShape(value) && validDate(value.slice(0, 10)) && validTime(value.slice(11))],
  ["date", (value) => isDateShape(value) && validDate(value)],
  ["time", (value) => isTimeShape(value) && validTime(value)],
  ["duration", matching(duration)],
  ["email", validMailbox],
  ["hostname", validHostname],
  ["ipv4", matching(ipv4)],
  ["ipv6", matching(ipv6)],
  ["uri", matching(uri)],
  ["uri-reference", isUriReference],
  ["uri-template", matching(uriTemplate)],
  ["uuid", matching(uuid)],
  ["json-pointer", matching(jsonPointer)],
  ["relative-json-pointer", matching(relativeJsonPointer)],
  ["regex", isEcmaPattern],
]);

/** Whether the gate can assert this format. */
export function isAssertedFormat(name: string): boolean {
  return CHECKS.has(name);
}

/** The asserted formats, as Ajv's `addFormat` takes them: each judges strings and lets other types pass. */
export function assertedFormats(): Array<[string, { type: "string"; validate: FormatCheck }]> {
  return [...CHECKS].map(([name, validate]) => [name, { type: "string", validate }]);
}
