import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { faults } from '../../variants/faults/index.js'
import { type CliOutcome, runCli } from '../helpers/run-cli.js'
import { API_KEY, useTargets } from '../helpers/targets.js'

const startTarget = useTargets()
const WITH_KEY = { PETSTORE_API_KEY: API_KEY }

async function runAgainst(faultName: string | undefined, extra: string[] = []): Promise<CliOutcome> {
  const target = await startTarget({ ...(faultName ? { variant: faults.find((fault) => fault.name === faultName) } : {}) })
  return runCli(['--base-url', target.baseUrl, '--profile', 'full', '--requirements', 'listPets/', '--seed', '1', ...extra], WITH_KEY)
}

const changeOf = (outcome: CliOutcome, id: string) => outcome.results?.requirements.find((result) => result.id === id)?.change

describe('comparison with an earlier run', () => {
  test('each requirement is marked new failure, fixed, still failing or unchanged; --fail-on new fails only on new failures', async () => {
    const earlier = await runAgainst('default-limit-25')
    expect(earlier.code).toBe(1)
    const baseline = join(earlier.reportDir, 'results.json')

    const fixedRun = await runAgainst(undefined, ['--baseline', baseline])
    expect(fixedRun.code).toBe(0)
    expect(changeOf(fixedRun, 'listPets/limit-default-20')).toBe('fixed')
    expect(changeOf(fixedRun, 'listPets/returns-pets')).toBe('unchanged')
    expect(fixedRun.stdout).toMatch(
      /Against .*results\.json: 0 new failures, 4 fixed, 0 still failing, \d+ unchanged\n {2}fixed \(expected to fail, now pass\): listPets\/limit-default-20, listPets\/limit-caps-size, listPets\/limit-fills-page, listPets\/filter-and-default-limit/,
    )

    const worse = await runAgainst('status-filter-ignored', ['--baseline', baseline])
    expect(worse.code).toBe(1)
    expect(changeOf(worse, 'listPets/status-filter-matches')).toBe('new-failure')
    // An ignored filter shows after the parameters past a parser's cap too (a SHOULD).
    expect(changeOf(worse, 'listPets/parameters-past-a-cap')).toBe('new-failure')
    expect(worse.results?.baseline).toMatchObject({ newFailures: 2, fixed: 4, stillFailing: 0 })
    expect(readFileSync(join(worse.reportDir, 'summary.md'), 'utf8')).toMatch(/`listPets\/status-filter-matches` MUST \*\*new\*\*/)
    expect(readFileSync(join(worse.reportDir, 'report.html'), 'utf8')).toMatch(/<span class="change">new-failure<\/span>/)
    expect(readFileSync(join(worse.reportDir, 'junit.xml'), 'utf8')).toMatch(
      /<testcase classname="listPets\/status-filter-matches" name="[^"]*">\s*<properties><property name="baseline" value="new-failure"\/><\/properties>\s*<failure /,
    )

    const known = await runAgainst('default-limit-25', ['--baseline', baseline, '--fail-on', 'new'])
    expect(known.code, known.stdout).toBe(0)
    expect(changeOf(known, 'listPets/limit-default-20')).toBe('still-failing')
    expect(readFileSync(join(known.reportDir, 'summary.md'), 'utf8')).toMatch(/`listPets\/limit-default-20` MUST \(known\)/)
  })

  test('a baseline that is not a results.json, or --fail-on new without one, is a configuration error', async () => {
    const notResults = await runCli(['--baseline', join(import.meta.dirname, 'baseline.test.ts')])
    expect(notResults.code).toBe(2)
    expect(notResults.stderr).toMatch(/--baseline .*give the results\.json of an earlier run/)
    const alone = await runCli(['--fail-on', 'new'])
    expect(alone.code).toBe(2)
    expect(alone.stderr).toMatch(/--fail-on new needs --baseline/)
  })
})
