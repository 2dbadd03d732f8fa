/**
 * The HTTP client every request of the suite goes through: one keep-alive dispatcher (honouring
 * HTTP_PROXY / HTTPS_PROXY / NO_PROXY), a global bound on requests in flight, a deadline and a body cap
 * per request, bounded retries, and every exchange recorded for evidence. It never throws for what the
 * target does: a transport failure is recorded on the exchange for the checks to judge.
 */
import { readFileSync } from 'node:fs'
import { EnvHttpProxyAgent, errors as undiciErrors } from 'undici'
import { BodyDecodingFailed, BodyTooLarge, readBody } from './body-reader.js'
import { Semaphore } from './concurrency.js'
import { DeadOperations } from './dead-operations.js'
import { isJsonObject, type JsonParseResult, type JsonValue, parseJson } from './json.js'

export interface HttpClientOptions {
  baseUrl: string
  concurrency: number
  timeoutMs: number
  maxBodyBytes: number
  maxRetries: number
  maxRetryWaitMs: number
  caFile?: string | undefined
  insecure?: boolean
  /** Proxies as the configuration read them (HTTP_PROXY, HTTPS_PROXY, NO_PROXY); empty means none. */
  proxy?: ProxySettings
  /** The run's deadline: once aborted, requests in flight end at once and none is sent. */
  deadline?: AbortSignal
}

export interface ProxySettings {
  httpProxy: string
  httpsProxy: string
  noProxy: string
}

export interface OutgoingRequest {
  method: 'GET' | 'POST'
  /** Path below the base URL, starting with '/', query included. */
  path: string
  /** Send the path exactly as written: doubled slashes, dot segments and escapes are not normalised. */
  pathAsIs?: boolean
  headers?: Record<string, string>
  body?: string
  /** The operation this request is (`GET /pets`): after two timeouts in a row it is not sent again. */
  operation?: string
}

export interface RecordedRequest {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
  /** The path was sent as written, not normalised (curl needs --path-as-is to do the same). */
  pathAsIs?: boolean
  /** The request's own time limit, in ms (curl's --max-time). */
  timeoutMs: number
}

export interface RecordedResponse {
  status: number
  headers: Record<string, string>
  /** The body as text, cut at the size cap. */
  body: string
  bodyBytes: number
}

/** `unreachable`: no connection could be made at all (refused, unknown host); `connection`: it broke on the way (reset, closed). */
export type TransportFailureKind = 'timeout' | 'body-too-large' | 'unreachable' | 'connection' | 'tls' | 'deadline'

export interface TransportFailure {
  kind: TransportFailureKind
  message: string
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

/** Milliseconds a Retry-After header asks to wait (seconds or HTTP date), or undefined. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** The reason a request is aborted when its time is up. */
class TimeoutExpired extends Error {
  override name = 'TimeoutError'
}

/** Most bytes of response headers read: a flood of headers is cut there. */
export const MAX_HEADER_BYTES = 64 * 1024

const DEADLINE_MESSAGE = 'deadline reached: the run deadline passed before an answer came'

function classify(error: unknown, timeoutMs: number, maxBodyBytes: number, deadline: AbortSignal | undefined): TransportFailure {
  if (deadline?.aborted) return { kind: 'deadline', message: DEADLINE_MESSAGE }
  if (error instanceof BodyTooLarge) return { kind: 'body-too-large', message: `response body over the cap of ${maxBodyBytes} bytes (decoded)` }
  if (error instanceof BodyDecodingFailed) return { kind: 'connection', message: error.message }
  if (error instanceof undiciErrors.HeadersOverflowError) return { kind: 'connection', message: `response headers over the cap of ${MAX_HEADER_BYTES} bytes` }
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
  private readonly dispatcher: EnvHttpProxyAgent
  private readonly semaphore: Semaphore
  private readonly base: URL
  private readonly dead = new DeadOperations()
  private readonly suspectGates = new Map<string, Semaphore>()
  requestCount = 0

  constructor(readonly options: HttpClientOptions) {
    const ca = options.caFile ? readFileSync(options.caFile) : undefined
    const tls = { ...(ca ? { ca } : {}), rejectUnauthorized: !options.insecure }
    // Always given, so undici never falls back to reading process.env itself.
    const proxy = options.proxy ?? { httpProxy: '', httpsProxy: '', noProxy: '' }
    this.dispatcher = new EnvHttpProxyAgent({
      ...proxy,
      connections: options.concurrency,
      maxHeaderSize: MAX_HEADER_BYTES,
      connect: tls,
      requestTls: tls,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    })
    this.semaphore = new Semaphore(options.concurrency)
    this.base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`)
  }

  url(path: string): string {
    return new URL(path.replace(/^\//, ''), this.base).href
  }

  /** The base URL and the path joined as text, with no normalisation of the path. */
  private urlAsIs(path: string): string {
    return `${this.base.origin}${this.base.pathname.replace(/\/$/, '')}${path}`
  }

  /** Send a request, with the retries the policy allows, and return the recorded exchange. */
  async send(request: OutgoingRequest): Promise<Exchange> {
    const started = performance.now()
    const recorded: RecordedRequest = {
      method: request.method,
      url: request.pathAsIs ? this.urlAsIs(request.path) : this.url(request.path),
      headers: { ...(request.headers ?? {}) },
      ...(request.body !== undefined ? { body: request.body } : {}),
      ...(request.pathAsIs ? { pathAsIs: true } : {}),
      timeoutMs: this.options.timeoutMs,
    }
    const retries: Attempt[] = []
    const failed = (failure: TransportFailure): Exchange => ({ id: nextExchangeId++, request: recorded, failure, retries, durationMs: performance.now() - started })
    const { deadline } = this.options
    for (let attempt = 0; ; attempt++) {
      if (deadline?.aborted) return failed({ kind: 'deadline', message: DEADLINE_MESSAGE })
      const { operation } = request
      // Asked once a slot is free (the operation may have died while this request waited for one), and the
      // outcome recorded before the slot is given up, so the next request in line knows it.
      const sendOnce = () =>
        this.semaphore.run(async () => {
          const reason = operation ? this.dead.reasonFor(operation, this.options.timeoutMs) : undefined
          if (reason) return { skipped: { kind: 'timeout' as const, message: reason } }
          const sent = await this.once(recorded)
          if (operation && !('failure' in sent && sent.failure.kind === 'deadline')) this.dead.record(operation, 'failure' in sent && sent.failure.kind === 'timeout')
          return sent
        })
      const gate = operation && this.dead.isSuspect(operation) ? this.suspectGate(operation) : undefined
      const outcome = gate ? await gate.run(sendOnce) : await sendOnce()
      if ('skipped' in outcome) return failed(outcome.skipped)
      const canRetry = attempt < this.options.maxRetries
      if ('response' in outcome) {
        const { response } = outcome
        const wait = response.status === 429 || response.status === 503 ? retryAfterMs(response.headers['retry-after']) : undefined
        // 429, or 503 with Retry-After, says the request was not processed: retrying is safe even for POST.
        if (wait !== undefined && canRetry && wait <= this.options.maxRetryWaitMs) {
          retries.push({ status: response.status, waitedMs: wait })
          await delay(wait, deadline)
          continue
        }
        return { id: nextExchangeId++, request: recorded, response, retries, durationMs: performance.now() - started }
      }
      // A read that failed in transit may be retried; a POST never is (it may have been processed).
      if (recorded.method === 'GET' && canRetry && (outcome.failure.kind === 'connection' || outcome.failure.kind === 'unreachable')) {
        const wait = 100 * 2 ** attempt
        retries.push({ failure: outcome.failure.message, waitedMs: wait })
        await delay(wait, deadline)
        continue
      }
      return failed(outcome.failure)
    }
  }

  private async once(request: RecordedRequest): Promise<{ response: RecordedResponse } | { failure: TransportFailure }> {
    this.requestCount += 1
    const { timeoutMs, maxBodyBytes } = this.options
    const { deadline } = this.options
    // A controller and a timer held here, not AbortSignal.timeout or AbortSignal.any: Node may collect those
    // signals while a request waits under memory pressure, and then the request never times out.
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(new TimeoutExpired()), timeoutMs)
    const onDeadline = () => controller.abort(new TimeoutExpired())
    deadline?.addEventListener('abort', onDeadline, { once: true })
    const { signal } = controller
    try {
      const { origin } = new URL(request.url)
      const answer = await this.dispatcher.request({
        origin,
        // The URL as recorded, less its origin: a path sent as written stays as written.
        path: request.url.slice(origin.length),
        method: request.method,
        headers: request.headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        signal,
      })
      const headers = headerRecord(answer.headers)
      const { bytes } = await readBody(answer.body, headers['content-encoding'], maxBodyBytes)
      return { response: { status: answer.statusCode, headers, body: bytes.toString('utf8'), bodyBytes: bytes.length } }
    } catch (error) {
      return { failure: classify(error, timeoutMs, maxBodyBytes, deadline) }
    } finally {
      clearTimeout(timer)
      deadline?.removeEventListener('abort', onDeadline)
    }
  }

  /** One request at a time for an operation whose last request timed out. */
  private suspectGate(operation: string): Semaphore {
    let gate = this.suspectGates.get(operation)
    if (!gate) {
      gate = new Semaphore(1)
      this.suspectGates.set(operation, gate)
    }
    return gate
  }

  /** Closes the connections once the requests in flight have their answers. */
  async close(): Promise<void> {
    await this.dispatcher.close()
  }

  /** Closes the connections now, failing the requests still in flight. */
  async destroy(): Promise<void> {
    await this.dispatcher.destroy()
  }
}

/** Waits `ms`, or less when the deadline passes first. */
export function delay(ms: number, deadline?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (deadline?.aborted) return resolve()
    const done = () => {
      clearTimeout(timer)
      deadline?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    deadline?.addEventListener('abort', done, { once: true })
  })
}

/** A turn for the event loop (timers, I/O, signals) before going on: a loop that only awaits settled promises never gives one. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/** The response body parsed losslessly, memoised on the exchange. */
const parsedBodies = new WeakMap<Exchange, JsonParseResult>()

/** The body as a JSON object, when it is one (parsed once, like responseJson). */
export function responseObject(exchange: Exchange): { [key: string]: JsonValue } | undefined {
  const parsed = responseJson(exchange)
  return parsed.ok && isJsonObject(parsed.value) ? parsed.value : undefined
}

export function responseJson(exchange: Exchange): JsonParseResult {
  let parsed = parsedBodies.get(exchange)
  if (!parsed) {
    parsed = exchange.response ? parseJson(exchange.response.body) : { ok: false, error: 'no response' }
    parsedBodies.set(exchange, parsed)
  }
  return parsed
}
