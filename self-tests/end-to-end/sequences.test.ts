import { describe, expect, test } from 'vitest'
import type { Failure } from '../../lib/checks/check-result.js'
import { scoreFault } from '../../mutation-score/score.js'
import { viewsFaults } from '../../variants/faults/views.js'
import type { Variant } from '../../variants/variant.js'
import { type CliOutcome, runCli as runCliWithOptions, verdictOf } from '../helpers/run-cli.js'
import { API_KEY, startTarget, type Target, type TargetOptions } from '../helpers/targets.js'

const WITH_KEY = { PETSTORE_API_KEY: API_KEY }
/** These tests are about the sequences: the command's own number of them (the generated bodies, which they do not judge, fewer). */
const runCli = (args: readonly string[], env: Record<string, string> = {}) =>
  runCliWithOptions(args, { PETSTORE_NUM_RUNS: '5', PETSTORE_MAX_EDITS: '20', ...env }, { commandDefaults: true })
const SEED = '20261123'
const VIEWS = 'views/one-pet-reads-the-same'
/** The title every check of the model-based sequences carries, whatever requirement it judges. */
const SEQUENCE_CHECK = /sequence|one pet reads the same in the 201 answer/

/** The first failure of views a sequence found: the one with a replay (the check that follows a filled-in status has none). */
function viewsFailure(outcome: CliOutcome): Failure | undefined {
  const failures = outcome.results?.requirements.find((result) => result.id === VIEWS)?.failures ?? []
  return failures.find((failure) => failure.replay !== undefined) ?? failures[0]
}

function failedRequirements(outcome: CliOutcome): string[] {
  return (outcome.results?.requirements ?? []).filter((result) => result.verdict === 'fail').map((result) => result.id)
}

/** A target for one test, closed when it ends: the tests of this file run at once, each with its own. */
async function withTarget<T>(options: TargetOptions, use: (target: Target) => Promise<T>): Promise<T> {
  const target = await startTarget(options)
  try {
    return await use(target)
  } finally {
    await target.close()
  }
}

/** A full run; a short consistency window, since a disagreement is confirmed by reading until the window closes. */
function fullRun(variant: Variant | undefined, extra: string[] = []): Promise<CliOutcome> {
  return withTarget(variant ? { variant } : {}, (target) =>
    runCli(['--base-url', target.baseUrl, '--profile', 'full', '--seed', SEED, '--consistency-window-ms', '1000', ...extra], WITH_KEY),
  )
}

/**
 * Part of the variant score too: each fault is scored as the score scores any fault, here on a run of the
 * whole suite (not only the requirement it names), which also shows that nothing else catches it.
 */
/** The check that follows a pet created without status (suites/views/filled-in-status.checks.ts): the one other check of views. */
const FILLED_IN_STATUS_CHECK = /\[views\/one-pet-reads-the-same\] a pet created without status/

describe.concurrent('faults of the views: caught by the model, and by nothing else but the check that follows a filled-in status', () => {
  test.for(viewsFaults.map((fault) => [fault.name, fault] as const))('%s', async ([, fault]) => {
    const outcome = await fullRun(fault)
    expect(outcome.code, outcome.stdout).toBe(1)
    expect(scoreFault(fault, outcome.results, outcome.code, 0).ok).toBe(true)
    // The int64 edges are read back in the lists too, so the edge check also sees a list that rounds category ids;
    // and when the store survey lists an edge pet, GET /pets/{id} of it differs from the list (getPet/matches-listed-pet).
    const alsoCaughtBy = fault.name === 'list-rounds-category-ids' ? ['createPet/integer-edges-round-trip', 'getPet/matches-listed-pet'] : []
    expect(failedRequirements(outcome)).toContain(VIEWS)
    expect(failedRequirements(outcome).filter((id) => id !== VIEWS && !alsoCaughtBy.includes(id))).toEqual([])
    const failedChecks = outcome.stdout.match(/^ {4}✗ .*$/gm) ?? []
    for (const line of failedChecks.filter((check) => !alsoCaughtBy.some((id) => check.includes(`[${id}]`)) && !FILLED_IN_STATUS_CHECK.test(check)))
      expect(line).toMatch(SEQUENCE_CHECK)
    const failure = viewsFailure(outcome)
    expect(failure?.replay?.counterexample).toMatch(/^commands: .*\n1\. POST \/v1\/pets /)
    expect(failure?.replay?.script).toMatch(/^#!\/usr\/bin\/env bash\n/)
    expect(failure?.replay?.command).toMatch(/--replay-path sequences:\d+(:\d+)*@\S*/)
  })
})

describe.concurrent('a failing sequence is shrunk, reported step by step, and replays from its seed', () => {
  test('list-rounds-category-ids: a minimal sequence, numbered exchanges, a curl script, and a replay that fails the same way', async () => {
    const fault = viewsFaults.find((candidate) => candidate.name === 'list-rounds-category-ids') as Variant
    const outcome = await fullRun(fault, ['--requirements', VIEWS])
    const failure = viewsFailure(outcome)
    expect(failure?.message).toMatch(/^pet \d+ reads differently in GET \/pets\?status=\w+&limit=100 \(step \d+\) than in the 201 answer of step \d+: categoryId: /)
    expect(failure?.message).toMatch(/\(sequence shrunk in \d+ steps to \d commands/)
    const commands = /^commands: (.*)$/m.exec(failure?.replay?.counterexample ?? '')?.[1]?.split('; ') ?? []
    expect(commands.length).toBeLessThanOrEqual(3)
    // The script reads each id the service assigns and uses it for later requests of that pet; the key stays a variable.
    const script = failure?.replay?.script ?? ''
    expect(script).toMatch(/PET_1=\$\(printf '%s' "\$answer" \| sed -n /)
    expect(script).toMatch(/\/v1\/pets\/'"\$PET_1"/)
    expect(script).toContain('"Authorization: Bearer $PETSTORE_API_KEY"')
    expect(script).not.toContain(API_KEY)

    const path = /--replay-path (sequences:\S+)/.exec(failure?.replay?.command ?? '')?.[1] ?? ''
    const replay = await fullRun(fault, ['--requirements', VIEWS, '--replay-path', path])
    expect(replay.code).toBe(1)
    const replayed = viewsFailure(replay)
    expect(replayed?.message).toMatch(/categoryId: .*\(replayed sequence\)$/)
    expect(/^commands: (.*)$/m.exec(replayed?.replay?.counterexample ?? '')?.[1]).toBe(commands.join('; '))
  })
})

describe.concurrent('sequences against conformant targets, and where they cannot decide', () => {
  test('the reference: every requirement the sequences judge passes, within the budget of sequences × (length − 2) requests', async () => {
    // Seed 5's sequences, drawn freely, sent 139 requests on the reference (sequence-budget.test.ts plans them).
    const outcome = await fullRun(undefined, ['--requirements', `${VIEWS},createPet/ids-unique`, '--seed', '5'])
    expect(outcome.code, outcome.stdout).toBe(0)
    expect(verdictOf(outcome, VIEWS)).toBe('pass')
    const note = outcome.results?.requirements.find((result) => result.id === VIEWS)?.observations.find((line) => /sequences decided it/.test(line)) ?? ''
    const [, decided, sequences, requests] = /(\d+) of (\d+) sequences decided it \(seed \d+; (\d+) requests in all\)/.exec(note) ?? []
    expect(Number(sequences)).toBe(10)
    expect(Number(decided)).toBeGreaterThan(5)
    expect(Number(requests)).toBeLessThanOrEqual(10 * (12 - 2))
  })

  test('smoke against 150 pets: the sequences only read, and still compare lists with GETs', async () => {
    const { outcome, methods } = await withTarget({ pets: 150 }, async (target) => ({
      outcome: await runCli(['--base-url', target.baseUrl, '--seed', SEED, '--requirements', `${VIEWS},createPet/round-trip-get,getPet/unknown-id-404`], WITH_KEY),
      methods: new Set(target.requests.map((request) => request.method)),
    }))
    expect(outcome.code, outcome.stdout).toBe(0)
    expect([...methods]).toEqual(['GET'])
    expect(verdictOf(outcome, VIEWS)).toBe('pass')
    expect(verdictOf(outcome, 'getPet/unknown-id-404')).toBe('pass')
    expect(verdictOf(outcome, 'createPet/round-trip-get')).toBe('inconclusive')
  })

  test('smoke against an empty store, or no sequences at all in a read-only run: inconclusive, never pass', async () => {
    const empty = await withTarget({ pets: 0 }, (target) => runCli(['--base-url', target.baseUrl, '--seed', SEED, '--requirements', VIEWS], WITH_KEY))
    expect(empty.code, empty.stdout).toBe(0)
    expect(verdictOf(empty, VIEWS)).toBe('inconclusive')
    expect(outcomeReasons(empty)).toContain('none of the 10 sequences could decide it on this target')
    // Read-only, so the check that follows a pet created without status cannot decide it either.
    const none = await runCli(['--seed', SEED, '--profile', 'smoke', '--sequences', '0', '--requirements', VIEWS])
    expect(verdictOf(none, VIEWS)).toBe('inconclusive')
    expect(outcomeReasons(none)).toContain('no sequence ran (--sequences 0)')
  })
})

function outcomeReasons(outcome: CliOutcome): string[] | undefined {
  return outcome.results?.requirements.find((result) => result.id === VIEWS)?.reasons
}
