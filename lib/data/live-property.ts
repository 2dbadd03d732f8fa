/**
 * One runner for fast-check properties judged against a live target: the generated NewPet bodies and the
 * model-based sequences alike. The values of one seed are sent with bounded concurrency (`fc.sample`
 * yields exactly the values `fc.check` tries first); then, for a kind of failure seen, fast-check starts
 * again at the first value that showed it (its index is the first part of the path) and shrinks it to a
 * minimal counterexample, each candidate sent to the target one after the other. A value with a key is
 * sent once however often fast-check asks for it. Shrinking is bounded by a budget of requests and of
 * candidates (shrink-budget.ts), not by time, so for a seed and a target it ends on the same counterexample.
 * A counterexample replays from the seed and its path; a sequence's path also carries fast-check's replay
 * path of its commands (which of them ran), read from the commands value's own replay metadata.
 */
import fc from 'fast-check'
import { mapConcurrently } from '../http/concurrency.js'
import type { OperationExchange } from '../spec/petstore-api.js'
import { ShrinkBudget, type ShrinkLimits } from './shrink-budget.js'

/** What went wrong in one value, for one requirement. */
export interface CaseFailure {
  message: string
  expected?: string
  actual?: string
  exchange?: OperationExchange
}

/** What one value showed: at least the requirements it broke and the exchanges it sent, in order. */
export interface PropertyOutcome<K extends string> {
  failures: Partial<Record<K, CaseFailure>>
  exchanges: OperationExchange[]
}

export interface LivePropertyOptions<T, K extends string, O extends PropertyOutcome<K>> {
  /** A fresh arbitrary (fast-check's commands arbitrary keeps state while it shrinks); `replayPath` replays a shrunk sequence of commands. */
  arbitrary: (replayPath?: string) => fc.Arbitrary<T>
  seed: number
  numRuns: number
  /** Values sent at once; the HTTP client bounds the requests in flight anyway. */
  concurrency: number
  /** Identifies a value, so it is sent once however often fast-check asks for it; none: every run of a value is sent (a sequence). */
  key?: (value: T) => string
  evaluate: (value: T) => Promise<O>
  /** What a value sent while shrinking costs of the request budget (values answered from memory cost nothing). */
  cost: (outcome: O) => number
  /** A budget shared by every shrink of the property, or the limits of a budget of its own for each shrink. */
  shrinkBudget: ShrinkBudget | ShrinkLimits
  /** Called with the seed's values before any is sent (the sequences set their request caps there). */
  plan?: (values: readonly T[]) => void
}

export interface Shrunk<T, K extends string, O extends PropertyOutcome<K>> {
  value: T
  outcome: O
  failure: CaseFailure
  /** fast-check's path to the counterexample (with `@` and the commands' replay path for a sequence): with the seed, it replays exactly this value. */
  path: string
  shrinks: number
  /** True when the budget ran out (or the run stopped) before no smaller failing value was left. */
  budgetSpent: boolean
}

/** The replay path of fast-check's commands (which of them ran), from the value's own replay metadata; '' for any other value. */
export function commandsReplayPath(value: unknown): string {
  const metadata = (value as { metadataForReplay?: () => string } | null)?.metadataForReplay?.() ?? ''
  const prefix = 'replayPath='
  return metadata.startsWith(prefix) ? (JSON.parse(metadata.slice(prefix.length)) as string) : ''
}

/** `3:1:0@N:B` → fast-check's path and the commands' replay path. */
function parsePath(text: string): { path: string; replayPath: string | undefined } {
  const at = text.indexOf('@')
  return at < 0 ? { path: text, replayPath: undefined } : { path: text.slice(0, at), replayPath: text.slice(at + 1) || undefined }
}

export class LiveProperty<T, K extends string, O extends PropertyOutcome<K>> {
  private readonly memo = new Map<string, Promise<O>>()
  private readonly sent: OperationExchange[] = []
  private readonly sharedBudget: ShrinkBudget | undefined
  outcomes: O[] = []

  constructor(private readonly options: LivePropertyOptions<T, K, O>) {
    this.sharedBudget = options.shrinkBudget instanceof ShrinkBudget ? options.shrinkBudget : undefined
  }

  /** Every exchange any value sent, shrinking included. */
  get exchanges(): readonly OperationExchange[] {
    return this.sent
  }

  /** Requests and candidates the shared shrink budget has paid for so far. */
  get shrinkUse(): { requests: number; candidates: number } {
    return { requests: this.sharedBudget?.requests ?? 0, candidates: this.sharedBudget?.candidates ?? 0 }
  }

  /** True once the shared shrink budget is spent (or the run stopped): later shrinks try nothing. */
  get shrinkBudgetSpent(): boolean {
    return this.sharedBudget?.exhausted ?? false
  }

  private known(value: T): boolean {
    return this.options.key !== undefined && this.memo.has(this.options.key(value))
  }

  private outcomeOf(value: T): Promise<O> {
    const key = this.options.key?.(value)
    const remembered = key === undefined ? undefined : this.memo.get(key)
    if (remembered) return remembered
    const pending = this.options.evaluate(value).then((outcome) => {
      this.sent.push(...outcome.exchanges)
      return outcome
    })
    if (key !== undefined) this.memo.set(key, pending)
    return pending
  }

  /** One value's outcome, sent only if no value of its key was sent before (an experiment on a counterexample reuses what shrinking learnt). */
  evaluateOnce(value: T): Promise<O> {
    return this.outcomeOf(value)
  }

  /** Send the seed's values, at most `concurrency` at once. */
  async runAll(): Promise<O[]> {
    const values = fc.sample(this.options.arbitrary(), { seed: this.options.seed, numRuns: this.options.numRuns })
    this.options.plan?.(values)
    this.outcomes = await mapConcurrently(values, this.options.concurrency, (value) => this.outcomeOf(value))
    return this.outcomes
  }

  /** Shrink the first value that broke `kind` to a minimal one; undefined when none broke it. */
  async shrink(kind: K): Promise<Shrunk<T, K, O> | undefined> {
    const index = this.outcomes.findIndex((outcome) => outcome.failures[kind])
    if (index < 0) return undefined
    const budget = this.sharedBudget ?? new ShrinkBudget(this.options.shrinkBudget as ShrinkLimits)
    let lastFailing: { value: T; outcome: O } | undefined
    const details = await fc.check(
      fc.asyncProperty(this.options.arbitrary(), async (value) => {
        // Past the budget this throws fast-check's interruption: the shrink ends with the smallest failure found.
        await budget.enterCandidate()
        const fresh = !this.known(value)
        const outcome = await this.outcomeOf(value)
        if (fresh) budget.charge(this.options.cost(outcome))
        if (!outcome.failures[kind]) return true
        lastFailing = { value, outcome }
        return false
      }),
      { seed: this.options.seed, path: String(index), numRuns: this.options.numRuns },
    )
    const failure = lastFailing?.outcome.failures[kind]
    if (!details.failed || details.counterexample === null || !lastFailing || !failure) return undefined
    const replayPath = commandsReplayPath(lastFailing.value)
    const path = details.counterexamplePath ?? String(index)
    return {
      ...lastFailing,
      failure,
      path: replayPath ? `${path}@${replayPath}` : path,
      shrinks: details.numShrinks,
      budgetSpent: budget.spent,
    }
  }

  /** Send the one value a path names (as a failure reported it), once: what a replay command runs. */
  async replay(text: string): Promise<{ value: T; outcome: O }> {
    const { path, replayPath } = parsePath(text)
    let replayed: { value: T; outcome: O } | undefined
    await fc.check(
      fc.asyncProperty(this.options.arbitrary(replayPath), async (value) => {
        if (!replayed) replayed = { value, outcome: await this.outcomeOf(value) }
        return true
      }),
      { seed: this.options.seed, path, numRuns: this.options.numRuns, endOnFailure: true },
    )
    if (!replayed) throw new Error(`no generated value at path ${text} for seed ${this.options.seed}`)
    this.outcomes = [replayed.outcome]
    return replayed
  }
}
