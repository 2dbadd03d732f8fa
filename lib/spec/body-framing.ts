/**
 * How a request body is framed on the wire (RFC 9112 §6–7): by its length, chunked, or by its length after
 * `Expect: 100-continue`: the fields that say so, and the body's octets as the framing writes them.
 */

/**
 * How a body is framed (RFC 9112 §6–7): by its length, chunked (in one chunk, in many, with a chunk extension, with
 * a trailer), or by its length after `Expect: 100-continue` (RFC 9110 §10.1.1; the body follows without waiting, as
 * the RFC lets a client do).
 */
export const FRAMINGS = [
  'Content-Length',
  'chunked in one chunk',
  'chunked in many chunks',
  'chunked with a chunk extension',
  'chunked with a trailer',
  'Expect: 100-continue',
  'Content-Length twice, the length first',
  'Content-Length twice, the length last',
] as const
export type Framing = (typeof FRAMINGS)[number]

/**
 * The fields that frame a body of this many octets. Content-Length twice, the body's length and half of it, in either
 * order: a first reader and a last reader read different bodies, the smuggling RFC 9112 §6.3 has a server refuse (400).
 */
export function framingLines(framing: Framing, length: number): string[] {
  if (framing === 'Content-Length') return [`Content-Length: ${length}`]
  if (framing === 'Content-Length twice, the length first') return [`Content-Length: ${length}`, `Content-Length: ${Math.floor(length / 2)}`]
  if (framing === 'Content-Length twice, the length last') return [`Content-Length: ${Math.floor(length / 2)}`, `Content-Length: ${length}`]
  if (framing === 'Expect: 100-continue') return ['Expect: 100-continue', `Content-Length: ${length}`]
  return ['Transfer-Encoding: chunked', ...(framing === 'chunked with a trailer' ? ['Trailer: X-Checksum'] : [])]
}

/**
 * A body's octets as its framing writes them (RFC 9112 §7.1): unchanged by length; chunked in one chunk, in chunks
 * of seven octets, with an extension on each chunk, or with a trailer field after the last.
 */
export function framedOctets(octets: string, framing: Framing): string {
  if (!framing.startsWith('chunked')) return octets
  const size = framing === 'chunked in many chunks' ? 7 : Math.max(1, octets.length)
  const extension = framing === 'chunked with a chunk extension' ? ';origin="petstore-conformance";n=1' : ''
  const chunks: string[] = []
  for (let at = 0; at < octets.length; at += size) {
    const chunk = octets.slice(at, at + size)
    chunks.push(`${chunk.length.toString(16)}${extension}\r\n${chunk}\r\n`)
  }
  const trailer = framing === 'chunked with a trailer' ? 'X-Checksum: none\r\n' : ''
  return `${chunks.join('')}0${extension}\r\n${trailer}\r\n`
}
