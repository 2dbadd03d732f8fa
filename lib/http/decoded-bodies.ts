/**
 * Answers' bodies as text. A hostile target may answer every request with the same megabyte; decoding it anew for
 * each answer gives the engine a megabyte of garbage per request, faster than it collects it, and the run's peak
 * memory follows (policy §5: under 300 MiB whatever the target sends). So the last few large bodies are
 * remembered with their bytes: a large body whose bytes equal one of them (compared whole, not by a hash) is the
 * same text, and gets the same string. The readings of a body (client.ts) are keyed by that text, so an answer
 * repeated is decoded, parsed and judged once.
 */
import { isUtf8 } from 'node:buffer'
import { RecentlyUsed } from './recently-used.js'

/** Bodies this large and over are remembered (and smaller ones are cheap to decode again); the client counts them in its memory budget too. */
export const LARGE_BODY_BYTES = 64 * 1024
/** How many large bodies are remembered: with the body cap, a bound on the bytes and text kept. */
const REMEMBERED = 4

const recentLargeBodies = new RecentlyUsed<Buffer, DecodedBody>({ maxEntries: REMEMBERED })

/** A body as text, and whether its bytes were UTF-8 at all (RFC 8259 §8.1: JSON text between systems is UTF-8). */
export interface DecodedBody {
  body: string
  /** The bytes hold a sequence UTF-8 never holds (a lone surrogate written as CESU-8, Latin-1): the text has U+FFFD in its place. */
  notUtf8?: true
}

/**
 * The text (UTF-8, as it was sent) of a body of `byteLength` bytes that came in `chunks`; one string for a large
 * body whose bytes repeat a recent one's, found without joining the chunks.
 */
export function bodyText(chunks: readonly Buffer[], byteLength = byteLengthOf(chunks)): string {
  return decodedBody(chunks, byteLength).body
}

/** The body as text, and whether its bytes were UTF-8 (bodyText). */
export function decodedBody(chunks: readonly Buffer[], byteLength = byteLengthOf(chunks)): DecodedBody {
  const decoded = (bytes: Buffer): DecodedBody => (isUtf8(bytes) ? { body: bytes.toString('utf8') } : { body: bytes.toString('utf8'), notUtf8: true })
  if (byteLength < LARGE_BODY_BYTES) return decoded(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, byteLength))
  const known = recentLargeBodies.find((earlier) => earlier.length === byteLength && holds(earlier, chunks))
  if (known !== undefined) return known
  const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, byteLength)
  const text = decoded(bytes)
  recentLargeBodies.set(bytes, text)
  return text
}

function byteLengthOf(chunks: readonly Buffer[]): number {
  let length = 0
  for (const chunk of chunks) length += chunk.length
  return length
}

/** Whether `bytes` are the chunks one after another (their lengths adding up to its own). */
function holds(bytes: Buffer, chunks: readonly Buffer[]): boolean {
  let offset = 0
  for (const chunk of chunks) {
    if (bytes.compare(chunk, 0, chunk.length, offset, offset + chunk.length) !== 0) return false
    offset += chunk.length
  }
  return true
}
