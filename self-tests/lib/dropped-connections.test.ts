/**
 * A request the target never answered because it closed, under the request, a connection that had just carried an
 * answer: reported as the connection's doing, with that answer, the same way every time; a POST is never sent
 * again (it may have been processed, RFC 9112 §9.3.1), a read goes again on a connection of its own; and every
 * unannounced close right after an answer is seen, whichever request comes next (responses/close-announced).
 * The server here is a plain socket: it answers the first request of each connection, then reads the next one and
 * destroys the connection without a byte of answer. No timing decides what happens.
 */
import { channel } from 'node:diagnostics_channel'
import { EventEmitter } from 'node:events'
import { createServer, type Server, type Socket } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { closesReport } from '../../lib/checks/connection-closes.js'
import { createRunRedactor } from '../../lib/checks/evidence.js'
import { HttpClient } from '../../lib/http/client.js'
import { lostOnDroppedConnection, type UnannouncedClose, watchCloses } from '../../lib/http/connection-reuse.js'
import { onRequests } from '../helpers/raw-requests.js'

interface Dropper {
  baseUrl: string
  /** The request lines received, in order. */
  received: string[]
  server: Server
}

/**
 * Answers the first request on a connection `status` (keep-alive, no Connection: close) and closes the connection on
 * the second (`reset`: resets it instead, the target failing the request it read).
 */
async function startDropper(status: number, closeRightAfter = false, reset = false): Promise<Dropper> {
  const received: string[] = []
  const server = createServer((socket: Socket) => {
    let answered = 0
    onRequests(socket, (head) => {
      received.push(head.split('\r\n')[0] ?? '')
      if (answered > 0) return void (reset ? socket.resetAndDestroy() : socket.destroy())
      answered += 1
      const body = `{"code":"x","message":"y","status":${status}}`
      socket.write(`HTTP/1.1 ${status} X\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`)
      if (closeRightAfter) socket.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return { baseUrl: `http://127.0.0.1:${port}/v1`, received, server }
}

const open: Array<{ close: () => Promise<unknown> }> = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()))
})

function clientOf(baseUrl: string): HttpClient {
  const client = new HttpClient({ baseUrl, concurrency: 1, timeoutMs: 5_000, maxBodyBytes: 1 << 20, maxRetries: 2, maxRetryWaitMs: 0 })
  open.push({ close: () => client.destroy() })
  return client
}

function track(dropper: Dropper): Dropper {
  open.push({ close: () => new Promise((resolve) => dropper.server.close(resolve)) })
  return dropper
}

describe('a connection the target closes under a request', () => {
  test('a POST sent on it is reported as dropped, naming the answer before, and is not sent again', async () => {
    const target = track(await startDropper(404))
    const client = clientOf(target.baseUrl)
    const first = await client.send({ method: 'GET', path: '/pets/5', headers: {} })
    expect(first.response?.status).toBe(404)
    const post = await client.send({ method: 'POST', path: '/pets', headers: { 'content-type': 'application/json' }, body: '{"name":"a","categoryId":1}' })
    expect(post.failure?.kind).toBe('dropped')
    expect(post.failure?.message).toBe(
      'the connection was closed by the target before any byte of an answer came: it had just carried GET /v1/pets/5 (answered 404), which did not say Connection: close',
    )
    expect(post.retries).toEqual([])
    expect(target.received).toEqual(['GET /v1/pets/5 HTTP/1.1', 'POST /v1/pets HTTP/1.1'])
  })

  test("a connection reset under a POST, right after an answer, is the connection's doing as a close is: dropped, the close kept to report once a fresh connection shows the request was not at fault, and never sent again by the client", async () => {
    const target = track(await startDropper(404, false, true))
    const client = clientOf(target.baseUrl)
    await client.send({ method: 'GET', path: '/pets/5', headers: {} })
    const post = await client.send({ method: 'POST', path: '/pets', headers: { 'content-type': 'application/json' }, body: '{"name":"a","categoryId":1}' })
    expect(post.failure?.kind).toBe('dropped')
    expect(post.failure?.message).toMatch(
      /^the connection was reset by the target before any byte of an answer came: it had just carried GET \/v1\/pets\/5 \(answered 404\), which did not say Connection: close$/,
    )
    expect(post.failure?.unreportedClose?.previous).toEqual({ method: 'GET', path: '/v1/pets/5', status: 404 })
    expect(client.unannouncedCloses).toEqual([])
    expect(target.received.filter((line) => line.startsWith('POST'))).toHaveLength(1)
  })

  test('a read lost to a reset right after an answer goes again on a connection of its own; answered there, the reset is reported as a close', async () => {
    const target = track(await startDropper(404, false, true))
    const client = clientOf(target.baseUrl)
    await client.send({ method: 'GET', path: '/pets/5', headers: {} })
    const again = await client.send({ method: 'GET', path: '/pets/6', headers: {} })
    expect(again.response?.status).toBe(404)
    expect(again.retries[0]?.failure).toMatch(/^the connection was reset by the target/)
    expect(client.unannouncedCloses.map((close) => close.previous)).toEqual([{ method: 'GET', path: '/v1/pets/5', status: 404 }])
    expect(client.closeEvidence.exchangeOf(client.unannouncedCloses[0] as UnannouncedClose)?.request.url).toMatch(/\/v1\/pets\/5$/)
  })

  test('a read sent on it goes again, on a connection of its own, and is answered', async () => {
    const target = track(await startDropper(404))
    const client = clientOf(target.baseUrl)
    await client.send({ method: 'GET', path: '/pets/5', headers: {} })
    const again = await client.send({ method: 'GET', path: '/pets/6', headers: {} })
    expect(again.response?.status).toBe(404)
    expect(again.retries).toHaveLength(1)
    expect(again.retries[0]?.failure).toMatch(/^the connection was closed by the target before any byte of an answer came: it had just carried GET \/v1\/pets\/5/)
    expect(target.received).toEqual(['GET /v1/pets/5 HTTP/1.1', 'GET /v1/pets/6 HTTP/1.1', 'GET /v1/pets/6 HTTP/1.1'])
  })

  test('a close that comes under a request the target will not serve (libmicrohttpd closes on a request past its memory pool) is not charged to the answer before', async () => {
    // Every request answered 200, but one whose target holds `refused`: the connection closed under it, on any connection.
    const server = createServer((socket: Socket) => {
      let buffered = ''
      socket.on('data', (chunk) => {
        buffered += chunk.toString('latin1')
        for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
          const line = buffered.slice(0, buffered.indexOf('\r\n'))
          buffered = buffered.slice(end + 4)
          if (line.includes('refused')) return void socket.destroy()
          socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]')
        }
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    open.push({ close: () => new Promise((resolve) => server.close(resolve)) })
    const address = server.address()
    const client = clientOf(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`)
    expect((await client.send({ method: 'GET', path: '/pets?limit=81', headers: {} })).response?.status).toBe(200)
    const refused = await client.send({ method: 'GET', path: '/pets?refused', headers: {} })
    // Sent again on a connection of its own, closed there too: the request's doing, not a close after the answer before.
    expect(refused.response).toBeUndefined()
    expect(refused.retries[0]?.failure).toMatch(/^the connection was closed by the target before any byte of an answer came: it had just carried GET \/v1\/pets\?limit=81/)
    expect((await client.send({ method: 'GET', path: '/pets/5', headers: {} })).response?.status).toBe(200)
    expect(client.unannouncedCloses).toEqual([])
  })

  test('a close right after an answer that did not say Connection: close is seen, however soon the next request comes; then every POST goes on a connection of its own', async () => {
    const target = track(await startDropper(401, true))
    const client = clientOf(target.baseUrl)
    const first = await client.send({ method: 'GET', path: '/pets', headers: {} })
    await expect.poll(() => client.unannouncedCloses.length).toBe(1)
    expect(client.unannouncedCloses[0]?.previous).toEqual({ method: 'GET', path: '/v1/pets', status: 401 })
    // The report quotes the close with the exchange it came after, as evidence a curl line replays.
    expect(client.closeEvidence.exchangeOf(client.unannouncedCloses[0] as UnannouncedClose)?.id).toBe(first.id)
    const report = closesReport(client.unannouncedCloses, 1, createRunRedactor(undefined), client.closeEvidence)
    expect(report.outcome).toBe('fail')
    expect(report.failure?.evidence.map((evidence) => evidence.curl)).toEqual([expect.stringMatching(/^curl .*\/v1\/pets'/)])
    // The pool's connection is gone; a POST now is answered on a new one (the first request there).
    const post = await client.send({ method: 'POST', path: '/pets', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(post.response?.status).toBe(401)
  })

  test('a close the request asked for is no unannounced close, though its answer, in HTTP/1.0, does not say Connection: close', async () => {
    // Every answer, then the connection closed: GET /v1/pets in HTTP/1.0 with no Connection field and its body ended by the
    // close (RFC 9112 §6.3, §9.3), as Go answers an HTTP/1.0 request; the rest in HTTP/1.1 with a Content-Length.
    const server = createServer((socket: Socket) => {
      socket.once('data', (chunk) => {
        const inHttp10 = (chunk.toString('latin1').split('\r\n')[0] ?? '').includes(' /v1/pets ')
        socket.end(`${inHttp10 ? 'HTTP/1.0' : 'HTTP/1.1'} 200 OK\r\ncontent-type: application/json\r\n${inHttp10 ? '' : 'content-length: 2\r\n'}\r\n[]`)
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    open.push({ close: () => new Promise((resolve) => server.close(resolve)) })
    const address = server.address()
    const client = clientOf(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`)
    // On a connection of its own: undici asks for the close (connection: close).
    expect((await client.send({ method: 'GET', path: '/pets', headers: {}, freshConnection: true })).response?.status).toBe(200)
    // On the kept-alive pool, where the close that follows is unannounced: the one close the client reports.
    expect((await client.send({ method: 'GET', path: '/pets/5', headers: {} })).response?.status).toBe(200)
    await expect.poll(() => client.unannouncedCloses.some((close) => close.previous.path === '/v1/pets/5')).toBe(true)
    expect(client.unannouncedCloses.map((close) => close.previous.path)).toEqual(['/v1/pets/5'])
  })
})

describe('a connection the target resets right after an answer, as warp does when it left a body unread', () => {
  // undici gave the next request to that connection and failed it with the reset before writing its head: no
  // sendHeaders came for it. Told from undici's diagnostics channels, published here as undici publishes them.
  test('a request failed by the reset before its head went out is lost to the connection, and the close after the answer is reported at once, once', async () => {
    const origin = 'http://127.0.0.1:1'
    const closes: UnannouncedClose[] = []
    const stopWatching = watchCloses(origin, (close) => closes.push(close))
    open.push({ close: async () => stopWatching() })
    const socket = Object.assign(new EventEmitter(), { errored: null as Error | null, readableEnded: false })
    const large = { origin, method: 'POST', path: '/v1/pets' }
    channel('undici:client:sendHeaders').publish({ request: large, socket, headers: 'POST /v1/pets HTTP/1.1\r\n' })
    channel('undici:request:headers').publish({ request: large, response: { statusCode: 413, headers: [] } })
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })
    socket.errored = reset
    const errors = [reset, Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })]
    for (const error of errors) channel('undici:request:error').publish({ request: { origin, method: 'POST', path: '/v1/pets' }, error })
    for (const error of errors)
      expect(lostOnDroppedConnection(error)).toMatchObject({ previous: { method: 'POST', path: '/v1/pets', status: 413 }, announced: false, closed: false })
    expect(closes.map((close) => close.previous.status)).toEqual([413])
    // A connection that is not errored lost nothing: a request failed elsewhere is no request lost to it.
    const healthy = Object.assign(new EventEmitter(), { errored: null, readableEnded: false })
    const read = { origin: 'http://127.0.0.1:2', method: 'GET', path: '/v1/pets' }
    channel('undici:client:sendHeaders').publish({ request: read, socket: healthy, headers: 'GET /v1/pets HTTP/1.1\r\n' })
    channel('undici:request:headers').publish({ request: read, response: { statusCode: 200, headers: [] } })
    const refused = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })
    channel('undici:request:error').publish({ request: { origin: 'http://127.0.0.1:2', method: 'GET', path: '/v1/pets' }, error: refused })
    expect(lostOnDroppedConnection(refused)).toBeUndefined()
  })

  test('a connection whose request asked for the close, reset after its answer, reports no close; a request failed before its head went out is still known lost', async () => {
    const origin = 'http://127.0.0.1:3'
    const closes: UnannouncedClose[] = []
    const stopWatching = watchCloses(origin, (close) => closes.push(close))
    open.push({ close: async () => stopWatching() })
    const socket = Object.assign(new EventEmitter(), { errored: null as Error | null, readableEnded: false })
    const own = { origin, method: 'GET', path: '/v1/pets/10' }
    channel('undici:client:sendHeaders').publish({ request: own, socket, headers: 'GET /v1/pets/10 HTTP/1.1\r\nhost: x\r\nconnection: close\r\n' })
    channel('undici:request:headers').publish({ request: own, response: { statusCode: 400, headers: [] } })
    socket.errored = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })
    const elsewhere = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })
    channel('undici:request:error').publish({ request: { origin, method: 'GET', path: '/v1/pets' }, error: elsewhere })
    expect(lostOnDroppedConnection(elsewhere)).toMatchObject({ previous: { status: 400 } })
    expect(closes).toEqual([])
  })
})
