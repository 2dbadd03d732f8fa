/**
 * A gateway in front of a target, as vendors run one: a node:http server that parses each request (refusing with its
 * own 400 what its parser will not take, and an HTTP/1.1 request without a Host), logs what reached it (method, target, traceparent), and forwards it to the
 * target unchanged. What it saw and what it refused are what a target's logs would hold.
 */
import { createServer, request as forward } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export interface GatewayLogLine {
  method: string
  target: string
  traceparent: string | undefined
}

export interface LoggingGateway {
  baseUrl: string
  /** Every request its parser took, in the order they came. */
  seen: GatewayLogLine[]
  /** Requests it refused (answered 400 by the gateway itself, the connection closed): what its parser would not take, and an HTTP/1.1 request without a Host. */
  refused: number
  close(): Promise<void>
}

export async function startLoggingGateway(upstreamBaseUrl: string): Promise<LoggingGateway> {
  const upstream = new URL(upstreamBaseUrl)
  const seen: GatewayLogLine[] = []
  const sockets = new Set<Socket>()
  let refused = 0
  // Node answers an HTTP/1.1 request without a Host field 400 on its own unless told not to: here it is refused in the gateway's own words, and counted.
  const server = createServer({ requireHostHeader: false }, (incoming, outgoing) => {
    if (incoming.headers.host === undefined && incoming.httpVersion === '1.1') {
      refused += 1
      outgoing.writeHead(400, { connection: 'close' }).end()
      return
    }
    const traceparent = incoming.headers.traceparent
    seen.push({ method: incoming.method ?? '', target: incoming.url ?? '', traceparent: Array.isArray(traceparent) ? traceparent.join(', ') : traceparent })
    const proxied = forward(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: upstream.host } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
      },
    )
    proxied.on('error', () => outgoing.destroy())
    incoming.pipe(proxied)
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  server.on('clientError', (_error, socket) => {
    refused += 1
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    else socket.destroy()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname}`,
    seen,
    get refused() {
      return refused
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}
