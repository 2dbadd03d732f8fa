/** What a run's HTTP client is given: the target, the bounds on every request, and what goes on every request. */
import type { ProxySettings } from './exchange.js'

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
