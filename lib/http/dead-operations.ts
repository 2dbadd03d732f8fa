/**
 * One dead operation must not stretch the run (policy §5): once requests to an operation have come back with
 * nothing usable twice in a row (no answer within the timeout, a body over the cap, headers over the cap), the
 * checks that still need it fail at once with that reason, instead of waiting out a timeout each. Any other
 * answer brings the operation back. While an operation's last request came back with nothing, its requests go one
 * at a time, so a hanging operation costs two timeouts, not two waves of as many requests as the concurrency allows.
 */
export const TIMEOUTS_TO_GIVE_UP = 2

/** A request that used up its whole budget and brought nothing to judge. */
export type Unusable = 'timeout' | 'body-too-large' | 'headers-too-large'

export function isUnusable(kind: string | undefined): kind is Unusable {
  return kind === 'timeout' || kind === 'body-too-large' || kind === 'headers-too-large'
}

/** What the operation did, in words, when each of its last requests came back the same way. */
function unusableWords(kind: Unusable, timeoutMs: number, maxBodyBytes: number, maxHeaderBytes: number): string {
  if (kind === 'timeout') return `did not answer within ${formatDuration(timeoutMs)}`
  if (kind === 'body-too-large') return `answered with bodies over the cap of ${maxBodyBytes} bytes`
  return `answered with headers over the cap of ${maxHeaderBytes} bytes`
}

export class DeadOperations {
  private readonly inARow = new Map<string, Unusable[]>()

  constructor(private readonly maxHeaderBytes: number) {}

  /** Why requests to `operation` are no longer sent (and the kind of the last unusable answer), or undefined while it is alive. */
  reasonFor(operation: string, timeoutMs: number, maxBodyBytes: number): { kind: Unusable; message: string } | undefined {
    const failures = this.inARow.get(operation) ?? []
    const last = failures.at(-1)
    if (failures.length < TIMEOUTS_TO_GIVE_UP || last === undefined) return undefined
    const times = failures.length === 2 ? 'twice' : `${failures.length} times`
    const what = failures.every((kind) => kind === last)
      ? unusableWords(last, timeoutMs, maxBodyBytes, this.maxHeaderBytes)
      : `gave no usable answer (no answer within ${formatDuration(timeoutMs)}, or a body or headers over the cap)`
    return { kind: last, message: `${operation} ${what}, ${times} in a row: not sent again` }
  }

  /** An operation whose last request came back with nothing usable: until one answers, its requests go one at a time. */
  isSuspect(operation: string): boolean {
    return (this.inARow.get(operation)?.length ?? 0) > 0
  }

  record(operation: string, unusable: Unusable | undefined): void {
    this.inARow.set(operation, unusable ? [...(this.inARow.get(operation) ?? []), unusable] : [])
  }
}

function formatDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
