/**
 * A pass needs an answer that would have broken the rule: an answer a target ignoring the rule would give just the
 * same decides nothing, and the requirement stays inconclusive unless something else decides it.
 */
import { describe, expect, test } from 'vitest'
import { errorResponse } from '../../reference/handler.js'
import { PetStore, withPets } from '../../reference/pet-store.js'
import { behaviours, startMisbehavingServer } from '../../variants/hostile-servers.js'
import { startVariant } from '../../variants/variant.js'
import { type CliOutcome, runCli, verdictOf } from '../helpers/run-cli.js'
import { API_KEY } from '../helpers/targets.js'

const WITH_KEY = { PETSTORE_API_KEY: API_KEY }

/** The note of the model-based sequences on a requirement, when any of them decided it. */
const decidedBySequences = (outcome: CliOutcome, id: string) =>
  outcome.results?.requirements.find((result) => result.id === id)?.observations.find((line) => /sequences decided it/.test(line))

describe.concurrent('no pass without an answer that could have failed', () => {
  test('a target that answers every request alike (200, the same list of one pet): the scheme spelling and out-of-range limits are not passed on it', async ({
    onTestFinished,
  }) => {
    const server = await startMisbehavingServer(behaviours.ok, onTestFinished)
    const outcome = await runCli(
      ['--base-url', server.baseUrl, '--profile', 'full', '--seed', '3', '--requirements', 'listPets/limit-out-of-range,auth/scheme-case-insensitive,auth/wrong-key-401'],
      WITH_KEY,
      // The command's own 10 sequences: at this seed some list pets with an out-of-range limit.
      { commandDefaults: true },
    )
    // It serves a wrong key: "bearer <key>" accepted says nothing of how it reads the scheme.
    expect(verdictOf(outcome, 'auth/wrong-key-401')).toBe('fail')
    expect(verdictOf(outcome, 'auth/scheme-case-insensitive')).toBe('inconclusive')
    expect(outcome.results?.requirements.find((result) => result.id === 'auth/scheme-case-insensitive')?.reasons.join('\n')).toMatch(
      /GET \/pets with a wrong key was answered 200: a target that serves a wrong key would accept "bearer <key>"/,
    )
    // A list of one pet for limit=101 is what a target ignoring the limit would send from a store of one pet.
    expect(verdictOf(outcome, 'listPets/limit-out-of-range')).toBe('inconclusive')
    expect(decidedBySequences(outcome, 'listPets/limit-out-of-range')).toBeUndefined()
  })

  /** The rules a refusal passes: of an invalid limit, status, body, media type, client id or id, and of the key anywhere but the Bearer header. */
  const byRefusing = [
    'listPets/limit-out-of-range',
    'listPets/limit-out-of-range-400',
    'listPets/status-invalid',
    'listPets/status-invalid-400',
    'createPet/invalid-body-400',
    'createPet/invalid-body-edges',
    'createPet/client-id-not-honoured',
    'createPet/request-media-types',
    'getPet/invalid-id',
    'getPet/int64-edge-ids',
    'auth/key-elsewhere-refused',
    'auth/path-spelling-refused',
  ]

  test('a target that refuses every request with 400: no rule passed by refusing an invalid limit, body or id passes on it', async () => {
    const refusesAll = { name: 'refuses-everything', description: 'every request answered 400', wrap: () => async () => errorResponse(400, 'refused', 'refused') }
    const target = await startVariant(refusesAll, { apiKey: API_KEY, store: withPets(new PetStore(), 110) })
    // The command's 10 sequences (fewer generated bodies), seed 3: the sequences refuse an out-of-range limit too, and must not pass it on that refusal either.
    const outcome = await runCli(
      ['--base-url', target.baseUrl, '--profile', 'full', '--seed', '3'],
      { ...WITH_KEY, PETSTORE_NUM_RUNS: '5', PETSTORE_MAX_EDITS: '20' },
      { commandDefaults: true },
    ).finally(() => target.close())
    expect(outcome.code).toBe(1)
    const verdicts = Object.fromEntries(byRefusing.map((id) => [id, verdictOf(outcome, id)]))
    expect(
      Object.values(verdicts).filter((verdict) => verdict === 'pass'),
      JSON.stringify(verdicts),
    ).toEqual([])
    expect(outcome.results?.requirements.find((result) => result.id === 'createPet/invalid-body-400')?.reasons).toEqual([
      'POST /pets with a valid NewPet was answered 400 too, so a refusal shows nothing of this rule',
    ])
  })

  test('the reference, which refuses a wrong key, passes the scheme spelling', async () => {
    const target = await startVariant(undefined, { apiKey: API_KEY, store: new PetStore() })
    const outcome = await runCli(['--base-url', target.baseUrl, '--seed', '7', '--requirements', 'auth/scheme-case-insensitive'], WITH_KEY).finally(() => target.close())
    expect(verdictOf(outcome, 'auth/scheme-case-insensitive')).toBe('pass')
  })

  test('a filtered list from a store whose pets all have that status is what an ignored filter would show: the sequences do not decide status-filter-matches on it', async () => {
    const store = new PetStore()
    for (let index = 0; index < 30; index++) store.add({ name: `pet ${index + 1}`, categoryId: 1n, status: 'available', extra: {} })
    const target = await startVariant(undefined, { apiKey: API_KEY, store })
    // Read-only: the sequences create no pet of another status; the lists of the other statuses come back empty, and decide nothing either.
    const outcome = await runCli(['--base-url', target.baseUrl, '--seed', '20261123', '--requirements', 'listPets/status-filter-matches'], WITH_KEY, {
      commandDefaults: true,
    }).finally(() => target.close())
    expect(outcome.code, outcome.stdout).toBe(0)
    expect(decidedBySequences(outcome, 'listPets/status-filter-matches')).toBeUndefined()
  })
})
