/**
 * The requests that come on a raw socket, one at a time: each head (its request line and fields, without the empty
 * line) once its Content-Length of content has come too. For test servers written on node:net, which answer
 * octet for octet what an HTTP server would not let them.
 */
import type { Socket } from 'node:net'

export function onRequests(socket: Socket, onRequest: (head: string) => void): void {
  let buffered = ''
  socket.on('data', (chunk) => {
    buffered += chunk.toString('latin1')
    for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
      const head = buffered.slice(0, end)
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0)
      if (buffered.length < end + 4 + length) return
      buffered = buffered.slice(end + 4 + length)
      onRequest(head)
      if (socket.destroyed) return
    }
  })
}
