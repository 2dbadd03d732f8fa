/**
 * What went on the wire, shown as octets where they are not printable ASCII. A header value is a string of
 * octets (RFC 9110 §5.5): the client writes each character of it as one byte, so `Bearer \u00c2\u00a0key` is
 * the UTF-8 of U+00A0 before the key, and reads as `Bearer <C2 A0>key`, not as if `Â` and a space had been sent.
 * A body is sent as its UTF-8 bytes; it is shown the same way, tab, line feed and carriage return aside.
 *
 * Octets are held as a string of one character per octet, so that a body of a megabyte is scanned, split and joined
 * by the engine's own string code (an array of a million numbers took a quarter of a second per piece of evidence). A
 * header value already is such a string; a character past U+00FF in it, which no client sends, is shown as `<U+2007>`.
 */

/** A code as a group shows it: two hex digits for an octet, `U+2007` for a code past a byte. */
function groupCode(code: number): string {
  return code > 0xff ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : code.toString(16).toUpperCase().padStart(2, '0')
}

/** A run of octets as evidence shows it: `<C2 A0>`; a code past a byte as `U+2007` within the group. */
function octetGroup(codes: readonly number[]): string {
  return `<${codes.map(groupCode).join(' ')}>`
}

/** The octets of a body as the client writes it: its UTF-8, one character per octet. */
export function bodyOctets(body: string): string {
  return Buffer.from(body, 'utf8').toString('latin1')
}

/** One stretch of text as it is shown and quoted: printable ASCII as text, anything else as its octets (codes, one per code point). */
export type OctetRun = { text: string } | { octets: number[] }

/** Printable ASCII, and the runs of everything else; with a body's whitespace (tab, line feed, carriage return) shown as itself. */
const RUNS = /[\x20-\x7e]+|[^\x20-\x7e]+/gu
const RUNS_KEEPING_WHITESPACE = /[\x20-\x7e\t\n\r]+|[^\x20-\x7e\t\n\r]+/gu
const NOT_PRINTABLE = /[^\x20-\x7e]/
const NOT_PRINTABLE_NOR_WHITESPACE = /[^\x20-\x7e\t\n\r]/

/** Splits octets into runs of printable ASCII (and, with `keepsWhitespace`, a body's whitespace) and runs of other octets. */
export function octetRuns(octets: string, keepsWhitespace = false): OctetRun[] {
  const shown = keepsWhitespace ? NOT_PRINTABLE_NOR_WHITESPACE : NOT_PRINTABLE
  return Array.from(octets.matchAll(keepsWhitespace ? RUNS_KEEPING_WHITESPACE : RUNS), ([run]) =>
    shown.test(run.charAt(0)) ? { octets: Array.from(run, (character) => character.codePointAt(0) as number) } : { text: run },
  )
}

/** Octets as evidence shows them: printable ASCII as text, each run of other octets as one `<C2 A0>` group (with `keepsWhitespace`, a body's whitespace as itself). */
export function showOctets(octets: string, keepsWhitespace = false): string {
  return octetRuns(octets, keepsWhitespace)
    .map((run) => ('text' in run ? run.text : octetGroup(run.octets)))
    .join('')
}

/** True when the text holds anything but printable ASCII (and, with `keepsWhitespace`, a body's whitespace): the cases where octets are shown. */
export function needsOctets(octets: string, keepsWhitespace = false): boolean {
  return (keepsWhitespace ? NOT_PRINTABLE_NOR_WHITESPACE : NOT_PRINTABLE).test(octets)
}
