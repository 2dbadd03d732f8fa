/**
 * The steps of a run after it is open (run-session.ts): run the checks, judge them, and finish (print and
 * write the reports). Each takes the session; the command, the typed API and the vitest entry compose them.
 */
import { mkdir } from 'node:fs/promises'
import { dirname, relative } from 'node:path'
import type { CheckReport } from '../checks/check-result.js'
import { closesReport } from '../checks/connection-closes.js'
import { lagReport } from '../checks/consistency.js'
import type { CheckDefinition } from '../checks/registry.js'
import { type RunChecksOptions, runChecks } from '../checks/runner.js'
import { alarmLine, type StallAlarm, watchStalls } from '../checks/watchdog.js'
import type { SeedingOutcome } from '../data/seeding.js'
import { RunStop } from '../http/exchange.js'
import { compareWithBaseline } from '../judging/baseline.js'
import { counted } from '../judging/headline.js'
import { EXIT, exitCodeOf, judgeAll } from '../judging/verdicts.js'
import { renderBaselineTally, renderRequirementLines, renderRootCauses, renderSummary } from '../reports/console.js'
import { renderHar } from '../reports/har.js'
import type { RunResult, WritesSummary } from '../reports/run-result.js'
import { keepLastVerdict, writeAtomically, writeReports } from '../reports/write-reports.js'
import { isSelected } from '../spec/catalogue.js'
import { packageVersion } from '../spec/package-root.js'
import { assembleRun } from './assemble-run.js'
import { partialPasses } from './partial-passes.js'
import { CANCELLED, type Ending, type RunIo, type RunSession } from './run-session.js'

/** What the checks step gives back: a report per check, what the watchdog saw, and why a pass would be partial (partialPasses). */
export interface Checked {
  reports: CheckReport[]
  alarms: StallAlarm[]
  partial: ReadonlyMap<string, string>
}

export interface CheckStepOptions {
  /** Called as each check ends, with how many have ended. */
  onProgress?: RunChecksOptions['onProgress']
  /** Called with each check's report as it ends (the vitest entry hands each to its test). */
  onReport?: RunChecksOptions['onReport']
  /** The suite's every check, when the definitions given are a part of it (the vitest entry's selection). */
  suite?: readonly CheckDefinition[]
}

/** Run the given checks (those the requirement filter selects) within the run's stop, with the watchdog on. */
export async function runCheckStep(session: RunSession, definitions: readonly CheckDefinition[], options: CheckStepOptions = {}): Promise<Checked> {
  const { config, client, state, started } = session
  const watchdog = watchStalls(state.pending, client, { timeoutMs: config.timeoutMs, started, onAlarm: (alarm) => session.err(alarmLine(alarm)) })
  let reports: CheckReport[]
  let alarms: StallAlarm[]
  try {
    reports = await runChecks(definitions, state, { filter: config.requirements, stop: session.stop, ...options })
  } finally {
    alarms = watchdog.stop()
  }
  // The answers the checks shared (the survey, requests several checks judged) are no longer needed: the
  // reports keep only their evidence, cut to size. Released now, before the reports are rendered.
  state.release()
  reports.push(state.everyExchangeReport())
  if (isSelected('createPet/read-your-writes-lag', config.requirements)) reports.push(lagReport(state.lagLog, config.consistencyWindowMs, config.profile === 'smoke'))
  if (isSelected('responses/close-announced', config.requirements))
    reports.push(closesReport(client.unannouncedCloses, client.traffic.attempts.filter((attempt) => attempt.status !== undefined).length, session.redact, client.closeEvidence))
  return { reports, alarms, partial: partialPasses(options.suite ?? definitions, reports, config.requirements) }
}

/** From the check reports to the requirement verdicts and the exit code, the baseline compared and a stop accounted for. */
export function judgeRun(session: RunSession, checked: Checked): Ending {
  const { config, started } = session
  const stopped = session.stop.reason instanceof RunStop ? session.stop.reason : undefined
  const cancelled = stopped?.kind === 'cancelled'
  const harnessErrors = stopped
    ? [
        cancelled
          ? `${stopped.message} after ${((Date.now() - started) / 1000).toFixed(1)} s; checks not finished by then are inconclusive`
          : `the run deadline of ${config.deadlineMs} ms passed; checks not finished by then are inconclusive`,
      ]
    : []
  const judged = judgeAll(checked.reports, new Date(config.now), config.requirements, checked.partial)
  const compared = config.baseline ? compareWithBaseline(judged, config.baseline) : undefined
  const requirements = compared?.results ?? judged
  return {
    exitCode: exitCodeOf(requirements, config.strict, harnessErrors.length > 0, config.failOn === 'new'),
    requirements,
    reports: checked.reports,
    harnessErrors,
    seeding: session.seeding,
    ...(cancelled ? { stopReason: CANCELLED } : {}),
    ...(checked.alarms.length > 0 ? { watchdog: checked.alarms } : {}),
    ...(compared ? { baseline: compared.summary } : {}),
  }
}

export interface FinishOptions {
  /** Write results.json, junit.xml, summary.md and report.html to the report directory (default true). */
  writeReports?: boolean
}

/** The exit code, and the run's results when the target could be judged at all. */
export interface RunOutcome {
  exitCode: number
  result?: RunResult
}

/** What the run wrote: the client counts the requests that may create a pet and their 2xx answers; seeding says how many of those were its own. */
function writesOf(session: RunSession, seeding: SeedingOutcome): WritesSummary {
  const { client, config } = session
  const created = client.writes.answered2xx
  return {
    requestsSent: client.writes.sent,
    requestsNotSent: client.writes.notSent,
    createdBySeeding: seeding.created,
    createdByChecks: Math.max(0, created - seeding.created),
    storeHoldsAtLeast: seeding.knownBefore + created,
    ...(config.maxCreates !== undefined ? { maxCreates: config.maxCreates } : {}),
  }
}

/** The run's results, printed and (unless asked not to) written: for a judged run, and for one that stopped before judging. */
export async function finishRun(session: RunSession, ending: Ending, options: FinishOptions = {}): Promise<RunOutcome> {
  const { config, out, err } = session
  const { reports, ...facts } = ending
  const run = assembleRun({
    ...facts,
    baseUrl: session.baseUrl,
    embeddedReference: session.reference !== undefined,
    profile: config.profile,
    profileReason: config.profileReason,
    strict: config.strict,
    failOn: config.failOn,
    seed: config.seed,
    started: session.started,
    today: config.now,
    requirementFilter: config.requirements,
    requestsSent: session.client.requestCount,
    exchanges: { sent: session.client.exchangesSent, judged: session.state.exchangesJudged },
    rateLimitPauses: { pauses: session.client.pause.pauses, pausedMs: Math.round(session.client.pause.pausedMs) },
    writes: writesOf(session, ending.seeding ?? session.seeding),
    neighbourhood: {
      planned: session.state.neighbourhood.planned,
      sent: session.state.neighbourhood.sent,
      created: session.state.neighbourhood.created,
      ...(session.state.neighbourhood.gaveWay > 0 ? { gaveWay: session.state.neighbourhood.gaveWay } : {}),
      ...(session.state.neighbourhood.refusedCreates ? { refusedCreates: session.state.neighbourhood.refusedCreates } : {}),
      edits: session.state.neighbourhood.coverage,
    },
    ...(config.artifactsUrl ? { artifactsUrl: config.artifactsUrl } : {}),
    trace: session.trace,
    traffic: session.client.traffic.attempts,
    ...(config.har ? { harFile: relative(config.reportDir, config.har) } : {}),
  })
  if (ending.requirements) {
    out('')
    // Named once, first: the requirement lines below point at the cause instead of repeating its evidence.
    if (run.rootCauses.length > 0) out(renderRootCauses(run))
    out(renderRequirementLines(run.requirements, run.rootCauses))
  }
  if (ending.stopReason) err(`${ending.exitCode === EXIT.usage ? 'Configuration error' : 'Stopped'}: ${ending.stopReason}`)
  for (const error of run.harnessErrors) err(`Harness error: ${error}`)
  if (options.writeReports ?? true) {
    const kept = await keepLastVerdict(config.reportDir, run.exitCode)
    const files = await writeReports(config.reportDir, run, reports ?? [], session.redact)
    out('')
    out(`Reports: ${files.join(', ')}`)
    if (kept) out(`The last verdict's reports were moved to ${kept}, not overwritten: this run has none`)
  }
  if (config.har) {
    await mkdir(dirname(config.har), { recursive: true })
    await writeAtomically(
      config.har,
      renderHar({ attempts: session.client.traffic.attempts, reports: reports ?? [], trace: session.trace, version: packageVersion, redact: session.redact }),
    )
    out(`HAR: ${config.har} (${counted(session.client.traffic.attempts.length, 'request')})`)
  }
  if (run.baseline) out(renderBaselineTally(run))
  out(renderSummary(run))
  return { exitCode: ending.exitCode, result: run }
}

/** Progress on stderr during the checks: what is being judged, done/total, elapsed; at most one line every 2 s. */
export function progressReporter(io: RunIo, started: number, quiet: boolean): { update: (done: number, total: number, title: string) => void; end: () => void } {
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
