/** An attempt's record for the traffic log: its answer's headers as one record, and what a HAR file keeps of it. */

import { excerpt } from './excerpt.js'
import type { RecordedRequest, TransportFailure } from './exchange.js'
import type { AttemptRecord, RecordedResponse } from './traffic.js'

/** undici's headers as one record: names in lower case, a field given several times joined with commas (RFC 9110 §5.3). */
export function headerRecord(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return headers
}

/** What a HAR file needs of an attempt, when the run writes one (`limit`: bodies cut there): the headers and body sent, and the answer. */
export function keptForHar(
  limit: number | undefined,
  request: RecordedRequest,
  outcome: { response: RecordedResponse } | { failure: TransportFailure },
): Pick<AttemptRecord, 'sent' | 'answer'> {
  if (limit === undefined) return {}
  // The attempt's own headers object: the next attempt gets a new one (its own traceparent), so this one is not copied.
  const sent = {
    headers: request.headers,
    ...(request.body !== undefined ? { body: excerpt(request.body, limit), bodyBytes: Buffer.byteLength(request.body, request.bodyIsOctets ? 'latin1' : 'utf8') } : {}),
    ...(request.wire !== undefined ? { head: headAsWritten(request.wire) } : {}),
  }
  return 'response' in outcome ? { sent, answer: { ...outcome.response, body: excerpt(outcome.response.body, limit) } } : { sent }
}

/** A head written octet for octet, as a HAR entry shows it: the request line's target and version, and every field line in order. */
function headAsWritten(wire: string): NonNullable<NonNullable<AttemptRecord['sent']>['head']> {
  const [requestLine = '', ...lines] = wire.replace(/\r\n\r\n$/, '').split('\r\n')
  const parts = requestLine.split(' ')
  return {
    target: parts.slice(1, -1).join(' '),
    version: parts.at(-1) ?? '',
    fields: lines.map((line) => {
      const colon = line.indexOf(':')
      return colon < 0 ? { name: line, value: '' } : { name: line.slice(0, colon), value: line.slice(colon + 1).trim() }
    }),
  }
}
