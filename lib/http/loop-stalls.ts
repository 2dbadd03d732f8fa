/**
 * When this thread's event loop was held up, and for how long: a time measured between two events is measured late
 * by as much as the loop was held up before the first of them was handled. A timer ticks every TICK_MS while anyone
 * watches; a tick that comes late says the loop was held up until it came. The last few seconds are kept.
 */
const TICK_MS = 50
/** Lateness below this is the ordinary jitter of a busy loop, not a hold-up. */
const STALL_MS = 50
/** How far back hold-ups are kept. */
const KEPT_MS = 10_000

export class LoopStalls {
  private timer: NodeJS.Timeout | undefined
  private watchers = 0
  private lastTick = 0
  private readonly stalls: Array<{ from: number; to: number }> = []

  /** Starts watching (once for every start, until as many stops). */
  start(): void {
    if (this.watchers++ > 0) return
    this.lastTick = performance.now()
    this.timer = setInterval(() => this.tick(), TICK_MS)
    // Watching never keeps a process alive.
    this.timer.unref()
  }

  stop(): void {
    if (--this.watchers > 0) return
    clearInterval(this.timer)
    this.timer = undefined
    this.stalls.length = 0
  }

  private tick(): void {
    const now = performance.now()
    this.record(now)
    this.lastTick = now
    while (this.stalls.length > 0 && (this.stalls[0]?.to ?? now) < now - KEPT_MS) this.stalls.shift()
  }

  /** A tick due at lastTick + TICK_MS that comes at `now` says the loop was held up in between. */
  private record(now: number): void {
    const late = now - this.lastTick - TICK_MS
    if (late > STALL_MS) this.stalls.push({ from: this.lastTick + TICK_MS, to: now })
  }

  /**
   * The longest hold-up that ended at `from` or later, the one under way included (a handler that runs right after the
   * loop was held up comes before the tick that would say so), each whole. 0 when nobody watches: nothing is known.
   */
  longestSince(from: number): number {
    return this.longestWithin(from, Number.POSITIVE_INFINITY)
  }

  /**
   * The longest hold-up under way at some moment between `from` and `handledAt`, each whole: what can have delayed an
   * event handled at `handledAt` (it came during the hold-up, and was handled once it ended). A hold-up that began
   * after it only delays what comes later.
   */
  longestBefore(handledAt: number, from: number): number {
    return this.longestWithin(from, handledAt)
  }

  private longestWithin(from: number, until: number): number {
    if (this.watchers === 0) return 0
    const now = performance.now()
    const began = this.lastTick + TICK_MS
    const current = now - began > STALL_MS && began <= until ? now - began : 0
    return Math.max(current, ...this.stalls.filter((stall) => stall.to >= from && stall.from <= until).map((stall) => stall.to - stall.from))
  }
}
