/**
 * One dead operation must not stretch the run (policy §5): once requests to an operation have timed out
 * twice in a row, the checks that still need it fail at once with that reason, instead of waiting out a
 * timeout each. Any answer that is not a timeout brings the operation back. While an operation's last
 * request timed out, its requests go one at a time, so a hanging operation costs two timeouts, not two
 * waves of as many requests as the concurrency allows.
 */
export const TIMEOUTS_TO_GIVE_UP = 2

export class DeadOperations {
  private readonly timeoutsInARow = new Map<string, number>()

  /** Why requests to `operation` are no longer sent, or undefined while it is alive. */
  reasonFor(operation: string, timeoutMs: number): string | undefined {
    const count = this.timeoutsInARow.get(operation) ?? 0
    return count >= TIMEOUTS_TO_GIVE_UP
      ? `${operation} did not answer within ${formatDuration(timeoutMs)}, ${count === 2 ? 'twice' : `${count} times`} in a row: not sent again`
      : undefined
  }

  /** An operation whose last request timed out: until one answers, its requests go one at a time. */
  isSuspect(operation: string): boolean {
    return (this.timeoutsInARow.get(operation) ?? 0) > 0
  }

  record(operation: string, timedOut: boolean): void {
    this.timeoutsInARow.set(operation, timedOut ? (this.timeoutsInARow.get(operation) ?? 0) + 1 : 0)
  }
}

function formatDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
