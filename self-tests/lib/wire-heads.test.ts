/**
 * An edited request goes out octet for octet (lib/http/wire-heads.ts): a control octet in a field, a space in the
 * target, a field given twice and a lower-case method reach the target as written, and the answer is read, capped
 * and recorded like every other one; a target that closes the connection on it is a transport failure, not a crash.
 */
import { createServer, type Socket } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { HttpClient } from '../../lib/http/client.js'

const servers: Array<{ close: () => void }> = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

/** A TCP server that keeps the octets of each connection and answers with `answer` (or closes, when it is null). */
async function rawTarget(answer: string | null): Promise<{ baseUrl: string; received: string[] }> {
  const received: string[] = []
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    let octets = ''
    socket.on('data', (chunk) => {
      octets += chunk.toString('latin1')
      if (!octets.includes('\r\n\r\n')) return
      received.push(octets)
      if (answer === null) socket.destroy()
      else socket.end(answer)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push({
    close: () => {
      for (const socket of sockets) socket.destroy()
      server.close()
    },
  })
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return { baseUrl: `http://127.0.0.1:${address.port}/v1`, received }
}

const client = (baseUrl: string) => new HttpClient({ baseUrl, concurrency: 2, timeoutMs: 5_000, maxBodyBytes: 1_000_000, maxRetries: 2, maxRetryWaitMs: 1_000 })

describe('a request written octet for octet', () => {
  test('reaches the target exactly as written, and its answer is read', async () => {
    const target = await rawTarget('HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}')
    const head =
      'get /v1/pets?limit= 7 HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nAccept: */*\r\nAuthorization: Bearer k\x01ey\xa0\r\nConnection: close\r\nContent-Length: 3\r\n\r\n'
    const http = client(target.baseUrl)
    const exchange = await http.send({ method: 'get', path: '/v1/pets?limit= 7', headers: { accept: 'application/json, */*' }, wire: head, body: '{\xff}', bodyIsOctets: true })
    await http.close()
    expect(target.received).toEqual([`${head}{\xff}`])
    expect(exchange.response?.status).toBe(401)
    expect(exchange.request).toMatchObject({ method: 'get', wire: head, headers: { accept: 'application/json, */*' } })
  })

  test('the version the target answers in is read off the status line of the first answer on a connection', async () => {
    const http10 = await rawTarget('HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]')
    const http = client(http10.baseUrl)
    expect(http.answeredHttpVersions.size).toBe(0)
    const exchange = await http.send({ method: 'GET', path: '/v1/pets', wire: 'GET /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n' })
    await http.close()
    expect(exchange.response?.status).toBe(200)
    expect([...http.answeredHttpVersions]).toEqual(['1.0'])
  })

  test('the 100 (Continue) answers before the final one are taken off, however many come (RFC 9110 §15.2)', async () => {
    const continues = 'HTTP/1.1 100 Continue\r\n\r\n'
    const created = 'HTTP/1.1 201 CREATED\r\nContent-Type: application/json\r\nContent-Length: 9\r\nConnection: close\r\n\r\n{"id":12}'
    const head = 'POST /v1/pets HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\n'
    for (const answer of [continues + created, continues + continues + created, continues + continues + continues + created]) {
      const target = await rawTarget(answer)
      const http = client(target.baseUrl)
      const exchange = await http.send({ method: 'POST', path: '/v1/pets', wire: head, body: '{}' })
      await http.close()
      expect(exchange.failure).toBeUndefined()
      expect(exchange.response?.status).toBe(201)
      expect(exchange.response?.body).toBe('{"id":12}')
    }
  })

  test('a target that closes the connection on it gives a failure in transit, and the request is not sent again', async () => {
    const target = await rawTarget(null)
    const http = client(target.baseUrl)
    const exchange = await http.send({ method: 'GET', path: '/v1/pets', wire: 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nX: \x00\r\n\r\n' })
    await http.close()
    expect(exchange.response).toBeUndefined()
    expect(exchange.failure?.kind).toMatch(/connection|dropped/)
    expect(exchange.retries).toEqual([])
    expect(target.received).toHaveLength(1)
  })
})
