/**
 * Targets that misbehave at the HTTP level, for the self-tests and the hostile benchmark: they hang, drip, reset, flood,
 * truncate, mislabel, rate-limit. Every socket is tracked and destroyed on close, so no test can hang.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { gzipSync } from 'node:zlib'

export type Misbehaviour = (request: IncomingMessage, response: ServerResponse, count: number) => void

export interface MisbehavingServer {
  baseUrl: string
  /** Method and URL of every request received, in order. */
  requests: Array<{ method: string; url: string }>
  /** Most requests seen in progress at once. */
  peakInFlight: number
  close(): Promise<void>
}

const PETS = JSON.stringify([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }])

/** A 200 answer with this body, labelled with `contentType` (or with no Content-Type at all). */
function answer(response: ServerResponse, contentType: string | undefined, body: string): void {
  response.removeHeader('content-type')
  response.writeHead(200, contentType ? { 'content-type': contentType } : {})
  response.end(body)
}

export const behaviours = {
  /** Never answers. */
  hang: (() => {}) as Misbehaviour,
  /** Sends headers, then one byte of the body every 100 ms, forever. */
  drip: ((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000000' })
    const timer = setInterval(() => response.write(' '), 100)
    response.on('close', () => clearInterval(timer))
  }) as Misbehaviour,
  /** Resets the connection before answering. */
  reset: ((request) => request.socket.resetAndDestroy()) as Misbehaviour,
  /** Announces and streams 300 MB. */
  huge: ((_request, response) => {
    const total = 300 * 2 ** 20
    const chunk = Buffer.alloc(2 ** 20, 0x20)
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(total) })
    let sent = 0
    const pump = () => {
      while (sent < total) {
        sent += chunk.length
        if (!response.write(chunk)) return void response.once('drain', pump)
      }
      response.end()
    }
    pump()
  }) as Misbehaviour,
  /** A JSON array cut off in the middle. */
  truncated: ((_request, response) => answer(response, 'application/json', PETS.slice(0, -12))) as Misbehaviour,
  /** Valid JSON labelled as HTML. */
  html: ((_request, response) => answer(response, 'text/html', PETS)) as Misbehaviour,
  /** Valid JSON with no Content-Type at all. */
  unlabelled: ((_request, response) => answer(response, undefined, PETS)) as Misbehaviour,
  /** A small valid list. */
  ok: ((_request, response) => answer(response, 'application/json', PETS)) as Misbehaviour,
  /** A small valid list, 50 ms late (for counting requests in flight). */
  slowList: ((_request, response) => {
    setTimeout(() => answer(response, 'application/json', PETS), 50)
  }) as Misbehaviour,
}

/** One gzip member that inflates to 1 MiB of spaces: concatenated, members make a bomb of any size from a few KiB each. */
const GZIP_MEGABYTE = gzipSync(Buffer.alloc(2 ** 20, 0x20))

/** What a target built to hurt the suite sends (policy §5): each answers every request the same way. */
export const hostileBehaviours = {
  /** 1 GiB of gzip-encoded JSON whitespace in about 1 MiB on the wire. */
  gzipBomb: ((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
    let members = 0
    const pump = () => {
      while (members < 1024) {
        members += 1
        if (!response.write(GZIP_MEGABYTE)) return void response.once('drain', pump)
      }
      response.end()
    }
    pump()
  }) as Misbehaviour,
  /** An honest list, gzip-encoded (a conformant service may compress). */
  gzipped: ((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
    response.end(gzipSync(PETS))
  }) as Misbehaviour,
  /** A plain JSON list labelled Content-Encoding: gzip: the answer comes, and cannot be decoded. */
  mislabelledGzip: ((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
    response.end(PETS)
  }) as Misbehaviour,
  /** Arrays nested 400,000 deep (a body under the default cap of 1 MiB). */
  deepNesting: ((_request, response) => answer(response, 'application/json', `${'['.repeat(400_000)}${']'.repeat(400_000)}`)) as Misbehaviour,
  /** A pet whose id is a number of a million digits (a body just under the default cap of 1 MiB). */
  giantNumber: ((_request, response) => answer(response, 'application/json', `[{"id":${'9'.repeat(1_000_000)},"name":"Rex","categoryId":1}]`)) as Misbehaviour,
  /** Two thousand headers of a hundred bytes each. */
  headerFlood: ((_request, response) => {
    for (let index = 0; index < 2000; index++) response.setHeader(`x-flood-${index}`, 'x'.repeat(100))
    answer(response, 'application/json', PETS)
  }) as Misbehaviour,
  /** A 500 whose Error message, code and headers hold markup and terminal escapes. */
  markupInError: ((_request, response) => {
    const message = '<script>document.title="pwned"</script><img src=x onerror="document.title=\'pwned\'">\u001b]0;pwned\u0007\u001b[2J\u001b[31mred'
    response.writeHead(500, { 'content-type': 'application/json', 'x-evil': '<script>alert(1)</script>' })
    response.end(JSON.stringify({ code: '<b>bold</b>', message, status: 500 }))
  }) as Misbehaviour,
}

/** Every request redirected (302) to `location`: another origin the suite must never follow to. */
export function redirectsTo(location: string): Misbehaviour {
  return (_request, response) => {
    response.writeHead(302, { location, 'content-type': 'text/plain' })
    response.end('moved')
  }
}

/** GET /v1/pets (with any query) drips forever; every other request is answered by `others`. */
export function listsDrip(others: Misbehaviour): Misbehaviour {
  return (request, response, count) => (/^\/v1\/pets(\?|$)/.test(request.url ?? '') ? behaviours.drip(request, response, count) : others(request, response, count))
}

/**
 * GET /v1/pets (with any query) answers a body far over any cap, produced slowly by one producer shared by
 * every list in flight (a service that renders lists on one busy thread): `bytesPerSecond` in all, one 16 KiB
 * chunk at a time to each list in turn, however late its timer fires. Alone, a list reaches the cap soon; eight at once each take eight
 * times as long. Every other request is answered by `others`.
 */
export function listsHugeAndSlow(others: Misbehaviour, bytesPerSecond: number): Misbehaviour {
  const chunk = Buffer.alloc(16 * 1024, 0x20)
  const chunkMs = (1000 * chunk.length) / bytesPerSecond
  const lists: ServerResponse[] = []
  let next = 0
  let timer: NodeJS.Timeout | undefined
  /** When the chunks written so far were due: a timer that fires late (a loaded machine) is caught up with, so the rate holds. */
  let writtenUpTo = 0
  const produce = () => {
    const open = lists.filter((response) => !response.destroyed && !response.writableEnded)
    lists.splice(0, lists.length, ...open)
    if (open.length === 0) {
      clearInterval(timer)
      timer = undefined
      return
    }
    for (; writtenUpTo + chunkMs <= performance.now(); writtenUpTo += chunkMs) {
      next = (next + 1) % open.length
      open[next]?.write(chunk)
    }
  }
  return (request, response, count) => {
    if (!/^\/v1\/pets(\?|$)/.test(request.url ?? '')) return others(request, response, count)
    response.writeHead(200, { 'content-type': 'application/json' })
    response.write('[')
    lists.push(response)
    if (!timer) {
      writtenUpTo = performance.now()
      timer = setInterval(produce, chunkMs)
    }
  }
}

/** 404 with a valid Error body. */
export const notFound: Misbehaviour = (_request, response) => {
  response.writeHead(404, { 'content-type': 'application/json' })
  response.end(JSON.stringify({ code: 'not_found', message: 'no such pet', status: 404 }))
}

/** The unfiltered first page, GET /v1/pets: the request `listPets/returns-pets` judges (not the reachability probe). */
const isDefaultPage = (request: IncomingMessage) => request.url === '/v1/pets'

/** 429 (or 503) with Retry-After for the first `times` requests of the default page, then a valid list. */
export function rateLimitedFor(times: number, status: 429 | 503, retryAfter: () => string): Misbehaviour {
  let limited = 0
  return (request, response, count) => {
    if (isDefaultPage(request) && limited < times) {
      limited += 1
      response.writeHead(status, { 'content-type': 'application/json', 'retry-after': retryAfter() })
      response.end(JSON.stringify({ code: 'rate_limited', message: 'slow down', status }))
      return
    }
    behaviours.ok(request, response, count)
  }
}

/** Resets the connection of the first request for the default page, then answers with valid lists. */
export function resetOnce(): Misbehaviour {
  let reset = false
  return (request, response, count) => {
    if (isDefaultPage(request) && !reset) {
      reset = true
      return behaviours.reset(request, response, count)
    }
    behaviours.ok(request, response, count)
  }
}

/** Starts a misbehaving server on a free loopback port, closed when the calling test finishes (concurrent tests included). */
export async function startMisbehavingServer(behaviour: Misbehaviour, onTestFinished: (close: () => Promise<void>) => void): Promise<MisbehavingServer> {
  {
    const sockets = new Set<Socket>()
    const requests: MisbehavingServer['requests'] = []
    let inFlight = 0
    const state = { peakInFlight: 0 }
    const server = createServer((request, response) => {
      requests.push({ method: request.method ?? '', url: request.url ?? '' })
      inFlight += 1
      state.peakInFlight = Math.max(state.peakInFlight, inFlight)
      response.on('close', () => {
        inFlight -= 1
      })
      request.resume()
      behaviour(request, response, requests.length)
    })
    server.on('connection', (socket) => {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const running: MisbehavingServer = {
      baseUrl: `http://127.0.0.1:${port}/v1`,
      requests,
      get peakInFlight() {
        return state.peakInFlight
      },
      close: () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy()
          server.close(() => resolve())
        }),
    }
    onTestFinished(() => running.close())
    return running
  }
}
