/**
 * A request that got no usable answer, in words a report can quote: the error undici or the body reader threw,
 * read as one of the failure kinds (traffic.ts) with the bound or the answer before it that explains it.
 */
import { errors as undiciErrors } from 'undici'
import { BodyDecodingFailed, BodyTooLarge } from './body-reader.js'
import { lostOnDroppedConnection, previousWords } from './connection-reuse.js'
import { stopWords, type TransportFailure } from './exchange.js'

/** Most bytes of response headers read: a flood of headers is cut there. */
export const MAX_HEADER_BYTES = 64 * 1024

/** The reason a request is aborted when its time is up. */
export class TimeoutExpired extends Error {
  override name = 'TimeoutError'
}

/** The reason a request is aborted when another request to its operation timed out. */
export class CutShort extends Error {
  override name = 'CutShort'
}

export function stopped(stop: AbortSignal): TransportFailure {
  return { kind: 'stopped', message: `${stopWords(stop)} before an answer came` }
}

export function classify(error: unknown, timeoutMs: number, maxBodyBytes: number, stop: AbortSignal | undefined, operation: string | undefined): TransportFailure {
  if (stop?.aborted) return stopped(stop)
  if (error instanceof CutShort) {
    return { kind: 'cut', message: `cut: another ${operation} request got no answer within ${timeoutMs} ms, so this one was not left to wait out its own timeout` }
  }
  const lost = lostOnDroppedConnection(error)
  if (lost) {
    return {
      kind: 'dropped',
      message: `the connection was ${lost.closed ? 'closed' : 'reset'} by the target before any byte of an answer came: it had just carried ${previousWords(lost.previous)}${lost.announced ? '' : ', which did not say Connection: close'}`,
      ...(lost.unreportedClose ? { unreportedClose: lost.unreportedClose } : {}),
    }
  }
  if (error instanceof BodyTooLarge) return { kind: 'body-too-large', message: `response body over the cap of ${maxBodyBytes} bytes (decoded)` }
  if (error instanceof BodyDecodingFailed) return { kind: 'undecodable', message: error.message }
  if (error instanceof undiciErrors.HeadersOverflowError) return { kind: 'headers-too-large', message: `response headers over the cap of ${MAX_HEADER_BYTES} bytes` }
  const name = error instanceof Error ? error.name : ''
  const cause = (error as { cause?: { code?: string } } | undefined)?.cause
  const code = (error as { code?: string } | undefined)?.code ?? cause?.code ?? ''
  if (name === 'TimeoutError' || name === 'AbortError' || error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return { kind: 'timeout', message: `no complete answer within ${timeoutMs} ms` }
  }
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/i.test(`${code} ${name}`)) {
    return { kind: 'tls', message: `TLS: ${error instanceof Error ? error.message : String(error)} (${code})` }
  }
  const detail = error instanceof Error ? `${error.message}${code ? ` (${code})` : ''}` : String(error)
  if (/^(ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN)$/.test(code)) return { kind: 'unreachable', message: `cannot connect: ${detail}` }
  return { kind: 'connection', message: `connection failed: ${detail}` }
}
