/**
 * Every request the run sent, one record per attempt (a retried request is several): when it went, how long
 * it took, what came back. The report's timeline and latencies are drawn from it, and, when the run writes a
 * HAR file, each record also keeps the headers and bodies of its exchange.
 */
export interface RecordedResponse {
  status: number
  headers: Record<string, string>
  /** The body as text, cut at the size cap. */
  body: string
  bodyBytes: number
  /** The body's bytes are not UTF-8 (decoded-bodies.ts): no JSON text between systems (RFC 8259 §8.1). */
  notUtf8?: true
  /** To HEAD, written octet for octet: the octets the answer carried after its head (wire-heads.ts), which an answer to HEAD never has. */
  contentAfterHead?: number
}

/**
 * Why an attempt got no usable answer. `unreachable`: no connection could be made at all (refused, unknown host);
 * `connection`: it broke on the way (reset, closed); `undecodable`: the answer came, but its body could not be
 * decoded as its Content-Encoding says (not retried: the target would send the same again); `headers-too-large`: the
 * answer's headers ran past the cap (not retried either); `dropped`: no answer
 * because the target closed the connection the request was sent on, right after an earlier answer; `cut`: aborted
 * because another request to the same operation timed out; `stopped`: the run's deadline or a cancel ended it;
 * `over-budget`: a request that may create a pet, not sent because the run's --max-creates budget was spent.
 */
export type TransportFailureKind =
  | 'timeout'
  | 'body-too-large'
  | 'headers-too-large'
  | 'unreachable'
  | 'connection'
  | 'undecodable'
  | 'dropped'
  | 'tls'
  | 'stopped'
  | 'cut'
  | 'over-budget'

export interface AttemptRecord {
  /** The exchange this attempt belongs to (Exchange.id). */
  exchangeId: number
  /** The span id its traceparent carried; undefined when the run sent none (--omit-traceparent). */
  spanId: string | undefined
  /** The operation as the client knows it (`GET /pets`), or undefined for a request outside the three. */
  operation: string | undefined
  method: string
  url: string
  /** When it was sent, in ms since the epoch. */
  startedAt: number
  durationMs: number
  status?: number
  failure?: { kind: TransportFailureKind; message: string }
  /** Another attempt followed this one: it was answered 429 (or 503 with Retry-After), or it failed in transit. */
  retried: boolean
  /** Kept only for a HAR file: the headers and body sent, and the answer with its body cut. */
  sent?: {
    headers: Record<string, string>
    /** The body, cut at the limit of kept bodies. */
    body?: string
    /** The body's size in octets, whole (the HAR's bodySize). */
    bodyBytes?: number
    /** For a request written octet for octet: its head as written (the target in its form, the version, every field line, the framing's among them). */
    head?: { target: string; version: string; fields: Array<{ name: string; value: string }> }
  }
  answer?: RecordedResponse
}

/** The records of a run, in the order the attempts ended. */
export class TrafficLog {
  readonly attempts: AttemptRecord[] = []

  constructor(
    /** Keep what a HAR file needs (headers, bodies cut to this many characters); undefined keeps times and statuses only. */
    readonly keepBodiesUpTo: number | undefined,
  ) {}

  add(record: AttemptRecord): void {
    this.attempts.push(record)
  }
}
