import { afterEach, describe, expect, test } from 'vitest'
import { populatedStore } from '../../reference/pet-store.js'
import type { RunningServer } from '../../reference/server.js'
import { emptyStore, startVariant } from '../../variants/variant.js'
import { runCli, verdictOf } from '../helpers/run-cli.js'

const API_KEY = 'self-test-key-4f9c2a'
const servers: RunningServer[] = []

async function reference(pets: number): Promise<RunningServer> {
  const server = await startVariant(undefined, { apiKey: API_KEY, store: pets > 0 ? populatedStore(pets) : emptyStore() })
  servers.push(server)
  return server
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

describe('the command against the reference implementation', () => {
  test('with no target it runs the embedded reference in full: conformant, every requirement given a verdict', async () => {
    const outcome = await runCli(['--seed', '11'])
    expect(outcome.code, outcome.stderr).toBe(0)
    expect(outcome.stdout).toMatch(/Profile: full \(default against the embedded reference\)/)
    expect(outcome.stdout).toMatch(/Seed: +11/)
    const results = outcome.results?.requirements ?? []
    expect(results.length).toBeGreaterThan(40)
    const undecided = results
      .filter((result) => !['pass', 'info', 'untestable'].includes(result.verdict))
      .map((result) => `${result.id}: ${result.verdict} ${result.reasons.join(';')}`)
    expect(undecided).toEqual([])
    expect(outcome.results).toMatchObject({ profile: 'full', seed: 11, verdict: 'conformant', exitCode: 0, target: { embeddedReference: true } })
  })

  test('smoke against a populated store: no POST at all, conformant, and the boundaries decided', async () => {
    const server = await reference(150)
    const outcome = await runCli(['--base-url', server.baseUrl, '--seed', '5'], { PETSTORE_API_KEY: API_KEY })
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0)
    expect(outcome.stdout).toMatch(/Profile: smoke .*read-only/)
    expect(server.requests.filter((request) => request.method === 'POST')).toEqual([])
    for (const id of [
      'listPets/limit-default-20',
      'listPets/limit-caps-size',
      'listPets/status-filter-matches',
      'listPets/status-filter-complete',
      'getPet/returns-pet',
      'auth/missing-key-401',
    ]) {
      expect(verdictOf(outcome, id), id).toBe('pass')
    }
    expect(verdictOf(outcome, 'createPet/returns-201-pet')).toBe('inconclusive')
  })

  test('smoke against a store of 3 pets: the default page cannot be evidence, so it is inconclusive, not pass', async () => {
    const server = await reference(3)
    const outcome = await runCli(['--base-url', server.baseUrl], { PETSTORE_API_KEY: API_KEY })
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0)
    expect(verdictOf(outcome, 'listPets/limit-default-20')).toBe('inconclusive')
    const caps = outcome.results?.requirements.find((result) => result.id === 'listPets/limit-caps-size')
    expect(caps?.reasons.join(' ')).toMatch(/more than 100 are needed/)
  })

  test('a second full run against the same store seeds nothing more', async () => {
    const server = await reference(0)
    const first = await runCli(['--base-url', server.baseUrl, '--profile', 'full'], { PETSTORE_API_KEY: API_KEY })
    const second = await runCli(['--base-url', server.baseUrl, '--profile', 'full'], { PETSTORE_API_KEY: API_KEY })
    expect([first.code, second.code]).toEqual([0, 0])
    expect(first.results?.seeding.created).toBeGreaterThanOrEqual(101)
    expect(second.results?.seeding.created).toBe(0)
  })

  test('an unreachable target ends with exit code 3', async () => {
    const server = await reference(0)
    const url = server.baseUrl
    await server.close()
    servers.length = 0
    const outcome = await runCli(['--base-url', url], { PETSTORE_API_KEY: API_KEY })
    expect(outcome.code).toBe(3)
    expect(outcome.stderr).toMatch(/Target unreachable/)
  })

  test('a run past its deadline stops, writes its reports and ends with exit code 3', async () => {
    const slow = await startVariant(
      { name: 'slow', description: 'every answer takes 400 ms', wrap: (handler) => async (request) => ({ ...(await handler(request)), delivery: { delayMs: 400 } }) },
      { apiKey: API_KEY, store: emptyStore() },
    )
    servers.push(slow)
    const outcome = await runCli(['--base-url', slow.baseUrl, '--deadline-ms', '1000'], { PETSTORE_API_KEY: API_KEY })
    expect(outcome.code).toBe(3)
    expect(outcome.stderr).toMatch(/deadline of 1000 ms passed/)
    expect(outcome.results?.verdict).toBe('error')
  })

  test('a bad setting ends with exit code 2 before any request is sent', async () => {
    const server = await reference(0)
    const outcome = await runCli(['--base-url', server.baseUrl, '--timeout-ms', 'soon'], { PETSTORE_API_KEY: API_KEY })
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toMatch(/--timeout-ms must be a whole number/)
    expect(server.requests).toEqual([])
  })

  test('the key appears in no console line and no report, even in failure evidence', async () => {
    const outcome = await runCli(['--seed', '3'], {})
    const server = await reference(0)
    const failing = await runCli(['--base-url', server.baseUrl, '--profile', 'full'], { PETSTORE_API_KEY: `${API_KEY}-wrong-on-purpose` })
    expect(failing.code).toBe(1)
    const { readFileSync, readdirSync } = await import('node:fs')
    const files = readdirSync(failing.reportDir).map((name) => readFileSync(`${failing.reportDir}/${name}`, 'utf8'))
    for (const text of [outcome.stdout, failing.stdout, failing.stderr, ...files]) {
      expect(text).not.toContain(`${API_KEY}-wrong-on-purpose`)
      expect(text).not.toContain(Buffer.from(`${API_KEY}-wrong-on-purpose`).toString('base64'))
    }
    expect(files.join('')).toContain('$PETSTORE_API_KEY')
  })
})
