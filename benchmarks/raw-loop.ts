#!/usr/bin/env node
/**
 * The floor of the paired benchmark: a plain undici loop that sends a list of requests (method, path, headers,
 * body, as a run sent them) to a target, a fixed number in flight on one keep-alive agent, and parses every
 * answer's body with JSON.parse. Nothing else: no schema, no evidence, no bookkeeping.
 * Usage: raw-loop.js <requests.json> <base URL> <concurrency>
 */
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { Agent, request } from 'undici'

export interface RecordedRequestLine {
  method: string
  /** Path and query below the base URL's origin. */
  url: string
  headers: Record<string, string>
  body?: string
}

// Hop-by-hop and framing headers are the client's own to write.
const UNSENT = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'])

/** Sends every line to `baseUrl`'s origin, `concurrency` in flight, and parses each answer's body. */
export async function replay(lines: readonly RecordedRequestLine[], baseUrl: string, concurrency: number): Promise<void> {
  const origin = new URL(baseUrl).origin
  const dispatcher = new Agent({ connections: concurrency })
  let next = 0
  const worker = async () => {
    while (next < lines.length) {
      const line = lines[next++] as RecordedRequestLine
      const headers = Object.fromEntries(Object.entries(line.headers).filter(([name]) => !UNSENT.has(name)))
      const answer = await request(`${origin}${line.url}`, { method: line.method as 'GET' | 'POST', headers, ...(line.body !== undefined ? { body: line.body } : {}), dispatcher })
      const text = await answer.body.text()
      try {
        JSON.parse(text)
      } catch {
        // Not JSON: the floor parses what it can, as the suite does.
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  await dispatcher.close()
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [listFile, baseUrl, concurrencyText] = process.argv.slice(2)
  if (!listFile || !baseUrl) throw new Error('usage: raw-loop.js <requests.json> <base URL> <concurrency>')
  await replay(JSON.parse(readFileSync(listFile, 'utf8')), baseUrl, Number(concurrencyText ?? '8'))
}
