import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, test } from 'vitest'
import { startDelayProxy } from '../../benchmarks/delay-proxy.js'

describe('the benchmark delay proxy', () => {
  test('forwards every exchange, method, path and body intact, each at least the delay late, and counts them', async ({ onTestFinished }) => {
    const target = createServer((request, response) => {
      const chunks: Buffer[] = []
      request.on('data', (chunk: Buffer) => chunks.push(chunk))
      request.on('end', () => response.end(`${request.method} ${request.url} ${Buffer.concat(chunks).toString()}`))
    })
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => new Promise<void>((resolve) => target.close(() => resolve())))
    const proxy = await startDelayProxy(`http://127.0.0.1:${(target.address() as AddressInfo).port}/v1`, 40)
    onTestFinished(() => proxy.close())

    const started = performance.now()
    const answers = await Promise.all([
      fetch(`${proxy.baseUrl}/pets?limit=2`).then((answer) => answer.text()),
      fetch(`${proxy.baseUrl}/pets`, { method: 'POST', body: '{"name":"é"}' }).then((answer) => answer.text()),
    ])
    const elapsed = performance.now() - started
    expect(answers).toEqual(['GET /v1/pets?limit=2 ', 'POST /v1/pets {"name":"é"}'])
    expect(elapsed).toBeGreaterThanOrEqual(40)
    expect(proxy.requests).toBe(2)
    expect(proxy.firstRequestAt).toBeGreaterThanOrEqual(started)
  })
})
