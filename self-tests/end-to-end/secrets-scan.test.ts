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
import { petstoreSuite } from '../../entry-points/suite.js'
import { checkTestOutcome, type TestOutcome } from '../../lib/reports/test-outcomes.js'
import { resolveConfig } from '../../lib/run/config.js'
import { openRun } from '../../lib/run/run-session.js'
import { runCheckStep } from '../../lib/run/run-steps.js'
import { type RequirementId, requirement } from '../../lib/spec/catalogue.js'
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
  // A whole run at the defaults: 46 s beside a score and npm test's other workers; the bound is on a stall, as trace-and-har's is.
  test('a full run with --har against a target that accepts every token: no piece of 6+ characters of the key (plain, re-cased, URL-encoded, base64) in any file written or any line printed', {
    timeout: 120_000,
  }, async () => {
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
    // The vitest entry's messages: the same steps it composes, each check report as the test outcome it becomes.
    const messages = await vitestEntryMessages(server.baseUrl)
    expect(messages.length).toBeGreaterThan(100)
    expect(keyPiecesIn(messages.join('\n'), LONG_KEY), 'a vitest entry message holds a piece of the key').toEqual([])
    // The masks say what was done to the key, so the evidence still explains itself.
    const results = written.find(([name]) => name === 'results.json')?.[1] ?? ''
    expect(results).toContain('Bearer ${PETSTORE_API_KEY%?}')
    expect(results).toContain('Bearer ${PETSTORE_API_KEY}x')
    expect(results).toContain('Bearer x$PETSTORE_API_KEY')
  })
})

/** Every message the vitest entry would give its tests in a run against `baseUrl`: failures, skips, annotations. */
async function vitestEntryMessages(baseUrl: string): Promise<string[]> {
  const config = resolveConfig({
    argv: ['--base-url', baseUrl, '--profile', 'full', '--seed', '7', '--num-runs', '8', '--sequences', '3', '--quiet'],
    env: { PETSTORE_API_KEY: LONG_KEY },
    cwd: process.cwd(),
    today: () => new Date(),
    randomSeed: () => 0,
  })
  if (config === 'help') throw new Error('unreachable: no --help given')
  const printed: string[] = []
  const { session } = await openRun(config, petstoreSuite, { out: (line) => printed.push(line), err: (line) => printed.push(line) })
  const outcomes: TestOutcome[] = []
  try {
    await runCheckStep(session, petstoreSuite.checks, {
      onReport: (report) => outcomes.push(checkTestOutcome(report, requirement(report.requirementId as RequirementId).level, false)),
    })
  } finally {
    await session.close()
  }
  return [...printed, ...outcomes.map((outcome) => (outcome.state === 'fail' ? outcome.message : outcome.state === 'skip' ? outcome.reason : (outcome.annotation?.message ?? '')))]
}
