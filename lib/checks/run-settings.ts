/** The settings of one run, as the checks of suites/ see them (`check.context`). */
/** `smoke`: read-only, no POST at all (policy §3); `full`: writes included. */
export type Profile = 'smoke' | 'full'

export interface RunSettings {
  baseUrl: string
  apiKey: string
  profile: Profile
  seed: number
  numRuns: number
  /** Model-based sequences per run (0: none), and most commands in each. */
  sequences: number
  sequenceLength: number
  /** Replay one generated case at this fast-check path instead of running numRuns cases. */
  replayPath: string | undefined
  /** True when the target is the embedded reference (a replay command then needs no --base-url). */
  embeddedReference: boolean
  concurrency: number
  timeoutMs: number
  maxBodyBytes: number
  maxRetries: number
  maxRetryWaitMs: number
  caFile: string | undefined
  insecure: boolean
  /** How long a created pet may take to show in reads; 0 means at once. */
  consistencyWindowMs: number
  categoryIds: string[]
  namePrefix: string
  /** Unique per run, so names of pets created by this run can be told apart. */
  runId: string
  /** ISO date the run takes as today. */
  now: string
}
