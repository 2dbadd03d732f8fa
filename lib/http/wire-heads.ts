/**
 * Requests written octet for octet. undici refuses what an edited request may hold (a control octet in a field
 * value, a space in the path, a field given twice in a chosen order, a method in lower case), and rightly so for
 * every other request. An edited request goes through undici all the same, so that its answer is read, timed
 * and capped like every other one, with a marker field in place of its head; the connections of edited requests
 * replace the head that carries the marker with the head registered under it before it reaches the socket.
 */
import type { Socket } from 'node:net'
import type { ConnectionOptions } from 'node:tls'
import { buildConnector } from 'undici'

/** The field a request's head carries in place of the head it stands for. */
export const WIRE_MARKER_FIELD = 'x-petstore-conformance-wire'

const MARKER_LINE = new RegExp(`\\r\\n${WIRE_MARKER_FIELD}: (\\d+)\\r\\n`)

export class WireHeads {
  private next = 1
  private readonly heads = new Map<string, string>()

  /** Registers a head (octets, one per character) and gives the marker's value that stands for it. */
  register(head: string): string {
    const id = String(this.next++)
    this.heads.set(id, head)
    return id
  }

  /** Forgets a head that was not written (the request never went out). */
  forget(id: string): void {
    this.heads.delete(id)
  }

  /** A connector for undici whose sockets write the registered head in place of one that carries the marker. */
  connector(tls: ConnectionOptions): buildConnector.connector {
    const connect = buildConnector({ ...tls })
    return (options, callback) =>
      connect(options, (...args) => {
        const [error, socket] = args
        if (error === null) this.rewriteHeads(socket)
        callback(...args)
      })
  }

  private rewriteHeads(socket: Socket): void {
    const write = socket.write.bind(socket) as (chunk: unknown, ...rest: unknown[]) => boolean
    // undici writes a request's head as one latin1 string (its body, if any, follows as its own chunk).
    socket.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk === 'string') {
        const id = MARKER_LINE.exec(chunk)?.[1]
        const head = id === undefined ? undefined : this.heads.get(id)
        if (id !== undefined && head !== undefined) {
          this.heads.delete(id)
          const done = rest.find((argument) => typeof argument === 'function')
          return done ? write(head, 'latin1', done) : write(head, 'latin1')
        }
      }
      return write(chunk, ...rest)
    }) as Socket['write']
  }
}
