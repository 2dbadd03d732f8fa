/**
 * A target that serves one connection at a time and holds an idle kept-alive one open (Starman with one worker): a
 * request on another connection waits until that one's keep-alive timeout. The run tells such a target from its first
 * reads and sends every request on a connection of its own, so that it ends on time with a verdict; a target that
 * serves connections at once is never taken for one.
 */
import { createServer, type Socket } from 'node:net'
import { describe, expect, test } from 'vitest'
import { HELD_MS } from '../../lib/run/held-connections.js'
import { onRequests } from '../helpers/raw-requests.js'
import { runCli } from '../helpers/run-cli.js'
import { API_KEY, startTarget } from '../helpers/targets.js'

const WITH_KEY = { PETSTORE_API_KEY: API_KEY }

/**
 * Answers every request 200 with an empty list (401 without the key), one connection at a time: the connection it
 * serves is kept until it has been idle `idleMs`, and the others wait, unread, as a single prefork worker leaves them.
 */
async function startOneAtATime(idleMs: number, onTestFinished: (close: () => Promise<void>) => void): Promise<string> {
  const waiting: Socket[] = []
  let serving: Socket | undefined
  const serveNext = () => {
    serving = undefined
    const next = waiting.shift()
    if (next) serve(next)
  }
  const serve = (socket: Socket) => {
    serving = socket
    let idle = setTimeout(() => socket.end(), idleMs)
    onRequests(socket, (head) => {
      const keyed = head.toLowerCase().includes(`authorization: bearer ${API_KEY.toLowerCase()}`)
      const body = keyed ? '[]' : '{"code":"unauthorized","message":"no key"}'
      const close = /\r\nconnection: close/i.test(head)
      socket.write(
        `HTTP/1.1 ${keyed ? '200 OK' : '401 Unauthorized'}\r\ncontent-type: application/json\r\n${keyed ? '' : 'www-authenticate: Bearer\r\n'}content-length: ${body.length}\r\n${close ? 'connection: close\r\n' : ''}\r\n${body}`,
      )
      clearTimeout(idle)
      if (close) return void socket.end()
      idle = setTimeout(() => socket.end(), idleMs)
    })
    socket.on('close', () => {
      clearTimeout(idle)
      serveNext()
    })
    socket.on('error', () => {})
    socket.resume()
  }
  const server = createServer({ pauseOnConnect: true }, (socket) => {
    if (serving) waiting.push(socket)
    else serve(socket)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(
    () =>
      new Promise((resolve) => {
        for (const socket of [...waiting, ...(serving ? [serving] : [])]) socket.destroy()
        server.close(() => resolve())
      }),
  )
  const address = server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`
}

describe('a target that serves one connection at a time', () => {
  test('is told from its first reads, and every request goes on a connection of its own: the run ends on time', async ({ onTestFinished }) => {
    const baseUrl = await startOneAtATime(2 * HELD_MS, onTestFinished)
    const outcome = await runCli(['--base-url', baseUrl, '--requirements', 'listPets/returns-pets,auth/missing-key-401', '--deadline-ms', '60000'], WITH_KEY)
    expect(outcome.stdout).toMatch(/Connections: a read on a connection of its own waited for the target to let go of an idle kept-alive one/)
    expect(outcome.code, outcome.stdout + outcome.stderr).not.toBe(3)
    expect(outcome.results?.requirements.find((result) => result.id === 'listPets/returns-pets')?.verdict).not.toBe('inconclusive')
  })

  test('a target that serves connections at once is not taken for one', async ({ onTestFinished }) => {
    const target = await startTarget({})
    onTestFinished(() => target.close())
    const outcome = await runCli(['--base-url', target.baseUrl, '--requirements', 'listPets/returns-pets'], WITH_KEY)
    expect(outcome.code).toBe(0)
    expect(outcome.stdout).not.toMatch(/Connections:/)
  })
})
