/** Evidence of an exchange as it goes into reports: key redacted, bodies cut, a curl line that replays it. */

import { excerpt } from '../http/excerpt.js'
import type { Exchange } from '../http/exchange.js'
import { nameOnTheWire } from '../http/field-names.js'
import { excerptOfBody } from '../http/kept-bodies.js'
import { bodyOctets, needsOctets, octetRuns, showOctets } from '../http/octets.js'
import { RecentlyUsed } from '../http/recently-used.js'
import { createRedactor, KEY_MASK_PATTERN, type Redactor, type Secret } from '../http/redaction.js'
import { EDIT_OPERATOR_IDS } from '../settings/edit-operator-ids.js'
import { catalogue } from '../spec/catalogue.js'

export const EVIDENCE_BODY_LIMIT = 4096

export interface Evidence {
  /** The trace and span ids of the request's traceparent, when it carried one: what a vendor greps their logs for. */
  trace?: { traceId: string; spanId: string }
  request: { method: string; url: string; headers: Record<string, string>; body?: string; wire?: string }
  response?: { status: number; headers: Record<string, string>; body: string; bodyBytes: number }
  failure?: string
  retries: number
  durationMs: number
  curl: string
}

const cut = (text: string) => excerpt(text, EVIDENCE_BODY_LIMIT)

/** The redactors made most recently, by their key and secrets: runs in one process with the same key share one. */
const recentRedactors = new RecentlyUsed<string, Redactor>({ maxEntries: 4 })

/**
 * The redactor of a run: the key, every token made from it and the run's other secrets, with the requirement ids
 * left whole. Runs of one process with the same key and secrets (the typed API called again, a fleet's targets
 * sharing a key, a vitest project's suites) share one, and with it what it already worked out for the texts every
 * run reports (the checks' titles): those were most of the redactor's work.
 */
export function createRunRedactor(apiKey: string | undefined, secrets: readonly Secret[] = []): Redactor {
  const identity = JSON.stringify([apiKey ?? null, secrets])
  let redactor = recentRedactors.get(identity)
  if (!redactor) {
    redactor = createRedactor(apiKey, secrets, [...Object.keys(catalogue), ...EDIT_OPERATOR_IDS])
    recentRedactors.set(identity, redactor)
  }
  return redactor
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/** What the shell expands in a curl line: a mask of the key (or of a token made from it), or a `${VAR}` an extra header was written with. */
const SHELL_REFERENCE = new RegExp(`(${KEY_MASK_PATTERN.source}|\\$\\{[A-Za-z_][A-Za-z0-9_]*\\})`)

/** Headers a curl line leaves out: the run's own trace and User-Agent (curl sends its own), so a replay is not taken for the run's request. */
function ownedByTheRun(name: string, value: string): boolean {
  return name === 'traceparent' || (name === 'user-agent' && value.startsWith('petstore-conformance/'))
}

/**
 * A curl command that sends the same request; the key stays in the environment as $PETSTORE_API_KEY, and an
 * extra header written as `${VAR}` reads the same variable.
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
    if (ownedByTheRun(name, value)) continue
    parts.push('-H', shellWord(`${nameOnTheWire(name)}: ${redact(value)}`))
  }
  if (body !== undefined) parts.push('--data-binary', shellWord(sentOctets(exchange.request, redact(body))))
  return parts.join(' ')
}

/**
 * One shell word that is exactly these octets: printable stretches quoted (double quotes where a mask or a
 * `${VAR}` must expand), every other octet as `$'\xC2\xA0'`, so the line is plain ASCII in every report and
 * the shell hands curl the bytes the run sent.
 */
function shellWord(octets: string): string {
  const runs = octetRuns(octets)
  if (runs.length === 0) return "''"
  return runs
    .map((run) => {
      if ('octets' in run) return `$'${run.octets.map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('')}'`
      return SHELL_REFERENCE.test(run.text) ? doubleQuoteKeepingReferences(run.text) : shellQuote(run.text)
    })
    .join('')
}

/** A header value as evidence shows it: the octets that went out where any is not printable ASCII. */
function shownHeader(value: string): string {
  return needsOctets(value) ? showOctets(value) : value
}

/** The octets a body went out as: its UTF-8, or, for a body sent as octets, one per character. */
function sentOctets(request: Exchange['request'], body: string): string {
  return request.bodyIsOctets ? body : bodyOctets(body)
}

/** A request body as evidence shows it: the octets it went out as, where any is not printable ASCII (tab and line breaks aside). */
function shownBody(request: Exchange['request'], body: string): string {
  const octets = sentOctets(request, body)
  return needsOctets(octets, true) ? showOctets(octets, true) : body
}

/** Double-quoted so the shell expands $PETSTORE_API_KEY and `${VAR}` references, with every other special character escaped. */
function doubleQuoteKeepingReferences(text: string): string {
  const parts = text.split(SHELL_REFERENCE).map((part, index) => (index % 2 === 1 ? part : part.replace(/(["\\`$])/g, '\\$1')))
  return `"${parts.join('')}"`
}

/** The ids a request's traceparent carried. */
function traceOf(headers: Record<string, string>): Pick<Evidence, 'trace'> {
  const ids = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(headers.traceparent ?? '')
  return ids?.[1] && ids[2] ? { trace: { traceId: ids[1], spanId: ids[2] } } : {}
}

/** The trace and span of an exchange as one line of a report. */
export function traceLine(evidence: Evidence): string | undefined {
  return evidence.trace ? `in your logs: trace ${evidence.trace.traceId}, span ${evidence.trace.spanId}` : undefined
}

/**
 * A shell line that sends a request written octet for octet (an edited one, which curl cannot send): the head and
 * body as one printf word, to nc, or to openssl s_client for https. The key stays in the environment.
 */
function wireReplay(exchange: Exchange, redact: Redactor): string {
  const { url, wire = '', body = '' } = exchange.request
  const target = new URL(url)
  const port = target.port || (target.protocol === 'https:' ? '443' : '80')
  const send = target.protocol === 'https:' ? `openssl s_client -quiet -connect ${target.hostname}:${port}` : `nc ${target.hostname} ${port}`
  return `printf '%s' ${shellWord(redact(`${wire}${body}`))} | ${send}`
}

export function toEvidence(exchange: Exchange, redact: Redactor): Evidence {
  const redactHeaders = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [redact(name), shownHeader(redact(value))]))
  const { request, response } = exchange
  return {
    ...traceOf(request.headers),
    request: {
      method: request.method,
      url: redact(request.url),
      headers: redactHeaders(request.headers),
      ...(request.body !== undefined ? { body: shownBody(request, redact(cut(request.body))) } : {}),
      ...(request.wire !== undefined ? { wire: showOctets(redact(request.wire), true) } : {}),
    },
    ...(response
      ? {
          response: {
            status: response.status,
            headers: redactHeaders(response.headers),
            body: redact(excerptOfBody(response, EVIDENCE_BODY_LIMIT)),
            bodyBytes: response.bodyBytes,
          },
        }
      : {}),
    ...(exchange.failure ? { failure: exchange.failure.message } : {}),
    retries: exchange.retries.length,
    durationMs: Math.round(exchange.durationMs),
    curl: request.wire !== undefined ? wireReplay(exchange, redact) : curlLine(exchange, redact),
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
    '#!/usr/bin/env bash',
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
