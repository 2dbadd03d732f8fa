/** Evidence of an exchange as it goes into reports: key redacted, bodies cut, a curl line that replays it. */
import type { Exchange } from '../http/client.js'
import { excerpt } from '../http/excerpt.js'
import { KEY_PLACEHOLDER, type Redactor } from '../http/redaction.js'

export const EVIDENCE_BODY_LIMIT = 4096

export interface Evidence {
  request: { method: string; url: string; headers: Record<string, string>; body?: string }
  response?: { status: number; headers: Record<string, string>; body: string; bodyBytes: number }
  failure?: string
  retries: number
  durationMs: number
  curl: string
}

const cut = (text: string) => excerpt(text, EVIDENCE_BODY_LIMIT)

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/** A curl command that sends the same request; the key stays in the environment as $PETSTORE_API_KEY. */
export function curlLine(exchange: Exchange, redact: Redactor): string {
  const { method, url, headers, body, pathAsIs, timeoutMs } = exchange.request
  const parts = ['curl', '-sS', '-i', '--max-time', String(Math.ceil(timeoutMs / 1000)), ...(pathAsIs ? ['--path-as-is'] : []), '-X', method, shellQuote(redact(url))]
  for (const [name, value] of Object.entries(headers)) {
    const line = `${name}: ${redact(value)}`
    parts.push('-H', line.includes(KEY_PLACEHOLDER) ? doubleQuoteKeepingKey(line) : shellQuote(line))
  }
  if (body !== undefined) parts.push('--data-binary', shellQuote(redact(body)))
  return parts.join(' ')
}

/** Double-quoted so the shell expands $PETSTORE_API_KEY, with every other special character escaped. */
function doubleQuoteKeepingKey(text: string): string {
  const escaped = text.split(KEY_PLACEHOLDER).map((part) => part.replace(/(["\\`$])/g, '\\$1'))
  return `"${escaped.join(KEY_PLACEHOLDER)}"`
}

export function toEvidence(exchange: Exchange, redact: Redactor): Evidence {
  const redactHeaders = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [redact(name), redact(value)]))
  const { request, response } = exchange
  return {
    request: {
      method: request.method,
      url: redact(request.url),
      headers: redactHeaders(request.headers),
      ...(request.body !== undefined ? { body: redact(cut(request.body)) } : {}),
    },
    ...(response ? { response: { status: response.status, headers: redactHeaders(response.headers), body: redact(cut(response.body)), bodyBytes: response.bodyBytes } } : {}),
    ...(exchange.failure ? { failure: exchange.failure.message } : {}),
    retries: exchange.retries.length,
    durationMs: Math.round(exchange.durationMs),
    curl: curlLine(exchange, redact),
  }
}
