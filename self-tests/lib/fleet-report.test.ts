/** A fleet's matrix: targets compared only with those run at the same profile, and the MUST failures first. */
import { describe, expect, test } from 'vitest'
import { buildFleetReport } from '../../lib/fleet/fleet-report.js'
import type { Verdict } from '../../lib/judging/verdicts.js'
import type { RunResult } from '../../lib/reports/run-result.js'

/** A target's results, as much of them as the fleet report reads. */
function run(name: string, profile: 'smoke' | 'full', verdicts: Record<string, Verdict>): { name: string; result: RunResult } {
  const failed = Object.values(verdicts).includes('fail')
  const result = {
    tool: { name: 'petstore-conformance', version: '0.0.0' },
    target: { baseUrl: `https://${name}.example.com/v1`, embeddedReference: false },
    profile,
    headline: { text: failed ? 'NON-CONFORMANT' : 'CONFORMANT' },
    exitCode: failed ? 1 : 0,
    summary: { total: 0, pass: 0, fail: 0, warn: 0, inconclusive: 0, info: 0, skipped: 0, untestable: 0 },
    requirements: Object.entries(verdicts).map(([id, verdict]) => ({ id, level: id.startsWith('should/') ? 'SHOULD' : 'MUST', verdict })),
  } as unknown as RunResult
  return { name, result }
}

describe('a fleet of targets at different profiles', () => {
  // Three read-only targets leave the write rules inconclusive; the one full run decides them.
  const smoke = { 'createPet/returns-201-pet': 'inconclusive', 'listPets/returns-pets': 'pass', 'should/x': 'pass' } as const
  const report = buildFleetReport(
    [
      run('eu', 'smoke', smoke),
      run('us', 'smoke', smoke),
      run('ap', 'smoke', { ...smoke, 'listPets/returns-pets': 'fail' }),
      run('staging', 'full', { 'createPet/returns-201-pet': 'pass', 'listPets/returns-pets': 'pass', 'should/x': 'warn' }),
    ],
    '1.0.0',
  )
  const row = (id: string) => report.requirements.find((candidate) => candidate.id === id)

  test('the one full-profile target is no outlier among smoke ones: it is compared with the targets run like it', () => {
    expect(row('createPet/returns-201-pet')?.drift).toEqual([])
    expect(row('should/x')?.drift).toEqual([])
  })

  test('a target that differs from the others of its profile drifts', () => {
    expect(row('listPets/returns-pets')?.drift).toEqual(['ap'])
  })

  test('a MUST failure comes first', () => {
    expect(report.requirements[0]?.id).toBe('listPets/returns-pets')
  })
})
