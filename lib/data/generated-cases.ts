/**
 * Generated cases against a live target, fast and reproducible. The cases of one seed are sent with
 * bounded concurrency (fc.sample yields exactly the values fc.check will try first); then, for each kind
 * of failure seen, fast-check replays the same seed with a predicate that fails on that kind only and
 * shrinks to a minimal counterexample. Cases already sent are answered from memory, so only shrink steps
 * reach the target, one after the other. Shrinking is bounded by a number of new cases, not by time, so
 * for a given seed and target it always ends on the same counterexample.
 */
import fc from 'fast-check'
import { mapConcurrently } from '../http/concurrency.js'
import type { OperationExchange } from '../spec/petstore-api.js'
import { ShrinkBudget } from './shrink-budget.js'

/** What went wrong in one case, for one requirement. */
export interface CaseFailure {
  message: string
  expected?: string
  actual?: string
  exchange?: OperationExchange
}

/** What one generated case showed: the requirements it could decide, and those it broke. */
export interface CaseOutcome<K extends string> {
  decided: K[]
  failures: Partial<Record<K, CaseFailure>>
  exchanges: OperationExchange[]
  /** The exact request body sent, for the report. */
  sent: string
}

export interface GeneratedProperty<T, K extends string> {
  arbitrary: fc.Arbitrary<T>
  seed: number
  numRuns: number
  concurrency: number
  /** Identifies a value, so a case is sent once however often fast-check asks for it. */
  key: (value: T) => string
  evaluate: (value: T) => Promise<CaseOutcome<K>>
  /** Most new cases one shrink may send; the smallest counterexample found by then is reported. */
  shrinkBudget: number
  /** The run's stop (deadline or cancel): no shrink candidate is tried once it is aborted. */
  stop?: AbortSignal | undefined
}

/** Most candidates one shrink tries, sent or answered from memory. */
export const SHRINK_CANDIDATES_PER_PROPERTY = 300

export interface ShrunkFailure<K extends string> {
  value: unknown
  outcome: CaseOutcome<K>
  failure: CaseFailure
  /** fast-check's path to the counterexample: with the seed, it replays exactly this case. */
  path: string
  shrinks: number
  /** True when the shrink budget ran out before no smaller failing case was left. */
  budgetSpent: boolean
}

export class GeneratedCases<T, K extends string> {
  private readonly memo = new Map<string, Promise<CaseOutcome<K>>>()
  private readonly sentExchanges: OperationExchange[] = []
  /** Cases sent so far (each distinct value once). */
  private evaluations = 0
  outcomes: CaseOutcome<K>[] = []

  constructor(private readonly property: GeneratedProperty<T, K>) {}

  /** Every exchange any case sent, shrinking included. */
  get exchanges(): readonly OperationExchange[] {
    return this.sentExchanges
  }

  private outcomeOf(value: T): Promise<CaseOutcome<K>> {
    const key = this.property.key(value)
    let pending = this.memo.get(key)
    if (!pending) {
      this.evaluations += 1
      pending = this.property.evaluate(value).then((outcome) => {
        this.sentExchanges.push(...outcome.exchanges)
        return outcome
      })
      this.memo.set(key, pending)
    }
    return pending
  }

  /** Send the seed's cases, at most `concurrency` at once. */
  async runAll(): Promise<CaseOutcome<K>[]> {
    const values = fc.sample(this.property.arbitrary, { seed: this.property.seed, numRuns: this.property.numRuns })
    this.outcomes = await mapConcurrently(values, this.property.concurrency, (value) => this.outcomeOf(value))
    return this.outcomes
  }

  /** Shrink to a minimal case that breaks `kind`; undefined when no case of the run broke it. */
  async shrink(kind: K): Promise<ShrunkFailure<K> | undefined> {
    if (!this.outcomes.some((outcome) => outcome.failures[kind])) return undefined
    const budget = new ShrinkBudget({ requests: this.property.shrinkBudget, candidates: SHRINK_CANDIDATES_PER_PROPERTY, stop: this.property.stop })
    const details = await fc.check(
      fc.asyncProperty(this.property.arbitrary, async (value) => {
        // Past the budget this throws fast-check's interruption: the shrink ends with the smallest counterexample found.
        await budget.enterCandidate()
        // Budgeted in cases sent: one answered from memory sends nothing.
        if (!this.memo.has(this.property.key(value))) budget.charge(1)
        return (await this.outcomeOf(value)).failures[kind] === undefined
      }),
      { seed: this.property.seed, numRuns: this.property.numRuns },
    )
    if (!details.failed || details.counterexample === null) return undefined
    const [value] = details.counterexample
    const outcome = await this.outcomeOf(value)
    const failure = outcome.failures[kind]
    if (!failure) return undefined
    return { value, outcome, failure, path: details.counterexamplePath ?? '', shrinks: details.numShrinks, budgetSpent: budget.spent }
  }

  /** The one case at `path` of the seed, sent once: what a replay command runs. */
  async replay(path: string): Promise<{ value: T; outcome: CaseOutcome<K> }> {
    const [value] = fc.sample(this.property.arbitrary, { seed: this.property.seed, path, numRuns: 1 })
    if (value === undefined) throw new Error(`no generated case at path ${path} for seed ${this.property.seed}`)
    const outcome = await this.outcomeOf(value)
    this.outcomes = [outcome]
    return { value, outcome }
  }
}
