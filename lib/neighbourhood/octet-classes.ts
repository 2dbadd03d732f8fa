/**
 * The octets the octet operator puts into a part (policy §2b: "an octet of every class"): the classes every text part
 * takes, the sweep of every octet value the key and the id take, and the octets a trim takes away, a separator may be
 * replaced by, or a reader may take for the end of the key. Adding a value to a class is one line of its list.
 */
import { octetsOf } from '../spec/request-model.js'

/** Where an octet goes: before the text, in its middle, after it. */
export function positions(text: string): Array<{ name: string; at: number }> {
  const places = [{ name: 'before', at: 0 }]
  if (text.length >= 2) places.push({ name: 'inside', at: Math.floor(text.length / 2) })
  if (text.length >= 1) places.push({ name: 'after', at: text.length })
  return places
}

const hex = (octet: number) => octet.toString(16).toUpperCase().padStart(2, '0')

/** The octet classes of policy §2b, each with its values as octet strings (one character per octet). */
export const OCTET_CLASSES: ReadonlyArray<{ name: string; values: readonly string[] }> = [
  { name: 'C0 control', values: Array.from({ length: 32 }, (_, octet) => String.fromCharCode(octet)).filter((octet) => octet !== '\t') },
  { name: 'SP', values: [' '] },
  { name: 'HTAB', values: ['\t'] },
  { name: 'DEL', values: ['\x7f'] },
  { name: 'raw octet 0x80-0xFF', values: Array.from({ length: 128 }, (_, index) => String.fromCharCode(0x80 + index)) },
  { name: 'UTF-8 of U+0080-U+00FF', values: Array.from({ length: 128 }, (_, index) => octetsOf(String.fromCharCode(0x80 + index))) },
]

/**
 * Every octet value, each a class of its own, and the UTF-8 forms past 0x7F as one class: for the key and the id.
 * ASCII letters and digits are a class each: the key's and the id's own alphabet, one as telling as another (a letter
 * in the key is another token, a digit in the id another id; their case and notations are other operators' classes).
 */
export const SWEEP_CLASSES: ReadonlyArray<{ name: string; values: readonly string[] }> = [
  ...Array.from({ length: 256 }, (_, octet) => String.fromCharCode(octet))
    .filter((octet) => !/[A-Za-z0-9]/.test(octet))
    .map((octet) => ({ name: `octet 0x${hex(octet.charCodeAt(0))}`, values: [octet] })),
  { name: 'an ASCII letter', values: [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'] },
  { name: 'an ASCII digit', values: [...'0123456789'] },
  ...OCTET_CLASSES.filter((octetClass) => octetClass.name.startsWith('UTF-8')),
]

/** Octets the trims of common libraries take off a value's ends (Python's strip, Go's TrimSpace, Java's trim, cheroot's): whitespace, the C0 separators 0x1C–0x1F, NEL, NBSP. */
export const STRIPPED_OCTETS: ReadonlySet<string> = new Set(['\t', '\n', '\v', '\f', '\r', ' ', '\x1c', '\x1d', '\x1e', '\x1f', '\x85', '\xa0'])

/** Octets in place of the space after the scheme: punctuation, a letter, no-break space, a control. */
export const SEPARATOR_REPLACEMENTS = [':', '_', 'x', ',', '=', '.', '+', '\xa0', '\x01', '\x7f']

/** Octets in words: `0x0B 0x78`. */
export function shown(octets: string): string {
  return [...octets].map((octet) => `0x${hex(octet.charCodeAt(0))}`).join(' ')
}

/**
 * Octets after the key that a reader may take for its end, each followed by more text: a bare CR (RFC 9112 §2.2 makes it
 * invalid or SP, where Python's header parser ends the line) and NUL (RFC 9110 §5.5 has it refused or read as SP, where
 * PHP's built-in server cuts the value). Either way `<key>` then the text is no key. After the CR the text is a field
 * line: a service that refuses a head whose lines Python's parser finds malformed (Werkzeug's, told to refuse
 * `MissingHeaderBodySeparatorDefect`) refuses `<key>\rx`, and still let `<key>\rX-Request-Id: 1` in.
 */
export const ENDS_THEN_TEXT = [
  { name: 'a bare CR after it, then a field line', octet: '\r', text: 'X-Request-Id: 1', words: 'a field line' },
  { name: 'NUL after it, then text', octet: '\0', text: 'x', words: 'text' },
]

/**
 * The octets a trim takes away that are neither HTTP's whitespace around a field value (SP, HTAB; CR and LF end its line)
 * nor JSON's around its tokens (the same four, RFC 8259 §2): VT, FF, 0x1C to 0x1F, NEL, NBSP. Where HTTP or JSON takes
 * the others, a trim that takes them too reads the request as written.
 */
export const TRIMMED_BEYOND_WHITESPACE: readonly string[] = [...STRIPPED_OCTETS].filter((octet) => ![' ', '\t', '\n', '\r'].includes(octet))

/**
 * Escapes after a value that a decoder stops at. An escaped NUL, then text (`1%00x`): a reader that decodes into a C string
 * ends the value at the NUL (libmicrohttpd hands a handler the path and the query's values decoded, and `1%00x` read as
 * pet 1); nginx refuses an escaped NUL in a path in its own words. An escape of an octet UTF-8 never holds (`1%FF`): a
 * framework that decodes a value as UTF-8 may raise there (Pyramid's URLDecodeError, WebOb's UnicodeDecodeError: a 500).
 */
export const ESCAPES_AFTER_A_VALUE = [
  { name: 'an escaped NUL, then text', after: '%00x' },
  { name: 'an escape that is no UTF-8', after: '%FF' },
] as const

/** Where each octet of TRIMMED_BEYOND_WHITESPACE goes, a class of its own: before the part, or at its ends in turn. */
export function trimmedPlacements<Place extends { name: string }>(
  trimmed: 'before' | 'ends' | undefined,
  places: readonly Place[],
): Array<{ name: string; octet: string; at: Place }> {
  const [start] = places
  const end = places[places.length - 1]
  if (!trimmed || !start || !end) return []
  return TRIMMED_BEYOND_WHITESPACE.map((octet, index) => {
    const at = trimmed === 'before' || index % 2 === 0 ? start : end
    return { name: `a trimmed ${shown(octet)} ${at.name} it`, octet, at }
  })
}
