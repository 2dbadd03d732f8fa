import { describe, expect, test } from 'vitest'
import type { Failure } from '../../lib/checks/check-result.js'
import { faults } from '../../variants/faults/index.js'
import { type CliOutcome, runCli as runCliWithOptions, verdictOf } from '../helpers/run-cli.js'
import { API_KEY, useTargets } from '../helpers/targets.js'

const startTarget = useTargets()
const WITH_KEY = { PETSTORE_API_KEY: API_KEY }
/** These tests are about generated cases: the command's own numbers of them. */
const runCli = (args: readonly string[], env: Record<string, string> = {}) => runCliWithOptions(args, env, { commandDefaults: true })
const SEED = '20261121'
/** These runs judge the generated bodies: the model-based sequences, which judge createPet/ too, have tests of their own. */
const NO_SEQUENCES = ['--sequences', '0']

function failureOf(outcome: CliOutcome, id: string): Failure | undefined {
  return outcome.results?.requirements.find((result) => result.id === id)?.failures.find((failure) => failure.replay !== undefined)
}

/** The body the shrunk case sent, parsed back. */
function sentBody(failure: Failure | undefined): Record<string, unknown> {
  const text = /body sent: (.*)$/s.exec(failure?.replay?.counterexample ?? '')?.[1] ?? 'null'
  return JSON.parse(text)
}

function faultNamed(name: string) {
  const fault = faults.find((candidate) => candidate.name === name)
  if (!fault) throw new Error(`no fault ${name}`)
  return fault
}

async function runAgainstFault(name: string, extra: string[] = []): Promise<CliOutcome> {
  const target = await startTarget({ variant: faultNamed(name) })
  return runCli(['--base-url', target.baseUrl, '--profile', 'full', '--seed', SEED, '--requirements', 'createPet/', ...NO_SEQUENCES, ...extra], WITH_KEY)
}

describe('generated NewPet bodies against the reference', () => {
  test('100 generated valid bodies and 34 invalid ones per rule: every property holds', async () => {
    const outcome = await runCli(['--seed', SEED, '--num-runs', '100', '--requirements', 'createPet/', ...NO_SEQUENCES])
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0)
    for (const id of ['createPet/returns-201-pet', 'createPet/echoes-fields', 'createPet/round-trip-get', 'createPet/invalid-body-400', 'createPet/invalid-body-not-created']) {
      expect(verdictOf(outcome, id), id).toBe('pass')
      const observed = outcome.results?.requirements.find((result) => result.id === id)?.observations.join(' ')
      expect(observed, id).toMatch(/\d+ of (100|374) generated cases decided it/)
    }
    expect(outcome.stdout).toMatch(/100 generated cases per property/)
  })
})

describe('each faulty way of reading a NewPet is caught, with a minimal counterexample', () => {
  test.for([
    ['name-trimmed', 1],
    ['name-ascii-only', 1],
  ] as const)('%s: the counterexample name is a single code point', async ([name, codePoints]) => {
    const outcome = await runAgainstFault(name)
    expect(outcome.code).toBe(1)
    const failure = failureOf(outcome, 'createPet/echoes-fields')
    expect(failure?.message).toMatch(/^name differs at code point 0/)
    expect([...String(sentBody(failure).name)]).toHaveLength(codePoints)
  })

  test('name-truncated-255: the counterexample name is exactly one UTF-16 unit too long', async () => {
    const outcome = await runAgainstFault('name-truncated-255')
    expect(outcome.code).toBe(1)
    const failure = failureOf(outcome, 'createPet/echoes-fields')
    const length = String(sentBody(failure).name).length
    // 256 units; a surrogate pair at the cut makes 257 the shortest failing length for that shape.
    expect(length === 256 || length === 257, `name of ${length} UTF-16 units`).toBe(true)
  })

  test('categoryId-rounded: a categoryId beyond 2^53 comes back different', async () => {
    const outcome = await runAgainstFault('categoryId-rounded')
    expect(outcome.code).toBe(1)
    const failure = failureOf(outcome, 'createPet/echoes-fields')
    expect(failure?.message).toMatch(/categoryId differs/)
    const categoryId = /"categoryId":(-?\d+)/.exec(failure?.replay?.counterexample ?? '')?.[1]
    expect(BigInt(categoryId ?? '0') > 2n ** 53n || BigInt(categoryId ?? '0') < -(2n ** 53n)).toBe(true)
  })

  // One of the four faults that accept a refused body; the mutation score shows the other three caught.
  test.for([['categoryId-numeric-string-accepted', 'categoryId-wrong-type', /^categoryId is the string "-?\d"\)$/]] as const)(
    '%s: refused bodies accepted, labelled %s',
    async ([name, rule, detail]) => {
      const outcome = await runAgainstFault(name)
      expect(outcome.code).toBe(1)
      const failure = failureOf(outcome, 'createPet/invalid-body-400')
      const counterexample = failure?.replay?.counterexample ?? ''
      expect(counterexample).toContain(`rule broken: ${rule} (`)
      expect(/\((.*)$/m.exec(counterexample.split('\n')[0] ?? '')?.[1]).toMatch(detail)
      expect(failure?.replay?.command).toMatch(new RegExp(`--seed 20261121 --requirements createPet/invalid-body-400 --replay-path ${rule}(:\\d+)+$`))
    },
  )
})

describe('a failure replays from its seed and path, and shrinking is deterministic', () => {
  test('the same seed shrinks to the same case; its replay command reproduces it on the faulty target and passes on the reference', async () => {
    const first = await runAgainstFault('name-trimmed')
    const second = await runAgainstFault('name-trimmed')
    const [a, b] = [failureOf(first, 'createPet/echoes-fields'), failureOf(second, 'createPet/echoes-fields')]
    expect(a?.replay?.path).toMatch(/^valid(:\d+)+$/)
    expect(b?.replay?.path).toBe(a?.replay?.path)
    expect(b?.replay?.counterexample).toBe(a?.replay?.counterexample)

    const path = a?.replay?.path ?? ''
    const replayed = await runAgainstFault('name-trimmed', ['--requirements', 'createPet/echoes-fields', '--replay-path', path])
    expect(replayed.code).toBe(1)
    expect(replayed.stdout).toMatch(/replaying the generated case at path/)
    const again = failureOf(replayed, 'createPet/echoes-fields')
    expect(again?.message).toMatch(/\(replayed\)$/)
    expect(sentBody(again).name).toBe(sentBody(a).name)

    const onReference = await runCli(['--seed', SEED, '--requirements', 'createPet/echoes-fields', '--replay-path', path])
    expect(onReference.code, onReference.stdout).toBe(0)
    expect(verdictOf(onReference, 'createPet/echoes-fields')).toBe('pass')
  })
})

describe('a replay line is in the form the user ran', () => {
  test("the command typed as npx, as the clone's npm script, and a typed-API call each get their own form of one replay", async () => {
    const target = await startTarget({ variant: faultNamed('name-trimmed') })
    const args = ['--base-url', target.baseUrl, '--profile', 'full', '--seed', SEED, '--requirements', 'createPet/echoes-fields', ...NO_SEQUENCES]
    const npx = failureOf(await runCli(args, WITH_KEY), 'createPet/echoes-fields')?.replay
    expect(npx?.command).toBe(
      `npx petstore-conformance --base-url ${target.baseUrl} --profile full --seed ${SEED} --requirements createPet/echoes-fields --replay-path ${npx?.path}`,
    )
    const script = failureOf(await runCli(args, { ...WITH_KEY, npm_lifecycle_event: 'conformance' }), 'createPet/echoes-fields')?.replay
    expect(script?.command).toMatch(/^npm run conformance -- --base-url /)
    const { runConformance } = await import('../../entry-points/index.js')
    const results = await runConformance({ baseUrl: target.baseUrl, apiKey: API_KEY, profile: 'full', seed: Number(SEED), requirements: ['createPet/echoes-fields'], sequences: 0 })
    const api = results.requirements.find((result) => result.id === 'createPet/echoes-fields')?.failures.find((failure) => failure.replay)?.replay
    expect(api?.command).toBe(
      `runConformance({ baseUrl: '${target.baseUrl}', profile: 'full', seed: ${SEED}, requirements: ['createPet/echoes-fields'], replayPath: '${api?.path}' })`,
    )
  })

  test("the typed API names its options in its errors, not the command's flags", async () => {
    const { runConformance } = await import('../../entry-points/index.js')
    await expect(runConformance({ baseUrl: 'staging.example.com', concurrency: 0 })).rejects.toThrow(
      /baseUrl is not a URL: "staging\.example\.com"[\s\S]*concurrency must be from 1 to 256, got 0/,
    )
  })
})
