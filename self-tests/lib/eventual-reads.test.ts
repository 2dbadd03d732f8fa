import { describe, expect, test } from 'vitest'
import { lagReport } from '../../lib/checks/consistency.js'
import { backoffSchedule, LagLog, MAX_READS, readWithinWindow, windowWords } from '../../lib/data/eventual-reads.js'
import { KnownPets } from '../../lib/data/known-pets.js'
import type { OperationExchange } from '../../lib/spec/petstore-api.js'

/** Waits between reads that take no time: what is counted does not depend on how long the waits are. */
const noWait = async () => {}

/** A read that finds the pet from its `foundFrom`-th call on (1-based); never, when undefined. */
function readsFinding(foundFrom: number | undefined) {
  let calls = 0
  const read = async () => {
    calls += 1
    return { id: calls, response: { status: foundFrom !== undefined && calls >= foundFrom ? 200 : 404 } } as unknown as OperationExchange
  }
  return { read, found: (exchange: OperationExchange) => exchange.response?.status === 200, calls: () => calls }
}

describe('reads of created pets within the consistency window (policy §2, consistency)', () => {
  test('the waits double from 100 ms, stay within the window and never exceed the bounded number of reads', () => {
    expect(backoffSchedule(5_000)).toEqual([100, 200, 400, 800, 1600, 1900])
    expect(backoffSchedule(0)).toEqual([])
    expect(backoffSchedule(250)).toEqual([100, 150])
    for (const window of [1, 999, 60_000, 600_000]) {
      const waits = backoffSchedule(window)
      expect(waits.reduce((sum, wait) => sum + wait, 0)).toBeLessThanOrEqual(window)
      expect(waits.length).toBeLessThanOrEqual(MAX_READS - 1)
    }
  })

  test('the window is counted on the clock, the reads’ own time included: no read starts after it closed', async () => {
    // Each read takes 400 ms on this clock; the pet shows 1,400 ms after the first read started, past a window of 1,000 ms.
    let clock = 0
    const starts: number[] = []
    const read = async () => {
      starts.push(clock)
      const shown = clock >= 1_400
      clock += 400
      return { id: starts.length, response: { status: shown ? 200 : 404 } } as unknown as OperationExchange
    }
    const sleep = async (ms: number) => {
      clock += ms
    }
    const log = new LagLog()
    const result = await readWithinWindow({ windowMs: 1_000, what: 'GET /pets/1', read, found: (exchange) => exchange.response?.status === 200, log, sleep, now: () => clock })
    expect(result.found).toBe(false)
    expect(starts.every((start) => start <= 1_000)).toBe(true)
    expect(log.missing).toEqual(['GET /pets/1'])
  })

  test('the window of a created pet opens with its 201: a first read the run could send only later closes it there', async () => {
    // The 201 came at 0 on this clock; the first read goes out at 3,000 (queued behind other requests); the pet shows at 6,000.
    const reading = (since: number | undefined) => {
      let clock = 3_000
      const starts: number[] = []
      const read = async () => {
        starts.push(clock)
        return { id: starts.length, response: { status: clock >= 6_000 ? 200 : 404 } } as unknown as OperationExchange
      }
      const sleep = async (ms: number) => {
        clock += ms
      }
      const found = (exchange: OperationExchange) => exchange.response?.status === 200
      const options = { windowMs: 5_000, what: 'GET /pets/1', read, found, log: new LagLog(), sleep, now: () => clock }
      return { result: readWithinWindow(since === undefined ? options : { ...options, since }), starts }
    }
    const fromThe201 = reading(0)
    expect(await fromThe201.result).toMatchObject({ found: false, waitedMs: 5_000 })
    expect(Math.max(...fromThe201.starts)).toBe(5_000)
    // Counted from the first read instead, the window would have run to 8,000 and passed a pet that showed a second late.
    expect(await reading(undefined).result).toMatchObject({ found: true })
  })

  test('a first read sent after the window of its 201 closed is read once, and a miss is a miss', async () => {
    let clock = 7_000
    const target = readsFinding(2)
    const log = new LagLog()
    const sleep = async (ms: number) => {
      clock += ms
    }
    const read = await readWithinWindow({ windowMs: 5_000, what: 'GET /pets/2', read: target.read, found: target.found, log, sleep, since: 0, now: () => clock })
    expect(read).toMatchObject({ found: false, reads: 1 })
    expect(log.missing).toEqual(['GET /pets/2'])
  })

  test('a pet already there is read once, with no wait and no lag recorded', async () => {
    const log = new LagLog()
    const target = readsFinding(1)
    const read = await readWithinWindow({ windowMs: 5_000, what: 'GET /pets/1', read: target.read, found: target.found, log })
    expect(read).toMatchObject({ found: true, reads: 1 })
    expect(target.calls()).toBe(1)
    expect(log.lags).toEqual([])
  })

  test('a window of 0 means read-your-writes at once: one read, and a miss is a miss', async () => {
    const log = new LagLog()
    const target = readsFinding(2)
    const read = await readWithinWindow({ windowMs: 0, what: 'GET /pets/1', read: target.read, found: target.found, log })
    expect(read).toMatchObject({ found: false, reads: 1 })
    expect(log.missing).toEqual(['GET /pets/1'])
  })

  test('a pet that shows on the third read is found, and its lag is recorded', async () => {
    const log = new LagLog()
    const target = readsFinding(3)
    const read = await readWithinWindow({ windowMs: 5_000, what: 'GET /pets/7', read: target.read, found: target.found, log })
    expect(read).toMatchObject({ found: true, reads: 3 })
    expect(log.lags).toEqual([{ what: 'GET /pets/7', ms: read.waitedMs, reads: 3 }])
  })

  test('a pet that never shows is read a bounded number of times; once a window is spent, later reads look once', async () => {
    const log = new LagLog()
    // On a clock of the test's own, which the waits move on: a loaded machine's slow reads take no read out of the window.
    let clock = 0
    const time = {
      now: () => clock,
      sleep: async (ms: number) => {
        clock += ms
      },
    }
    const first = readsFinding(undefined)
    const missed = await readWithinWindow({ windowMs: 400, what: 'GET /pets/1', read: first.read, found: first.found, log, ...time })
    expect(missed).toMatchObject({ found: false, windowSpent: false })
    expect(first.calls()).toBe(backoffSchedule(400).length + 1)
    expect(windowWords(missed)).toMatch(/^within the consistency window of 400 ms \(4 reads over \d+ ms\)$/)
    const second = readsFinding(undefined)
    const after = await readWithinWindow({ windowMs: 400, what: 'GET /pets/2', read: second.read, found: second.found, log, ...time })
    expect(after).toMatchObject({ found: false, reads: 1, windowSpent: true })
    expect(windowWords(after)).toMatch(/read once: an earlier pet already stayed missing for a whole window/)
  })

  test('a last read that got no answer is named as such, not as a pet the window closed on', async () => {
    const timedOut = async () =>
      ({ id: 1, failure: { kind: 'timeout', message: 'no answer within 10000 ms (--timeout-ms)' }, retries: [], durationMs: 10_000 }) as unknown as OperationExchange
    let clock = 0
    const read = await readWithinWindow({
      windowMs: 400,
      what: 'GET /pets/1',
      read: timedOut,
      found: (exchange) => exchange.response?.status === 200,
      log: new LagLog(),
      now: () => clock,
      sleep: async (ms) => {
        clock += ms
      },
    })
    expect(windowWords(read)).toMatch(/the last read got no answer \(no answer within 10000 ms \(--timeout-ms\)\), which is no lag of the store\)$/)
  })

  test('a miss while preparing data (seeding) is no evidence: later reads still wait', async () => {
    const log = new LagLog()
    const seeding = readsFinding(undefined)
    await readWithinWindow({ windowMs: 200, what: 'seeded pets', read: seeding.read, found: seeding.found, log, missIsEvidence: false })
    expect(log.missing).toEqual([])
    const next = readsFinding(2)
    expect(await readWithinWindow({ windowMs: 200, what: 'GET /pets/3', read: next.read, found: next.found, log })).toMatchObject({ found: true, reads: 2 })
  })

  test('a read that was not sent (its operation given up, or the run stopped) ends the wait at once, and is no evidence of a lost pet', async () => {
    const log = new LagLog()
    let calls = 0
    let slept = 0
    const notSent = async () => {
      calls += 1
      return {
        id: calls,
        failure: { kind: 'timeout', message: 'GET /pets/{id} did not answer within 10 s, twice in a row: not sent again', notSent: true },
      } as unknown as OperationExchange
    }
    const sleep = async () => {
      slept += 1
    }
    const read = await readWithinWindow({ windowMs: 5_000, what: 'GET /pets/9', read: notSent, found: (exchange) => exchange.response?.status === 200, log, sleep })
    expect(read).toMatchObject({ found: false, reads: 1 })
    expect({ calls, slept }).toEqual({ calls: 1, slept: 0 })
    expect(log.missing).toEqual([])
    // A read that was sent and went unanswered is still read again within the window.
    const answeredLate = readsFinding(3)
    expect(await readWithinWindow({ windowMs: 5_000, what: 'GET /pets/10', read: answeredLate.read, found: answeredLate.found, log, sleep })).toMatchObject({
      found: true,
      reads: 3,
    })
  })

  test('a read of a pet the run did not create waits the same, is left out of the lag report, and its miss still spends the window', async () => {
    const log = new LagLog()
    const lagging = readsFinding(2)
    expect(
      await readWithinWindow({ windowMs: 400, what: 'GET /pets/70 (listed)', read: lagging.read, found: lagging.found, log, ofCreatedPet: false, sleep: noWait }),
    ).toMatchObject({
      found: true,
      reads: 2,
    })
    const lost = readsFinding(undefined)
    const missed = await readWithinWindow({ windowMs: 400, what: 'GET /pets/71 (listed)', read: lost.read, found: lost.found, log, ofCreatedPet: false, sleep: noWait })
    expect(missed).toMatchObject({ found: false, reads: backoffSchedule(400).length + 1 })
    expect({ reads: log.reads, lags: log.lags, missing: log.missing }).toEqual({ reads: 0, lags: [], missing: [] })
    // A target that loses pets would make every later read wait a window: from now on each reads once.
    const created = readsFinding(undefined)
    expect(await readWithinWindow({ windowMs: 400, what: 'GET /pets/72', read: created.read, found: created.found, log, sleep: noWait })).toMatchObject({
      reads: 1,
      windowSpent: true,
    })
    expect({ reads: log.reads, missing: log.missing }).toEqual({ reads: 1, missing: ['GET /pets/72'] })
  })
})

describe('createPet/read-your-writes-lag says what the reads of created pets saw, and only that', () => {
  const reportOf = (log: LagLog) => lagReport(log, 5_000, false)

  test('no read of a created pet: inconclusive, saying why (a smoke run creates none, whose sequences read listed pets again; in a full run no create gave a pet)', async () => {
    const log = new LagLog()
    const listed = readsFinding(2)
    await readWithinWindow({ windowMs: 400, what: 'GET /pets/5', read: listed.read, found: listed.found, log, ofCreatedPet: false, sleep: noWait })
    expect(lagReport(log, 5_000, true)).toMatchObject({ outcome: 'inconclusive', reason: 'no pet created by this run was read back (the smoke profile creates none)' })
    expect(reportOf(log)).toMatchObject({ outcome: 'inconclusive', reason: 'no pet created by this run was read back (no create was answered with a pet to read)' })
  })

  test('reads that all found the pet at once, and reads of which some stayed missing, are told apart', async () => {
    const log = new LagLog()
    for (const id of [1, 2, 3]) {
      const target = readsFinding(1)
      await readWithinWindow({ windowMs: 0, what: `GET /pets/${id}`, read: target.read, found: target.found, log })
    }
    expect(reportOf(log).observations).toEqual(['every one of 3 reads of created pets found the pet at once (window 5000 ms)'])
    const lost = readsFinding(undefined)
    await readWithinWindow({ windowMs: 0, what: 'GET /pets/4', read: lost.read, found: lost.found, log })
    expect(reportOf(log).observations).toEqual([
      '3 of 4 reads of created pets found the pet at once, none after waiting (window 5000 ms)',
      'still missing when the window closed: GET /pets/4',
    ])
  })
})

describe('a pet the run created is read within the window of its 201, whichever check reads it', () => {
  test('a GET answered 404 long after the 201 is read once more at most, not for a window of its own', async () => {
    let clock = 0
    const sleep = async (ms: number) => {
      clock += ms
    }
    const log = new LagLog()
    const known = new KnownPets({ windowMs: 5_000, log, sleep, now: () => clock })
    const created = { operation: 'createPet', response: { status: 201, headers: {}, body: '{"id":41,"name":"a"}' } } as unknown as OperationExchange
    known.saw(created)
    // The pet shows from 8,000 on; the run's first read of it goes out at 7,000, past the window of its 201.
    clock = 7_000
    let reads = 0
    const again = async () => {
      reads += 1
      return { operation: 'getPet', response: { status: clock >= 8_000 ? 200 : 404, headers: {}, body: '' } } as unknown as OperationExchange
    }
    const first = { operation: 'getPet', durationMs: 0, response: { status: 404, headers: {}, body: '' } } as unknown as OperationExchange
    const settled = await known.settle(41n, first, again)
    expect(settled.response?.status).toBe(404)
    expect(reads).toBe(0)
    expect(log.missing).toEqual(['GET /pets/41'])
  })
})
