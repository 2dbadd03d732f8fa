import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { LiveProperty, type PropertyOutcome } from '../../lib/data/live-property.js'
import { ShrinkBudget } from '../../lib/data/shrink-budget.js'
import type { OperationExchange } from '../../lib/spec/petstore-api.js'

/**
 * A toy system with one planted fault, so the runner is tested without HTTP: a counter that breaks when a
 * value above 50 is added after another add. Each command "sends" one request.
 */
type Kind = 'toy/no-big-second-add'
interface Toy {
  adds: number
}
/** Most candidates the toy's shrinks try together unless a test says otherwise (the suite's sequences use 400). */
const SHRINK_CANDIDATES = 400

interface ToyOutcome extends PropertyOutcome<Kind> {
  decided: Set<Kind>
  steps: string[]
}

interface Real {
  outcome: ToyOutcome
}

const request = () => ({}) as OperationExchange

class Add implements fc.AsyncCommand<Toy, Real> {
  constructor(
    readonly value: number,
    private readonly sends = true,
  ) {}
  check(): boolean {
    return true
  }
  async run(model: Toy, real: Real): Promise<void> {
    real.outcome.steps.push(this.toString())
    if (this.sends) real.outcome.exchanges.push(request())
    real.outcome.decided.add('toy/no-big-second-add')
    if (this.value > 50 && model.adds > 0) real.outcome.failures['toy/no-big-second-add'] ??= { message: `add(${this.value}) after ${model.adds} adds` }
    model.adds += 1
  }
  toString(): string {
    return `add(${this.value})`
  }
}

class Reset implements fc.AsyncCommand<Toy, Real> {
  check(model: Readonly<Toy>): boolean {
    return model.adds > 0
  }
  async run(model: Toy, real: Real): Promise<void> {
    real.outcome.steps.push(this.toString())
    real.outcome.exchanges.push(request())
    model.adds = 0
  }
  toString(): string {
    return 'reset'
  }
}

function toySequences(options: {
  seed: number
  sequences?: number
  shrinkBudget?: number
  addsSend?: boolean
  stop?: AbortSignal
  failOnlyFirst?: boolean
  shrinkCandidates?: number
}) {
  const runs: string[][] = []
  const count = options.sequences ?? 20
  const sequences = new LiveProperty<Iterable<fc.AsyncCommand<Toy, Real>>, Kind, ToyOutcome>({
    arbitrary: (replayPath) =>
      fc.commands([fc.integer({ min: 0, max: 100 }).map((value) => new Add(value, options.addsSend ?? true)), fc.constant(new Reset())], {
        maxCommands: 8,
        size: 'max',
        ...(replayPath !== undefined ? { replayPath } : {}),
      }),
    seed: options.seed,
    numRuns: count,
    concurrency: count,
    cost: (outcome) => outcome.exchanges.length,
    shrinkBudget: new ShrinkBudget({ requests: options.shrinkBudget ?? 10_000, candidates: options.shrinkCandidates ?? SHRINK_CANDIDATES, stop: options.stop }),
    evaluate: async (commands) => {
      const real: Real = { outcome: { decided: new Set(), failures: {}, exchanges: [], steps: [] } }
      await fc.asyncModelRun(() => ({ model: { adds: 0 }, real }), commands)
      // A racy target: only the first runs of a failing sequence show the fault, so every shrink candidate holds.
      if (options.failOnlyFirst && runs.length >= (options.sequences ?? 20) + 1) real.outcome.failures = {}
      runs.push(real.outcome.steps)
      return real.outcome
    },
  })
  return { sequences, runs }
}

describe('model-based sequences: run, shrink, replay', () => {
  test('the seed decides the sequences: two runs of one seed send the same commands, another seed others', async () => {
    const first = toySequences({ seed: 7 })
    const second = toySequences({ seed: 7 })
    const other = toySequences({ seed: 8 })
    await Promise.all([first.sequences.runAll(), second.sequences.runAll(), other.sequences.runAll()])
    expect(first.runs).toHaveLength(20)
    expect(second.runs).toEqual(first.runs)
    expect(other.runs).not.toEqual(first.runs)
  })

  test('a failing sequence shrinks to the minimal one: a small add, then the smallest value above 50', async () => {
    const { sequences } = toySequences({ seed: 7 })
    const outcomes = await sequences.runAll()
    expect(outcomes.some((outcome) => outcome.failures['toy/no-big-second-add'])).toBe(true)
    const shrunk = await sequences.shrink('toy/no-big-second-add')
    expect(shrunk?.outcome.steps).toEqual(['add(0)', 'add(51)'])
    expect(shrunk?.failure.message).toBe('add(51) after 1 adds')
    expect(shrunk?.budgetSpent).toBe(false)
    expect(shrunk?.path).toMatch(/^\d+(:\d+)*@[A-Za-z0-9+/]*:[A-Za-z0-9+/]*$/)
  })

  test('the shrunk path replays exactly that sequence, once', async () => {
    const { sequences } = toySequences({ seed: 7 })
    await sequences.runAll()
    const shrunk = await sequences.shrink('toy/no-big-second-add')
    const replaying = toySequences({ seed: 7 })
    const replayed = await replaying.sequences.replay(shrunk?.path ?? '')
    expect(replaying.runs).toEqual([['add(0)', 'add(51)']])
    expect(replayed.outcome.failures['toy/no-big-second-add']?.message).toBe('add(51) after 1 adds')
  })

  test('shrinking stops when its request budget is spent, and says so', async () => {
    const { sequences, runs } = toySequences({ seed: 7, shrinkBudget: 6 })
    await sequences.runAll()
    const before = runs.length
    const shrunk = await sequences.shrink('toy/no-big-second-add')
    expect(shrunk?.budgetSpent).toBe(true)
    const shrinkRequests = runs.slice(before).reduce((sum, steps) => sum + steps.length, 0)
    // The budget is checked before each re-run, so the last re-run may pass it by at most one sequence (8 commands).
    expect(shrinkRequests).toBeLessThan(6 + 8)
    expect(shrunk?.outcome.failures['toy/no-big-second-add']).toBeDefined()
  })

  test('a shrink whose candidates all hold ends at the budget, and the event loop gets its turns meanwhile', async () => {
    // The shape of a real stall: the fault showed once, then the budget ran out, and fast-check would walk the whole shrink tree in microtasks.
    const { sequences, runs } = toySequences({ seed: 7, shrinkBudget: 30, failOnlyFirst: true })
    await sequences.runAll()
    // Turns of the event loop counted, not time: a setImmediate that queues itself again runs once in every turn
    // the shrink gives back, and never while a shrink walks its tree in microtasks, however fast the machine is.
    let loopTurns = 0
    let counting = true
    const tick = () => {
      loopTurns += 1
      if (counting) setImmediate(tick)
    }
    setImmediate(tick)
    const before = runs.length
    try {
      await sequences.shrink('toy/no-big-second-add')
    } finally {
      counting = false
    }
    expect(sequences.shrinkUse.requests).toBeLessThan(30 + 8)
    expect(runs.length - before).toBe(sequences.shrinkUse.candidates)
    expect(loopTurns).toBeGreaterThanOrEqual(sequences.shrinkUse.candidates)
  })

  test('candidates that send nothing are bounded too, by the number of candidates', async () => {
    const { sequences, runs } = toySequences({ seed: 7, addsSend: false, failOnlyFirst: true, shrinkCandidates: 5 })
    await sequences.runAll()
    const before = runs.length
    await sequences.shrink('toy/no-big-second-add')
    expect(sequences.shrinkUse.candidates).toBe(5)
    // Far under the request budget (10,000): only the number of candidates ended it.
    expect(sequences.shrinkUse.requests).toBeLessThan(10)
    expect(runs.length - before).toBe(5)
    expect(sequences.shrinkBudgetSpent).toBe(true)
    expect(SHRINK_CANDIDATES).toBeGreaterThan(5)
  })

  test('once the run stops (deadline or cancel), a shrink tries nothing', async () => {
    const stop = new AbortController()
    const { sequences, runs } = toySequences({ seed: 7, stop: stop.signal })
    await sequences.runAll()
    stop.abort()
    const before = runs.length
    expect(await sequences.shrink('toy/no-big-second-add')).toBeUndefined()
    expect(runs.length).toBe(before)
  })

  test('a kind no sequence broke has nothing to shrink', async () => {
    const { sequences } = toySequences({ seed: 7 })
    await sequences.runAll()
    expect(await sequences.shrink('toy/never' as Kind)).toBeUndefined()
  })
})
