/**
 * The connections to the target, as undici keeps them: one kept-alive pool (through HTTP_PROXY / HTTPS_PROXY /
 * NO_PROXY when the configuration names them, with the trusted CAs and a client certificate for mutual TLS), an
 * agent that opens a connection of its own for each request (for a request lost on a connection the target
 * closed), and the connections of edited requests, which write a head octet for octet (wire-heads.ts).
 */
import { readFileSync } from 'node:fs'
import type { ConnectionOptions } from 'node:tls'
import { Agent, type Dispatcher, EnvHttpProxyAgent, Pool } from 'undici'
import type { ProxySettings } from './exchange.js'
import { tlsAlertOf } from './tls-alert.js'
import { MAX_HEADER_BYTES } from './transport-failures.js'
import { WIRE_MARKER_FIELD, WireHeads } from './wire-heads.js'

/** What the connections need of the client's options. */
export interface ConnectionSettings {
  concurrency: number
  timeoutMs: number
  caFile?: string | undefined
  insecure?: boolean
  clientCert?: string | undefined
  clientKey?: string | undefined
  clientKeyPassphrase?: string | undefined
  proxy?: ProxySettings
}

/**
 * The request-target of a head, as undici takes a path: beginning with `/` (an absolute-form target as it is), and the
 * octets undici refuses in a path (controls, space) as escapes.
 */
function pathLabel(head: string): string {
  const line = head.slice(0, head.indexOf('\r\n') >>> 0)
  const target = line.slice(line.indexOf(' ') + 1, Math.max(line.indexOf(' ') + 1, line.lastIndexOf(' ')))
  const path = target.startsWith('/') || /^https?:\/\//i.test(target) ? target : `/${target}`
  return path.replace(/[^\u0021-\u00ff]/g, (octet) => `%${octet.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
}

export class TargetConnections {
  private readonly dispatcher: Dispatcher
  private readonly agentOptions: ConstructorParameters<typeof EnvHttpProxyAgent>[0]
  /**
   * A connection of its own for each request (undici's pipelining 0 turns keep-alive off), made only when the target
   * closes connections under requests: a read lost that way is retried on it, and once the target has been seen
   * closing a connection unannounced, every POST goes on it, since a POST lost that way is never sent again.
   */
  private freshConnections?: Dispatcher
  /**
   * The connections of edited requests, and the heads they write (wire-heads.ts): made when first needed. `own` holds
   * a pool per origin whose connections each carry one request (pipelining 0): an Agent drops an origin's pool as soon
   * as it has no connection open, which for connections of their own is after every request, and made a pool and a
   * client again for each of the run's ~1,200 edited requests that go on a connection of their own.
   */
  private wire?: { heads: WireHeads; own: Map<string, Pool>; keptAlive: Dispatcher }
  /** The TLS options to the target (trusted CAs, verification, client certificate). */
  private readonly targetTls: ConnectionOptions

  constructor(private readonly settings: ConnectionSettings) {
    const ca = settings.caFile ? readFileSync(settings.caFile) : undefined
    const clientCertificate =
      settings.clientCert && settings.clientKey
        ? { cert: readFileSync(settings.clientCert), key: readFileSync(settings.clientKey), ...(settings.clientKeyPassphrase ? { passphrase: settings.clientKeyPassphrase } : {}) }
        : {}
    this.targetTls = { ...(ca ? { ca } : {}), rejectUnauthorized: !settings.insecure, ...clientCertificate }
    // Always given, so undici never falls back to reading process.env itself.
    const proxy = settings.proxy ?? { httpProxy: '', httpsProxy: '', noProxy: '' }
    this.agentOptions = {
      ...proxy,
      connections: settings.concurrency,
      maxHeaderSize: MAX_HEADER_BYTES,
      // To the target, directly (connect) or through a proxy's tunnel (requestTls).
      connect: this.targetTls,
      requestTls: this.targetTls,
      // A backstop only: the client's own timer bounds each request, head and body, and acts once the I/O already
      // waiting when it fired is read (client.ts). undici's timers, at the same value, fired first after a loop held
      // up past the timeout (a loaded machine) and lost an answer that had come in time.
      headersTimeout: 2 * settings.timeoutMs + 1_000,
      bodyTimeout: 2 * settings.timeoutMs + 1_000,
    }
    this.dispatcher = this.agent(this.agentOptions)
  }

  /** Set by keepNoneAlive: every request goes on a connection of its own. */
  private noneKeptAlive = false
  /** The kept-alive dispatchers keepNoneAlive closed: closed once, never again (undici refuses to close one twice). */
  private readonly retired = new Set<Dispatcher>()

  /**
   * From now on every request, edited or not, goes on a connection of its own, closed after its answer, and the
   * kept-alive connections are closed: for a target that serves one connection at a time and holds an idle one open
   * (lib/run/held-connections.ts), where a request on another connection waits out that one's keep-alive timeout.
   */
  async keepNoneAlive(): Promise<void> {
    this.noneKeptAlive = true
    const keptAlive = [this.dispatcher, ...(this.wire ? [this.wire.keptAlive] : [])]
    for (const dispatcher of keptAlive) this.retired.add(dispatcher)
    await Promise.all(keptAlive.map((dispatcher) => dispatcher.close()))
  }

  /** A request on the kept-alive pool, or on a connection of its own (`fresh`). */
  request(fresh: boolean, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
    return (fresh || this.noneKeptAlive ? this.freshConnectionAgent() : this.dispatcher).request(options)
  }

  /** Whether edited requests can go out: they are written on direct connections only. */
  get writesEditedRequests(): boolean {
    return !(this.settings.proxy?.httpProxy || this.settings.proxy?.httpsProxy)
  }

  /** The HTTP versions the answers on the connections of edited requests were written in, as their status lines say. */
  get answeredHttpVersions(): ReadonlySet<string> {
    return this.wire?.heads.answeredVersions ?? new Set()
  }

  /** An edited request: undici carries it with a marker, and the connection writes the registered head in its place. */
  async wireRequest(
    origin: string,
    head: string,
    body: { body?: string | Buffer },
    signal: AbortSignal,
    ownConnection: boolean,
  ): Promise<Dispatcher.ResponseData & { contentAfterHead?: number }> {
    if (!this.writesEditedRequests) {
      throw new Error('an edited request is written octet for octet on a connection of its own, which the suite does not do through a proxy')
    }
    if (!this.wire) {
      // Made once: one connector writes the registered heads for both agents.
      const heads = new WireHeads()
      const connect = heads.connector(this.targetTls)
      this.wire = { heads, own: new Map(), keptAlive: new Agent({ ...this.directOptions(), connect }) }
    }
    const { heads, keptAlive } = this.wire
    const id = heads.register(head)
    try {
      const answer = await (ownConnection || this.noneKeptAlive ? this.ownConnectionPool(origin) : keptAlive).request({
        origin,
        // Never written (the registered head goes in its place): the target as written, where undici and the reports name the request.
        path: pathLabel(head),
        // How undici reads the answer: to HEAD, one without content (RFC 9110 §9.3.2), whatever its Content-Length says.
        method: head.startsWith('HEAD ') ? 'HEAD' : body.body === undefined ? 'GET' : 'POST',
        headers: { [WIRE_MARKER_FIELD]: id },
        ...body,
        signal,
      })
      const contentAfterHead = heads.contentAfterHead(id)
      return contentAfterHead ? Object.assign(answer, { contentAfterHead }) : answer
    } finally {
      heads.forget(id)
    }
  }

  /** The pool of `origin` whose connections each carry one edited request, made when first needed. */
  private ownConnectionPool(origin: string): Pool {
    const wire = this.wire as NonNullable<typeof this.wire>
    let pool = wire.own.get(origin)
    if (!pool) {
      pool = new Pool(origin, { ...this.directOptions(), connect: wire.heads.connector(this.targetTls), pipelining: 0 })
      wire.own.set(origin, pool)
    }
    return pool
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

  /**
   * The TLS alert a https target closes the connection with, read by a plain TLS socket (undici reports only
   * "other side closed"); undefined for http, through a proxy, or when the target sends none.
   */
  async tlsAlert(base: URL, timeoutMs: number): Promise<string | undefined> {
    if (base.protocol !== 'https:' || this.settings.proxy?.httpsProxy) return undefined
    return tlsAlertOf(base, this.targetTls, timeoutMs)
  }

  /** Closes the connections once the requests in flight have their answers. */
  async close(): Promise<void> {
    await Promise.all(this.dispatchers().map((dispatcher) => dispatcher.close()))
  }

  /** Closes the connections now, failing the requests still in flight. */
  async destroy(): Promise<void> {
    await Promise.all(this.dispatchers().map((dispatcher) => dispatcher.destroy()))
  }

  /** Every dispatcher made so far. */
  private dispatchers(): Dispatcher[] {
    const { freshConnections, wire } = this
    return [this.dispatcher, ...(freshConnections ? [freshConnections] : []), ...(wire ? [...wire.own.values(), wire.keptAlive] : [])].filter(
      (dispatcher) => !this.retired.has(dispatcher),
    )
  }
}
