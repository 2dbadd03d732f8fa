/**
 * Reads a response body within a cap that counts decoded bytes: a gzip, deflate or brotli body is inflated
 * as it streams and cut the moment it passes the cap, so a small body that inflates to gigabytes costs no
 * more memory than the cap. A body in an encoding this reader does not know is kept as it came.
 */

import { Duplex } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate, createZstdDecompress } from 'node:zlib'
import type { LargeBodyGate } from './caps.js'

export class BodyTooLarge extends Error {
  override name = 'BodyTooLarge'
}

export class BodyDecodingFailed extends Error {
  override name = 'BodyDecodingFailed'
}

function decoderOf(coding: string): Duplex | undefined {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip()
    case 'deflate':
      return createInflate()
    case 'br':
      return createBrotliDecompress()
    case 'zstd':
      return createZstdDecompress()
    default:
      return undefined
  }
}

/**
 * The decoder of a Content-Encoding: its codings are listed in the order they were applied (RFC 9110 §8.4), so they
 * are undone last first; `identity` is no coding. Undefined when there is none, or one this reader does not know.
 */
function decoderFor(encoding: string | undefined): Duplex | undefined {
  const codings = (encoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
  const decoders = codings.reverse().map(decoderOf)
  if (decoders.length === 0 || decoders.some((decoder) => decoder === undefined)) return undefined
  const [first, ...rest] = decoders as Duplex[]
  if (rest.length === 0) return first
  const last = rest.reduce<Duplex>((from, to) => from.pipe(to), first as Duplex)
  return Duplex.from({ writable: first, readable: last })
}

/** Waits until the decoder takes more input, or is gone (cut at the cap, or failed). */
function drainedOrClosed(decoder: Duplex): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      decoder.off('drain', done)
      decoder.off('close', done)
      resolve()
    }
    decoder.once('drain', done)
    decoder.once('close', done)
  })
}

/**
 * The body's decoded bytes, in the chunks they came in (joined only by whoever needs them joined), or BodyTooLarge
 * once they pass `maxBytes`; `wireBytes` counts what came over the wire.
 */
export async function readBody(
  body: AsyncIterable<unknown> & { destroy(): void },
  contentEncoding: string | undefined,
  maxBytes: number,
  gate?: LargeBodyGate,
): Promise<{ chunks: Buffer[]; byteLength: number; wireBytes: number }> {
  let release: (() => void) | undefined
  try {
    // A wait only for the chunk that takes a body past the threshold: every other chunk goes on at once.
    return await readWithin(body, contentEncoding, maxBytes, (decoded) =>
      gate && !release && decoded > gate.thresholdBytes
        ? gate.acquire().then((give) => {
            release = give
          })
        : undefined,
    )
  } finally {
    release?.()
  }
}

async function readWithin(
  body: AsyncIterable<unknown> & { destroy(): void },
  contentEncoding: string | undefined,
  maxBytes: number,
  grown: (decoded: number) => Promise<void> | undefined,
): Promise<{ chunks: Buffer[]; byteLength: number; wireBytes: number }> {
  const chunks: Buffer[] = []
  let decoded = 0
  let wireBytes = 0
  const keep = (chunk: Buffer): Promise<void> | undefined => {
    decoded += chunk.length
    if (decoded > maxBytes) throw new BodyTooLarge()
    chunks.push(chunk)
    return grown(decoded)
  }
  const decoder = decoderFor(contentEncoding)
  if (!decoder) {
    for await (const chunk of body) {
      wireBytes += (chunk as Buffer).length
      try {
        const waiting = keep(chunk as Buffer)
        if (waiting) await waiting
      } catch (error) {
        body.destroy()
        throw error
      }
    }
    return { chunks, byteLength: decoded, wireBytes }
  }
  // Inflate as the body streams, counting what comes out; stop reading the moment it passes the cap.
  const decodedChunks = (async function* () {
    for await (const chunk of decoder) yield chunk as Buffer
  })()
  const feeding = (async () => {
    try {
      for await (const chunk of body) {
        wireBytes += (chunk as Buffer).length
        if (decoder.destroyed) break
        if (!decoder.write(chunk as Buffer)) await drainedOrClosed(decoder)
      }
      decoder.end()
    } catch (error) {
      decoder.destroy(error instanceof Error ? error : new Error(String(error)))
    }
  })()
  try {
    for await (const chunk of decodedChunks) {
      const waiting = keep(chunk)
      if (waiting) await waiting
    }
  } catch (error) {
    body.destroy()
    decoder.destroy()
    if (error instanceof BodyTooLarge) throw error
    // No octets at all (a 204, a 304, an answer to HEAD): there is no content for a coding to apply to (RFC 9110 §8.4).
    if (wireBytes === 0) return { chunks: [], byteLength: 0, wireBytes }
    throw new BodyDecodingFailed(`the ${contentEncoding} body cannot be decoded: ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    await feeding
  }
  return { chunks, byteLength: decoded, wireBytes }
}
