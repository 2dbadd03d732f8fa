/** What a check sees of the run's HTTP client (`check.client`): read-only facts of the run so far, never the means to send. */
import type { WriteBudget } from '../http/caps.js'

export interface ClientView {
  /** The fields the client puts on every request. */
  fields: Readonly<Record<string, string>>
  /** Whether it writes edited requests (not through a proxy). */
  writesEditedRequests: boolean
  /** How long the target's rate limits have paused the run. */
  pausedMs: number
  /** The HTTP versions answers came in. */
  answeredHttpVersions: ReadonlySet<string>
  /** The requests that may create a pet, and what their answers showed. */
  writes: Pick<WriteBudget, 'sent' | 'unknownOutcomes' | 'idsShown' | 'settled'>
}
