/**
 * The spellings of input values the input catalogue's rows are made of: other notations of an integer (other
 * radixes, digits of other scripts, separators), lenient ones, the names storage changes, JSON text respelled,
 * integers respelled, the key's look-alikes. Each is a function of the plain text of a value.
 */

export interface Spelling {
  label: string
  /** The spelling of a value, given the plain text of it (an id's digits, a query value, a header value, a JSON text, a name). */
  spell: (plain: string) => string
  /** The spelling is octets, one per character, sent as written (a byte that is not UTF-8), not text. */
  octets?: true
}

const hex = (code: number) => code.toString(16).toUpperCase().padStart(2, '0')

/** One octet (0–255) as %XX, its hex digits in upper case (RFC 3986 §2.1). */
export function percentEncodedOctet(octet: number): string {
  return `%${hex(octet)}`
}

/** Each character as %XX (RFC 3986 §2.1): for unreserved characters, a spelling with the same meaning (§2.3, §6.2.2.2). */
export function percentEncodeAll(text: string): string {
  return [...Buffer.from(text, 'utf8')].map(percentEncodedOctet).join('')
}

/** The decimal digits of `digits` in another script: its zero's code point plus each digit. */
function inScript(zero: number): (digits: string) => string {
  return (digits) => digits.replace(/\d/g, (digit) => String.fromCodePoint(zero + Number(digit)))
}

/** The zeros of the runs of ten decimal digits parsers read (ASCII, Arabic-Indic, Extended Arabic-Indic, Devanagari, Bengali, fullwidth, the five mathematical sets). */
const DIGIT_ZEROS = [0x30, 0x0660, 0x06f0, 0x0966, 0x09e6, 0xff10, 0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6]

/** A decimal digit's value, whatever its script; NaN for anything else. */
export function decimalDigitValue(code: number): number {
  const zero = DIGIT_ZEROS.find((start) => code >= start && code < start + 10)
  return zero === undefined ? Number.NaN : code - zero
}

const asBigInt = (digits: string) => BigInt(digits)

/** Digits with a separator after the first: `30` → `3_0`, `7` → `0_7`. */
const withSeparator = (digits: string) => (digits.length > 1 ? `${digits[0]}_${digits.slice(1)}` : `0_${digits}`)

export const RFC3986 = 'RFC 3986 §2.3, §6.2.2.2; policy §2 (equivalent spellings)'

/** Other notations of a non-negative integer: none is a decimal integer in any reading of the spec (policy §2, other notations). */
export const OTHER_NOTATIONS: readonly Spelling[] = [
  { label: 'hexadecimal, 0x', spell: (digits) => `0x${asBigInt(digits).toString(16)}` },
  { label: 'hexadecimal, 0X, upper case', spell: (digits) => `0X${asBigInt(digits).toString(16).toUpperCase()}` },
  { label: 'hexadecimal with a sign, +0x', spell: (digits) => `+0x${asBigInt(digits).toString(16)}` },
  { label: 'octal, 0o', spell: (digits) => `0o${asBigInt(digits).toString(8)}` },
  { label: 'binary, 0b', spell: (digits) => `0b${asBigInt(digits).toString(2)}` },
  { label: 'a digit separator, 1_0', spell: withSeparator },
  { label: 'Arabic-Indic digits (U+0660…)', spell: inScript(0x0660) },
  { label: 'Devanagari digits (U+0966…)', spell: inScript(0x0966) },
  { label: 'fullwidth digits (U+FF10…)', spell: inScript(0xff10) },
  { label: 'mathematical bold digits (U+1D7CE…)', spell: inScript(0x1d7ce) },
  // Not an integer in any reading either (the non-integer petId row): whitespace around the digits, which
  // JavaScript's Number() and many routers' parsers drop, and a point that no JSON number allows where it stands.
  { label: 'a space before, " 30"', spell: (digits) => ` ${digits}` },
  { label: 'a tab before', spell: (digits) => `\t${digits}` },
  { label: 'a line feed after', spell: (digits) => `${digits}\n` },
  { label: 'a no-break space after (U+00A0)', spell: (digits) => `${digits}\u00a0` },
  { label: 'an em space before (U+2003)', spell: (digits) => `\u2003${digits}` },
  { label: 'a trailing point, 30.', spell: (digits) => `${digits}.` },
  { label: 'a leading point and an exponent, .30e2', spell: (digits) => `.${digits}e${digits.length}` },
]

/** Readings that differ between a decimal and a JSON-number reading: recorded, never failed. */
export const LENIENT_NOTATIONS: readonly Spelling[] = [
  { label: 'a plus sign, +5', spell: (digits) => `+${digits}` },
  { label: 'a leading zero, 05', spell: (digits) => `0${digits}` },
  { label: 'a fraction of zero, 5.0', spell: (digits) => `${digits}.0` },
  { label: 'an exponent, 5e0', spell: (digits) => `${digits}e0` },
  // `;` starts a path segment's parameters (RFC 3986 §3.3), which servlet containers take off before they route (Tomcat,
  // Jetty) and Fastify 4 cut at: `30;` is 30 there. In a query, `;` is the separator HTML 4 and Rack take.
  { label: 'a trailing semicolon, 5;', spell: (digits) => `${digits};` },
]

/** Names whose characters storage, escaping and rendering layers change (policy §2, characters storage changes). */
export const HAZARDOUS_NAME_PARTS: readonly Spelling[] = [
  { label: 'NUL', spell: (prefix) => `${prefix}a\u0000b` },
  { label: 'every other C0 control (U+0001 to U+001F)', spell: (prefix) => `${prefix}${String.fromCharCode(...Array.from({ length: 31 }, (_, index) => index + 1))}` },
  { label: 'DEL and every C1 control (U+007F to U+009F)', spell: (prefix) => `${prefix}${String.fromCharCode(...Array.from({ length: 33 }, (_, index) => index + 0x7f))}` },
  { label: 'a backslash before n, as text (not a line break)', spell: (prefix) => `${prefix}a\\nb` },
  { label: 'a backslash before u0041, as text', spell: (prefix) => `${prefix}\\u0041` },
  { label: 'a lone backslash, and one at the end', spell: (prefix) => `${prefix}a\\b\\` },
  { label: 'a backslash before a quote, as text', spell: (prefix) => `${prefix}say \\"hi\\"` },
  { label: 'markup and entities', spell: (prefix) => `${prefix}<b>bold</b> &amp; <script>x</script>` },
  { label: 'quotes, \' and "', spell: (prefix) => `${prefix}it's "quoted"` },
  { label: 'a percent sign and a plus, as URL-encoding would read them', spell: (prefix) => `${prefix}50%25 + 1` },
]

/** A JSON text respelled with the same meaning (RFC 8259): what the JSON reader must see through. */
export const JSON_RESPELLINGS: readonly Spelling[] = [
  { label: 'each ASCII letter of the strings as a \\u escape', spell: (json) => escapeLetters(json) },
  // RFC 8259 §7: a character past the BMP escaped is a pair of escapes, its UTF-16 surrogates (🐾 is \ud83d\udc3e).
  { label: 'each character past ASCII as a \\u escape, a surrogate pair past the BMP', spell: (json) => escapePastAscii(json) },
  // Around the structural characters, not inside a string that holds one.
  { label: 'whitespace around every token', spell: (json) => json.replace(/"(?:[^"\\]|\\.)*"|[{}[\],:]/g, (token) => (token.startsWith('"') ? token : ` \n\t${token} \r\n `)) },
  { label: 'the members in reverse order', spell: (json) => reverseMembers(json) },
]

/** Every ASCII letter inside JSON strings as \uXXXX (member names included); the escapes already there (`\n`, `\u001f`) stay as written. */
function escapeLetters(json: string): string {
  const letterOrEscape = /\\u[0-9a-fA-F]{4}|\\.|[A-Za-z]/g
  return json.replace(
    /"((?:[^"\\]|\\.)*)"/g,
    (_whole, inner: string) => `"${inner.replace(letterOrEscape, (token) => (token.length === 1 ? `\\u${token.charCodeAt(0).toString(16).padStart(4, '0')}` : token))}"`,
  )
}

/** Every UTF-16 code unit past ASCII as \uXXXX: in valid JSON such a character stands only inside a string. */
function escapePastAscii(json: string): string {
  return json.replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** A flat JSON object's members in reverse order (the texts of its values kept as written). */
function reverseMembers(json: string): string {
  const inner = json.trim().replace(/^\{|\}$/g, '')
  const members = inner.match(/"(?:[^"\\]|\\.)*"\s*:\s*(?:"(?:[^"\\]|\\.)*"|[^,}]+)/g) ?? []
  return `{${[...members].reverse().join(',')}}`
}

/** The same integer as a JSON number spelled otherwise (RFC 8259 §6: a number is its decimal value). */
export const INTEGER_RESPELLINGS: readonly Spelling[] = [
  { label: 'with a fraction of zero, 1.0', spell: (digits) => `${digits}.0` },
  { label: 'with an exponent, 1e0', spell: (digits) => `${digits}e0` },
  { label: 'as a fraction times a power of ten, 0.1e1', spell: (digits) => `${digits.startsWith('-') ? '-' : ''}0.${digits.replace(/^-/, '')}e${digits.replace(/^-/, '').length}` },
  { label: 'as ten times with a negative exponent, 10e-1', spell: (digits) => (/^-?0$/.test(digits) ? `${digits}e-1` : `${digits}0e-1`) },
]

/** Whitespace HTTP does not strip around a field value (only SP and HTAB are, RFC 9110 §5.5), but a service that trims Unicode whitespace would. */
const UNSTRIPPED_WHITESPACE = [
  ['U+00A0 (no-break space)', '\u00a0'],
  ['U+2007 (figure space)', '\u2007'],
  ['U+200B (zero-width space)', '\u200b'],
  ['U+FEFF (zero-width no-break space)', '\ufeff'],
] as const

/** A header value as its UTF-8 octets: the client writes each character of a value as one octet. */
const utf8Octets = (text: string) => Buffer.from(text, 'utf8').toString('latin1')

/** Tokens that merely look like the key, given the key (policy §2, auth precedence; header octets). */
export const KEY_LOOKALIKES: readonly Spelling[] = [
  { label: 'the key with a character appended', spell: (key) => `Bearer ${key}x` },
  { label: 'the key with a character prepended', spell: (key) => `Bearer x${key}` },
  { label: 'the key without its last character', spell: (key) => `Bearer ${key.slice(0, -1)}` },
  { label: 'the key followed by a space and more text', spell: (key) => `Bearer ${key} extra` },
  // One line, as a layer that joins two Authorization lines writes them (RFC 9110 §5.3): Authorization is no list
  // (its value is one credentials), so the token is everything after `Bearer `, which merely ends or starts with the
  // key. A service that splits the value at commas and reads the last or the first credential lets either in.
  { label: 'another Bearer credential, then the key, on one line', spell: (key) => `Bearer not-the-key, Bearer ${key}` },
  { label: 'the key, then another Bearer credential, on one line', spell: (key) => `Bearer ${key}, Bearer not-the-key` },
  ...UNSTRIPPED_WHITESPACE.flatMap(([name, space]) => [
    { label: `${name} before the key`, spell: (key: string) => utf8Octets(`Bearer ${space}${key}`) },
    { label: `${name} after the key`, spell: (key: string) => utf8Octets(`Bearer ${key}${space}`) },
  ]),
  // Header values are octets (RFC 9110 §5.5), read as ISO-8859-1 by some servers: a character that has one
  // octet there is tried as that octet too (0xA0 for U+00A0), which such a server may trim as whitespace.
  ...UNSTRIPPED_WHITESPACE.filter(([, space]) => space.charCodeAt(0) <= 0xff).flatMap(([name, space]) => [
    { label: `${name} before the key, as its ISO-8859-1 octet`, spell: (key: string) => `Bearer ${space}${key}` },
    { label: `${name} after the key, as its ISO-8859-1 octet`, spell: (key: string) => `Bearer ${key}${space}` },
  ]),
]
