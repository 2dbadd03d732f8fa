/**
 * One conformance run: start the embedded reference when no target is given, check the target is
 * reachable, seed it (full profile), run the checks of suites/, judge, report, and give the exit code.
 */
import { randomBytes } from 'node:crypto'
import { setMaxListeners } from 'node:events'
import { createReferenceHandler } from '../../reference/handler.js'
import { type RunningServer, startServer } from '../../reference/server.js'
import { registeredChecks } from '../../suites/index.js'
import { RunState } from '../checks/check.js'
import type { CheckReport } from '../checks/check-result.js'
import { lagReport } from '../checks/consistency.js'
import type { RunSettings } from '../checks/run-settings.js'
import { runChecks } from '../checks/runner.js'
import { alarmLine, type StallAlarm, watchStalls } from '../checks/watchdog.js'
import { LagLog } from '../data/eventual-reads.js'
import { type SeedingOutcome, topUpStore } from '../data/seeding.js'
import { HttpClient, RunStop } from '../http/client.js'
import { INT64_MAX } from '../http/int64.js'
import { createRedactor } from '../http/redaction.js'
import { compareWithBaseline } from '../judging/baseline.js'
import { EXIT, exitCodeOf, judgeAll } from '../judging/verdicts.js'
import { renderBaselineTally, renderRequirementLines, renderRootCauses, renderSummary } from '../reports/console.js'
import { escapeControlCharacters } from '../reports/control-characters.js'
import type { RunResult } from '../reports/run-result.js'
import { writeReports } from '../reports/write-reports.js'
import { GET_PET_REMOVAL, isSelected } from '../spec/catalogue.js'
import { packageVersion } from '../spec/package-root.js'
import { type OperationExchange, PetstoreApi } from '../spec/petstore-api.js'
import { assembleRun, type RunFacts } from './assemble-run.js'
import type { Config } from './config.js'

export interface RunIo {
  out: (line: string) => void
  err: (line: string) => void
  /** Rewrites one status line in place, on a terminal; without it, progress is printed as plain lines. */
  status?: (line: string) => void
}

/** Progress on stderr during the checks: what is being judged, done/total, elapsed; at most one line every 2 s. */
function progressReporter(io: RunIo, started: number, quiet: boolean): { update: (done: number, total: number, title: string) => void; end: () => void } {
  let last = Date.now()
  const show = io.status ?? io.err
  return {
    update: (done, total, title) => {
      if (quiet || Date.now() - last < 2_000 || done === total) return
      last = Date.now()
      show(`progress: ${done}/${total} checks, ${((Date.now() - started) / 1000).toFixed(0)} s, judging ${/^\[([^\]]+)\]/.exec(title)?.[1] ?? title}`)
    },
    end: () => {
      if (!quiet) io.status?.('')
    },
  }
}

function daysBetween(from: Date, to: Date): number {
  return Math.ceil((to.getTime() - from.getTime()) / 86_400_000)
}

export interface RunOptions {
  /** Write results.json, junit.xml, summary.md and report.html to the report directory (default true). */
  writeReports?: boolean
  /**
   * Cancels the run (a signal, a cancelled CI job): requests in flight end at once, checks not finished are
   * inconclusive with "run cancelled", and the reports are written with what was decided; exit 3. The signal's
   * reason, when a string, names the cause ("SIGTERM").
   */
  cancel?: AbortSignal
}

/** The exit code, and the run's results when the target could be judged at all. */
export interface RunOutcome {
  exitCode: number
  result?: RunResult
}

/** How a run ended: judged (requirements and their reports), or stopped before judging (a reason). */
type Ending = Pick<RunFacts, 'exitCode' | 'requirements' | 'harnessErrors' | 'seeding' | 'baseline' | 'stopReason' | 'watchdog'> & { reports?: CheckReport[] }

/** The stopReason of a run that was cancelled (results.json). */
export const CANCELLED = 'cancelled'

/**
 * The run's stop: its deadline, or a cancel from outside. One signal, whose reason (a RunStop) words what it
 * cut short, so every request, wait and check ends at once and says why.
 */
function runStop(deadlineMs: number, cancel: AbortSignal | undefined): { signal: AbortSignal; dispose: () => void } {
  const stop = new AbortController()
  // Every request and every check listens for the stop: many listeners are expected, not a leak.
  setMaxListeners(0, stop.signal)
  const timer = setTimeout(() => stop.abort(new RunStop('deadline', `deadline reached: the run deadline of ${deadlineMs} ms passed`)), Math.max(0, deadlineMs))
  const onCancel = () => stop.abort(new RunStop('cancelled', `run cancelled${typeof cancel?.reason === 'string' ? ` (${cancel.reason})` : ''}`))
  if (cancel?.aborted) onCancel()
  else cancel?.addEventListener('abort', onCancel, { once: true })
  return {
    signal: stop.signal,
    dispose: () => {
      clearTimeout(timer)
      cancel?.removeEventListener('abort', onCancel)
    },
  }
}

/**
 * A 401 to the list with the configured key is a set-up mistake, not a verdict, when every other operation
 * refuses the key too: the preflight's GET /pets/{id} and, when writes are allowed, POST /pets with an empty
 * object (which a target that accepted the key would refuse with 400, creating nothing).
 */
async function keyRefusedEverywhere(api: PetstoreApi, preflightGet: OperationExchange, profile: Config['profile']): Promise<boolean> {
  if (preflightGet.response?.status !== 401) return false
  if (profile === 'smoke') return true
  const post = await api.createPet({ json: {} })
  return post.response?.status === 401
}

export async function runConfigured(config: Config, io: RunIo, options: RunOptions = {}): Promise<RunOutcome> {
  const started = Date.now()
  const now = new Date(config.now)
  let reference: RunningServer | undefined
  const apiKey = config.apiKey ?? (config.baseUrl === undefined ? `reference-${randomBytes(12).toString('hex')}` : '')
  const redact = createRedactor(apiKey)
  const out = (line: string) => io.out(escapeControlCharacters(redact(line)))
  const err = (line: string) => io.err(escapeControlCharacters(redact(line)))

  if (config.baseUrl === undefined) reference = await startServer(createReferenceHandler({ apiKey }))
  const baseUrl = config.baseUrl ?? (reference as RunningServer).baseUrl
  const runId = randomBytes(4).toString('hex')
  const stop = runStop(config.deadlineMs, options.cancel)
  const client = new HttpClient({ ...config, baseUrl, stop: stop.signal })

  /** The run's results, printed and (unless asked not to) written: for a judged run, and for one that stopped before judging. */
  const finish = async (ending: Ending): Promise<RunOutcome> => {
    const { reports, ...facts } = ending
    const run = assembleRun({
      ...facts,
      baseUrl,
      embeddedReference: reference !== undefined,
      profile: config.profile,
      profileReason: config.profileReason,
      strict: config.strict,
      failOn: config.failOn,
      seed: config.seed,
      started,
      today: config.now,
      requirementFilter: config.requirementFilter,
      requestsSent: client.requestCount,
      ...(config.artifactsUrl ? { artifactsUrl: config.artifactsUrl } : {}),
    })
    if (ending.requirements) {
      out('')
      out(renderRequirementLines(run.requirements, run.rootCauses))
    }
    if (ending.stopReason) err(`${ending.exitCode === EXIT.usage ? 'Configuration error' : 'Stopped'}: ${ending.stopReason}`)
    for (const error of run.harnessErrors) err(`Harness error: ${error}`)
    if (options.writeReports ?? true) {
      const files = await writeReports(config.reportDir, run, reports ?? [], redact)
      out('')
      out(`Reports: ${files.join(', ')}`)
    }
    if (run.rootCauses.length > 0) out(renderRootCauses(run))
    if (run.baseline) out(renderBaselineTally(run))
    out(renderSummary(run))
    return { exitCode: ending.exitCode, result: run }
  }

  try {
    out(
      reference
        ? `petstore-conformance ${packageVersion} judges its own EMBEDDED REFERENCE implementation (no --base-url given), not a service of yours`
        : `petstore-conformance ${packageVersion} judges ${baseUrl} against the Pet Store interface v1`,
    )
    out(`Target:  ${baseUrl}${reference ? ' (embedded reference implementation)' : ''}`)
    out(`Profile: ${config.profile} (${config.profileReason}); ${config.profile === 'full' ? 'this run CREATES pets on the target' : 'read-only: this run sends no POST'}`)
    out(
      `Seed:    ${config.seed} (replay with --seed ${config.seed}); ${config.replayPath ? `replaying the generated case at path ${config.replayPath}` : `${config.numRuns} generated cases per property (--num-runs)`}`,
    )
    const daysLeft = daysBetween(now, GET_PET_REMOVAL)
    out(
      `Today:   ${config.now.slice(0, 10)}; getPet ${daysLeft > 0 ? `is deprecated, ${daysLeft} ${daysLeft === 1 ? 'day' : 'days'} before its removal on 2030-12-05 (its requirements are MUST)` : 'reached its removal date 2030-12-05: its requirements are INFO'}`,
    )
    if (!new URL(baseUrl).pathname.replace(/\/+$/, '').endsWith('/v1')) err(`WARNING: the base URL does not end with the version segment /v1 (spec, Versioning 2)`)
    if (config.apiKey !== undefined && config.apiKey.length < 12) {
      err(`WARNING: the API key has only ${config.apiKey.length} character(s); every occurrence of that text is masked in the output, which may garble words`)
    }
    if (config.insecure) err('WARNING: TLS certificate verification is OFF (--insecure). Never use this against production.')

    const api = new PetstoreApi(client, apiKey)
    // One read per kind of request the run sends, at once: a list to see the target answers at all, and
    // getPet and a path probe so that an operation that hangs is known after one timeout, not a wave later.
    const [preflight, preflightGet] = await Promise.all([api.listPets({ limit: 1 }), api.getPet(INT64_MAX), api.probe({ as: 'probe', path: '/pets/', headers: {} })])
    // No connection at all, or no TLS session: nothing can be judged. Anything else (a timeout, a reset, a
    // huge body) is the target's behaviour, which the checks judge and report.
    if (preflight.failure && (preflight.failure.kind === 'unreachable' || preflight.failure.kind === 'tls')) {
      return finish({ exitCode: EXIT.harness, stopReason: `target unreachable: GET ${preflight.request.url}: ${preflight.failure.message}` })
    }
    if (preflight.failure) err(`WARNING: GET ${preflight.request.url} failed (${preflight.failure.message}); the checks will say what else fails`)
    if (preflight.response?.status === 401 && (await keyRefusedEverywhere(api, preflightGet, config.profile))) {
      return finish({ exitCode: EXIT.usage, stopReason: 'the target answered 401 to the configured key on every operation: check PETSTORE_API_KEY' })
    }

    const lagLog = new LagLog()
    let seeding: SeedingOutcome = { knownBefore: 0, created: 0, note: 'not seeded: the smoke profile is read-only' }
    if (config.profile === 'full') {
      seeding = await topUpStore(api, {
        namePrefix: config.namePrefix,
        runId,
        categoryId: config.categoryIds[0] ?? '1',
        concurrency: config.concurrency,
        consistencyWindowMs: config.consistencyWindowMs,
        lagLog,
        stop: stop.signal,
        sleep: (ms) => client.sleep(ms),
      })
      out(`Seeding: ${seeding.note}`)
    }

    // The settings the checks see: the configuration, with the target and the key it resolved to.
    const settings: RunSettings = { ...config, baseUrl, apiKey, embeddedReference: reference !== undefined, runId }
    const state = new RunState(settings, client, lagLog)
    const progress = progressReporter(io, started, config.quiet)
    const watchdog = watchStalls(state.pending, client, { timeoutMs: config.timeoutMs, started, onAlarm: (alarm) => err(alarmLine(alarm)) })
    let alarms: StallAlarm[]
    let reports: CheckReport[]
    try {
      reports = await runChecks(registeredChecks(), state, {
        filter: config.requirementFilter,
        stop: stop.signal,
        onProgress: progress.update,
      })
    } finally {
      alarms = watchdog.stop()
      progress.end()
    }
    // The answers the checks shared (the survey, requests several checks judged) are no longer needed: the
    // reports keep only their evidence, cut to size. Released now, before the reports are rendered.
    state.release()
    if (isSelected('createPet/read-your-writes-lag', config.requirementFilter)) reports.push(lagReport(state.lagLog, config.consistencyWindowMs))
    const stopped = stop.signal.reason instanceof RunStop ? stop.signal.reason : undefined
    const cancelled = stopped?.kind === 'cancelled'
    const harnessErrors = stopped
      ? [
          cancelled
            ? `${stopped.message} after ${((Date.now() - started) / 1000).toFixed(1)} s; checks not finished by then are inconclusive`
            : `the run deadline of ${config.deadlineMs} ms passed; checks not finished by then are inconclusive`,
        ]
      : []

    const judged = judgeAll(reports, now, config.requirementFilter)
    const compared = config.baseline ? compareWithBaseline(judged, config.baseline) : undefined
    const requirements = compared?.results ?? judged
    const exitCode = exitCodeOf(requirements, config.strict, harnessErrors.length > 0, config.failOn === 'new')
    return finish({
      exitCode,
      requirements,
      reports,
      harnessErrors,
      seeding,
      ...(cancelled ? { stopReason: CANCELLED } : {}),
      ...(alarms.length > 0 ? { watchdog: alarms } : {}),
      ...(compared ? { baseline: compared.summary } : {}),
    })
  } finally {
    stop.dispose()
    // Once the run stopped, requests still in flight are cut rather than waited for.
    await (stop.signal.aborted ? client.destroy() : client.close())
    await reference?.close()
  }
}
