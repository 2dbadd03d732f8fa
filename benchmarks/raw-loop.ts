#!/usr/bin/env node
/**
 * The floors of the paired benchmark: a plain undici loop that sends a list of requests (method, path, headers,
 * body, as a run sent them) to a target, a fixed number in flight on one keep-alive agent, and reads every answer.
 * - raw: each body parsed with JSON.parse. Nothing else: no schema, no evidence, no bookkeeping.
 * - judging: each body read as every verdict needs it, losslessly (parseJson), and held to the schema the interface
 *   gives its operation and status (schemaViolations): the least a conformance suite does with an answer. Its
 *   distance from the raw floor is the part of any ratio to raw that no check, report or generated case is in.
 * Usage: raw-loop.js <requests.json> <base URL> <concurrency> [raw|judging]
 */
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { Agent, request } from 'undici'
import { parseJson } from '../lib/http/json.js'
import { type SchemaName, schemaViolations } from '../lib/spec/schemas.js'

export interface RecordedRequestLine {
  method: string
  /** Path and query below the base URL's origin. */
  url: string
  headers: Record<string, string>
  body?: string
}

export type Floor = 'raw' | 'judging'

// Hop-by-hop and framing headers are the client's own to write (undici refuses Expect: the run's 100-continue edits are replayed without it).
const UNSENT = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'expect'])

/** The schema of an answer to one of the interface's operations: the operation's own for a success, Error for a client error. */
export function schemaOfAnswer(method: string, url: string, status: number): SchemaName | undefined {
  const path = url.split('?')[0] ?? ''
  const success = status >= 200 && status < 300
  if (status >= 400 && status < 500) return /\/pets(\/[^/]+)?$/.test(path) ? 'Error' : undefined
  if (!success) return undefined
  if (path.endsWith('/pets')) return method === 'GET' ? 'Pets' : method === 'POST' ? 'Pet' : undefined
  return /\/pets\/[^/]+$/.test(path) && method === 'GET' ? 'Pet' : undefined
}

function read(text: string, line: RecordedRequestLine, status: number, floor: Floor): void {
  if (floor === 'raw') {
    try {
      JSON.parse(text)
    } catch {
      // Not JSON: the floor parses what it can, as the suite does.
    }
    return
  }
  const parsed = parseJson(text)
  const schema = schemaOfAnswer(line.method, line.url, status)
  if (parsed.ok && schema) schemaViolations(schema, parsed.value)
}

/** Sends every line to `baseUrl`'s origin, `concurrency` in flight, and reads each answer's body as `floor` says. */
export async function replay(lines: readonly RecordedRequestLine[], baseUrl: string, concurrency: number, floor: Floor = 'raw'): Promise<void> {
  const origin = new URL(baseUrl).origin
  const dispatcher = new Agent({ connections: concurrency })
  let next = 0
  const worker = async () => {
    while (next < lines.length) {
      const line = lines[next++] as RecordedRequestLine
      const headers = Object.fromEntries(Object.entries(line.headers).filter(([name]) => !UNSENT.has(name)))
      const answer = await request(`${origin}${line.url}`, { method: line.method as 'GET' | 'POST', headers, ...(line.body !== undefined ? { body: line.body } : {}), dispatcher })
      read(await answer.body.text(), line, answer.statusCode, floor)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  await dispatcher.close()
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [listFile, baseUrl, concurrencyText, floor = 'raw'] = process.argv.slice(2)
  if (!listFile || !baseUrl || (floor !== 'raw' && floor !== 'judging')) throw new Error('usage: raw-loop.js <requests.json> <base URL> <concurrency> [raw|judging]')
  await replay(JSON.parse(readFileSync(listFile, 'utf8')), baseUrl, Number(concurrencyText ?? '8'), floor)
}
