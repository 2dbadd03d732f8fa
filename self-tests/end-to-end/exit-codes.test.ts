/**
 * A pipeline acts on the exit code alone: the built command, as a process, for every exit code. Each run
 * is checked for its code, its headline, and the reports it leaves, so a set-up mistake never reads as a
 * verdict and every exit leaves files a CI step can read.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { petstoreSuite } from '../../entry-points/suite.js'
import { runCommand } from '../../lib/run/command.js'
import { faults } from '../../variants/faults/index.js'
import { type CliOutcome, FEWER_GENERATED_CASES, runBuiltCli } from '../helpers/run-cli.js'
import { API_KEY, UNREACHABLE_BASE_URL, useTargets } from '../helpers/targets.js'

const startTarget = useTargets()
const WITH_KEY = { PETSTORE_API_KEY: API_KEY }

function expectReports(outcome: CliOutcome, files = ['junit.xml', 'report.html', 'results.json', 'summary.md']): void {
  expect(readdirSync(outcome.reportDir).sort()).toEqual(files)
}

function summaryOf(outcome: CliOutcome): string {
  return readFileSync(join(outcome.reportDir, 'summary.md'), 'utf8')
}

describe('every exit code of the built command, with its headline and its reports', () => {
  test('0: a conformant target reads CONFORMANT everywhere', async () => {
    const outcome = await runBuiltCli(['--requirements', 'listPets/', '--quiet'])
    expect(outcome.code, outcome.stderr).toBe(0)
    expect(outcome.stdout.split('\n')[0]).toMatch(/judges its own EMBEDDED REFERENCE implementation \(no --base-url given\)/)
    expect(outcome.stdout).toMatch(/^Verdict: CONFORMANT \(exit 0\)/m)
    expect(outcome.results?.headline).toEqual({ text: 'CONFORMANT' })
    expect(summaryOf(outcome)).toMatch(/^## Pet Store conformance: ✅ CONFORMANT$/m)
    expectReports(outcome)
  })

  test('1: a faulty target reads NON-CONFORMANT, and JUnit has a failure for it', async () => {
    const target = await startTarget({ pets: 30, variant: faults.find((fault) => fault.name === 'default-limit-25') })
    const outcome = await runBuiltCli(['--base-url', target.baseUrl, '--requirements', 'listPets/limit-default-20'], WITH_KEY)
    expect(outcome.code, outcome.stderr).toBe(1)
    expect(outcome.stdout).toMatch(/^Verdict: NON-CONFORMANT \(exit 1\)/m)
    expect(readFileSync(join(outcome.reportDir, 'junit.xml'), 'utf8')).toMatch(/<failure message="MUST: GET \/pets returned 25 pets/)
    expectReports(outcome)
  })

  test('2: a base URL variable that is set but empty (a missing secret) stops before anything is sent, with reports that say why', async () => {
    const outcome = await runBuiltCli([], { PETSTORE_BASE_URL: '', ...WITH_KEY })
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toMatch(/PETSTORE_BASE_URL is set but empty/)
    expect(outcome.stdout).not.toMatch(/EMBEDDED REFERENCE/)
    expect(outcome.results).toMatchObject({ exitCode: 2, verdict: 'error', headline: { text: 'NO VERDICT' } })
    expect(outcome.results?.stopReason).toMatch(/PETSTORE_BASE_URL is set but empty/)
    expect(summaryOf(outcome)).toMatch(/NO VERDICT[\s\S]*PETSTORE\\_BASE\\_URL is set but empty/)
    expectReports(outcome)
  })

  test('2: in CI, no target at all is a set-up mistake unless the embedded reference is asked for', async () => {
    const refused = await runBuiltCli([], { CI: 'true' })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/no target in CI: set PETSTORE_BASE_URL .*--embedded-reference/)
    expectReports(refused)
    const asked = await runBuiltCli(['--embedded-reference', '--requirements', 'versioning/', '--quiet'], { CI: 'true' })
    expect(asked.code, asked.stderr).toBe(0)
  })

  test('2: a key the target refuses on every operation is a set-up mistake: nothing judged as a failure', async () => {
    const target = await startTarget({ pets: 5 })
    const outcome = await runBuiltCli(['--base-url', target.baseUrl], { PETSTORE_API_KEY: 'Qz8vN2-Lk5pW0x-refused' })
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toMatch(/the target answered 401 to the configured key on every operation: check PETSTORE_API_KEY/)
    expect(outcome.stdout).not.toMatch(/FAIL/)
    const verdicts = new Set(outcome.results?.requirements.map((result) => result.verdict))
    expect([...verdicts].sort()).toEqual(['inconclusive', 'untestable'])
    expect(outcome.results?.requirements.find((result) => result.id === 'auth/missing-key-401')?.reasons).toEqual([
      'the target answered 401 to the configured key on every operation: check PETSTORE_API_KEY',
    ])
    expect(target.requests.map((request) => request.method)).not.toContain('POST')
    expectReports(outcome)
  })

  test('3: an unreachable target has NO VERDICT, with reports', async () => {
    const outcome = await runBuiltCli(['--base-url', UNREACHABLE_BASE_URL], WITH_KEY)
    expect(outcome.code).toBe(3)
    expect(outcome.stderr).toMatch(/Stopped: target unreachable: GET .*cannot connect/)
    expect(outcome.results).toMatchObject({ exitCode: 3, headline: { text: 'NO VERDICT' } })
    expectReports(outcome)
  })

  test('a set-up mistake or a target that cannot be judged never destroys the last verdict: its reports move to last-verdict/, beside the new ones', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'petstore-reports-'))
    const run = (args: string[]) =>
      runCommand(petstoreSuite, { argv: ['--report-dir', 'reports', ...args], env: { ...FEWER_GENERATED_CASES, PETSTORE_API_KEY: API_KEY }, cwd }, { out: () => {}, err: () => {} })
    const exitOf = (file: string) => (JSON.parse(readFileSync(join(cwd, 'reports', file), 'utf8')) as { exitCode: number }).exitCode
    expect(await run(['--embedded-reference', '--requirements', 'listPets/returns-pets'])).toBe(0)
    // A typo, then an unreachable target: each writes its own reports, and the verdict before them is kept whole.
    expect(await run(['--concurrency', 'eight'])).toBe(2)
    expect(exitOf('results.json')).toBe(2)
    expect(exitOf('last-verdict/results.json')).toBe(0)
    expect(readdirSync(join(cwd, 'reports', 'last-verdict')).sort()).toEqual(['junit.xml', 'report.html', 'results.json', 'summary.md'])
    expect(await run(['--base-url', UNREACHABLE_BASE_URL])).toBe(3)
    expect(exitOf('results.json')).toBe(3)
    expect(exitOf('last-verdict/results.json')).toBe(0)
    // A run with a verdict replaces both: no stale last-verdict/ is left to mislead.
    expect(await run(['--embedded-reference', '--requirements', 'listPets/returns-pets'])).toBe(0)
    expect(readdirSync(join(cwd, 'reports')).sort()).toEqual(['junit.xml', 'report.html', 'results.json', 'summary.md'])
  })
})
