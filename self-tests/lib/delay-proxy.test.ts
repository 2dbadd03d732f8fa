import { createServer } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import { describe, expect, test } from 'vitest'
import { startDelayProxy } from '../../benchmarks/delay-proxy.js'

describe('the benchmark delay proxy', () => {
  test('relays every exchange octet for octet, a request HTTP refuses included, each at least the delay late, and counts the connections', async ({ onTestFinished }) => {
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
    expect(proxy.firstRequestAt).toBeGreaterThanOrEqual(started)
    // A request line in lower case with a space in its target: an HTTP proxy would refuse or rewrite it; the relay passes it on, and the target's own 400 comes back.
    const { port } = new URL(proxy.baseUrl)
    const refused = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: Number(port) }, () => socket.write('get /v1/p ets HTTP/1.1\r\nHost: x\r\n\r\n'))
      const chunks: Buffer[] = []
      socket.on('data', (chunk: Buffer) => chunks.push(chunk))
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')))
      socket.on('error', reject)
    })
    expect(refused).toMatch(/^HTTP\/1\.1 400 /)
    expect(proxy.connections).toBeGreaterThanOrEqual(3)
  })
})
