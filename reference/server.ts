/** The HTTP side of the reference (and of its variants): node:http on a loopback port the OS picks. */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse, STATUS_CODES } from 'node:http'
import { createServer as createTlsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { brotliCompressSync, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib'
import { errorResponse } from './handler.js'
import { bareCrEndsLines, oneContentLength, startHeadFront } from './head-front.js'
import { BASE_PATH, type Handler, type ServiceRequest, type ServiceResponse } from './http-types.js'

/** The path with percent-encoded unreserved characters decoded (RFC 3986 §6.2.2.2): `/v1/%70ets` is `/v1/pets`. */
function normalizedPath(pathname: string): string {
  return pathname.replace(/%([0-9A-Fa-f]{2})/g, (encoded, code: string) => {
    const character = String.fromCharCode(Number.parseInt(code, 16))
    return /[A-Za-z0-9\-._~]/.test(character) ? character : encoded
  })
}
/** The largest request body the reference reads: past the 1 MiB an edge takes by default, so a variant can play that edge. */
const MAX_REQUEST_BYTES = 4 * 1024 * 1024

export interface RunningServer {
  baseUrl: string
  /** Method, path (with query), headers, arrival (performance.now()) and body of every request received, in order. */
  requests: Array<{ method: string; url: string; headers: Record<string, string>; at: number; body?: string }>
  close(): Promise<void>
}

async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > MAX_REQUEST_BYTES) return undefined
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** Connections the server is about to drop (delivery.dropConnectionAfterMs): what comes on them is read and never answered. */
const dropping = new WeakSet<object>()
/** Connections the server has given up on (delivery.resetNextRequest): what comes on them is reset. */
const resetting = new WeakSet<object>()

const ENCODE = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync, zstd: zstdCompressSync } as const

/** The body with its content codings applied in order, and the Content-Encoding that lists them. */
function encoded(text: string, codings: ReadonlyArray<keyof typeof ENCODE>, octets = false): Buffer {
  return codings.reduce((body, coding) => ENCODE[coding](body), Buffer.from(text, octets ? 'latin1' : 'utf8'))
}

/** The body cut into `count` pieces of about the same size, even inside a UTF-8 sequence: a client joins the chunks before it decodes. */
function pieces(body: Buffer, count: number): Buffer[] {
  const size = Math.max(1, Math.ceil(body.length / count))
  const cut: Buffer[] = []
  for (let at = 0; at < body.length; at += size) cut.push(body.subarray(at, at + size))
  return cut
}

async function write(response: ServerResponse, answer: ServiceResponse): Promise<void> {
  const delivery = answer.delivery ?? {}
  const socket = response.socket
  if (delivery.dropConnectionAfterMs !== undefined && socket) {
    dropping.add(socket)
    response.once('finish', () => setTimeout(() => socket.destroy(), delivery.dropConnectionAfterMs))
  }
  if (delivery.resetNextRequest && socket) {
    resetting.add(socket)
    response.once('finish', () => setTimeout(() => socket.destroy(), 500))
  }
  // After the write's own callbacks: a reset from inside 'finish' left the sockets' handles open in this process (Node 24), spinning its loop.
  if (delivery.resetAfterAnswer && socket) response.once('finish', () => setImmediate(() => socket.resetAndDestroy()))
  if (delivery.delayMs) await new Promise((resolve) => setTimeout(resolve, delivery.delayMs))
  if (delivery.resetConnection) return void response.socket?.resetAndDestroy()
  if (delivery.endWithoutAnswer) return void response.socket?.end()
  // No 1xx to an HTTP/1.0 client (RFC 9110 §15.2).
  if (delivery.earlyHints && response.req.httpVersion !== '1.0') response.writeEarlyHints({ link: '</v1/pets>; rel=preconnect' })
  const headers: Record<string, string> = { ...answer.headers }
  if (delivery.closeConnection) headers.connection = 'close'
  const codings = delivery.codings ?? (delivery.gzip ? ['gzip'] : [])
  const body = encoded(answer.body, codings, delivery.octets)
  if (codings.length > 0) headers['content-encoding'] = codings.join(', ')
  // Chunks and trailers only where HTTP has them: not to HTTP/1.0 (RFC 9112 §7), not to HEAD, which gets no content.
  const chunkable = response.req.httpVersion !== '1.0' && response.req.method !== 'HEAD'
  const chunked = chunkable && (delivery.chunked || delivery.chunks !== undefined || delivery.trailers !== undefined)
  if (!chunked) headers['content-length'] = String(response.req.method === 'HEAD' ? (delivery.headContentLength ?? body.length) : body.length)
  if (chunked && delivery.trailers) headers.trailer = Object.keys(delivery.trailers).join(', ')
  if (delivery.contentToHead && response.req.method === 'HEAD' && socket) {
    // Past Node's own HEAD handling, which never writes content: the head and the body as one write, then the end.
    const fields = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`)
    return void socket.end(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n${fields.join('')}\r\n${body.toString('latin1')}`, 'latin1')
  }
  if (delivery.reasonPhrase !== undefined) response.writeHead(answer.status, delivery.reasonPhrase, headers)
  else response.writeHead(answer.status, headers)
  if (!chunked) return void response.end(body)
  // Split at the middle byte by default, even inside a UTF-8 sequence: the client must join the chunks before decoding.
  for (const piece of pieces(body, delivery.chunks ?? 2)) {
    response.write(piece)
    await new Promise((resolve) => setImmediate(resolve))
  }
  if (delivery.trailers) response.addTrailers(delivery.trailers)
  response.end()
}

/** Key and certificate (PEM) to serve https instead of http. */
export interface ServerTls {
  key: string
  cert: string
  /** PEM of the CA whose client certificates the server requires (mutual TLS); without it, none is asked for. */
  clientCa?: string
}

/** One answer the server gave, for a log line. */
export interface ServedAnswer {
  method: string
  url: string
  status: number
  durationMs: number
}

export interface ServerOptions {
  /** The port to listen on (default: one the OS picks). */
  port?: number
  /** Called once for each answer written. */
  onAnswer?: (answer: ServedAnswer) => void
  /** Keep every request received in `requests` (default true; a long-running server says false, so memory stays flat). */
  keepRequests?: boolean
  /** Hand the handler requests outside the base path too (`outside`), instead of answering them 404 here: for a variant with an edge in front. */
  everyPath?: boolean
  /** How long an idle kept-alive connection stays open (default 5 s, Node's own, announced by a Keep-Alive hint). */
  keepAliveTimeoutMs?: number
  /** Close a connection idle this long without a word: no Keep-Alive hint says when (as gunicorn does). */
  idleCloseMs?: number
  /**
   * Close the connection without a word on a message the HTTP parser refuses as malformed, in place of Node's 400 (as
   * Yaws does); a method the parser does not know still gets the 400 (Yaws serves any token as a method).
   */
  closeOnParseError?: boolean
  /** How many 100 (Continue) answers a request with `Expect: 100-continue` gets before its final one (default 1, Node's own). */
  continuesPerExpect?: number
  /** Read a bare CR in each connection's first head as a line end, as Python's header parser does (head-front.ts). */
  bareCrEndsLines?: boolean
  /** Read the first or the last of two Content-Length fields in each connection's first head, as cohttp reads the first (head-front.ts). */
  contentLengthRead?: 'first' | 'last'
}

/** Ends each connection once it has sat `idleMs` after its last answer with no request on it. */
function closeIdleConnections(server: ReturnType<typeof createServer>, idleMs: number): void {
  const timers = new WeakMap<object, NodeJS.Timeout>()
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket
    clearTimeout(timers.get(socket))
    response.once('finish', () =>
      timers.set(
        socket,
        setTimeout(() => socket.end(), idleMs),
      ),
    )
  })
}

export async function startServer(handler: Handler, host = '127.0.0.1', tls?: ServerTls, options: ServerOptions = {}): Promise<RunningServer> {
  const requests: RunningServer['requests'] = []
  const { onAnswer, keepRequests = true, everyPath = false } = options
  const listener: RequestListener = async (request, response) => {
    if (onAnswer) {
      const started = performance.now()
      response.once('finish', () => onAnswer({ method: request.method ?? '', url: request.url ?? '', status: response.statusCode, durationMs: performance.now() - started }))
    }
    const parsed = new URL(request.url ?? '/', 'http://reference.invalid')
    const url = { pathname: normalizedPath(parsed.pathname), search: parsed.search, searchParams: parsed.searchParams }
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]))
    const record: RunningServer['requests'][number] = { method: request.method ?? '', url: `${url.pathname}${url.search}`, headers, at: performance.now() }
    if (keepRequests) requests.push(record)
    if (dropping.has(request.socket)) return
    if (resetting.has(request.socket)) return void request.socket.resetAndDestroy()
    try {
      const octets = await readBody(request)
      if (octets === undefined) return await write(response, errorResponse(413, 'too_large', 'the request body is over 4 MiB'))
      const body = octets.toString('utf8')
      // On this request's own record: other requests may have arrived while the body was read.
      if (body) record.body = body
      // The base path in any letter case reaches the handler, which says what another spelling gets (the reference: 404, after auth).
      const underBase = url.pathname.slice(0, BASE_PATH.length + 1).toLowerCase() === `${BASE_PATH}/`
      if (!underBase && !everyPath) return await write(response, errorResponse(404, 'not_found', `the interface is under ${BASE_PATH}`))
      const rawTarget = request.url ?? '/'
      const serviceRequest: ServiceRequest = underBase
        ? {
            method: request.method ?? 'GET',
            httpVersion: request.httpVersion,
            basePath: url.pathname.slice(0, BASE_PATH.length),
            path: url.pathname.slice(BASE_PATH.length),
            target: rawTarget.slice(0, BASE_PATH.length).toLowerCase() === BASE_PATH ? rawTarget.slice(BASE_PATH.length) : rawTarget,
            rawTarget,
            query: url.searchParams,
            headers,
            rawHeaders: request.rawHeaders,
            body,
            octets,
          }
        : {
            method: request.method ?? 'GET',
            httpVersion: request.httpVersion,
            path: url.pathname,
            target: rawTarget,
            rawTarget,
            outside: true,
            query: url.searchParams,
            headers,
            rawHeaders: request.rawHeaders,
            body,
            octets,
          }
      await write(response, await handler(serviceRequest))
    } catch (error) {
      if (!response.headersSent) await write(response, errorResponse(500, 'internal', error instanceof Error ? error.message : String(error)))
      else response.destroy()
    }
  }
  const server = tls
    ? createTlsServer({ key: tls.key, cert: tls.cert, ...(tls.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}) }, listener)
    : createServer(listener)
  server.keepAliveTimeout = options.idleCloseMs !== undefined ? 0 : (options.keepAliveTimeoutMs ?? 5_000)
  if (options.idleCloseMs !== undefined) closeIdleConnections(server, options.idleCloseMs)
  if (options.continuesPerExpect !== undefined) {
    const continues = options.continuesPerExpect
    server.on('checkContinue', (request, response) => {
      for (let sent = 0; sent < continues; sent++) response.writeContinue()
      void listener(request, response)
    })
  }
  if (options.closeOnParseError)
    server.on('clientError', (error: Error & { code?: string }, socket) =>
      error.code === 'HPE_INVALID_METHOD' ? socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n') : socket.end(),
    )
  const rewrite = options.bareCrEndsLines ? bareCrEndsLines : options.contentLengthRead ? oneContentLength(options.contentLengthRead) : undefined
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(rewrite ? 0 : (options.port ?? 0), host, resolve)
  })
  const front = rewrite ? await startHeadFront(host, options.port ?? 0, (server.address() as AddressInfo).port, rewrite) : undefined
  const port = front?.port ?? (server.address() as AddressInfo).port
  // An IPv6 host is written in brackets in a URL.
  const hostInUrl = host.includes(':') ? `[${host}]` : host
  return {
    baseUrl: `${tls ? 'https' : 'http'}://${hostInUrl}:${port}${BASE_PATH}`,
    requests,
    close: async () => {
      await front?.close()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
}
