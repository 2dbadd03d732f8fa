/**
 * Policy §5: neither the key nor any token the suite derived from it (cut, extended, re-cased, wrapped in
 * whitespace, re-encoded), nor any piece of it six characters or longer, appears in anything a run writes or
 * prints. The target here accepts every token, so every look-alike the auth checks send is "served" and ends
 * up in failure evidence, in curl lines, in the HAR file and in the console.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterEach, describe, expect, test } from 'vitest'
import { PetStore } from '../../reference/pet-store.js'
import type { RunningServer } from '../../reference/server.js'
import { acceptedAsValid, startVariant } from '../../variants/variant.js'
import { runCli } from '../helpers/run-cli.js'
import { keyPiecesIn } from '../helpers/secret-pieces.js'

/** A long random key over the token68 alphabet (RFC 6750), drawn from a fixed seed so the test is the same every run. */
const TOKEN68 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/'
const LONG_KEY = fc.sample(fc.string({ unit: fc.constantFrom(...TOKEN68), minLength: 64, maxLength: 64 }), { seed: 31, numRuns: 1 })[0] as string
const HEADER_SECRET = fc.sample(fc.string({ unit: fc.constantFrom(...TOKEN68), minLength: 40, maxLength: 40 }), { seed: 32, numRuns: 1 })[0] as string

const started: RunningServer[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()))
})

describe('no piece of a secret leaves the run', () => {
  test('a full run with --har against a target that accepts every token: no piece of 6+ characters of the key (plain, re-cased, URL-encoded, base64) in any file written or any line printed', async () => {
    const server = await startVariant(
      { name: 'accepts-every-token', description: 'any Authorization header, or none, is served', wrap: acceptedAsValid(() => true) },
      { apiKey: LONG_KEY, store: new PetStore() },
    )
    started.push(server)
    const outcome = await runCli(['--base-url', server.baseUrl, '--profile', 'full', '--seed', '7', '--har', 'exchanges.har', '--header', 'X-Gateway-Secret: ${GATEWAY_SECRET}'], {
      PETSTORE_API_KEY: LONG_KEY,
      GATEWAY_SECRET: HEADER_SECRET,
    })
    expect(outcome.code, outcome.stdout).toBe(1)
    // The look-alikes were really sent and served: their failures are what carries the derived tokens into the reports.
    const lookalike = outcome.results?.requirements.find((requirement) => requirement.id === 'auth/key-lookalike-401')
    expect(lookalike?.verdict).toBe('fail')
    const written = readdirSync(outcome.reportDir).map((name) => [name, readFileSync(join(outcome.reportDir, name), 'utf8')] as const)
    written.push(['exchanges.har', readFileSync(join(outcome.reportDir, '..', 'exchanges.har'), 'utf8')])
    expect(written.map(([name]) => name).sort()).toEqual(['exchanges.har', 'junit.xml', 'report.html', 'results.json', 'summary.md'])
    for (const [name, text] of [...written, ['stdout', outcome.stdout] as const, ['stderr', outcome.stderr] as const]) {
      expect(keyPiecesIn(text, LONG_KEY), `${name} holds a piece of the key`).toEqual([])
      expect(keyPiecesIn(text, HEADER_SECRET), `${name} holds a piece of the extra header's value`).toEqual([])
    }
    // The masks say what was done to the key, so the evidence still explains itself.
    const results = written.find(([name]) => name === 'results.json')?.[1] ?? ''
    expect(results).toContain('Bearer ${PETSTORE_API_KEY%?}')
    expect(results).toContain('Bearer ${PETSTORE_API_KEY}x')
    expect(results).toContain('Bearer x$PETSTORE_API_KEY')
  })
})
