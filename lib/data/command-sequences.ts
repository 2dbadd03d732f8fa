/**
 * Model-based sequences against a live target (fast-check's `fc.commands` run by `fc.asyncModelRun`), fast,
 * bounded and reproducible. The sequences of one seed run all at once (`fc.sample` yields exactly the values
 * `fc.check` tries first); the commands within one sequence run one after another. For a kind of failure
 * seen, fast-check starts again at the first sequence that showed it (its index is the first part of the
 * path) and shrinks it to a minimal sequence, re-running each candidate against the target; shrinking is
 * bounded by a number of requests, not by time, and stops when they are spent. A shrunk sequence replays
 * from the seed, its path and the replay path of `fc.commands` (which of its commands ran).
 */
import fc from 'fast-check'
import type { OperationExchange } from '../spec/petstore-api.js'
import type { CaseFailure } from './generated-cases.js'
import { ShrinkBudget } from './shrink-budget.js'

/** What one sequence showed: the requirements it could decide, those it broke, and what it sent, in order. */
export interface SequenceOutcome<K extends string> {
  decided: Set<K>
  failures: Partial<Record<K, CaseFailure>>
  exchanges: OperationExchange[]
  /** The commands that ran, in words, in order. */
  steps: string[]
  /** What the sequence saw that is worth a line in a requirement's report but decides nothing (a status that changed between reads). */
  notes: Array<{ requirement: K; text: string }>
}

export interface SequenceProperty<C, K extends string> {
  /** A fresh arbitrary of command sequences (fast-check's commands arbitrary keeps state while it shrinks). */
  commands: (replayPath?: string) => fc.Arbitrary<Iterable<C>>
  seed: number
  sequences: number
  run: (commands: Iterable<C>) => Promise<SequenceOutcome<K>>
  /** Most requests all shrinks together may send; the smallest failing sequence found by then is reported. */
  shrinkBudget: number
  /** Most candidates all shrinks together may try (default SHRINK_CANDIDATES). */
  shrinkCandidates?: number
  /** The run's stop (deadline or cancel): no shrink candidate is tried once it is aborted. */
  stop?: AbortSignal | undefined
}

/** Most shrink candidates all shrinks of a run try together, sent or not (a candidate whose commands all fail their preconditions sends nothing). */
export const SHRINK_CANDIDATES = 400

export interface ShrunkSequence<K extends string> {
  outcome: SequenceOutcome<K>
  failure: CaseFailure
  /** fast-check's path to the sequence, then `@` and the replay path of its commands. */
  path: string
  shrinks: number
  /** True when the budget ran out before no smaller failing sequence was left. */
  budgetSpent: boolean
}

/** `3:1:0@N:B`: fast-check's path, and which commands of each shrink step ran. */
export function sequencePath(path: string, replayPath: string): string {
  return `${path}@${replayPath}`
}

function parseSequencePath(text: string): { path: string; replayPath: string } {
  const at = text.indexOf('@')
  return at < 0 ? { path: text, replayPath: '' } : { path: text.slice(0, at), replayPath: text.slice(at + 1) }
}

/** The replay path fast-check writes into a commands value's description. */
function replayPathOf(commands: unknown): string {
  return /replayPath="([^"]*)"/.exec(String(commands))?.[1] ?? ''
}

export class CommandSequences<C, K extends string> {
  private readonly sent: OperationExchange[] = []
  private readonly budget: ShrinkBudget
  outcomes: SequenceOutcome<K>[] = []

  constructor(private readonly property: SequenceProperty<C, K>) {
    this.budget = new ShrinkBudget({ requests: property.shrinkBudget, candidates: property.shrinkCandidates ?? SHRINK_CANDIDATES, stop: property.stop })
  }

  /** True once shrinking has used its whole budget: later shrinks of the run try nothing. */
  get shrinkBudgetSpent(): boolean {
    return this.budget.exhausted
  }

  /** Requests and candidates all shrinks of the run used so far. */
  get shrinkUse(): { requests: number; candidates: number } {
    return { requests: this.budget.requests, candidates: this.budget.candidates }
  }

  /** Every exchange any sequence sent, shrinking included. */
  get exchanges(): readonly OperationExchange[] {
    return this.sent
  }

  private async runOne(commands: Iterable<C>): Promise<SequenceOutcome<K>> {
    const outcome = await this.property.run(commands)
    this.sent.push(...outcome.exchanges)
    return outcome
  }

  /** Run the seed's sequences, all at once (the HTTP client bounds the requests in flight). */
  async runAll(): Promise<SequenceOutcome<K>[]> {
    const values = fc.sample(this.property.commands(), { seed: this.property.seed, numRuns: this.property.sequences })
    this.outcomes = await Promise.all(values.map((commands) => this.runOne(commands)))
    return this.outcomes
  }

  /** Shrink the first sequence that broke `kind` to a minimal one; undefined when none broke it. */
  async shrink(kind: K): Promise<ShrunkSequence<K> | undefined> {
    const index = this.outcomes.findIndex((outcome) => outcome.failures[kind])
    if (index < 0) return undefined
    let lastFailing: SequenceOutcome<K> | undefined
    const details = await fc.check(
      fc.asyncProperty(this.property.commands(), async (commands) => {
        // Past the budget this throws fast-check's interruption: the shrink ends with the smallest failure found.
        await this.budget.enterCandidate()
        const outcome = await this.runOne(commands)
        this.budget.charge(outcome.exchanges.length)
        if (!outcome.failures[kind]) return true
        lastFailing = outcome
        return false
      }),
      { seed: this.property.seed, path: String(index), numRuns: this.property.sequences },
    )
    const failure = lastFailing?.failures[kind]
    if (!details.failed || details.counterexample === null || !lastFailing || !failure) return undefined
    return {
      outcome: lastFailing,
      failure,
      path: sequencePath(details.counterexamplePath ?? String(index), replayPathOf(details.counterexample[0])),
      shrinks: details.numShrinks,
      budgetSpent: this.budget.spent,
    }
  }

  /** Run the one sequence a replay path names (as a failure reported it), once. */
  async replay(text: string): Promise<SequenceOutcome<K>> {
    const { path, replayPath } = parseSequencePath(text)
    let replayed: SequenceOutcome<K> | undefined
    await fc.check(
      fc.asyncProperty(this.property.commands(replayPath || undefined), async (commands) => {
        if (replayed) return true
        replayed = await this.runOne(commands)
        return true
      }),
      { seed: this.property.seed, path, numRuns: this.property.sequences, endOnFailure: true },
    )
    if (!replayed) throw new Error(`no sequence at path ${text} for seed ${this.property.seed}`)
    this.outcomes = [replayed]
    return replayed
  }
}
