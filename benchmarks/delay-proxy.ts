/**
 * A TCP relay on a free loopback port that adds a fixed delay to every exchange, standing in for a target across a
 * network. It relays octets, never reads HTTP: an edited request reaches the target as the suite wrote it, however
 * malformed (an HTTP proxy would refuse it or write it anew). What the client sends is held `delayMs` before it goes
 * on, in order; the answers come back at once. It records when the first octets arrived and how many connections came.
 */
import { connect, createServer, type Socket } from 'node:net'

export interface DelayProxy {
  /** The target's base URL, reached through the proxy. */
  baseUrl: string
  /** Connections relayed. */
  connections: number
  /** performance.timeOrigin-relative time (ms) of the first octets, or undefined. */
  firstRequestAt: number | undefined
  close(): Promise<void>
}

export async function startDelayProxy(targetBaseUrl: string, delayMs: number): Promise<DelayProxy> {
  const target = new URL(targetBaseUrl)
  const state: { connections: number; firstRequestAt: number | undefined } = { connections: 0, firstRequestAt: undefined }
  const open = new Set<Socket>()
  const server = createServer((client) => {
    state.connections += 1
    const upstream = connect({ host: target.hostname, port: Number(target.port) })
    for (const socket of [client, upstream]) {
      open.add(socket)
      socket.on('close', () => open.delete(socket))
      socket.on('error', () => {
        client.destroy()
        upstream.destroy()
      })
    }
    // Each chunk and the end go on delayMs after they came: timers of one duration fire in the order they were set.
    client.on('data', (chunk) => {
      state.firstRequestAt ??= performance.now()
      setTimeout(() => upstream.write(chunk), delayMs)
    })
    client.on('end', () => setTimeout(() => upstream.end(), delayMs))
    upstream.pipe(client)
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    get connections() {
      return state.connections
    },
    get firstRequestAt() {
      return state.firstRequestAt
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of open) socket.destroy()
      }),
  }
}
