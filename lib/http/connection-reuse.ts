/**
 * What happens on each keep-alive connection, read from undici's diagnostics channels (undici does not hand a
 * request's socket to its caller): the answers each connection carried, and whether the target closed one right
 * after an answer that did not say `Connection: close` (RFC 9112 §9.6: a sender SHOULD say so when it intends to
 * close). Two uses:
 * - a request lost because the target closed (not reset) the connection it was sent on, before any byte of an
 *   answer, is told apart from one the target failed: `lostOnDroppedConnection(error)` names the answer before;
 * - each close of that kind that comes while no request awaits an answer on the connection is reported to the clients
 *   of that origin (`watchCloses`), every time it happens: a finding that does not depend on timing or on the seed. A
 *   close under a request may be the target refusing that request, not closing after the answer before: it is
 *   reported only once a fresh connection answers the lost request, as a reset is.
 */
import { subscribe } from 'node:diagnostics_channel'
import type { Socket } from 'node:net'
import { LoopStalls } from './loop-stalls.js'

/**
 * A close this soon after an answer is the target closing after that answer; a later one is an idle timeout, which
 * HTTP allows unannounced (RFC 9112 §9.5). The shortest idle timeout a server takes by default is civetweb's 500 ms
 * (Starman's is 1 s): a window of 500 ms read some of civetweb's closes, seen 452 to 498 ms after an answer whose
 * handling a busy loop had put off, as closes after an answer. Half of it leaves a close right after an answer room for
 * the loop's hold-ups (closeSoonAfter) on a loaded machine.
 */
export const CLOSE_AFTER_ANSWER_MS = 250

/** The last answer a connection carried, in words a report can quote. */
export interface PreviousAnswer {
  method: string
  path: string
  status: number
}

/**
 * A request lost on a connection that had carried an answer: the answer before, and, when the target reset the
 * connection instead of closing it (no FIN came, so `watchCloses` heard nothing), the close to report once a
 * fresh connection shows the request itself was not at fault (the lost request answered there).
 */
export interface LostRequest {
  previous: PreviousAnswer
  /** The answer before said Connection: close (a client that sent on anyway is at fault; undici does not). */
  announced: boolean
  /** The target closed the connection (its FIN came); otherwise it reset it. */
  closed: boolean
  /** Set for a reset, or a close under the request, that came within CLOSE_AFTER_ANSWER_MS of an answer that did not say Connection: close. */
  unreportedClose?: UnannouncedClose
}

/** Errors that say the target ended the connection under a request: a reset, a broken pipe, a close (undici's own words). */
const CONNECTION_ENDED = /^(ECONNRESET|EPIPE|ECONNABORTED|UND_ERR_SOCKET|UND_ERR_CLOSED)$/

/** The target closed a connection right after an answer that did not announce it. */
export interface UnannouncedClose {
  previous: PreviousAnswer
  afterMs: number
}

interface UndiciRequest {
  origin?: string | URL
  method: string
  path: string
}

interface ConnectionState {
  origin: string
  answers: number
  /**
   * A request on it asked the target to close it (undici writes `connection: close` for an agent that keeps no
   * connection alive): the close after its answer is the one asked for, whether or not the answer says so (an HTTP/1.0
   * answer has no need to: RFC 9112 §9.3).
   */
  closeAsked: boolean
  /** A request's head went out on it and no answer's head has come back yet. */
  awaiting: boolean
  /**
   * The target closed it while a request awaited its answer: the close came under that request, whatever the timing
   * after the answer before (libmicrohttpd closes on a request past its memory pool, 7 ms after answering the one
   * before). It is reported only once a fresh connection answers the lost request (lostOnDroppedConnection).
   */
  endedUnderRequest?: boolean
  /** Its reset, which failed requests never written on it, was reported (once for the connection, however many it failed). */
  resetReported?: boolean
  last?: PreviousAnswer & { at: number; announcedClose: boolean }
}

/** Hold-ups of this thread's loop while any client watches closes: a close measured across one may have come later than it seems. */
const loopStalls = new LoopStalls()

/**
 * Whether a close seen `afterMs` after the answer handled at `answeredAt` came within CLOSE_AFTER_ANSWER_MS of it even
 * if a hold-up of the loop delayed the answer's handling and not the close's: on a loaded machine an idle timeout must
 * not read as a close right after an answer. A hold-up that began after the answer was handled only delays the
 * close's handling, which makes the close seem later, never sooner: `afterMs` already holds it.
 */
function closeSoonAfter(answeredAt: number, afterMs: number): boolean {
  return afterMs + loopStalls.longestBefore(answeredAt, answeredAt - CLOSE_AFTER_ANSWER_MS) <= CLOSE_AFTER_ANSWER_MS
}

const connections = new WeakMap<Socket, ConnectionState>()
/** The connections open to each origin, for a request lost before its head went out on one (resetConnectionOf). */
const openConnections = new Map<string, Set<Socket>>()
const socketOf = new WeakMap<UndiciRequest, Socket>()
const answered = new WeakSet<UndiciRequest>()
const lost = new WeakMap<object, LostRequest>()
const watchers = new Map<string, Set<(close: UnannouncedClose) => void>>()
let subscribed = false

/** `connection: close` among raw undici headers (alternating names and values, as buffers or strings). */
function announcesClose(headers: unknown): boolean {
  if (!Array.isArray(headers)) return false
  for (let index = 0; index + 1 < headers.length; index += 2) {
    if (String(headers[index]).toLowerCase() === 'connection' && /(^|,)\s*close\s*(,|$)/i.test(String(headers[index + 1]))) return true
  }
  return false
}

function subscribeOnce(): void {
  if (subscribed) return
  subscribed = true
  subscribe('undici:client:sendHeaders', (message) => {
    const { request, socket, headers } = message as { request: UndiciRequest; socket: Socket; headers?: unknown }
    socketOf.set(request, socket)
    const asksClose = typeof headers === 'string' && /\r\nconnection: close\r\n/i.test(headers)
    const known = connections.get(socket)
    if (known) {
      known.closeAsked ||= asksClose
      known.awaiting = true
      return
    }
    const state: ConnectionState = { origin: String(request.origin ?? ''), answers: 0, closeAsked: asksClose, awaiting: true }
    connections.set(socket, state)
    const open = openConnections.get(state.origin) ?? new Set()
    openConnections.set(state.origin, open.add(socket))
    socket.once('close', () => {
      open.delete(socket)
      if (open.size === 0 && openConnections.get(state.origin) === open) openConnections.delete(state.origin)
    })
    socket.once('end', () => {
      const last = state.last
      if (!last || last.announcedClose || state.closeAsked) return
      if (state.awaiting) {
        state.endedUnderRequest = true
        return
      }
      const afterMs = performance.now() - last.at
      if (!closeSoonAfter(last.at, afterMs)) return
      const close: UnannouncedClose = { previous: { method: last.method, path: last.path, status: last.status }, afterMs: Math.round(afterMs) }
      for (const watcher of watchers.get(state.origin) ?? []) watcher(close)
    })
  })
  subscribe('undici:request:headers', (message) => {
    const { request, response } = message as { request: UndiciRequest; response: { statusCode: number; headers: unknown } }
    answered.add(request)
    const socket = socketOf.get(request)
    const state = socket ? connections.get(socket) : undefined
    if (!state) return
    state.awaiting = false
    state.answers += 1
    state.last = { method: request.method, path: request.path, status: response.statusCode, at: performance.now(), announcedClose: announcesClose(response.headers) }
  })
  // The answer is complete: the time a close is measured from (a long body must not hide one).
  subscribe('undici:request:trailers', (message) => {
    const { request } = message as { request: UndiciRequest }
    const socket = socketOf.get(request)
    const last = socket ? connections.get(socket)?.last : undefined
    if (last) last.at = performance.now()
  })
  subscribe('undici:request:error', (message) => {
    const { request, error } = message as { request: UndiciRequest; error: unknown }
    const written = socketOf.get(request)
    const socket = written ?? resetConnectionOf(String(request.origin ?? ''))
    const state = socket ? connections.get(socket) : undefined
    // Only a request that got no byte of an answer, on a connection that had already carried one, which the target
    // ended under it: closed (its FIN: the socket's reading side ended) or reset. Whether the request itself was at
    // fault is for a fresh connection to show (the client sends a read there again, and a create once it knows the
    // create was not processed).
    if (!state?.last || answered.has(request) || typeof error !== 'object' || error === null) return
    const code = String((error as { code?: unknown }).code ?? (error as { cause?: { code?: unknown } }).cause?.code ?? '')
    const closed = socket?.readableEnded === true
    if (!closed && !CONNECTION_ENDED.test(code)) return
    const { method, path, status, at, announcedClose } = state.last
    const afterMs = Math.round(performance.now() - at)
    const previous = { method, path, status }
    // A request never written cannot be what the target refused: its reset closed the connection after the answer
    // before, and is reported now, once a connection, like a close heard while no request awaited an answer.
    if (!written) {
      // A connection of its own (its request asked for the close) stands in only to say the request never went out.
      if (!announcedClose && !state.closeAsked && !state.resetReported && closeSoonAfter(at, afterMs)) {
        state.resetReported = true
        for (const watcher of watchers.get(state.origin) ?? []) watcher({ previous, afterMs })
      }
      lost.set(error, { previous, announced: announcedClose, closed })
      return
    }
    // A reset, or a close that came under this request: reported once a fresh connection answers it (a close heard while
    // no request awaited an answer was reported when it came).
    const unheard = !closed || state.endedUnderRequest === true
    lost.set(error, {
      previous,
      announced: announcedClose,
      closed,
      ...(unheard && !announcedClose && closeSoonAfter(at, afterMs) ? { unreportedClose: { previous, afterMs } } : {}),
    })
  })
}

/**
 * The connection a request that failed before its head went out was lost on: undici gave it to a kept-alive
 * connection the target had just reset (warp resets one whose request body it left unread past 8 KiB, right after its
 * answer), and failed it with the reset before writing it. Node marks a socket errored before its error is emitted, so
 * that connection is the one of the origin that has carried an answer, kept alive, and is errored now; the latest such,
 * if several. A connection of its own (its request asked for the close) carries no other request: it is taken only when
 * no kept-alive one is errored, so that a request never written is still known lost, and its close is not reported
 * (libsoup resets those after a 400, which read as closes after an answer the request had not asked for).
 */
function resetConnectionOf(origin: string): Socket | undefined {
  let latest: { socket: Socket; at: number; own: boolean } | undefined
  for (const socket of openConnections.get(origin) ?? []) {
    const state = connections.get(socket)
    const at = state?.last?.at
    const own = state?.closeAsked === true
    if (!socket.errored || at === undefined) continue
    // A kept-alive connection before any of its own: one whose request asked for the close carries no other.
    if (latest === undefined || (own === latest.own ? at > latest.at : latest.own)) latest = { socket, at, own }
  }
  return latest?.socket
}

/** The answer before, when `error` is that of a request the target never answered because it closed or reset the connection the request came on. */
export function lostOnDroppedConnection(error: unknown): LostRequest | undefined {
  return typeof error === 'object' && error !== null ? lost.get(error) : undefined
}

/** Calls `listener` for every unannounced close by the target at `origin`, until the returned function is called. */
export function watchCloses(origin: string, listener: (close: UnannouncedClose) => void): () => void {
  subscribeOnce()
  const set = watchers.get(origin) ?? new Set()
  set.add(listener)
  watchers.set(origin, set)
  loopStalls.start()
  let watching = true
  return () => {
    if (!watching) return
    watching = false
    loopStalls.stop()
    set.delete(listener)
    if (set.size === 0) watchers.delete(origin)
  }
}

/** The answer before a dropped connection, in words. */
export function previousWords(previous: PreviousAnswer): string {
  return `${previous.method} ${previous.path} (answered ${previous.status})`
}
