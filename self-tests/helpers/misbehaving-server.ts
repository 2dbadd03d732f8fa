/**
 * Targets that misbehave at the HTTP level, for the harness self-tests: they hang, drip, reset, flood,
 * truncate, mislabel, rate-limit. Every socket is tracked and destroyed on close, so no test can hang.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

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
