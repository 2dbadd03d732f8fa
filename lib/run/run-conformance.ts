/**
 * One whole conformance run, as the command and the typed API make it: open it (reference, preflight,
 * seeding), run every check of the suite, judge, finish (print and write the reports), close. Each step
 * is usable alone (run-session.ts, run-steps.ts); the vitest entry composes them its own way.
 */
import type { Config } from './config.js'
import { openRun, type RunIo } from './run-session.js'
import { finishRun, judgeRun, progressReporter, type RunOutcome, runCheckStep } from './run-steps.js'
import type { ConformanceSuite } from './suite.js'

export interface RunOptions {
  /** Write results.json, junit.xml, summary.md and report.html to the report directory (default true). */
  writeReports?: boolean
  /**
   * Cancels the run (a signal, a cancelled CI job): requests in flight end at once, checks not finished are
   * inconclusive with "run cancelled", and the reports are written with what was decided; exit 3. The signal's
   * reason, when a string, names the cause ("SIGTERM").
   */
  cancel?: AbortSignal | undefined
}

export async function runConfigured(config: Config, suite: ConformanceSuite, io: RunIo, options: RunOptions = {}): Promise<RunOutcome> {
  const { session, ended } = await openRun(config, suite, io, { cancel: options.cancel })
  try {
    if (ended) return await finishRun(session, ended, options)
    const progress = progressReporter(io, session.started, config.quiet)
    let checked: Awaited<ReturnType<typeof runCheckStep>>
    try {
      checked = await runCheckStep(session, suite.checks, { onProgress: progress.update })
    } finally {
      progress.end()
    }
    return await finishRun(session, judgeRun(session, checked), options)
  } finally {
    await session.close()
  }
}
