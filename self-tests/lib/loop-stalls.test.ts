/**
 * The hold-ups of the event loop (lib/http/loop-stalls.ts): a close of a connection measured across one may have
 * come later after its answer than it seems, so the run does not charge an idle timeout as a close right after an
 * answer when the loop was held up (a loaded machine, many runs in one thread).
 */
import { describe, expect, test } from 'vitest'
import { LoopStalls } from '../../lib/http/loop-stalls.js'

/** Holds this thread's loop for `ms`, as a long synchronous piece of work does. */
function holdLoop(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until) {
    // busy: nothing else runs meanwhile
  }
}

/** Resolves after the loop has turned for at least `ms` (a few ticks of the watcher). */
const turns = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('the hold-ups of the event loop', () => {
  test('a hold-up of 300 ms is seen whole, under way and once the next tick has come; before it, nothing', async () => {
    const stalls = new LoopStalls()
    stalls.start()
    try {
      await turns(120)
      const before = performance.now()
      holdLoop(300)
      // Right after it, before any tick: the hold-up under way counts.
      expect(stalls.longestSince(before)).toBeGreaterThanOrEqual(250)
      await turns(120)
      expect(stalls.longestSince(before)).toBeGreaterThanOrEqual(250)
      // A hold-up that ended before `from` is not counted.
      expect(stalls.longestSince(performance.now() + 1)).toBe(0)
    } finally {
      stalls.stop()
    }
  })

  test('nobody watching: nothing is known, and no timer is left behind', async () => {
    const stalls = new LoopStalls()
    stalls.start()
    stalls.start()
    stalls.stop()
    const before = performance.now()
    holdLoop(200)
    // Still watched once.
    expect(stalls.longestSince(before)).toBeGreaterThanOrEqual(150)
    stalls.stop()
    expect(stalls.longestSince(before)).toBe(0)
  })
})
