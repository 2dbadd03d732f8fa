/** A minimal forward proxy on a free loopback port: it relays absolute-form requests and CONNECT tunnels, and records them. */
import { createServer, request as forward } from 'node:http'
import { type AddressInfo, connect, type Socket } from 'node:net'

export interface ForwardProxy {
  url: string
  /** The absolute URLs it relayed, and the host:port of each tunnel. */
  relayed: string[]
  close(): Promise<void>
}

/** Starts the proxy, closed when the calling test finishes. */
export async function startForwardProxy(onTestFinished: (close: () => Promise<void>) => void): Promise<ForwardProxy> {
  {
    const relayed: string[] = []
    const server = createServer((request, response) => {
      relayed.push(request.url ?? '')
      const upstream = forward(request.url ?? '', { method: request.method, headers: request.headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      })
      upstream.on('error', () => response.destroy())
      request.pipe(upstream)
    })
    const tunnels = new Set<Socket>()
    server.on('connect', (request, client: Socket, head: Buffer) => {
      relayed.push(request.url ?? '')
      const [host, port] = (request.url ?? '').split(':')
      const upstream = connect(Number(port), host ?? '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        upstream.write(head)
        upstream.pipe(client)
        client.pipe(upstream)
      })
      for (const socket of [client, upstream]) {
        tunnels.add(socket)
        socket.on('error', () => socket.destroy())
        socket.on('close', () => tunnels.delete(socket))
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const proxy: ForwardProxy = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      relayed,
      close: () =>
        new Promise<void>((resolve) => {
          for (const socket of tunnels) socket.destroy()
          server.close(() => resolve())
          server.closeAllConnections()
        }),
    }
    onTestFinished(() => proxy.close())
    return proxy
  }
}
