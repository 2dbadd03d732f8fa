/**
 * A base URL that holds no Pet Store is a set-up mistake (exit 2) that says what it saw and what to check, never
 * a NON-CONFORMANT verdict with a score of failures; a faulty service that still answers like the interface keeps
 * its verdict (exit 1).
 */
import { createServer, type Server } from 'node:http'
import { describe, expect, onTestFinished, test } from 'vitest'
import { errorResponse } from '../../reference/handler.js'
import { faults } from '../../variants/faults/index.js'
import { isListPets, type Variant } from '../../variants/variant.js'
import { runCli } from '../helpers/run-cli.js'
import { API_KEY, startTarget } from '../helpers/targets.js'

const WITH_KEY = { PETSTORE_API_KEY: API_KEY }

/** A web server that is no Pet Store: every request answered `status` with a page. */
async function unrelatedServer(status: number): Promise<string> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
    response.end('<!doctype html><html><body><h1>Welcome to our shop</h1></body></html>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

async function reference(variant?: Variant): Promise<string> {
  const target = await startTarget({ pets: 5, ...(variant ? { variant } : {}) })
  onTestFinished(() => target.close())
  return target.baseUrl
}

describe('a base URL where nothing answers like the interface is a set-up mistake', () => {
  test.for([
    ['another version segment', (v1: string) => v1.replace(/\/v1$/, '/v2'), /It should end with \/v1/],
    ['a prefix the service does not have', (v1: string) => v1.replace(/\/v1$/, '/api/v1'), /It is where the interface's paths begin/],
    ['no version segment at all', (v1: string) => v1.replace(/\/v1$/, ''), /It should end with \/v1/],
  ] as const)('%s: exit 2, the 404s it saw, and what to check', async ([, wrong, hint]) => {
    const baseUrl = wrong(await reference())
    const outcome = await runCli(['--base-url', baseUrl, '--quiet'], WITH_KEY)
    expect(outcome.code, outcome.stdout).toBe(2)
    expect(outcome.results?.stopReason).toMatch(new RegExp(`^no Pet Store answers at ${baseUrl.replace(/[.]/g, '\\.')}: every request under .* was answered 404 application/json`))
    expect(outcome.results?.stopReason).toMatch(hint)
    expect(outcome.results?.requestsSent).toBeLessThanOrEqual(4)
    expect(outcome.results?.headline.text).toBe('NO VERDICT')
  })

  test.for([200, 404])('an unrelated web server answering %i with a page: exit 2, naming the page', async (status) => {
    const baseUrl = `${await unrelatedServer(status)}/v1`
    const outcome = await runCli(['--base-url', baseUrl, '--quiet'], WITH_KEY)
    expect(outcome.code).toBe(2)
    expect(outcome.results?.stopReason).toContain(`every request under ${baseUrl} was answered ${status} text/html <!doctype html><html><body><h1>Welcome to our shop</h1>`)
  })
})

describe('a faulty service that still answers like the interface keeps its verdict', () => {
  test.for([
    ['the list served without a key', faults.find((fault) => fault.name === 'missing-header-allowed-on-list') as Variant],
    [
      'every list with the key answered 404, and 401 without one',
      {
        name: 'list-404',
        description: 'GET /pets with the key is answered 404 Not Found',
        wrap: (reference) => async (request) => (isListPets(request) && request.headers.authorization ? errorResponse(404, 'not_found', 'no such route') : reference(request)),
      } satisfies Variant,
    ],
    [
      'every request answered 500 text/plain',
      {
        name: 'all-500',
        description: 'every request fails',
        wrap: () => async () => ({ status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' }),
      } satisfies Variant,
    ],
  ] as const)('%s: exit 1', async ([, variant]) => {
    // The rules each of them breaks: the preflight decides the rest, before any check runs.
    const outcome = await runCli(
      ['--base-url', await reference(variant), '--requirements', 'listPets/returns-pets,auth/missing-key-401,responses/no-server-error', '--quiet'],
      WITH_KEY,
    )
    expect(outcome.code, outcome.results?.stopReason).toBe(1)
  })
})
