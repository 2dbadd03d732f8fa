import PQueue from 'p-queue'

/** Map over items with at most `limit` callbacks in flight; results keep the input order. */
export async function mapConcurrently<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const queue = new PQueue({ concurrency: limit })
  return Promise.all(items.map((item, index) => queue.add(() => fn(item, index))))
}
