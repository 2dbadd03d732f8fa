/** A rate limit pauses every request of the run until the time it names, then the run ramps back up to --concurrency. */
import { describe, expect, test } from 'vitest'
import { RateLimitPause } from '../../lib/http/rate-limit-pause.js'

/** A pause on a clock of the test's own, which a sleep moves on by what it sleeps: no time passes, and none is measured. */
function pauseWith(concurrency: number) {
  const queue = { concurrency }
  const slept: number[] = []
  let clock = 1_000
  const pause = new RateLimitPause(
    queue,
    concurrency,
    // The clock moves when the sleep ends, as time does: whoever comes while it sleeps finds the run paused.
    async (ms) => {
      slept.push(ms)
      await Promise.resolve()
      clock += ms
    },
    undefined,
    () => clock,
  )
  return { queue, slept, pause, later: (ms: number) => (clock += ms) }
}

describe('the run-wide pause of a rate limit', () => {
  test('without a rate limit no request waits and the concurrency stays', async () => {
    const { queue, slept, pause } = pauseWith(8)
    await pause.waitIfPaused()
    pause.answered()
    expect(slept).toEqual([])
    expect(queue.concurrency).toBe(8)
  })

  test('a rate limit makes the next request wait for the time it names, and the run starts again one request at a time', async () => {
    const { queue, slept, pause } = pauseWith(8)
    pause.rateLimited(2_000)
    expect(queue.concurrency).toBe(1)
    await pause.waitIfPaused()
    expect(slept).toEqual([2_000])
    expect(pause.pauses).toBe(1)
    // Over: the next request goes at once.
    await pause.waitIfPaused()
    expect(slept).toEqual([2_000])
  })

  test('the requests that met the pause wake together when it ends, the most retried first, then in the order they came', async () => {
    const { slept, pause } = pauseWith(8)
    pause.rateLimited(1_000)
    const woken: string[] = []
    const waiting = [
      pause.waitIfPaused(0).then(() => woken.push('first in line')),
      pause.waitIfPaused(0).then(() => woken.push('second in line')),
      pause.waitIfPaused(2).then(() => woken.push('retried twice')),
      pause.waitIfPaused(1).then(() => woken.push('retried once')),
    ]
    await Promise.all(waiting)
    expect(woken).toEqual(['retried twice', 'retried once', 'first in line', 'second in line'])
    // One sleep for all of them.
    expect(slept).toEqual([1_000])
  })

  test('each answer that is no rate limit doubles the concurrency, back to --concurrency and no further', () => {
    const { queue, pause } = pauseWith(8)
    pause.rateLimited(1_000)
    const seen = [1, 2, 3, 4].map(() => {
      pause.answered()
      return queue.concurrency
    })
    expect(seen).toEqual([2, 4, 8, 8])
  })

  test('answers to requests sent before the latest rate limit do not ramp the concurrency back: the run starts again one at a time', () => {
    const { queue, pause } = pauseWith(8)
    const sentBefore = pause.epoch
    pause.rateLimited(1_000)
    // The seven requests in flight when the target turned one away are answered during the pause.
    for (let answer = 0; answer < 7; answer++) pause.answered(sentBefore)
    expect(queue.concurrency).toBe(1)
    // The first request sent after it is answered: the ramp begins.
    pause.answered(pause.epoch)
    expect(queue.concurrency).toBe(2)
  })

  test('a shorter rate limit within a pause does not shorten it; a longer one lengthens it, still one pause; one after it is a pause of its own', async () => {
    const { pause, slept, later } = pauseWith(4)
    pause.rateLimited(3_000)
    later(500)
    pause.rateLimited(1_000)
    expect(pause.pausedMs).toBe(3_000)
    pause.rateLimited(5_000)
    expect(pause.pauses).toBe(1)
    expect(pause.pausedMs).toBe(5_500)
    await pause.waitIfPaused()
    expect(slept).toEqual([5_000])
    pause.rateLimited(1_000)
    expect(pause.pauses).toBe(2)
  })

  test('a run that stops is not kept waiting', async () => {
    const stop = new AbortController()
    stop.abort()
    const slept: number[] = []
    const pause = new RateLimitPause(
      { concurrency: 8 },
      8,
      async (ms) => void slept.push(ms),
      stop.signal,
      () => 0,
    )
    pause.rateLimited(10_000)
    await pause.waitIfPaused()
    expect(slept).toEqual([])
  })

  test('requests turned away together lower the ceiling to those admitted with them; one alone does not', () => {
    const { queue, pause } = pauseWith(8)
    // Eight went out at once, and a limit of four requests at a time turned four away: the run ramps back up to four.
    const sentAt = pause.epoch
    for (let refused = 0; refused < 4; refused++) pause.rateLimited(1_000, sentAt)
    expect(pause.ceiling).toBe(4)
    for (let answer = 0; answer < 10; answer++) pause.answered()
    expect(queue.concurrency).toBe(4)
    // A limit on every n-th request turns one away at a time, whatever the concurrency: the ceiling stays.
    const alone = pauseWith(8)
    for (let burst = 0; burst < 5; burst++) {
      alone.later(2_000)
      alone.pause.rateLimited(1_000, alone.pause.epoch)
      for (let answer = 0; answer < 6; answer++) alone.pause.answered()
    }
    expect(alone.pause.ceiling).toBe(8)
    expect(alone.queue.concurrency).toBe(8)
  })

  test('two turned away of eight that went out together are no limit on the requests at once: the ceiling stays', () => {
    const { queue, pause } = pauseWith(8)
    const sentAt = pause.epoch
    pause.rateLimited(1_000, sentAt)
    pause.rateLimited(1_000, sentAt)
    expect(pause.ceiling).toBe(8)
    for (let answer = 0; answer < 10; answer++) pause.answered()
    expect(queue.concurrency).toBe(8)
  })
})
