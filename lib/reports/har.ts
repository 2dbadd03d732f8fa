/**
 * The run's exchanges as a HAR 1.2 file (http://www.softwareishard.com/blog/har-12-spec/), for a browser's
 * network panel or any HAR viewer: one entry per request the target received, retries included, in the
 * order they were sent. Each entry names the requirements that judged its exchange (`_requirements`), the
 * span id of its traceparent (`_spanId`) and whether it was retried. Bodies are cut at the evidence cap,
 * and every string is masked as the reports are.
 */
import { createRequire } from 'node:module'
import type { CheckReport } from '../checks/check-result.js'
import { type Redactor, redactDeep } from '../http/redaction.js'
import type { AttemptRecord } from '../http/traffic.js'
import type { RunTrace } from './run-result.js'

/**
 * The reason phrases by status. Read through require: an ESM import of node:http builds its namespace from every
 * export, and on Node 22 and later one of them is a getter that loads Node's own copy of undici (60 ms of CPU at
 * every start of the command, for one table of strings).
 */
const { STATUS_CODES } = createRequire(import.meta.url)('node:http') as typeof import('node:http')

interface HarHeader {
  name: string
  value: string
}

function harHeaders(headers: Record<string, string> | undefined): HarHeader[] {
  return Object.entries(headers ?? {}).map(([name, value]) => ({ name, value }))
}

function queryString(url: string): HarHeader[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }))
  } catch {
    return []
  }
}

/** Which requirements judged each exchange: those of the checks that recorded it, and those judged on every answer. */
export function requirementsByExchange(reports: readonly CheckReport[]): Map<number, string[]> {
  const tags = new Map<number, Set<string>>()
  const tag = (exchangeId: number, requirementId: string) => {
    const set = tags.get(exchangeId) ?? new Set<string>()
    set.add(requirementId)
    tags.set(exchangeId, set)
  }
  for (const report of reports) {
    for (const exchangeId of report.exchangeIds) tag(exchangeId, report.requirementId)
    for (const finding of report.incidental) tag(finding.exchangeId, finding.requirementId)
  }
  return new Map([...tags].map(([exchangeId, set]) => [exchangeId, [...set].sort()]))
}

function entry(attempt: AttemptRecord, requirements: readonly string[]) {
  const { sent, answer } = attempt
  const contentType = (headers: Record<string, string> | undefined) => headers?.['content-type'] ?? ''
  return {
    startedDateTime: new Date(attempt.startedAt).toISOString(),
    time: Math.round(attempt.durationMs),
    request: {
      method: attempt.method,
      url: attempt.url,
      // An edited request as it was written: HTTP/1.0, the framing's fields, a target in absolute-form (`_target`).
      httpVersion: sent?.head?.version ?? 'HTTP/1.1',
      cookies: [],
      headers: sent?.head?.fields ?? harHeaders(sent?.headers),
      ...(sent?.head && !sent.head.target.startsWith('/') ? { _target: sent.head.target } : {}),
      queryString: queryString(attempt.url),
      ...(sent?.body !== undefined ? { postData: { mimeType: contentType(sent.headers), text: sent.body } } : {}),
      headersSize: -1,
      bodySize: sent?.bodyBytes ?? (sent?.body !== undefined ? Buffer.byteLength(sent.body) : 0),
    },
    response: {
      // HAR has no field for "no answer": status 0, and the reason in _error.
      status: answer?.status ?? 0,
      statusText: answer ? (STATUS_CODES[answer.status] ?? '') : '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(answer?.headers),
      content: { size: answer?.bodyBytes ?? 0, mimeType: contentType(answer?.headers), ...(answer ? { text: answer.body } : {}) },
      redirectURL: '',
      headersSize: -1,
      bodySize: answer?.bodyBytes ?? -1,
    },
    cache: {},
    timings: { send: 0, wait: Math.round(attempt.durationMs), receive: 0 },
    _exchangeId: attempt.exchangeId,
    _requirements: requirements,
    ...(attempt.spanId ? { _spanId: attempt.spanId } : {}),
    ...(attempt.retried ? { _retried: true } : {}),
    ...(attempt.failure ? { _error: attempt.failure.message } : {}),
  }
}

/** The HAR file of a run: every attempt, in the order sent, masked by `redact`. */
export function renderHar(options: { attempts: readonly AttemptRecord[]; reports: readonly CheckReport[]; trace: RunTrace; version: string; redact: Redactor }): string {
  const tags = requirementsByExchange(options.reports)
  const entries = [...options.attempts].sort((a, b) => a.startedAt - b.startedAt).map((attempt) => entry(attempt, tags.get(attempt.exchangeId) ?? []))
  const { trace } = options
  const log = {
    version: '1.2',
    creator: { name: 'petstore-conformance', version: options.version },
    comment: `${trace.traceId ? `trace ${trace.traceId}, ` : ''}User-Agent ${trace.userAgent}; bodies cut at the evidence cap; secrets masked`,
    entries,
  }
  return `${JSON.stringify(redactDeep({ log }, options.redact), null, 1)}\n`
}
