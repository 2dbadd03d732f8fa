/** A counting semaphore: at most `limit` tasks run at once, the rest wait in arrival order. */
export class Semaphore {
  private active = 0
  private readonly waiting: Array<() => void> = []
  /** Highest number of tasks seen running at once, for self-tests and benchmarks. */
  peak = 0

  constructor(private readonly limit: number) {}

  /** Tasks running now. */
  get running(): number {
    return this.active
  }

  /** Tasks waiting for a place. */
  get queued(): number {
    return this.waiting.length
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve))
    this.active += 1
    this.peak = Math.max(this.peak, this.active)
    try {
      return await task()
    } finally {
      this.active -= 1
      this.waiting.shift()?.()
    }
  }
}

/** Map over items with at most `limit` callbacks in flight; results keep the input order. */
export async function mapConcurrently<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const semaphore = new Semaphore(limit)
  return Promise.all(items.map((item, index) => semaphore.run(() => fn(item, index))))
}
