/** The settings of one run, as the checks of suites/ see them (`check.context`): the table's values, resolved. */
import type { Invocation } from '../settings/invocation.js'
import type { Profile, SettingValue } from '../settings/settings.js'

export type { Profile }

/** Settings the checks read as the table defines them. */
type AsDefined =
  | 'numRuns'
  | 'sequences'
  | 'sequenceLength'
  | 'concurrency'
  | 'timeoutMs'
  | 'maxBodyBytes'
  | 'maxRetries'
  | 'maxRetryWaitMs'
  | 'insecure'
  | 'consistencyWindowMs'
  | 'categoryIds'
  | 'namePrefix'
  | 'editOperators'
  | 'deadlineMs'

export type RunSettings = { [K in AsDefined]: SettingValue<K> } & {
  /** The target the run resolved to (the embedded reference's when none was given), and the key it sends. */
  baseUrl: string
  apiKey: string
  profile: Profile
  seed: number
  replayPath: string | undefined
  caFile: string | undefined
  /** True when the target is the embedded reference (a replay command then needs no --base-url). */
  embeddedReference: boolean
  /** Unique per run, so names of pets created by this run can be told apart. */
  runId: string
  /** At most this many edited requests (--max-edits); undefined: the profile's whole plan. */
  maxEdits: number | undefined
  /** ISO date the run takes as today. */
  now: string
  /** How the user started the run: replay lines are written in that form. */
  invocation: Invocation
}
