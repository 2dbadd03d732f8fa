import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { SAFE_METHODS } from '../../lib/neighbourhood/methods.js'
import { packageRoot } from '../../lib/spec/package-root.js'
import { type CliOutcome, runCli, verdictOf } from '../helpers/run-cli.js'
import { API_KEY, useTargets } from '../helpers/targets.js'

const startTarget = useTargets()
const WITH_KEY = { PETSTORE_API_KEY: API_KEY }

/** Requirements only data in the store can decide: a read-only run against a small store must leave them open. */
const DATA_DEPENDENT = [
  'listPets/limit-default-20',
  'listPets/limit-max-100',
  'listPets/status-filter-matches',
  'listPets/status-filter-complete',
  'getPet/returns-pet',
  'getPet/matches-listed-pet',
]

function mustPasses(outcome: CliOutcome): number {
  return (outcome.results?.requirements ?? []).filter((result) => result.level === 'MUST' && result.verdict === 'pass').length
}

/** The README's own claim: "a smoke run against a populated store decides N MUST requirements". */
function readmeClaim(): number {
  const match = /smoke run against a store of 150 pets decides (\d+) MUST requirements/.exec(readFileSync(join(packageRoot, 'README.md'), 'utf8'))
  if (!match) throw new Error('the README no longer states how many MUST requirements a smoke run decides')
  return Number(match[1])
}

describe('the smoke profile is read-only and still decides what the data allows', () => {
  test('against a populated store: requests but no POST at all, conformant, as many MUST requirements decided as the README claims', async () => {
    const target = await startTarget({ pets: 150 })
    // The whole neighbourhood, as the README's claim is of a run at the command's defaults (fewer generated cases only).
    const outcome = await runCli(['--base-url', target.baseUrl, '--seed', '5'], { ...WITH_KEY, PETSTORE_NUM_RUNS: '5', PETSTORE_SEQUENCES: '2' }, { commandDefaults: true })
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0)
    expect(outcome.stdout).toMatch(/Profile: smoke \(default against a given URL.*\); read-only: this run sends no POST/)
    expect(target.requests.length).toBeGreaterThan(50)
    // Read-only: GET, and the registry's other safe methods the neighbourhood puts in its place (HEAD, OPTIONS, PROPFIND, …).
    expect(target.requests.filter((request) => !SAFE_METHODS.has(request.method))).toEqual([])
    expect(target.requests.some((request) => request.method === 'HEAD')).toBe(true)
    expect(target.store.size).toBe(150)
    for (const id of [...DATA_DEPENDENT, 'listPets/limit-caps-size', 'auth/missing-key-401']) expect(verdictOf(outcome, id), id).toBe('pass')
    expect(verdictOf(outcome, 'createPet/returns-201-pet')).toBe('inconclusive')
    expect(mustPasses(outcome)).toBe(readmeClaim())
  })

  test('against a store of 3 pets: the default page and limit=100 are inconclusive, not pass; small limits are still decided', async () => {
    const target = await startTarget({ pets: 3 })
    const outcome = await runCli(['--base-url', target.baseUrl], WITH_KEY, { commandDefaults: true })
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0)
    expect(verdictOf(outcome, 'listPets/limit-default-20')).toBe('inconclusive')
    expect(verdictOf(outcome, 'listPets/limit-max-100')).toBe('inconclusive')
    expect(verdictOf(outcome, 'listPets/limit-caps-size')).toBe('pass')
    expect(outcome.stdout).toMatch(/INCONCLUSIVE +MUST +listPets\/limit-max-100\n +the store is known to hold 3 pets; 101 are needed/)
    const reasons = outcome.results?.requirements.find((result) => result.id === 'listPets/limit-default-20')?.reasons
    expect(reasons).toEqual(['the store is known to hold 3 pets; 21 are needed for the default page to be evidence', 'none of the 10 sequences could decide it on this target'])
  })

  test('against an empty store: exit 0, every data-dependent requirement inconclusive, nothing sent but safe methods', async () => {
    const target = await startTarget({ pets: 0 })
    const outcome = await runCli(['--base-url', target.baseUrl], WITH_KEY)
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0)
    for (const id of [...DATA_DEPENDENT, 'listPets/limit-caps-size']) expect(verdictOf(outcome, id), id).toBe('inconclusive')
    expect(target.requests.filter((request) => !SAFE_METHODS.has(request.method))).toEqual([])
    expect(target.store.size).toBe(0)
  })
})

describe('top-up seeding in the full profile', () => {
  test('the first run creates only the shortfall, named with the prefix; a second run seeds nothing', async () => {
    const target = await startTarget({ pets: 40 })
    const args = ['--base-url', target.baseUrl, '--profile', 'full', '--name-prefix', 'nightly-qa-']
    const first = await runCli(args, WITH_KEY)
    expect(first.code, first.stdout + first.stderr).toBe(0)
    expect(first.stdout).toMatch(/Profile: full \(chosen by configuration\); this run CREATES pets on the target/)
    const seeded = () => target.store.list({ limit: Number.POSITIVE_INFINITY }).filter((pet) => pet.name.includes('seed-'))
    expect(first.results?.seeding).toMatchObject({ knownBefore: 40, created: 61 })
    expect(seeded()).toHaveLength(61)
    for (const pet of seeded()) expect(pet.name.startsWith('nightly-qa-seed-')).toBe(true)

    const sizeBefore = target.store.size
    const postsBefore = target.requests.filter((request) => request.method === 'POST').length
    const second = await runCli(args, WITH_KEY)
    expect(second.code, second.stdout + second.stderr).toBe(0)
    expect(second.results?.seeding.created).toBe(0)
    expect(second.stdout).toMatch(/Seeding: the store already holds at least 1\d\d pets with every status; nothing seeded/)
    expect(seeded()).toHaveLength(61)
    // The store gained only what the second run's own create checks sent.
    const postsOfSecondRun = target.requests.filter((request) => request.method === 'POST').length - postsBefore
    expect(target.store.size - sizeBefore).toBeLessThanOrEqual(postsOfSecondRun)
  })
})

describe('writes a user can plan for', () => {
  test('a full run records and prints the pets it created, seeding and checks apart, and what the store now holds', async () => {
    const target = await startTarget({ pets: 10 })
    const outcome = await runCli(['--base-url', target.baseUrl, '--profile', 'full', '--seed', '5'], WITH_KEY)
    expect(outcome.code, outcome.stdout).toBe(0)
    const writes = outcome.results?.writes
    // Every POST the service's handler saw, and the edited ones its HTTP parser refused before any handler: counted as sent.
    const posts = target.requests.filter((request) => request.method === 'POST').length
    expect(writes?.requestsSent).toBeGreaterThanOrEqual(posts)
    expect(writes?.requestsSent).toBeLessThanOrEqual(posts + 5)
    // The store's own count: what the run created is what it holds beyond the ten it started with.
    expect((writes?.createdBySeeding ?? 0) + (writes?.createdByChecks ?? 0)).toBe(target.store.size - 10)
    expect(writes?.createdBySeeding).toBe(outcome.results?.seeding.created)
    expect(writes?.storeHoldsAtLeast).toBe(target.store.size)
    const line = /^Writes: \d+ pets created \(\d+ seeding the store, \d+ by the checks\) by \d+ requests that may create one; the store now holds at least \d+ pets$/m
    expect(outcome.stdout).toMatch(line)
    // The job summary says it in the same words.
    expect(readFileSync(join(outcome.reportDir, 'summary.md'), 'utf8').match(line)?.[0]).toBe(outcome.stdout.match(line)?.[0])
  })

  test('--max-creates bounds them: no more POSTs reach the target, and the checks that needed more are inconclusive, saying why, never failed', async () => {
    const target = await startTarget({ pets: 120 })
    const outcome = await runCli(['--base-url', target.baseUrl, '--profile', 'full', '--seed', '5', '--max-creates', '25'], WITH_KEY)
    expect(outcome.code, outcome.stdout).toBe(0)
    expect(target.requests.filter((request) => request.method !== 'GET').length).toBeLessThanOrEqual(25)
    expect(target.store.size).toBeLessThanOrEqual(120 + 25)
    expect(outcome.results?.writes).toMatchObject({ requestsSent: 25, maxCreates: 25 })
    expect(outcome.results?.writes?.requestsNotSent).toBeGreaterThan(0)
    const reasons = (outcome.results?.requirements ?? []).filter((result) => result.verdict === 'inconclusive').flatMap((result) => result.reasons)
    expect(reasons.join('\n')).toMatch(/the run's budget of 25 requests that may create a pet \(--max-creates\) is spent/)
    expect(outcome.stdout).toMatch(/the budget of 25 \(--max-creates\) was spent, \d+ requests not sent, the checks that needed them inconclusive/)
  })
})
