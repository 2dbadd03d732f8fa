/**
 * A TCP front that reads the first head of each connection as Python's header parser (http.client, under http.server
 * and Werkzeug) reads it: a bare CR ends a line. The head goes on to Node's parser with each bare CR written CRLF, so
 * `Authorization: Bearer <key>\rX-Request-Id: 1` reaches the service as the key and a field of its own. Only the first
 * head: an edit that holds a bare CR goes on a connection of its own, and a body is passed on as it came.
 */
import { connect, createServer, type Server, type Socket } from 'node:net'

/** The most a head is held for before the front gives up finding its end and passes the octets on as they came. */
const LONGEST_HEAD = 64 * 1024

export interface BareCrFront {
  port: number
  close(): Promise<void>
}

/** Listens on `host`:`port` (0: one the OS picks) and passes each connection on to `innerPort` on the same host. */
export async function startBareCrFront(host: string, port: number, innerPort: number): Promise<BareCrFront> {
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  }
  const server: Server = createServer((client) => {
    const inner = connect(innerPort, host)
    track(client)
    track(inner)
    let held: string | undefined = ''
    client.on('data', (chunk: Buffer) => {
      if (held === undefined) return void inner.write(chunk)
      held += chunk.toString('latin1')
      const end = held.indexOf('\r\n\r\n')
      if (end < 0 && held.length < LONGEST_HEAD) return
      const head = end < 0 ? held : held.slice(0, end + 4)
      const rest = end < 0 ? '' : held.slice(end + 4)
      held = undefined
      inner.write(Buffer.from(`${head.replace(/\r(?!\n)/g, '\r\n')}${rest}`, 'latin1'))
    })
    inner.pipe(client)
    client.on('end', () => inner.end())
    client.on('error', () => inner.destroy())
    inner.on('error', () => client.destroy())
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, resolve)
  })
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('the bare-CR front has no port')
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      }),
  }
}
