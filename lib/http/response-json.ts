/** Answers' bodies read as JSON, losslessly, once per body: what the checks read of an exchange. */
import type { Exchange } from './exchange.js'
import { isJsonObject, type JsonParseResult, type JsonValue, parseJson } from './json.js'
import { RecentlyUsed } from './recently-used.js'
import type { RecordedResponse } from './traffic.js'

/** Each answer's body as parsed, once: by the answer, so that a body moved out of memory (kept-bodies.ts) takes its reading with it. */
const parsedBodies = new WeakMap<RecordedResponse, JsonParseResult>()

/** Drops what was worked out from an answer's body (its body moved out of memory: kept-bodies.ts). */
export function forgetReading(response: RecordedResponse): void {
  parsedBodies.delete(response)
}

/**
 * Readings of bodies by their text, the most recently used kept: a target answers the same body again and again
 * (a page of a store that did not change, the same Error, the same megabyte to every request), and a reading of a
 * text is a pure function of it, so each distinct body is parsed once, and, since a schema's judgement is memoised
 * on the parsed value, judged once. Nothing reads a parsed body to change it. Bodies up to 64 KiB are kept up to
 * 2 MiB of text together; of larger ones, the last four.
 */
const REMEMBERED_BODY_CHARS = 64 * 1024
const readingsOfBodies = new RecentlyUsed<string, JsonParseResult>({ maxWeight: 2 * 1024 * 1024, weigh: (text) => text.length })
const readingsOfLargeBodies = new RecentlyUsed<string, JsonParseResult>({ maxEntries: 4 })

function parseBody(text: string): JsonParseResult {
  const readings = text.length > REMEMBERED_BODY_CHARS ? readingsOfLargeBodies : readingsOfBodies
  const known = readings.get(text)
  if (known) return known
  const parsed = parseJson(text)
  readings.set(text, parsed)
  return parsed
}

/** The body as a JSON object, when it is one (parsed once, like responseJson). */
export function responseObject(exchange: Exchange): { [key: string]: JsonValue } | undefined {
  const parsed = responseJson(exchange)
  return parsed.ok && isJsonObject(parsed.value) ? parsed.value : undefined
}

export function responseJson(exchange: Exchange): JsonParseResult {
  const { response } = exchange
  if (!response) return { ok: false, error: 'no response' }
  let parsed = parsedBodies.get(response)
  if (!parsed) {
    parsed = parseBody(response.body)
    parsedBodies.set(response, parsed)
  }
  return parsed
}
