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
import { MAX_HEADER_BYTES } from './transport-failures.js'

/** The field a request's head carries in place of the head it stands for. */
export const WIRE_MARKER_FIELD = 'x-petstore-conformance-wire'

const MARKER_LINE = new RegExp(`\\r\\n${WIRE_MARKER_FIELD}: (\\d+)\\r\\n`)

export class WireHeads {
  private next = 1
  private readonly heads = new Map<string, string>()
  private readonly versions = new Set<string>()
  /** For each HEAD written, by its marker: the octets its answer carried after its head, as far as they were read. */
  private readonly afterHead = new Map<string, number>()

  /** The HTTP versions the first answer on each connection was written in (`1.1`, `1.0`), as its status line says. */
  get answeredVersions(): ReadonlySet<string> {
    return this.versions
  }

  /** Registers a head (octets, one per character) and gives the marker's value that stands for it. */
  register(head: string): string {
    const id = String(this.next++)
    this.heads.set(id, head)
    return id
  }

  /** Forgets a head, written or not, and what was read after its answer's head. */
  forget(id: string): void {
    this.heads.delete(id)
    this.afterHead.delete(id)
  }

  /**
   * The octets the answer to a HEAD carried after its head, as far as undici read them before it was done with the
   * connection: content, which an answer to HEAD never has (RFC 9110 §9.3.2), and which undici does not read as such.
   */
  contentAfterHead(id: string): number | undefined {
    return this.afterHead.get(id)
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
    const reads = this.watchReads(socket)
    const interim = new InterimContinue(socket)
    const write = socket.write.bind(socket) as (chunk: unknown, ...rest: unknown[]) => boolean
    // undici writes a request's head as one latin1 string (its body, if any, follows as its own chunk).
    socket.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk === 'string') {
        const id = MARKER_LINE.exec(chunk)?.[1]
        const head = id === undefined ? undefined : this.heads.get(id)
        if (id !== undefined && head !== undefined) {
          this.heads.delete(id)
          if (EXPECTS_CONTINUE.test(head)) interim.expect()
          if (head.startsWith('HEAD ')) reads.headWritten(id)
          const done = rest.find((argument) => typeof argument === 'function')
          return done ? write(head, 'latin1', done) : write(head, 'latin1')
        }
      }
      return write(chunk, ...rest)
    }) as Socket['write']
  }

  /**
   * Watches the octets the connection reads: the version its first answer is written in (a server answers in one
   * version; RFC 9112 §2.5), and, after a HEAD, what its answer carries past its head (contentAfterHead).
   */
  private watchReads(socket: Socket): { headWritten: (id: string) => void } {
    const read = socket.read.bind(socket)
    let noted = false
    let head: { id: string; read: string; past: boolean } | undefined
    socket.read = ((size?: number) => {
      const chunk = read(size) as Buffer | null
      if (chunk === null) return chunk
      if (!noted && chunk.length >= 9) {
        noted = true
        const version = STATUS_LINE_VERSION.exec(chunk.toString('latin1', 0, 12))?.[1]
        if (version !== undefined) this.versions.add(version)
      }
      if (head?.past) this.afterHead.set(head.id, (this.afterHead.get(head.id) ?? 0) + chunk.length)
      else if (head) {
        // The head may come in pieces: read up to the cap undici reads a head to, then every octet past its end is content.
        head.read += chunk.toString('latin1', 0, Math.min(chunk.length, MAX_HEADER_BYTES))
        const end = finalHeadEnd(head.read)
        if (end !== undefined) {
          this.afterHead.set(head.id, head.read.length - end)
          head = { ...head, read: '', past: true }
        } else if (head.read.length >= MAX_HEADER_BYTES) head = undefined
      }
      return chunk
    }) as Socket['read']
    return {
      headWritten: (id) => {
        head = { id, read: '', past: false }
      },
    }
  }
}

/** Where the head of the final answer ends in the octets read (after any 1xx interim answers), or undefined while it has not. */
function finalHeadEnd(read: string): number | undefined {
  let at = 0
  for (;;) {
    const end = read.indexOf('\r\n\r\n', at)
    if (end < 0) return undefined
    if (!/^HTTP\/1\.[01] 1\d\d/.test(read.slice(at, at + 12))) return end + 4
    at = end + 4
  }
}

/** What a connection's first octets say of the HTTP version its answers are written in: `HTTP/1.0 200 OK` is 1.0. */
const STATUS_LINE_VERSION = /^HTTP\/(\d\.\d) /

const EXPECTS_CONTINUE = /\r\nexpect:[ \t]*100-continue[ \t]*\r\n/i

/** A 100 (Continue) interim answer, its fields, and the empty line after them (RFC 9110 §15.2.1). */
const CONTINUE_ANSWER = /^HTTP\/1\.[01] 100[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n/

/**
 * The 100 (Continue) answers a server sends to a request with `Expect: 100-continue`, taken off the socket before
 * undici reads them: undici sends no such request itself and takes a 100 for a broken answer. Every one that comes
 * before the final answer is taken: "A client MUST be able to parse one or more 1xx responses received prior to a
 * final response" (RFC 9110 §15.2), and a stack may send two (Werkzeug's threaded server answers one from Python's
 * http.server and one of its own). The body went out at once (RFC 9110 §10.1.1 lets a client send it without
 * waiting), so a 100 says nothing the final answer does not.
 */
class InterimContinue {
  private pending = false
  private held = Buffer.alloc(0)

  constructor(socket: Socket) {
    const read = socket.read.bind(socket)
    socket.read = ((size?: number) => {
      const chunk = read(size) as Buffer | null
      if (!this.pending || chunk === null) return chunk
      return this.taken(chunk)
    }) as Socket['read']
  }

  expect(): void {
    this.pending = true
  }

  /** What is left of the octets read once the leading 100 answers are taken off; null while one may still be arriving. */
  private taken(chunk: Buffer): Buffer | null {
    this.held = Buffer.concat([this.held, chunk])
    for (;;) {
      const text = this.held.toString('latin1')
      const answer = CONTINUE_ANSWER.exec(text)
      if (answer) {
        // Another 100 may follow, or the final answer: nothing passes until the octets say which.
        this.held = this.held.subarray(answer[0].length)
        continue
      }
      // The start of some other answer passes as it is; the start of a 100 waits for its end.
      const start = text.slice(0, 12)
      if (!['HTTP/1.1 100', 'HTTP/1.0 100'].some((continues) => continues.startsWith(start))) return this.release(this.held)
      return text.length > 8192 ? this.release(this.held) : null
    }
  }

  private release(octets: Buffer): Buffer {
    this.pending = false
    this.held = Buffer.alloc(0)
    return octets
  }
}
