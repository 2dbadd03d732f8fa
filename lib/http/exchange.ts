/**
 * What one request of the suite is, as the client sends it and as evidence records it: the request going out, the
 * request as recorded, the answer or the failure in transit, and the attempts before the last. Also why a run
 * stops early (its deadline, or a cancel), since a stop ends every request in flight in its words.
 */
import type { UnannouncedClose } from './connection-reuse.js'
import type { RecordedResponse, TransportFailureKind } from './traffic.js'

export type { RecordedResponse, TransportFailureKind }

/** Why a run stopped before its end, as the reason of its stop signal: its words end every request and check the stop cut short. */
export class RunStop extends Error {
  override name = 'RunStop'
  constructor(
    readonly kind: 'deadline' | 'cancelled',
    message: string,
  ) {
    super(message)
  }
}

/** The words a stop gives for what it cut short: the RunStop's message, or a plain one. */
export function stopWords(stop: AbortSignal): string {
  return stop.reason instanceof RunStop ? stop.reason.message : 'the run stopped'
}

export interface ProxySettings {
  httpProxy: string
  httpsProxy: string
  noProxy: string
}

export interface OutgoingRequest {
  /** GET or POST; an edited request (`wire`) may carry any method, as written. */
  method: string
  /** Path below the base URL, starting with '/', query included. */
  path: string
  /** Send the path exactly as written: doubled slashes, dot segments and escapes are not normalised. */
  pathAsIs?: boolean
  headers?: Record<string, string>
  body?: string
  /** The body is octets, one per character (as a header value is), sent as written: for bytes that are not UTF-8. */
  bodyIsOctets?: boolean
  /** The operation this request is (`GET /pets`): after two timeouts in a row it is not sent again. */
  operation?: string
  /**
   * The request's head octet for octet (an edited request, see wire-heads.ts): it goes out exactly so, on a
   * connection of its own, `path` is its request-target, `headers` its fields as evidence shows them, and the
   * body octets; it is never sent again after a failure in transit (an edit may well make the target close).
   */
  wire?: string
  /**
   * An edited read whose message HTTP accepts as written: it may go on a kept-alive connection of edited requests
   * (its head then says nothing of closing), and is sent again once, on a connection of its own, if the target
   * closed the kept-alive one before answering. Anything else an edit makes goes on a connection of its own.
   */
  wireKeptAlive?: boolean
  /** Send it on a connection of its own: a create sent again after the one before was lost on a kept-alive connection. */
  freshConnection?: true
}

export interface RecordedRequest {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
  /** The body is octets, one per character, not text sent as UTF-8. */
  bodyIsOctets?: true
  /** The path was sent as written, not normalised (curl needs --path-as-is to do the same). */
  pathAsIs?: boolean
  /** The request's own time limit, in ms (curl's --max-time). */
  timeoutMs: number
  /** The head as it went on the wire, for a request written octet for octet. */
  wire?: string
}

export interface TransportFailure {
  kind: TransportFailureKind
  message: string
  /** Nothing went out: the operation was given up, or the run stopped while the request waited for its place. */
  notSent?: true
  /** A timeout before any byte of an answer: the target took the request and said nothing (not even a status line). */
  silent?: true
  /** A `dropped` request whose connection the target reset right after an unannounced answer: a close to report once the request is answered elsewhere. */
  unreportedClose?: UnannouncedClose
}

export interface Attempt {
  status?: number
  failure?: string
  /** Time waited before the next attempt, in ms. */
  waitedMs?: number
}

export interface Exchange {
  id: number
  request: RecordedRequest
  response?: RecordedResponse
  failure?: TransportFailure
  /** Earlier attempts that were retried (rate limit, or a network error on a read). */
  retries: Attempt[]
  durationMs: number
}
