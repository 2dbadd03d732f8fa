/**
 * Every expectation names its source and takes its level: each judgement the edit oracle gives (walked over every
 * edit of a full run's plan, one value of every class), each answer it allows beside one, each finding the edited answers and the
 * invariants charge, cites a policy row, the spec or an RFC section (lib/spec/rule-sources.ts), and is charged to a
 * requirement of that source's level, never above it. A source that cites a policy row names a row the policy has.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { EDIT_FINDING_SOURCES } from '../../lib/checks/edited-answers.js'
import { EVERY_EXCHANGE_SOURCES } from '../../lib/checks/incidental-checks.js'
import { type Expectation, expectationOf } from '../../lib/neighbourhood/edit-oracle.js'
import { planEdits } from '../../lib/neighbourhood/edit-plan.js'
import { loadJsonCorpus } from '../../lib/neighbourhood/json-corpus.js'
import { readEdited } from '../../lib/neighbourhood/request-reading.js'
import { catalogue, type RequirementId } from '../../lib/spec/catalogue.js'
import { packageRoot } from '../../lib/spec/package-root.js'
import { wireOf } from '../../lib/spec/request-model.js'
import { RULE_SOURCES, type RuleSourceId } from '../../lib/spec/rule-sources.js'
import { PLAIN_KEY, testPlains } from '../helpers/plains.js'

const KEY = PLAIN_KEY

/** Every expectation of every edit a full run plans (one value of every class), with the key and without, on every operation. */
function everyExpectation(): Expectation[] {
  const plains = testPlains()
  const { edits } = planEdits(plains, { seed: 1, every: false, writes: true })
  return edits.map((edit) => {
    const read = readEdited(wireOf(edit.plain.model), wireOf(edit.model, edit.bodyOctets), KEY)
    return expectationOf(read.plain, read.edited, edit, { apiKey: KEY, baseSegments: ['v1'] })
  })
}

const levelOfRequirement = (id: RequirementId) => catalogue[id].level
const isSource = (source: string): source is RuleSourceId => Object.hasOwn(RULE_SOURCES, source)

let expectations: Expectation[] = []
beforeAll(async () => {
  await loadJsonCorpus()
  expectations = everyExpectation()
})

describe('every expectation names its source and takes its level', () => {
  test('each judgement of the oracle, over every edit of a full plan (one value of every class), cites a source; one charged to a requirement is charged at its source’s level', () => {
    expect(expectations.length).toBeGreaterThan(1_500)
    const wrong: string[] = []
    for (const { judgement } of expectations) {
      if (!isSource(judgement.source)) wrong.push(`${judgement.kind} (${judgement.why}): no source`)
      else if ('requirementId' in judgement && levelOfRequirement(judgement.requirementId) !== RULE_SOURCES[judgement.source].level)
        wrong.push(
          `${judgement.kind} charged to ${judgement.requirementId} (${levelOfRequirement(judgement.requirementId)}) from ${judgement.source} (${RULE_SOURCES[judgement.source].level})`,
        )
    }
    expect([...new Set(wrong)]).toEqual([])
    // The walk reaches every kind of judgement the oracle gives.
    expect(new Set(expectations.map((expectation) => expectation.judgement.kind))).toEqual(
      new Set(['plain answer', 'head', 'refused', 'no access', 'pet', 'lenient pet', 'list', 'created', 'created or refused', 'recorded', 'invariants']),
    )
  })

  test('each answer allowed beside a judgement cites a source; one that warns, warns a SHOULD requirement from a SHOULD source', () => {
    const allowed = expectations.flatMap((expectation) => expectation.allowed)
    expect(new Set(allowed.map((answer) => answer.status))).toEqual(new Set([401, 406, 413]))
    // A refusal of what an operation does not take (a query on the create) passes as any 4xx: a source that decides nothing.
    const refusable = expectations.flatMap((expectation) => (expectation.refusable ? [expectation.refusable] : []))
    expect(refusable.length).toBeGreaterThan(0)
    for (const refusal of refusable) expect(RULE_SOURCES[refusal.source].level, refusal.why).toBe('INFO')
    for (const answer of allowed) {
      expect(isSource(answer.source), answer.why).toBe(true)
      if (answer.warns) {
        expect(levelOfRequirement(answer.warns), answer.why).toBe('SHOULD')
        expect(RULE_SOURCES[answer.source].level, answer.why).toBe('SHOULD')
      } else expect(RULE_SOURCES[answer.source].level, answer.why).toBe('INFO')
    }
  })

  test('each requirement the edited answers and the invariants of every exchange charge has a source of its own level', () => {
    for (const [id, source] of Object.entries({ ...EDIT_FINDING_SOURCES, ...EVERY_EXCHANGE_SOURCES }) as Array<[RequirementId, RuleSourceId]>)
      expect(`${id}: ${levelOfRequirement(id)}`).toBe(`${id}: ${RULE_SOURCES[source].level}`)
  })

  test('a source without a policy row is SHOULD at most', () => {
    for (const [name, source] of Object.entries(RULE_SOURCES)) if (!/policy §2/.test(source.cites) && !/^spec /.test(source.cites)) expect(source.level, name).not.toBe('MUST')
  })

  // The policy sits beside the project in its repository (../shared); a packed copy has none, and then there is nothing to hold the names to.
  const policyFile = join(packageRoot, '..', 'shared', 'CONFORMANCE-POLICY.md')
  test.runIf(existsSync(policyFile))('a policy row a source cites is a row of the policy', () => {
    const policy = readFileSync(policyFile, 'utf8')
    const rows = new Set(
      policy
        .split('\n')
        .filter((line) => line.startsWith('| '))
        .map((line) => line.split('|')[1]?.trim() ?? ''),
    )
    for (const [name, source] of Object.entries(RULE_SOURCES)) {
      for (const [, cited] of source.cites.matchAll(/policy §2 \(([^)]*)\)/g)) {
        const row = (cited as string).split(':')[0]?.trim() ?? ''
        expect(
          [...rows].some((topic) => topic.startsWith(row)),
          `${name} cites the row "${row}"`,
        ).toBe(true)
      }
    }
  })
})
