/**
 * A TCP front that reads the first head of each connection as a server of another make reads it, and passes it on to
 * Node's parser so rewritten. Python's header parser (http.client, under http.server and Werkzeug) ends a line at a bare
 * CR: each is written CRLF, so `Authorization: Bearer <key>\rX-Request-Id: 1` reaches the service as the key and a
 * field of its own. cohttp reads the first of two Content-Length fields, other servers the last: the other is dropped.
 * Only the first head: an edit that holds a bare CR, or two lengths, goes on a connection of its own, and a body is
 * passed on as it came.
 */
import { connect, createServer, type Server, type Socket } from 'node:net'

/** The most a head is held for before the front gives up finding its end and passes the octets on as they came. */
const LONGEST_HEAD = 64 * 1024

export interface HeadFront {
  port: number
  close(): Promise<void>
}

/** Listens on `host`:`port` (0: one the OS picks) and passes each connection on to `innerPort` on the same host. */
export async function startHeadFront(host: string, port: number, innerPort: number, rewrite: (head: string) => string): Promise<HeadFront> {
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
      inner.write(Buffer.from(`${rewrite(head)}${rest}`, 'latin1'))
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
  if (address === null || typeof address === 'string') throw new Error('the head front has no port')
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      }),
  }
}

/** Python's header parser: a bare CR ends a line. */
export const bareCrEndsLines = (head: string): string => head.replace(/\r(?!\n)/g, '\r\n')

/** A server that reads one of two Content-Length fields: the other one's line is dropped. */
export function oneContentLength(read: 'first' | 'last'): (head: string) => string {
  return (head) => {
    const lines = head.split('\r\n')
    const lengths = lines.flatMap((line, index) => (/^content-length\s*:/i.test(line) ? [index] : []))
    if (lengths.length < 2) return head
    const kept = read === 'first' ? lengths[0] : lengths[lengths.length - 1]
    return lines.filter((line, index) => index === kept || !lengths.includes(index)).join('\r\n')
  }
}
