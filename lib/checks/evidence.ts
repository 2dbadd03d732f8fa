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

/**
 * A curl command that sends the same request; the key stays in the environment as $PETSTORE_API_KEY.
 * `url` replaces the quoted URL (a script splices a shell variable into it); `headersOut: false` prints the body only.
 */
export function curlLine(exchange: Exchange, redact: Redactor, options: { url?: string; headersOut?: boolean } = {}): string {
  const { method, url, headers, body, pathAsIs, timeoutMs } = exchange.request
  const parts = [
    'curl',
    '-sS',
    ...(options.headersOut === false ? [] : ['-i']),
    '--max-time',
    String(Math.ceil(timeoutMs / 1000)),
    ...(pathAsIs ? ['--path-as-is'] : []),
    '-X',
    method,
    options.url ?? shellQuote(redact(url)),
  ]
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

/** The id of the pet a 201 answer created, read by the shell from the body (digits kept exact, unlike jq). */
const READ_ID = `sed -n 's/.*"id"[[:space:]]*:[[:space:]]*\\(-\\{0,1\\}[0-9][0-9]*\\).*/\\1/p'`

/**
 * A shell script that sends a sequence's exchanges again, one after another, in the order they came back.
 * The id each 201 answer carries is read into PET_1, PET_2, … and later requests for that pet use it, so
 * the script replays the sequence on a store where the service assigns other ids.
 */
export function curlScript(exchanges: readonly Exchange[], redact: Redactor, what: string): string {
  const lines = [
    '#!/bin/sh',
    `# ${what}, replayed request by request. Set PETSTORE_API_KEY first.`,
    '# Ids the service assigns are read from each 201 answer into PET_1, PET_2, …; requests the run sent at once go one after another here.',
  ]
  const variables = new Map<string, string>()
  exchanges.forEach((exchange, index) => {
    const { request, response } = exchange
    const path = new URL(request.url).pathname
    const id = /\/pets\/(-?\d+)$/.exec(path)?.[1]
    const variable = id !== undefined ? variables.get(id) : undefined
    const quotedUrl = variable ? `${shellQuote(redact(request.url.slice(0, request.url.lastIndexOf('/') + 1)))}"$${variable}"` : undefined
    lines.push('', `# ${index + 1}. ${request.method} ${redact(path)}${new URL(request.url).search} (answered ${response ? response.status : 'nothing'} in the run)`)
    const created = request.method === 'POST' && response?.status === 201 ? /"id"\s*:\s*(-?\d+)/.exec(response.body)?.[1] : undefined
    if (created === undefined) {
      lines.push(curlLine(exchange, redact, quotedUrl ? { url: quotedUrl } : {}))
      return
    }
    const name = `PET_${variables.size + 1}`
    variables.set(created, name)
    lines.push(
      `answer=$(${curlLine(exchange, redact, { headersOut: false })})`,
      'printf \'%s\\n\' "$answer"',
      `${name}=$(printf '%s' "$answer" | ${READ_ID})  # ${created} in the run`,
    )
  })
  return `${lines.join('\n')}\n`
}
