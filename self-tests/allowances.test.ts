/**
 * The allowances: every one the policy grants has an operator or is a listed gap, every operator is mapped from a
 * grant and cites its source, combinations are drawn as the score promises, and docs/allowances.md is what they render.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { requirement } from '../lib/spec/catalogue.js'
import { packageRoot } from '../lib/spec/package-root.js'
import { combinationName, compatible, lookAlikeOf } from '../variants/allowances/allowance.js'
import { renderAllowancesDoc } from '../variants/allowances/allowances-doc.js'
import { coveringCombinations, drawCombinations, FULL_DRAW, lookAlikeNamed } from '../variants/allowances/combinations.js'
import { allowances } from '../variants/allowances/index.js'
import { POLICY_GRANTS } from '../variants/allowances/policy-grants.js'

const ids = allowances.map((allowance) => allowance.id)

describe('every allowance of the policy is an operator on the reference, or a listed gap', () => {
  test('every operator a grant names exists, every operator is named by a grant, and a grant without one says why', () => {
    const named = new Set(POLICY_GRANTS.flatMap((grant) => grant.operators))
    expect([...named].filter((id) => !ids.includes(id))).toEqual([])
    expect(ids.filter((id) => !named.has(id))).toEqual([])
    for (const grant of POLICY_GRANTS) expect(grant.operators.length > 0 || (grant.gap ?? '').length > 20, `${grant.row}: ${grant.grants}`).toBe(true)
  })

  test('operator ids are unique and kebab-case; each may warn only on SHOULD requirements, never a MUST', () => {
    expect(new Set(ids).size).toBe(ids.length)
    for (const allowance of allowances) {
      expect(allowance.id).toMatch(/^[a-z0-9^-]+$/)
      for (const id of allowance.warns ?? []) expect(requirement(id).level, `${allowance.id}: ${id}`).toBe('SHOULD')
    }
  })

  // The policy sits beside the project in its repository (../shared).
  const policyFile = join(packageRoot, '..', 'shared', 'CONFORMANCE-POLICY.md')
  test.runIf(existsSync(policyFile))('each operator that cites the policy cites words the policy has', () => {
    const policy = readFileSync(policyFile, 'utf8')
    for (const allowance of allowances) if ('policy' in allowance.source) expect(policy, allowance.id).toContain(allowance.source.policy)
  })

  test('docs/allowances.md is what the allowances render (run npm run requirements-doc after changing them)', () => {
    expect(readFileSync(join(packageRoot, 'docs', 'allowances.md'), 'utf8')).toBe(renderAllowancesDoc())
  })
})

describe('look-alikes are drawn as combinations of allowances', () => {
  test('the full draw: every allowance alone, then pairs and triples, over 200 in all, none twice, none with two of one group', () => {
    const drawn = drawCombinations(1, FULL_DRAW)
    expect(drawn.length).toBeGreaterThanOrEqual(200)
    expect(drawn.filter((set) => set.length === 1).length).toBe(allowances.length)
    expect(drawn.filter((set) => set.length === 2).length).toBe(FULL_DRAW.pairs)
    expect(drawn.filter((set) => set.length === 3).length).toBe(FULL_DRAW.triples)
    const names = drawn.map(combinationName)
    expect(new Set(names).size).toBe(names.length)
    for (const set of drawn)
      for (const [index, allowance] of set.entries()) for (const other of set.slice(index + 1)) expect(compatible(allowance, other), combinationName(set)).toBe(true)
    // Every allowance takes part in some pair.
    expect(
      new Set(
        drawn
          .filter((set) => set.length === 2)
          .flat()
          .map((allowance) => allowance.id),
      ),
    ).toEqual(new Set(ids))
  })

  test('another seed draws other pairs and triples, and the same seed the same', () => {
    const pairs = (seed: number) => drawCombinations(seed, { singles: false, pairs: 40, triples: 10 }).map(combinationName)
    expect(pairs(1)).toEqual(pairs(1))
    expect(pairs(2)).not.toEqual(pairs(1))
  })

  test('npm test’s sample holds every allowance exactly once, and differs with the seed', () => {
    const sample = coveringCombinations(424242, 5)
    expect(
      sample
        .flat()
        .map((allowance) => allowance.id)
        .sort(),
    ).toEqual([...ids].sort())
    expect(coveringCombinations(7, 5).map(combinationName)).not.toEqual(sample.map(combinationName))
  })

  test('a combination is named by its allowances in layer order, and its name gives it back', () => {
    const set = [allowances.find((allowance) => allowance.id === 'edge-html-404-outside-base'), allowances.find((allowance) => allowance.id === 'ids-negative')]
    const name = combinationName(set as never)
    expect(name).toBe('ids-negative+edge-html-404-outside-base')
    expect(lookAlikeNamed(name)?.name).toBe(name)
    expect(lookAlikeNamed('ids-negative+ids-sparse')).toBeUndefined()
    expect(() => lookAlikeOf(allowances.filter((allowance) => allowance.group === 'ids'))).toThrow(/decide the same thing/)
  })
})
