/**
 * The HTTP client every request of the suite goes through: one keep-alive dispatcher (honouring
 * HTTP_PROXY / HTTPS_PROXY / NO_PROXY, a client certificate for mutual TLS), a bound on requests in flight
 * and on requests started per second (p-queue), the run's extra headers, a traceparent and the run's
 * User-Agent on every request, a timeout and a body cap per request, the run's stop (its deadline or a
 * cancel), bounded retries, every exchange recorded for evidence and every attempt in the traffic log. It
 * never throws for what the target does: a transport failure is recorded on the exchange for the checks to
 * judge. An operation that stops answering costs one timeout, not one per request in flight:
 * when one of its requests times out, the others in flight are cut at once and its reads sent again one at
 * a time (see dead-operations.ts).
 */
import { readFileSync } from 'node:fs'
import type { ConnectionOptions } from 'node:tls'
import PQueue from 'p-queue'
import { Agent, type Dispatcher, EnvHttpProxyAgent, errors as undiciErrors } from 'undici'
import { BodyDecodingFailed, BodyTooLarge, LargeBodyGate, readBody } from './body-reader.js'
import { lostOnDroppedConnection, previousWords, type UnannouncedClose, watchCloses } from './connection-reuse.js'
import { DeadOperations, isUnusable } from './dead-operations.js'
import { bodyText, LARGE_BODY_BYTES } from './decoded-bodies.js'
import { excerpt } from './excerpt.js'
import { isJsonObject, type JsonParseResult, type JsonValue, parseJson } from './json.js'
import { KeptBodies } from './kept-bodies.js'
import { RateLimitPause } from './rate-limit-pause.js'
import { RecentlyUsed } from './recently-used.js'
import { tlsAlertOf } from './tls-alert.js'
import { newSpanId, traceparent } from './trace-context.js'
import { type AttemptRecord, type RecordedResponse, TrafficLog, type TransportFailureKind } from './traffic.js'
import { WIRE_MARKER_FIELD, WireHeads } from './wire-heads.js'

export type { RecordedResponse, TransportFailureKind }

export interface HttpClientOptions {
  baseUrl: string
  concurrency: number
  timeoutMs: number
  maxBodyBytes: number
  maxRetries: number
  maxRetryWaitMs: number
  caFile?: string | undefined
  insecure?: boolean
  /** PEM files of a client certificate and its key, for a target that asks for one (mutual TLS). */
  clientCert?: string | undefined
  clientKey?: string | undefined
  clientKeyPassphrase?: string | undefined
  /** Most requests started in any one second (a sliding window), retries included; undefined: no limit but concurrency. */
  rateLimit?: number | undefined
  /** Most requests that may create a pet (any method but GET, HEAD and OPTIONS) the client sends; undefined: no bound. */
  maxCreates?: number | undefined
  /** Sent on every request; a header the request sets itself wins (the auth checks send exactly what they test). */
  headers?: Readonly<Record<string, string>>
  /** The User-Agent of every request, unless the extra headers name one. */
  userAgent?: string
  /** The run's trace id: each request carries a traceparent with it and a span id of its own. Undefined: none is sent. */
  traceId?: string | undefined
  /** Keep what a HAR file needs in the traffic log: headers, and bodies cut to this many characters. */
  keepBodiesUpTo?: number | undefined
  /** Proxies as the configuration read them (HTTP_PROXY, HTTPS_PROXY, NO_PROXY); empty means none. */
  proxy?: ProxySettings
  /** The run's stop (its deadline, or a cancel), its reason a RunStop: once aborted, requests in flight end at once and none is sent. */
  stop?: AbortSignal
}

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

let nextExchangeId = 1

function headerRecord(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return headers
}

/** One second: the resolution of an HTTP date. */
const HTTP_DATE_RESOLUTION_MS = 1_000

/**
 * Milliseconds a Retry-After header asks to wait, or undefined (RFC 9110 §10.2.3): delta-seconds, or an
 * HTTP-date. A date is read against the answer's own `Date` header when it has one, so a service whose clock
 * is off from this machine's is still waited for as long as it asks (a clock behind ours would otherwise
 * read as "retry now", and the retries would run out); and since both dates are cut to the second, the wait
 * gets one more second, so a retry never comes early.
 */
export function retryAfterMs(value: string | undefined, serverDate?: string, now = Date.now()): number | undefined {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  // The three forms of an HTTP date all name the month and give the time; Date.parse alone reads "-1" as a year.
  const retryAt = /[A-Za-z]{3}/.test(trimmed) && /\b\d{2}:\d{2}:\d{2}\b/.test(trimmed) ? Date.parse(trimmed) : Number.NaN
  if (Number.isNaN(retryAt)) return undefined
  const served = serverDate === undefined ? Number.NaN : Date.parse(serverDate)
  return Math.max(0, retryAt - (Number.isNaN(served) ? now : served)) + HTTP_DATE_RESOLUTION_MS
}

/** What one attempt came to, and its record in the traffic log. */
type AttemptOutcome = ({ response: RecordedResponse } | { failure: TransportFailure }) & { record: AttemptRecord }

/** The reason a request is aborted when its time is up. */
class TimeoutExpired extends Error {
  override name = 'TimeoutError'
}

/** The reason a request is aborted when another request to its operation timed out. */
class CutShort extends Error {
  override name = 'CutShort'
}

/**
 * The window of --rate-limit: N requests start in any 1.1 s. The tenth of a second more than the second the
 * limit names is for the way from a start to the target: a new connection, or a busy moment of this process,
 * holds a request back by tens of ms (up to 90 ms measured, on two cores), and a request held back from the
 * end of one window must not reach the target within the same second as the next window's first.
 */
const RATE_WINDOW_MS = 1_100

/** Methods that create nothing: every other request counts against --max-creates. */
const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Most bytes of response headers read: a flood of headers is cut there. */
export const MAX_HEADER_BYTES = 64 * 1024

/**
 * Bodies from LARGE_BODY_BYTES on (decoded-bodies.ts) count against the budget below; together they keep at most the budget in memory,
 * the oldest moved to a temporary file past it (kept-bodies.ts). A page of 100 pets with short names is about
 * 10 KiB; a run against a conformant target keeps well under the budget and moves nothing.
 */
const KEPT_BODIES_BUDGET_BYTES = 8 * 1024 * 1024

/** Bodies past this many bytes are read at most LARGE_BODIES_AT_ONCE at a time (body-reader.ts): a page of 100 pets with long names is far below it. */
const LARGE_BODY_GATE_BYTES = 256 * 1024
const LARGE_BODIES_AT_ONCE = 4

function stopped(stop: AbortSignal): TransportFailure {
  return { kind: 'stopped', message: `${stopWords(stop)} before an answer came` }
}

function classify(error: unknown, timeoutMs: number, maxBodyBytes: number, stop: AbortSignal | undefined, operation: string | undefined): TransportFailure {
  if (stop?.aborted) return stopped(stop)
  if (error instanceof CutShort) {
    return { kind: 'cut', message: `cut: another ${operation} request got no answer within ${timeoutMs} ms, so this one was not left to wait out its own timeout` }
  }
  const lost = lostOnDroppedConnection(error)
  if (lost) {
    return {
      kind: 'dropped',
      message: `the connection was ${lost.unreportedClose ? 'reset' : 'closed'} by the target before any byte of an answer came: it had just carried ${previousWords(lost.previous)}${lost.announced ? '' : ', which did not say Connection: close'}`,
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

export class HttpClient {
  private readonly dispatcher: Dispatcher
  private readonly agentOptions: ConstructorParameters<typeof EnvHttpProxyAgent>[0]
  /**
   * A connection of its own for each request (undici's pipelining 0 turns keep-alive off), made only when the target
   * closes connections under requests: a read lost that way is retried on it, and once the target has been seen
   * closing a connection unannounced, every POST goes on it, since a POST lost that way is never sent again.
   */
  private freshConnections?: Dispatcher
  /** The connections of edited requests, and the heads they write (wire-heads.ts): made when first needed. */
  private wireConnections?: Dispatcher
  private wireKeptAlive?: Dispatcher
  private wireHeads?: WireHeads
  /** The TLS options to the target (trusted CAs, verification, client certificate). */
  private readonly targetTls: ConnectionOptions
  /** Requests in flight within --concurrency, and started within --rate-limit. */
  private readonly queue: PQueue
  /** The run-wide pause a rate limit sets, and the ramp back to --concurrency after it. */
  readonly pause: RateLimitPause
  private readonly base: URL
  private readonly dead = new DeadOperations(MAX_HEADER_BYTES)
  /** The large bodies the run's answers keep in memory, within a budget (policy §5). */
  /** The bodies past LARGE_BODY_GATE_BYTES being read now, at most LARGE_BODIES_AT_ONCE (policy §5). */
  private readonly largeBodies = new LargeBodyGate(LARGE_BODY_GATE_BYTES, LARGE_BODIES_AT_ONCE)
  private readonly keptBodies = new KeptBodies({ largeBytes: LARGE_BODY_BYTES, budgetBytes: KEPT_BODIES_BUDGET_BYTES, forget: (response) => parsedBodies.delete(response) })
  private readonly suspectGates = new Map<string, PQueue>()
  /** Headers every request starts from: the User-Agent, then the extra headers (names in lower case, so a request's own win). */
  private readonly baseHeaders: Record<string, string>
  /** Every attempt of the run, for the report's timeline and latencies and the HAR file. */
  readonly traffic: TrafficLog
  /** The requests of each operation in flight now, so that one timeout cuts the others. */
  private readonly inFlightByOperation = new Map<string, Set<AbortController>>()
  requestCount = 0
  /** Requests that may create a pet sent so far (within --max-creates), and those answered 2xx: pets the run may have created. */
  writesSent = 0
  writesAnswered2xx = 0
  /** Requests that may create a pet not sent: --max-creates was spent. */
  writesNotSent = 0
  /** When a request was last sent or last ended (performance.now()): the watchdog's measure of a run sitting still. */
  lastActivityAt = performance.now()
  /** Timed waits with a known end under way now: a Retry-After, a backoff, a re-read's pause within the consistency window. */
  private sleeping = 0
  /** Each time the target closed a connection right after an answer that did not say Connection: close (RFC 9112 §9.6). */
  readonly unannouncedCloses: UnannouncedClose[] = []
  private readonly stopWatchingCloses: () => void
  /** Every request in flight now: the run's stop aborts them all. */
  private readonly inFlightControllers = new Set<AbortController>()
  private readonly abortInFlight = () => {
    for (const controller of this.inFlightControllers) controller.abort(new TimeoutExpired())
  }

  constructor(readonly options: HttpClientOptions) {
    const ca = options.caFile ? readFileSync(options.caFile) : undefined
    const clientCertificate =
      options.clientCert && options.clientKey
        ? { cert: readFileSync(options.clientCert), key: readFileSync(options.clientKey), ...(options.clientKeyPassphrase ? { passphrase: options.clientKeyPassphrase } : {}) }
        : {}
    this.targetTls = { ...(ca ? { ca } : {}), rejectUnauthorized: !options.insecure, ...clientCertificate }
    // Always given, so undici never falls back to reading process.env itself.
    const proxy = options.proxy ?? { httpProxy: '', httpsProxy: '', noProxy: '' }
    this.agentOptions = {
      ...proxy,
      connections: options.concurrency,
      maxHeaderSize: MAX_HEADER_BYTES,
      // To the target, directly (connect) or through a proxy's tunnel (requestTls).
      connect: this.targetTls,
      requestTls: this.targetTls,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    }
    this.dispatcher = this.agent(this.agentOptions)
    this.queue = new PQueue({ concurrency: options.concurrency, ...(options.rateLimit ? { intervalCap: options.rateLimit, interval: RATE_WINDOW_MS, strict: true } : {}) })
    this.pause = new RateLimitPause(this.queue, options.concurrency, (ms) => this.sleep(ms), options.stop)
    this.baseHeaders = {
      ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
      ...Object.fromEntries(Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])),
    }
    this.traffic = new TrafficLog(options.keepBodiesUpTo)
    this.base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`)
    this.stopWatchingCloses = watchCloses(this.base.origin, (close) => this.unannouncedCloses.push(close))
    options.stop?.addEventListener('abort', this.abortInFlight, { once: true })
  }

  url(path: string): string {
    return new URL(path.replace(/^\//, ''), this.base).href
  }

  /** The base URL and the path joined as text, with no normalisation of the path. */
  private urlAsIs(path: string): string {
    return `${this.base.origin}${this.base.pathname.replace(/\/$/, '')}${path}`
  }

  /** Requests in flight now, requests waiting for a place within --concurrency, and timed waits under way. */
  get load(): { inFlight: number; queued: number; sleeping: number } {
    return { inFlight: this.queue.pending, queued: this.queue.size, sleeping: this.sleeping }
  }

  /** Send a request, with the retries the policy allows, and return the recorded exchange. */
  async send(request: OutgoingRequest): Promise<Exchange> {
    const started = performance.now()
    const writes = !READ_ONLY_METHODS.has(request.method.toUpperCase())
    const id = nextExchangeId++
    const recorded: RecordedRequest = {
      method: request.method,
      url: request.wire !== undefined ? `${this.base.origin}${request.path}` : request.pathAsIs ? this.urlAsIs(request.path) : this.url(request.path),
      headers: request.wire !== undefined ? { ...request.headers } : this.headersFor(request.headers, undefined),
      ...(request.wire !== undefined ? { wire: request.wire } : {}),
      ...(request.body !== undefined ? { body: request.body } : {}),
      ...(request.bodyIsOctets ? { bodyIsOctets: true as const } : {}),
      ...(request.pathAsIs ? { pathAsIs: true } : {}),
      timeoutMs: this.options.timeoutMs,
    }
    const retries: Attempt[] = []
    const ended = (end: { response: RecordedResponse } | { failure: TransportFailure }): Exchange => ({
      id,
      request: recorded,
      ...end,
      retries,
      durationMs: performance.now() - started,
    })
    const { stop, maxCreates } = this.options
    const { operation } = request
    // Counted once per request, whatever its retries: a 429 says it was not processed, and a lost create is sent again only once shown unprocessed.
    if (writes) {
      if (maxCreates !== undefined && this.writesSent >= maxCreates) {
        this.writesNotSent += 1
        return ended({
          failure: { kind: 'over-budget', message: `not sent: the run's budget of ${maxCreates} requests that may create a pet (--max-creates) is spent`, notSent: true },
        })
      }
      this.writesSent += 1
    }
    let fresh = (recorded.method !== 'GET' && this.unannouncedCloses.length > 0) || (request.wire !== undefined && !request.wireKeptAlive) || request.freshConnection === true
    /** Resets of the connections this request was lost on: reported once it is answered on a fresh one (the request was not at fault). */
    const resets: UnannouncedClose[] = []
    for (let attempt = 0; ; attempt++) {
      if (stop?.aborted) return ended({ failure: stopped(stop) })
      // Each attempt is a request of its own at the target: a span of its own.
      const spanId = this.options.traceId && recorded.wire === undefined ? newSpanId() : undefined
      if (recorded.wire === undefined) recorded.headers = this.headersFor(request.headers, spanId)
      const outcome = await this.attempt(id, recorded, operation, spanId, fresh)
      if ('skipped' in outcome) return ended({ failure: { ...outcome.skipped, notSent: true } })
      const canRetry = attempt < this.options.maxRetries
      const retried = (wait: number, what: Omit<Attempt, 'waitedMs'>) => {
        retries.push({ ...what, waitedMs: wait })
        outcome.record.retried = true
      }
      if ('response' in outcome) {
        const { response } = outcome
        const wait = response.status === 429 || response.status === 503 ? retryAfterMs(response.headers['retry-after'], response.headers.date) : undefined
        // 429, or 503 with Retry-After, says the request was not processed: retrying is safe even for POST. The wait
        // holds for every request of the run (rate-limit-pause.ts): this one goes again once the pause is over.
        if (wait !== undefined && wait <= this.options.maxRetryWaitMs) this.pause.rateLimited(wait)
        else this.pause.answered()
        if (wait !== undefined && canRetry && wait <= this.options.maxRetryWaitMs) {
          retried(wait, { status: response.status })
          continue
        }
        this.keptBodies.keep(response)
        for (const close of resets) this.confirmLostToClose(close)
        if (writes && response.status >= 200 && response.status < 300) this.writesAnswered2xx += 1
        return ended({ response })
      }
      // An edited request is judged on what it got: a target may rightly close the connection on it. An edited read
      // whose kept-alive connection the target had closed goes once more, on a connection of its own.
      if (recorded.wire !== undefined) {
        if (fresh || (outcome.failure.kind !== 'dropped' && outcome.failure.kind !== 'connection')) return ended({ failure: outcome.failure })
        fresh = true
        retried(0, { failure: outcome.failure.message })
        continue
      }
      // A read cut because another request to its operation timed out goes again, behind the operation's gate.
      if (recorded.method === 'GET' && canRetry && outcome.failure.kind === 'cut') {
        retried(0, { failure: outcome.failure.message })
        continue
      }
      // A read that failed in transit may be retried; a POST never is (it may have been processed: RFC 9112 §9.3.1),
      // not even one the target never answered because it closed the connection under it.
      if (recorded.method === 'GET' && canRetry && (outcome.failure.kind === 'connection' || outcome.failure.kind === 'dropped' || outcome.failure.kind === 'unreachable')) {
        // Another kept-alive connection may be about to close too: a read the target dropped goes again on a new one.
        if (outcome.failure.kind === 'dropped') fresh = true
        if (outcome.failure.unreportedClose) resets.push(outcome.failure.unreportedClose)
        const wait = 100 * 2 ** attempt
        retried(wait, { failure: outcome.failure.message })
        await this.sleep(wait)
        continue
      }
      return ended({ failure: outcome.failure })
    }
  }

  /**
   * A reset that lost a request right after an unannounced answer, shown to be the connection's doing (the request
   * was answered on a fresh connection): reported as a close, like the ones whose FIN was heard (connection-reuse.ts).
   */
  confirmLostToClose(close: UnannouncedClose): void {
    this.unannouncedCloses.push(close)
  }

  /** The headers of one attempt: the User-Agent and the extra headers, then the request's own, then its traceparent. */
  private headersFor(own: Record<string, string> | undefined, spanId: string | undefined): Record<string, string> {
    const { traceId } = this.options
    return { ...this.baseHeaders, ...own, ...(traceId && spanId ? { traceparent: traceparent(traceId, spanId) } : {}) }
  }

  /**
   * One attempt within --concurrency and --rate-limit. While the operation is suspect (its last request timed
   * out) its requests go one at a time through its gate; a request that was waiting for a place when the
   * operation turned suspect joins the gate too, instead of going out beside the one that tests whether the
   * operation still answers. A request still waiting for its place when the run stops is not sent.
   */
  private async attempt(
    exchangeId: number,
    recorded: RecordedRequest,
    operation: string | undefined,
    spanId: string | undefined,
    fresh: boolean,
  ): Promise<AttemptOutcome | { skipped: TransportFailure }> {
    const { stop, rateLimit } = this.options
    // Without a rate limit, a place comes free as soon as a request ends, and a request given one after the run
    // stopped is not sent (below). Under a rate limit a place may be a second away: the stop takes the request out of line.
    const queueOptions = rateLimit ? { signal: stop } : {}
    const sendOnce = (gated: boolean) =>
      this.queue.add(async () => {
        // Still in line when the run stopped: not sent.
        if (stop?.aborted) return { skipped: stopped(stop) }
        if (operation && !gated && this.dead.isSuspect(operation)) return { regate: true as const }
        // Asked once a place is free (the operation may have died meanwhile), and the outcome recorded before the
        // place is given up, so the next request in line knows it.
        const givenUp = operation ? this.dead.reasonFor(operation, this.options.timeoutMs, this.options.maxBodyBytes) : undefined
        if (givenUp) return { skipped: givenUp }
        // A rate limit met by any request pauses this one too, in its place: the run starts again one at a time.
        await this.pause.waitIfPaused()
        if (stop?.aborted) return { skipped: stopped(stop) }
        const sent = await this.once(exchangeId, recorded, operation, spanId, fresh)
        const kind = 'failure' in sent ? sent.failure.kind : undefined
        if (operation && kind !== 'stopped' && kind !== 'cut') this.dead.record(operation, isUnusable(kind) ? kind : undefined)
        return sent
      }, queueOptions)
    try {
      for (;;) {
        const gated = operation !== undefined && this.dead.isSuspect(operation)
        const outcome = gated ? await this.suspectGate(operation).add(() => sendOnce(true), queueOptions) : await sendOnce(false)
        if (!('regate' in outcome)) return outcome
      }
    } catch (error) {
      // The queue gives up a place it had not given yet when the run stops: the request was never sent.
      if (stop?.aborted) return { skipped: stopped(stop) }
      throw error
    }
  }

  /** Waits `ms` (less when the run stops), known meanwhile as a timed wait: a run that sleeps to a known end is not sitting still. */
  async sleep(ms: number): Promise<void> {
    this.sleeping += 1
    try {
      await delay(ms, this.options.stop)
    } finally {
      this.sleeping -= 1
      this.lastActivityAt = performance.now()
    }
  }

  private async once(exchangeId: number, request: RecordedRequest, operation: string | undefined, spanId: string | undefined, fresh: boolean): Promise<AttemptOutcome> {
    this.requestCount += 1
    this.lastActivityAt = performance.now()
    const started = this.lastActivityAt
    // On the same clock as its duration, so that one request's end and the next one's start never overlap by rounding.
    const startedAt = performance.timeOrigin + started
    const { timeoutMs, maxBodyBytes, stop } = this.options
    // A controller and a timer held here, not AbortSignal.timeout or AbortSignal.any: Node may collect those
    // signals while a request waits under memory pressure, and then the request never times out.
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(new TimeoutExpired()), timeoutMs)
    // The run's stop ends it through the one listener the client holds on the stop (abortInFlight), not one per request.
    this.inFlightControllers.add(controller)
    if (stop?.aborted) controller.abort(new TimeoutExpired())
    const siblings = operation ? this.inFlight(operation) : undefined
    siblings?.add(controller)
    const { signal } = controller
    let outcome: { response: RecordedResponse } | { failure: TransportFailure }
    let answered = false
    try {
      const { origin } = new URL(request.url)
      const body = request.body !== undefined ? { body: request.bodyIsOctets ? Buffer.from(request.body, 'latin1') : request.body } : {}
      const answer =
        request.wire !== undefined
          ? await this.wireRequest(origin, request.wire, body, signal, fresh)
          : await (fresh ? this.freshConnectionAgent() : this.dispatcher).request({
              origin,
              // The URL as recorded, less its origin: a path sent as written stays as written.
              path: request.url.slice(origin.length),
              method: request.method,
              headers: request.headers,
              ...body,
              signal,
            })
      answered = true
      const headers = headerRecord(answer.headers)
      const { chunks, byteLength } = await readBody(answer.body, headers['content-encoding'], maxBodyBytes, this.largeBodies)
      outcome = { response: { status: answer.statusCode, headers, body: bodyText(chunks, byteLength), bodyBytes: byteLength } }
    } catch (error) {
      const classified = classify(error, timeoutMs, maxBodyBytes, stop, operation)
      const failure: TransportFailure = classified.kind === 'timeout' && !answered ? { ...classified, silent: true } : classified
      // One timeout is enough to know the operation is not answering now: the others in flight are cut, not waited out.
      if (failure.kind === 'timeout' && siblings) for (const sibling of siblings) if (sibling !== controller) sibling.abort(new CutShort())
      outcome = { failure }
    } finally {
      clearTimeout(timer)
      this.inFlightControllers.delete(controller)
      siblings?.delete(controller)
      this.lastActivityAt = performance.now()
    }
    const record: AttemptRecord = {
      exchangeId,
      spanId,
      operation,
      method: request.method,
      url: request.url,
      startedAt,
      durationMs: this.lastActivityAt - started,
      ...('response' in outcome ? { status: outcome.response.status } : { failure: outcome.failure }),
      retried: false,
      ...this.keptForHar(request, outcome),
    }
    this.traffic.add(record)
    return { ...outcome, record }
  }

  /** What a HAR file needs of an attempt, when the run writes one: the headers and body sent, and the answer with its body cut. */
  private keptForHar(request: RecordedRequest, outcome: { response: RecordedResponse } | { failure: TransportFailure }): Pick<AttemptRecord, 'sent' | 'answer'> {
    const limit = this.traffic.keepBodiesUpTo
    if (limit === undefined) return {}
    // The attempt's own headers object: the next attempt gets a new one (its own traceparent), so this one is not copied.
    const sent = { headers: request.headers, ...(request.body !== undefined ? { body: excerpt(request.body, limit) } : {}) }
    return 'response' in outcome ? { sent, answer: { ...outcome.response, body: excerpt(outcome.response.body, limit) } } : { sent }
  }

  /** An edited request: undici carries it with a marker, and the connection writes the registered head in its place. */
  private async wireRequest(origin: string, head: string, body: { body?: string | Buffer }, signal: AbortSignal, ownConnection: boolean): Promise<Dispatcher.ResponseData> {
    if (this.options.proxy?.httpProxy || this.options.proxy?.httpsProxy) {
      throw new Error('an edited request is written octet for octet on a connection of its own, which the suite does not do through a proxy')
    }
    this.wireHeads ??= new WireHeads()
    const connector = this.wireHeads.connector(this.targetTls)
    this.wireConnections ??= new Agent({ ...this.directOptions(), connect: connector, pipelining: 0 })
    this.wireKeptAlive ??= new Agent({ ...this.directOptions(), connect: connector })
    const id = this.wireHeads.register(head)
    try {
      return await (ownConnection ? this.wireConnections : this.wireKeptAlive).request({
        origin,
        path: '/',
        method: body.body === undefined ? 'GET' : 'POST',
        headers: { [WIRE_MARKER_FIELD]: id },
        ...body,
        signal,
      })
    } finally {
      this.wireHeads.forget(id)
    }
  }

  /** The options of a direct agent: those of the run's agent less the proxies'. */
  private directOptions(): Agent.Options {
    const { httpProxy: _httpProxy, httpsProxy: _httpsProxy, noProxy: _noProxy, requestTls: _requestTls, ...direct } = this.agentOptions ?? {}
    return direct
  }

  /** The agent that opens a connection for each request, made when first needed. */
  private freshConnectionAgent(): Dispatcher {
    this.freshConnections ??= this.agent({ ...this.agentOptions, pipelining: 0 })
    return this.freshConnections
  }

  /**
   * An agent with these options: through the proxies the configuration read, when it read any; otherwise a plain
   * Agent, which does not work out for every request whether a proxy applies to its URL.
   */
  private agent(options: NonNullable<ConstructorParameters<typeof EnvHttpProxyAgent>[0]>): Dispatcher {
    const { httpProxy, httpsProxy, noProxy: _noProxy, requestTls: _requestTls, ...direct } = options
    return httpProxy || httpsProxy ? new EnvHttpProxyAgent(options) : new Agent(direct)
  }

  /** The fields every request starts from: the User-Agent and the extra headers. */
  get ownFields(): Readonly<Record<string, string>> {
    return this.baseHeaders
  }

  /** Whether edited requests can go out: they are written on direct connections only. */
  get writesEditedRequests(): boolean {
    return !(this.options.proxy?.httpProxy || this.options.proxy?.httpsProxy)
  }

  private inFlight(operation: string): Set<AbortController> {
    let set = this.inFlightByOperation.get(operation)
    if (!set) {
      set = new Set()
      this.inFlightByOperation.set(operation, set)
    }
    return set
  }

  /** One request at a time for an operation whose last request timed out. */
  private suspectGate(operation: string): PQueue {
    let gate = this.suspectGates.get(operation)
    if (!gate) {
      gate = new PQueue({ concurrency: 1 })
      this.suspectGates.set(operation, gate)
    }
    return gate
  }

  /**
   * The TLS alert a https target closes the connection with, read by a plain TLS socket (undici reports only
   * "other side closed"); undefined for http, through a proxy, or when the target sends none.
   */
  async tlsAlert(): Promise<string | undefined> {
    const proxied = this.options.proxy?.httpsProxy
    if (this.base.protocol !== 'https:' || proxied) return undefined
    return tlsAlertOf(this.base, this.targetTls, Math.min(this.options.timeoutMs, 5_000))
  }

  /** Closes the connections once the requests in flight have their answers. */
  async close(): Promise<void> {
    this.stopWatchingCloses()
    this.options.stop?.removeEventListener('abort', this.abortInFlight)
    await Promise.all([this.dispatcher.close(), this.freshConnections?.close(), this.wireConnections?.close(), this.wireKeptAlive?.close()])
    this.keptBodies.discard()
  }

  /** Closes the connections now, failing the requests still in flight. */
  async destroy(): Promise<void> {
    this.stopWatchingCloses()
    this.options.stop?.removeEventListener('abort', this.abortInFlight)
    await Promise.all([this.dispatcher.destroy(), this.freshConnections?.destroy(), this.wireConnections?.destroy(), this.wireKeptAlive?.destroy()])
    this.keptBodies.discard()
  }
}

/** Waits `ms`, or less when the run stops first. */
export function delay(ms: number, stop?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (stop?.aborted) return resolve()
    const done = () => {
      clearTimeout(timer)
      stop?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    stop?.addEventListener('abort', done, { once: true })
  })
}

/** A turn for the event loop (timers, I/O, signals) before going on: a loop that only awaits settled promises never gives one. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/** Each answer's body as parsed, once: by the answer, so that a body moved out of memory (kept-bodies.ts) takes its reading with it. */
const parsedBodies = new WeakMap<RecordedResponse, JsonParseResult>()

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
