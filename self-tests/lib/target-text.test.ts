import { gzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { BodyTooLarge, readBody } from '../../lib/http/body-reader.js'
import { LargeBodyGate } from '../../lib/http/caps.js'
import { escapeControlCharacters } from '../../lib/reports/control-characters.js'

/** A body stream of these chunks, with the destroy() undici bodies have. */
function streamOf(chunks: Buffer[]) {
  let destroyed = false
  return {
    async *[Symbol.asyncIterator]() {
      for (const chunk of chunks) if (!destroyed) yield chunk
    },
    destroy: () => {
      destroyed = true
    },
  }
}

describe('what the target sends is data, bounded after decoding', () => {
  test('control characters and terminal escapes are spelled out; tab, line feed and ordinary text pass unchanged', () => {
    expect(escapeControlCharacters('\u001b]0;pwned\u0007\u001b[2J red\u009b')).toBe('\\u001b]0;pwned\\u0007\\u001b[2J red\\u009b')
    expect(escapeControlCharacters('line\tone\nline two é 🐶')).toBe('line\tone\nline two é 🐶')
  })

  test('a gzip body is inflated as it streams and cut at the cap on decoded bytes, not on what came over the wire', async () => {
    const inflated = Buffer.alloc(64 * 1024, 0x20)
    const compressed = gzipSync(inflated)
    expect(compressed.length).toBeLessThan(1024)
    await expect(readBody(streamOf([compressed]), 'gzip', 16 * 1024)).rejects.toBeInstanceOf(BodyTooLarge)
    const read = await readBody(streamOf([compressed.subarray(0, 10), compressed.subarray(10)]), 'gzip', 1024 * 1024)
    expect(Buffer.concat(read.chunks).equals(inflated)).toBe(true)
    expect(read.byteLength).toBe(inflated.length)
    expect(read.wireBytes).toBe(compressed.length)
  })

  test('an answer with a Content-Encoding and no octets at all (a 204, an answer to HEAD) is an empty body, not one that cannot be decoded; a truncated one still cannot', async () => {
    for (const coding of ['gzip', 'deflate', 'br', 'zstd']) {
      const read = await readBody(streamOf([]), coding, 1024)
      expect(read).toEqual({ chunks: [], byteLength: 0, wireBytes: 0 })
    }
    await expect(readBody(streamOf([gzipSync(Buffer.from('[1,2]')).subarray(0, 8)]), 'gzip', 1024)).rejects.toThrow(/cannot be decoded/)
  })

  test('a body in no known encoding is kept as it came, and cut at the cap', async () => {
    const read = await readBody(streamOf([Buffer.from('[1,'), Buffer.from('2]')]), undefined, 10)
    expect(Buffer.concat(read.chunks).toString()).toBe('[1,2]')
    expect(read.byteLength).toBe(5)
    await expect(readBody(streamOf([Buffer.alloc(11)]), 'identity', 10)).rejects.toBeInstanceOf(BodyTooLarge)
  })

  test('large bodies are read a few at a time: past the threshold a body waits for a slot, and a slot comes back when a body ends, even one cut at the cap', async () => {
    const gate = new LargeBodyGate(100, 2)
    let reading = 0
    let most = 0
    /** A body of three 80-byte chunks that counts how many bodies are read past the threshold (160 bytes, after two chunks) at once. */
    const large = () => {
      return {
        async *[Symbol.asyncIterator]() {
          for (let index = 0; index < 3; index++) {
            if (index === 2) {
              reading += 1
              most = Math.max(most, reading)
            }
            // Each chunk a turn of the event loop later, so that bodies interleave.
            await new Promise((resolve) => setImmediate(resolve))
            yield Buffer.alloc(80)
          }
          reading -= 1
        },
        destroy: () => {},
      }
    }
    const reads = await Promise.all(Array.from({ length: 6 }, () => readBody(large(), undefined, 1024, gate)))
    expect(reads.map((read) => read.byteLength)).toEqual([240, 240, 240, 240, 240, 240])
    // Six bodies interleaved, and never more than the two slots read past the threshold at once.
    expect(most).toBe(2)
    await expect(readBody(streamOf([Buffer.alloc(150), Buffer.alloc(150)]), undefined, 200, gate)).rejects.toBeInstanceOf(BodyTooLarge)
    // Both slots free again: two more large bodies are read at once without waiting on each other.
    const release = await Promise.all([gate.acquire(), gate.acquire()])
    for (const give of release) give()
  })
})
