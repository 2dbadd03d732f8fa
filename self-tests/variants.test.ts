import { describe, expect, test } from 'vitest'
import type { RunResult } from '../lib/reports/run-result.js'
import { requirement, requirements } from '../lib/spec/catalogue.js'
import { scoreFault, scoreLookAlike, summariseScores } from '../mutation-score/score.js'
import { faults } from '../variants/faults/index.js'
import { lookAlikes } from '../variants/look-alikes.js'
import type { Variant } from '../variants/variant.js'

describe('the catalogue of faults and look-alikes', () => {
  test('at least 50 faults and 12 conformant look-alikes, every name unique', () => {
    expect(faults.length).toBeGreaterThanOrEqual(50)
    expect(lookAlikes.length).toBeGreaterThanOrEqual(12)
    const names = [...faults, ...lookAlikes].map((variant) => variant.name)
    expect(new Set(names).size).toBe(names.length)
  })

  test('every fault declares the requirements that must catch it, and every MUST and SHOULD requirement has a fault', () => {
    for (const fault of faults) expect(fault.catches?.length, fault.name).toBeGreaterThan(0)
    const covered = new Set(faults.flatMap((fault) => fault.catches ?? []))
    const uncovered = requirements.filter((req) => req.testable && req.level !== 'INFO' && !covered.has(req.id)).map((req) => req.id)
    expect(uncovered).toEqual([])
  })

  test('look-alikes declare no catches, and may warn only on SHOULD requirements', () => {
    for (const lookAlike of lookAlikes) {
      expect(lookAlike.catches, lookAlike.name).toBeUndefined()
      for (const id of lookAlike.allowedWarnings ?? []) expect(requirement(id).level, `${lookAlike.name}: ${id}`).toBe('SHOULD')
    }
  })
})

/** A run result with the given verdicts; every other requirement passes. */
function runWith(verdicts: Record<string, 'fail' | 'warn'>): RunResult {
  return { requirements: requirements.map((req) => ({ id: req.id, verdict: verdicts[req.id] ?? 'pass' })) } as unknown as RunResult
}

const fault: Variant = { name: 'f', description: 'd', catches: ['listPets/limit-default-20', 'listPets/limit-fills-page'], wrap: (handler) => handler }
const lookAlike: Variant = { name: 'l', description: 'd', allowedWarnings: ['listPets/limit-out-of-range-400'], wrap: (handler) => handler }

describe('how a run against a variant is scored', () => {
  test('a fault is caught only by a failure (or SHOULD warning) of a requirement it declares', () => {
    expect(scoreFault(fault, runWith({ 'listPets/limit-default-20': 'fail' }), 1, 0)).toMatchObject({ ok: true, requirements: ['listPets/limit-default-20'] })
    expect(scoreFault(fault, runWith({ 'listPets/limit-fills-page': 'warn' }), 0, 0)).toMatchObject({ ok: true, requirements: ['listPets/limit-fills-page'] })
    expect(scoreFault(fault, runWith({ 'auth/missing-key-401': 'fail' }), 1, 0)).toMatchObject({ ok: false })
    expect(scoreFault(fault, runWith({}), 0, 0)).toMatchObject({ ok: false })
  })

  test('a falsely failed look-alike says its first failure and the exchange behind it, for a soak to print', () => {
    const run = runWith({ 'listPets/returns-pets': 'fail' })
    const failed = run.requirements.find((result) => result.id === 'listPets/returns-pets') as { failures?: unknown[] }
    failed.failures = [{ message: 'GET /pets answered 429 four times', evidence: [{ request: { method: 'GET', url: 'http://h/v1/pets' }, response: { status: 429 } }] }]
    expect(scoreLookAlike(lookAlike, run, 1, 0).firstFailure).toBe('GET /pets answered 429 four times [GET http://h/v1/pets → 429]')
  })

  test('a fault whose run ended in a harness error is not counted as caught', () => {
    expect(scoreFault(fault, runWith({ 'listPets/limit-default-20': 'fail' }), 3, 0)).toMatchObject({ ok: false, note: 'the run ended with exit code 3' })
    expect(scoreFault(fault, undefined, 2, 0)).toMatchObject({ ok: false })
  })

  test('a look-alike passes with exit 0 and at most the warnings it declares; anything else is a false failure', () => {
    expect(scoreLookAlike(lookAlike, runWith({}), 0, 0)).toMatchObject({ ok: true })
    expect(scoreLookAlike(lookAlike, runWith({ 'listPets/limit-out-of-range-400': 'warn' }), 0, 0)).toMatchObject({ ok: true })
    expect(scoreLookAlike(lookAlike, runWith({ 'auth/www-authenticate': 'warn' }), 0, 0)).toMatchObject({ ok: false, requirements: ['auth/www-authenticate'] })
    expect(scoreLookAlike(lookAlike, runWith({ 'listPets/returns-pets': 'fail' }), 1, 0)).toMatchObject({ ok: false })
    expect(scoreLookAlike(lookAlike, runWith({}), 3, 0)).toMatchObject({ ok: false })
  })

  test('the score counts caught faults and falsely failed look-alikes', () => {
    const scores = [scoreFault(fault, runWith({ 'listPets/limit-default-20': 'fail' }), 1, 0), scoreFault(fault, runWith({}), 0, 0), scoreLookAlike(lookAlike, runWith({}), 1, 0)]
    expect(summariseScores(scores)).toEqual({ faults: 2, caught: 1, lookAlikes: 1, falseFailures: 1 })
  })
})
