/**
 * A reverse proxy on a free loopback port that adds a fixed delay to every exchange, standing in for a
 * target across a network. It records when the first request arrived and how many came through.
 */
import { Agent, createServer, request as forward } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface DelayProxy {
  /** The target's base URL, reached through the proxy. */
  baseUrl: string
  requests: number
  /** performance.timeOrigin-relative time (ms) of the first request, or undefined. */
  firstRequestAt: number | undefined
  close(): Promise<void>
}

export async function startDelayProxy(targetBaseUrl: string, delayMs: number): Promise<DelayProxy> {
  const target = new URL(targetBaseUrl)
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY })
  const state: { requests: number; firstRequestAt: number | undefined } = { requests: 0, firstRequestAt: undefined }
  const server = createServer((request, response) => {
    state.requests += 1
    state.firstRequestAt ??= performance.now()
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      // The simulated round trip: the answer comes back delayMs later than it would on loopback.
      setTimeout(() => {
        const upstream = forward({ host: target.hostname, port: target.port, path: request.url, method: request.method, headers: request.headers, agent }, (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(response)
        })
        upstream.on('error', () => response.destroy())
        upstream.end(Buffer.concat(chunks))
      }, delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    get requests() {
      return state.requests
    },
    get firstRequestAt() {
      return state.firstRequestAt
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
        agent.destroy()
      }),
  }
}
