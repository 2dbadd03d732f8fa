/**
 * The embedded reference answers in a worker thread of its own (entry-points/threaded-reference.ts): what the run
 * layer asks of it holds across the thread: where it listens, each answer when asked, the requests it kept once
 * closed, and why it could not listen.
 */
import { createServer } from 'node:net'
import { describe, expect, test } from 'vitest'
import { startReferenceThread } from '../../entry-points/threaded-reference.js'

const API_KEY = 'thread-key-3f9a'

describe('the embedded reference in a thread of its own', () => {
  test('keeps the requests it was asked to keep, in order, and hands them over once closed', async () => {
    const reference = await startReferenceThread({ apiKey: API_KEY, pets: 2, keepRequests: true })
    const first = await fetch(`${reference.baseUrl}/pets?limit=1`, { headers: { authorization: `Bearer ${API_KEY}` } })
    expect(first.status).toBe(200)
    expect(await first.json()).toHaveLength(1)
    const second = await fetch(`${reference.baseUrl}/pets/1`)
    expect(second.status).toBe(401)
    await second.body?.cancel()
    await reference.close()
    expect(reference.requests).toEqual([
      { method: 'GET', url: '/v1/pets?limit=1' },
      { method: 'GET', url: '/v1/pets/1' },
    ])
  })

  test('keeps none unless asked, and tells each answer to the one who asked', async () => {
    const answers: Array<{ method: string; url: string; status: number }> = []
    const reference = await startReferenceThread({ apiKey: API_KEY, onAnswer: ({ method, url, status }) => answers.push({ method, url, status }) })
    const answer = await fetch(`${reference.baseUrl}/pets`)
    await answer.body?.cancel()
    await reference.close()
    expect(reference.requests).toEqual([])
    expect(answers).toEqual([{ method: 'GET', url: '/v1/pets', status: 401 }])
  })

  test('a port in use is refused with the code Node gives it', async ({ onTestFinished }) => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => new Promise<void>((resolve) => taken.close(() => resolve())))
    const address = taken.address()
    const port = typeof address === 'object' && address ? address.port : 0
    await expect(startReferenceThread({ apiKey: API_KEY, host: '127.0.0.1', port })).rejects.toMatchObject({ code: 'EADDRINUSE' })
  })
})
