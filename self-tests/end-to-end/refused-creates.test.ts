/**
 * A refused create changes nothing (policy §2b, RESTler's leakage rule), and a run says how many refused creates it
 * verified: on a long-lived store whose lists are full and oldest first no list shows a new pet, so the run reads the
 * ids a refused create stored all the same would have taken, between and after those of the creates it accepted.
 */
import { describe, expect, test } from 'vitest'
import { faults } from '../../variants/faults/index.js'
import { runCli } from '../helpers/run-cli.js'
import { API_KEY, useTargets } from '../helpers/targets.js'

const WITH_KEY = { PETSTORE_API_KEY: API_KEY }
/** Enough pets that every list of a status is full (100) with pets older than the run's. */
const FULL_STORE = 600
/** A sample of the edits of creates (each refused create among them counts), and fewer generated cases. */
const ARGS = ['--profile', 'full', '--seed', '7', '--edit-operators', 'json-text,notation', '--max-edits', '60', '--quiet']

const storesWhatItRefused = faults.find((fault) => fault.name === 'invalid-status-stored-as-available')

describe('refused creates stay observable on a store whose lists are full', () => {
  const target = useTargets()

  test('against the reference: every refused create verified not stored, by the ids, and counted in results.json', async () => {
    const { baseUrl } = await target({ pets: FULL_STORE })
    const outcome = await runCli(['--base-url', baseUrl, ...ARGS], WITH_KEY)
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0)
    const refused = outcome.results?.neighbourhood?.refusedCreates
    expect(refused?.refused).toBeGreaterThan(10)
    expect(refused).toEqual({ refused: refused?.refused, verified: refused?.refused, by: 'ids' })
    expect(outcome.results?.requirements.find((result) => result.id === 'createPet/invalid-body-not-created')?.verdict).toBe('pass')
  })

  test('a service that stores a refused create is caught on such a store, by the pet read at the id it took', async () => {
    if (!storesWhatItRefused) throw new Error('no fault invalid-status-stored-as-available')
    const { baseUrl } = await target({ pets: FULL_STORE, variant: storesWhatItRefused })
    const outcome = await runCli(['--base-url', baseUrl, ...ARGS, '--edit-operators', 'case', '--max-edits', '200'], WITH_KEY)
    const result = outcome.results?.requirements.find((candidate) => candidate.id === 'createPet/invalid-body-not-created')
    expect(result?.verdict).toBe('fail')
    expect(result?.failures.map((failure) => failure.message).join('\n')).toMatch(/yet the store holds a pet named/)
  })
})
