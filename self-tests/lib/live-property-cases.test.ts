import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { LiveProperty, type PropertyOutcome } from '../../lib/data/live-property.js'

type CaseOutcome<K extends string> = PropertyOutcome<K> & { decided: K[]; sent: string }

type Kind = 'small'

/** A stand-in for a target: integers above 1000 "fail"; every call is counted, and at most `inFlight` run at once. */
function property(seed: number, shrinkBudget = 500, max = 100_000) {
  const calls: number[] = []
  let inFlight = 0
  let peak = 0
  const arbitrary = fc.integer({ min: 0, max })
  const cases = new LiveProperty<number, Kind, CaseOutcome<Kind>>({
    arbitrary: () => arbitrary,
    seed,
    numRuns: 40,
    concurrency: 4,
    key: String,
    cost: () => 1,
    shrinkBudget: { requests: shrinkBudget, candidates: 300 },
    evaluate: async (value): Promise<CaseOutcome<Kind>> => {
      calls.push(value)
      inFlight += 1
      peak = Math.max(peak, inFlight)
      await new Promise((resolve) => setImmediate(resolve))
      inFlight -= 1
      return { decided: ['small'], failures: value > 1000 ? { small: { message: `${value} is over 1000` } } : {}, exchanges: [], sent: String(value) }
    },
  })
  return { cases, calls, peak: () => peak }
}

describe('generated cases: sent concurrently, shrunk one at a time, replayed by path', () => {
  test('the cases of a seed go out with at most `concurrency` in flight, each value once', async () => {
    const { cases, calls, peak } = property(7)
    const outcomes = await cases.runAll()
    expect(outcomes).toHaveLength(40)
    expect(peak()).toBe(4)
    expect(new Set(calls).size).toBe(calls.length)
  })

  test('shrinking starts from the cases already sent (none is sent twice) and ends on the minimal failure', async () => {
    const { cases, calls } = property(7)
    await cases.runAll()
    const sentBefore = calls.length
    const shrunk = await cases.shrink('small')
    expect(shrunk?.value).toBe(1001)
    expect(shrunk?.budgetSpent).toBe(false)
    expect(new Set(calls).size).toBe(calls.length)
    expect(calls.length - sentBefore).toBeLessThan(100)
  })

  test('the same seed gives the same counterexample and path; the path replays exactly that case', async () => {
    const first = property(11)
    const second = property(11)
    await Promise.all([first.cases.runAll(), second.cases.runAll()])
    const [a, b] = await Promise.all([first.cases.shrink('small'), second.cases.shrink('small')])
    expect(b?.path).toBe(a?.path)
    const replayer = property(11)
    const replayed = await replayer.cases.replay(a?.path ?? '')
    expect(replayed.value).toBe(1001)
    expect(replayer.calls).toEqual([1001])
  })

  test('the shrink budget bounds the cases sent while shrinking; the best failure found so far is kept', async () => {
    const { cases, calls } = property(7, 3)
    await cases.runAll()
    const sentBefore = calls.length
    const shrunk = await cases.shrink('small')
    expect(calls.length - sentBefore).toBe(3)
    expect(shrunk?.budgetSpent).toBe(true)
    expect(shrunk?.value).toBeGreaterThan(1000)
  })

  test('no failure of a kind: nothing to shrink, nothing more sent', async () => {
    const { cases, calls } = property(7, 500, 1000)
    await cases.runAll()
    const sentBefore = calls.length
    expect(await cases.shrink('small')).toBeUndefined()
    expect(calls.length).toBe(sentBefore)
  })
})
