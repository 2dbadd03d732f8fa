/**
 * What went on the wire, shown as octets where they are not printable ASCII. A header value is a string of
 * octets (RFC 9110 §5.5): the client writes each character of it as one byte, so `Bearer \u00c2\u00a0key` is
 * the UTF-8 of U+00A0 before the key, and reads as `Bearer <C2 A0>key`, not as if `Â` and a space had been sent.
 * A body is sent as its UTF-8 bytes; it is shown the same way, tab, line feed and carriage return aside.
 */

/** A run of octets as evidence shows it: `<C2 A0>`; a code past a byte as `U+2007` within the group. */
function octetGroup(codes: readonly number[]): string {
  return `<${codes.map((code) => (code > 0xff ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : code.toString(16).toUpperCase().padStart(2, '0'))).join(' ')}>`
}

const isPrintable = (byte: number) => byte >= 0x20 && byte <= 0x7e

/** The octets of a header value as the client writes them: one per character (a character past U+00FF is shown as itself, `<U+2007>`: no client sends one). */
export function headerOctets(value: string): number[] {
  return Array.from(value, (character) => character.codePointAt(0) as number)
}

/** The octets of a body as the client writes it: its UTF-8. */
export function bodyOctets(body: string): number[] {
  return [...Buffer.from(body, 'utf8')]
}

/** One stretch of text as it is shown and quoted: printable ASCII as text, anything else as its octets. */
export type OctetRun = { text: string } | { octets: number[] }

/** Splits octets into runs of printable ASCII (plus `keep`: whitespace a body shows as itself) and runs of other octets. */
export function octetRuns(octets: readonly number[], keep: (byte: number) => boolean = () => false): OctetRun[] {
  const runs: OctetRun[] = []
  for (const byte of octets) {
    const printable = isPrintable(byte) || keep(byte)
    const last = runs.at(-1)
    if (printable) {
      if (last && 'text' in last) last.text += String.fromCharCode(byte)
      else runs.push({ text: String.fromCharCode(byte) })
    } else if (last && 'octets' in last) last.octets.push(byte)
    else runs.push({ octets: [byte] })
  }
  return runs
}

/** Tab, line feed and carriage return: a body's whitespace, shown as itself. */
export const isBodyWhitespace = (byte: number) => byte === 0x09 || byte === 0x0a || byte === 0x0d

/** Octets as evidence shows them: printable ASCII as text, each run of other bytes as one `<C2 A0>` group (a character past a byte, which no client sends, as `<U+2007>`). */
export function showOctets(octets: readonly number[], keep?: (byte: number) => boolean): string {
  return octetRuns(octets, keep)
    .map((run) => ('text' in run ? run.text : octetGroup(run.octets)))
    .join('')
}

/** True when the text holds anything but printable ASCII (and `keep`): the cases where octets are shown. */
export function needsOctets(octets: readonly number[], keep: (byte: number) => boolean = () => false): boolean {
  return octets.some((byte) => !isPrintable(byte) && !keep(byte))
}
