/**
 * A rate limit pauses the whole run, not only the request that met it. RFC 9110 §10.2.3: `Retry-After` says how
 * long the user agent ought to wait before making a follow-up request, any request. A run that kept its other
 * requests going while one waited would open the target's next window itself, and a request could meet the limit
 * at every retry however well it waited (policy §2, rate limits: retries running out is a failure).
 *
 * So a `429`, or a `503` with `Retry-After`, sets a pause until the time it names: every request waits for it
 * before it is sent. Afterwards the run starts again with one request at a time, and doubles its concurrency with
 * each answer that is not a rate limit, back to its ceiling: a target that has just said it is overwhelmed is not
 * met with every request at once.
 *
 * The ceiling is --concurrency until a rate limit turns away at least two of the requests that went out together, and
 * at least half of them: a limit on the requests handled at once (chi's Throttle, nginx's limit_conn) admits the
 * others. The ceiling is then the concurrency they went out at less those turned away, for the rest of the run.
 * Ramped back to --concurrency each time, a run against Throttle(4) met the limit again at every ramp, and a request
 * could meet it at every retry. A limit on every n-th request turns away one at a time whatever the concurrency, and
 * keeps the ceiling where it is: lowered by every pair it happened to turn away together, such a run went one request
 * at a time and took 70 % longer.
 */

/** What the pause sets: the number of requests in flight at once. */
export interface ConcurrencyLimit {
  concurrency: number
}

export class RateLimitPause {
  /** When the pause ends (performance.now()); 0: none. */
  private pausedUntil = 0
  /** Pauses so far, for the report. */
  pauses = 0
  /** The milliseconds the run spent paused, summed over pauses that did not overlap. */
  pausedMs = 0
  /**
   * How many times a rate limit has set or lengthened the pause: a request notes it when it is sent, and only the
   * answer to one sent since the latest rate limit ramps the concurrency back up (answered).
   */
  epoch = 0

  /** The concurrency the run ramps back up to (see above). */
  private cap: number
  /** The requests a rate limit turned away that went out together: in one epoch, at one concurrency. */
  private burst?: { sentAt: number; concurrency: number; turnedAway: number }

  constructor(
    private readonly queue: ConcurrencyLimit,
    private readonly concurrency: number,
    private readonly sleep: (ms: number) => Promise<void>,
    private readonly stop?: AbortSignal,
    /** The clock the pause is read on (ms): the process's monotonic one. */
    private readonly now: () => number = () => performance.now(),
  ) {
    this.cap = concurrency
  }

  /** The concurrency the run ramps back up to, read by the self-tests. */
  get ceiling(): number {
    return this.cap
  }

  /**
   * A rate limit that asks for `waitMs`, to a request sent at `sentAt` (the epoch then): every request waits until
   * then, and the run starts again one at a time, up to a ceiling the requests turned away together lower.
   */
  rateLimited(waitMs: number, sentAt: number = this.epoch): void {
    this.lowerCeiling(sentAt)
    const now = this.now()
    const until = now + waitMs
    if (until <= this.pausedUntil) return
    this.pausedMs += until - Math.max(now, this.pausedUntil)
    if (this.pausedUntil <= now) this.pauses += 1
    this.pausedUntil = until
    this.epoch += 1
    this.queue.concurrency = 1
  }

  /**
   * An answer that was no rate limit, to a request sent at `sentAt` (the epoch then): the concurrency doubles, up to
   * --concurrency, unless the request went out before the latest rate limit. The requests in flight when a target
   * turns one away are answered during the pause; had they ramped the concurrency back, every waiter would go out at
   * once when it ends, in no order a target sees, and a retry could be the one an every-n-th limit turns away again.
   */
  answered(sentAt: number = this.epoch): void {
    if (sentAt < this.epoch) return
    if (this.queue.concurrency < this.cap) this.queue.concurrency = Math.min(this.cap, this.queue.concurrency * 2)
  }

  /** The first request of a burst turned away notes the concurrency it went out at; the others of its epoch count. */
  private lowerCeiling(sentAt: number): void {
    if (this.burst?.sentAt !== sentAt) {
      this.burst = { sentAt, concurrency: this.queue.concurrency, turnedAway: 1 }
      return
    }
    const burst = this.burst
    burst.turnedAway += 1
    if (burst.turnedAway >= 2 && 2 * burst.turnedAway >= burst.concurrency) this.cap = Math.max(1, Math.min(this.cap, burst.concurrency - burst.turnedAway))
  }

  /** Whether the run is paused now. */
  isPaused(): boolean {
    return this.pausedUntil > this.now()
  }

  /**
   * Waits for the pause to end, if the run is paused (a pause set meanwhile is waited for too), or for the run to stop.
   * Every waiter wakes at once, in the order of `priority` (the more retried first, then in the order they came), so
   * that the one most retried is the first to ask for a place: woken each by a timer of its own, those that met the
   * pause first would go first, and a retry could meet the target's next turn-away at every attempt.
   */
  async waitIfPaused(priority = 0): Promise<void> {
    while (this.isPaused() && !this.stop?.aborted) {
      await new Promise<void>((resolve) => {
        this.waiters.push({ priority, resolve })
        void this.alarm()
      })
    }
  }

  private readonly waiters: Array<{ priority: number; resolve: () => void }> = []
  private alarmSet = false

  /** One sleep to the end of the pause (and of any pause set meanwhile); then every waiter, in order. */
  private async alarm(): Promise<void> {
    if (this.alarmSet) return
    this.alarmSet = true
    try {
      for (let left = this.pausedUntil - this.now(); left > 0 && !this.stop?.aborted; left = this.pausedUntil - this.now()) await this.sleep(Math.ceil(left))
    } finally {
      this.alarmSet = false
      const waiters = this.waiters.splice(0).sort((a, b) => b.priority - a.priority)
      for (const waiter of waiters) waiter.resolve()
    }
  }
}
