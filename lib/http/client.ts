/**
 * The HTTP client every request of the suite goes through: a bound on requests in flight and on requests started
 * per second (p-queue), the run's extra headers, a traceparent and the run's User-Agent on every request, a timeout
 * and a body cap per request, the run's stop (its deadline or a cancel), and the retries the policy allows. It never
 * throws for what the target does: a transport failure is recorded on the exchange for the checks to judge. An
 * operation that stops answering costs one timeout, not one per request in flight (dead-operations.ts). Its parts:
 * the connections (connections.ts), rate-limit pauses (rate-limit-pause.ts, waits.ts), the caps on writes and
 * memory (caps.ts), failures in words (transport-failures.ts) and the records of evidence (attempt-records.ts).
 */
import PQueue from 'p-queue'
import type { Dispatcher } from 'undici'
import { headerRecord, keptForHar } from './attempt-records.js'
import { readBody } from './body-reader.js'
import { BodyMemory, mayCreate, WriteBudget } from './caps.js'
import type { HttpClientOptions } from './client-options.js'
import { CloseEvidence } from './close-evidence.js'
import { type UnannouncedClose, watchCloses } from './connection-reuse.js'
import { TargetConnections } from './connections.js'
import { DeadOperations, isUnusable } from './dead-operations.js'
import { decodedBody } from './decoded-bodies.js'
import type { Attempt, Exchange, OutgoingRequest, RecordedRequest, TransportFailure } from './exchange.js'
import { fieldsOnTheWire } from './field-names.js'
import { RateLimitPause } from './rate-limit-pause.js'
import { newSpanId, SPAN_TO_FILL, traceparent, withSpan } from './trace-context.js'
import { type AttemptRecord, type RecordedResponse, TrafficLog } from './traffic.js'
import { CutShort, classify, MAX_HEADER_BYTES, stopped, TimeoutExpired } from './transport-failures.js'
import { delay, retryAfterMs } from './waits.js'

let nextExchangeId = 1

/** What one attempt came to, and its record in the traffic log. */
type AttemptOutcome = ({ response: RecordedResponse } | { failure: TransportFailure }) & { record: AttemptRecord; pauseEpoch: number }

/**
 * The window of --rate-limit: N requests start in any 1.1 s. The tenth of a second more than the limit's second is for the way to the target (a
 * new connection or a busy moment holds a request back by up to 90 ms, measured on two cores): one held back must not reach the next window's second.
 */
const RATE_WINDOW_MS = 1_100

export class HttpClient {
  /** The connections to the target: kept alive, of their own, and those of edited requests. */
  private readonly connections: TargetConnections
  /** Requests in flight within --concurrency, and started within --rate-limit. */
  private readonly queue: PQueue
  /** The run-wide pause a rate limit sets, and the ramp back to --concurrency after it. */
  readonly pause: RateLimitPause
  private readonly base: URL
  private readonly dead = new DeadOperations(MAX_HEADER_BYTES)
  /** The memory the answers take (policy §5): large bodies read a few at a time, and those kept within a budget. */
  private readonly bodies = new BodyMemory()
  private readonly suspectGates = new Map<string, PQueue>()
  /** Headers every request starts from: the User-Agent, then the extra headers (names in lower case, so a request's own win). */
  private readonly baseHeaders: Record<string, string>
  /** Every attempt of the run, for the report's timeline and latencies and the HAR file. */
  readonly traffic: TrafficLog
  /** The requests of each operation in flight now, so that one timeout cuts the others. */
  private readonly inFlightByOperation = new Map<string, Set<AbortController>>()
  requestCount = 0
  /** The requests that may create a pet, within --max-creates, and the pets they may have created. */
  readonly writes: WriteBudget
  /** When a request was last sent or last ended (performance.now()): the watchdog's measure of a run sitting still. */
  lastActivityAt = performance.now()
  /** Timed waits with a known end under way now: a Retry-After, a backoff, a re-read's pause within the consistency window. */
  private sleeping = 0
  /** Each time the target closed a connection right after an answer that did not say Connection: close (RFC 9112 §9.6), and the exchange each of the first came after. */
  readonly unannouncedCloses: UnannouncedClose[] = []
  readonly closeEvidence = new CloseEvidence((url) => url.slice(this.base.origin.length))
  private readonly stopWatchingCloses: () => void
  /** Every request in flight now: the run's stop aborts them all. */
  private readonly inFlightControllers = new Set<AbortController>()
  private readonly abortInFlight = () => {
    for (const controller of this.inFlightControllers) controller.abort(new TimeoutExpired())
  }

  constructor(readonly options: HttpClientOptions) {
    this.connections = new TargetConnections(options)
    this.writes = new WriteBudget(options.maxCreates)
    this.queue = new PQueue({ concurrency: options.concurrency, ...(options.rateLimit ? { intervalCap: options.rateLimit, interval: RATE_WINDOW_MS, strict: true } : {}) })
    this.pause = new RateLimitPause(this.queue, options.concurrency, (ms) => this.sleep(ms), options.stop)
    this.baseHeaders = {
      ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
      ...Object.fromEntries(Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])),
    }
    this.traffic = new TrafficLog(options.keepBodiesUpTo)
    this.base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`)
    this.stopWatchingCloses = watchCloses(this.base.origin, (close) => this.confirmLostToClose(close))
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
    const writes = mayCreate(request.method)
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
    const ended = (end: { response: RecordedResponse } | { failure: TransportFailure }): Exchange => {
      if (!('failure' in end && end.failure.notSent)) this.exchangesSent += 1
      return this.writes.ended(this.closeEvidence.answered({ id, request: recorded, ...end, retries, durationMs: performance.now() - started }))
    }
    const { stop } = this.options
    const { operation } = request
    // Counted once per request, whatever its retries: a 429 says it was not processed, and a lost create is sent again only once shown unprocessed.
    const overBudget = writes ? this.writes.take(id) : undefined
    if (overBudget) return ended({ failure: overBudget })
    let fresh = (recorded.method !== 'GET' && this.unannouncedCloses.length > 0) || (request.wire !== undefined && !request.wireKeptAlive) || request.freshConnection === true
    /** Resets of the connections this request was lost on: reported once it is answered on a fresh one (the request was not at fault). */
    const resets: UnannouncedClose[] = []
    for (let attempt = 0; ; attempt++) {
      if (stop?.aborted) return ended({ failure: stopped(stop) })
      // Each attempt is a request of its own at the target: a span of its own.
      const { traceId } = this.options
      const spanId = traceId ? newSpanId() : undefined
      if (request.wire === undefined) recorded.headers = this.headersFor(request.headers, spanId)
      else if (traceId && spanId && request.headers?.traceparent === traceparent(traceId, SPAN_TO_FILL)) {
        // A request written octet for octet carries the traceparent to fill: this attempt's span goes in its head and its record.
        recorded.wire = withSpan(request.wire, traceId, spanId)
        recorded.headers = { ...request.headers, traceparent: traceparent(traceId, spanId) }
      }
      const outcome = await this.attempt(id, recorded, operation, spanId, fresh, attempt)
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
        if (wait !== undefined && wait <= this.options.maxRetryWaitMs) this.pause.rateLimited(wait, outcome.pauseEpoch)
        else this.pause.answered(outcome.pauseEpoch)
        if (wait !== undefined && canRetry && wait <= this.options.maxRetryWaitMs) {
          retried(wait, { status: response.status })
          continue
        }
        this.bodies.keep(response)
        for (const close of resets) this.confirmLostToClose(close)
        return ended({ response })
      }
      // An edited request is judged on what it got: a target may rightly close the connection on it. One lost on a shared
      // connection goes once more on one of its own: a read, or a create lost before any byte of an answer (an idle close
      // that crossed it; only a server that drops a connection it read a request on sees one twice, RFC 9112 §9.3.1).
      if (recorded.wire !== undefined) {
        const lostOnShared = request.wireKeptAlive === true && (outcome.failure.kind === 'dropped' || (recorded.method === 'GET' && outcome.failure.kind === 'connection'))
        if (fresh || !lostOnShared) return ended({ failure: outcome.failure })
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
    this.closeEvidence.closed(close)
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
    retry: number,
  ): Promise<AttemptOutcome | { skipped: TransportFailure }> {
    const { stop, rateLimit } = this.options
    // Without a rate limit, a place comes free as soon as a request ends, and a request given one after the run
    // stopped is not sent (below). Under a rate limit a place may be a second away: the stop takes the request out of line.
    // A retry goes before the requests in line, the more retried the sooner: a target that turns away every n-th
    // request it sees would otherwise meet a request behind a line of others at every retry, until its retries ran out.
    const queueOptions = { ...(rateLimit ? { signal: stop } : {}), priority: retry }
    const sendOnce = (gated: boolean) =>
      this.queue.add(async () => {
        // Still in line when the run stopped: not sent.
        if (stop?.aborted) return { skipped: stopped(stop) }
        if (operation && !gated && this.dead.isSuspect(operation)) return { regate: true as const }
        // Asked once a place is free (the operation may have died meanwhile), and the outcome recorded before the
        // place is given up, so the next request in line knows it.
        const givenUp = operation ? this.dead.reasonFor(operation, this.options.timeoutMs, this.options.maxBodyBytes) : undefined
        if (givenUp) return { skipped: givenUp }
        // A rate limit met by any request pauses this one too: it gives up its place and waits out of line, so that
        // once the pause is over the line starts again one at a time, retries first, and no burst of requests that
        // held places meanwhile goes out at once.
        if (this.pause.isPaused()) return { paused: true as const }
        if (stop?.aborted) return { skipped: stopped(stop) }
        const sent = await this.once(exchangeId, recorded, operation, spanId, fresh)
        const kind = 'failure' in sent ? sent.failure.kind : undefined
        if (operation && kind !== 'stopped' && kind !== 'cut') this.dead.record(operation, isUnusable(kind) ? kind : undefined)
        return sent
      }, queueOptions)
    try {
      for (;;) {
        await this.pause.waitIfPaused(retry)
        if (stop?.aborted) return { skipped: stopped(stop) }
        const gated = operation !== undefined && this.dead.isSuspect(operation)
        const outcome = gated ? await this.suspectGate(operation).add(() => sendOnce(true), queueOptions) : await sendOnce(false)
        if (!('regate' in outcome) && !('paused' in outcome)) return outcome
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
    // The rate limits met before this request went out: an answer to it speaks of the target since then (rate-limit-pause.ts).
    const pauseEpoch = this.pause.epoch
    this.lastActivityAt = performance.now()
    const started = this.lastActivityAt
    // On the same clock as its duration, so that one request's end and the next one's start never overlap by rounding.
    const startedAt = performance.timeOrigin + started
    const { timeoutMs, maxBodyBytes, stop } = this.options
    // A controller and a timer held here, not AbortSignal.timeout or AbortSignal.any: Node may collect those
    // signals while a request waits under memory pressure, and then the request never times out.
    const controller = new AbortController()
    // The timeout acts once the I/O already waiting when it fired is read (an immediate runs after the loop's poll
    // phase, a timer before it): a loop held up past the timeout (a busy machine) must not lose an answer that came in time.
    const timer = setTimeout(() => setImmediate(() => controller.abort(new TimeoutExpired())), timeoutMs)
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
      const answer: Dispatcher.ResponseData & { contentAfterHead?: number } =
        request.wire !== undefined
          ? await this.connections.wireRequest(origin, request.wire, body, signal, fresh)
          : await this.connections.request(fresh, {
              origin,
              // The URL as recorded, less its origin: a path sent as written stays as written.
              path: request.url.slice(origin.length),
              method: request.method,
              headers: fieldsOnTheWire(request.headers),
              ...body,
              signal,
            })
      answered = true
      const headers = headerRecord(answer.headers)
      const { chunks, byteLength } = await readBody(answer.body, headers['content-encoding'], maxBodyBytes, this.bodies.gate)
      const afterHead = answer.contentAfterHead ? { contentAfterHead: answer.contentAfterHead } : {}
      outcome = { response: { status: answer.statusCode, headers, ...decodedBody(chunks, byteLength), bodyBytes: byteLength, ...afterHead } }
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
      ...keptForHar(this.traffic.keepBodiesUpTo, request, outcome),
    }
    this.traffic.add(record)
    return { ...outcome, record, pauseEpoch }
  }

  /** Exchanges whose request went out (once, or with its retries): what the run must have judged, every one (results.json `exchanges`). */
  exchangesSent = 0

  /** Whether edited requests can go out: they are written on direct connections only. */
  get writesEditedRequests(): boolean {
    return this.connections.writesEditedRequests
  }

  /** The HTTP versions the target's answers to edited requests were written in (`1.1`, `1.0`), as their status lines say. */
  get answeredHttpVersions(): ReadonlySet<string> {
    return this.connections.answeredHttpVersions
  }

  /** The TLS alert a https target closes the connection with (connections.ts). */
  tlsAlert(): Promise<string | undefined> {
    return this.connections.tlsAlert(this.base, Math.min(this.options.timeoutMs, 5_000))
  }

  /** Every request from now on on a connection of its own (connections.ts: a target that serves one connection at a time). */
  keepNoConnectionAlive = (): Promise<void> => this.connections.keepNoneAlive()

  /**
   * The fields every request starts from: the User-Agent, the extra headers and, unless the run sends none, a
   * traceparent whose span each attempt fills in (a request written octet for octet carries it as written).
   */
  get ownFields(): Readonly<Record<string, string>> {
    const { traceId } = this.options
    return traceId ? { ...this.baseHeaders, traceparent: traceparent(traceId, SPAN_TO_FILL) } : this.baseHeaders
  }

  private inFlight(operation: string): Set<AbortController> {
    const set = this.inFlightByOperation.get(operation) ?? new Set<AbortController>()
    this.inFlightByOperation.set(operation, set)
    return set
  }

  /** One request at a time for an operation whose last request timed out. */
  private suspectGate(operation: string): PQueue {
    const gate = this.suspectGates.get(operation) ?? new PQueue({ concurrency: 1 })
    this.suspectGates.set(operation, gate)
    return gate
  }

  /** Closes the connections once the requests in flight have their answers (`now`: at once, failing them). */
  async close(now = false): Promise<void> {
    this.stopWatchingCloses()
    this.options.stop?.removeEventListener('abort', this.abortInFlight)
    await (now ? this.connections.destroy() : this.connections.close())
    this.bodies.discard()
  }

  /** Closes the connections now, failing the requests still in flight. */
  destroy = (): Promise<void> => this.close(true)
}
