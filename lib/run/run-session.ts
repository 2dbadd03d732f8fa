/**
 * The first step of a run: open it. Start the embedded reference when no target is given, say what is
 * judged, check the target answers (preflight), seed its store (full profile), and hand back the session
 * the later steps share: the client, the run's stop, the state the checks work with. A run that cannot
 * go on (an unreachable target, a key every operation refuses) comes back with how it ended instead.
 */
import { randomBytes } from 'node:crypto'
import { setMaxListeners } from 'node:events'
import { RunState } from '../checks/check.js'
import type { CheckReport } from '../checks/check-result.js'
import { createRunRedactor, EVIDENCE_BODY_LIMIT } from '../checks/evidence.js'
import type { RunSettings } from '../checks/run-settings.js'
import { LagLog } from '../data/eventual-reads.js'
import { type SeedingOutcome, topUpStore } from '../data/seeding.js'
import { HttpClient } from '../http/client.js'
import { RunStop } from '../http/exchange.js'
import { INT64_MAX } from '../http/int64.js'
import { newTraceId } from '../http/trace-context.js'
import { EXIT } from '../judging/verdicts.js'
import { escapeControlCharacters } from '../reports/control-characters.js'
import type { RunTrace } from '../reports/run-result.js'
import { GET_PET_REMOVAL } from '../spec/catalogue.js'
import { withPathBelowBase } from '../spec/operation-requests.js'
import { packageVersion } from '../spec/package-root.js'
import type { OperationExchange, PetstoreApi } from '../spec/petstore-api.js'
import type { RunFacts } from './assemble-run.js'
import type { Config } from './config.js'
import { connectionsHeldBack, heldConnectionsLine, mayHoldConnections } from './held-connections.js'
import { listNotThere, noPetStoreReason } from './no-pet-store.js'
import type { ConformanceSuite, RunningReference } from './suite.js'

export interface RunIo {
  out: (line: string) => void
  err: (line: string) => void
  /** Rewrites one status line in place, on a terminal; without it, progress is printed as plain lines. */
  status?: (line: string) => void
}

/** How a run ended: judged (requirements and their reports), or stopped before judging (a reason). */
export type Ending = Pick<RunFacts, 'exitCode' | 'requirements' | 'harnessErrors' | 'seeding' | 'baseline' | 'stopReason' | 'watchdog'> & { reports?: CheckReport[] }

/** One run, open: what every later step (checks, judging, reports) works with. */
export interface RunSession {
  config: Config
  started: number
  baseUrl: string
  reference: RunningReference | undefined
  client: HttpClient
  /** The run's stop: its deadline, or a cancel; its reason a RunStop. */
  stop: AbortSignal
  /** Lines to the console, the key masked and control characters escaped. */
  out: (line: string) => void
  err: (line: string) => void
  redact: (text: string) => string
  /** What the checks work with: the settings as they see them, the client, the lag log. */
  state: RunState
  seeding: SeedingOutcome
  /** How the run's requests are found in the target's logs: the run id (also in the names of the pets it creates), its User-Agent and trace id. */
  trace: RunTrace
  /** Ends the run's timer, cuts or closes the client, stops the reference. */
  close: () => Promise<void>
}

export interface OpenOptions {
  /** Cancels the run (a signal, a cancelled CI job, vitest's own abort). The reason, when a string, names the cause ("SIGTERM"). */
  cancel?: AbortSignal | undefined
}

/** The User-Agent of every request: the suite, its version, and the run, so a vendor finds the run in their logs. */
function userAgentOf(runId: string): string {
  return `petstore-conformance/${packageVersion} run/${runId}`
}

/** The stopReason of a run that was cancelled (results.json). */
export const CANCELLED = 'cancelled'

function daysBetween(from: Date, to: Date): number {
  return Math.ceil((to.getTime() - from.getTime()) / 86_400_000)
}

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

function sayWhatIsJudged(session: RunSession): void {
  const { config, out, err, baseUrl, reference } = session
  out(
    reference
      ? `petstore-conformance ${packageVersion} judges its own EMBEDDED REFERENCE implementation (no --base-url given), not a service of yours`
      : `petstore-conformance ${packageVersion} judges ${baseUrl} against the Pet Store interface v1`,
  )
  out(`Target:  ${baseUrl}${reference ? ' (embedded reference implementation)' : ''}`)
  out(`Profile: ${config.profile} (${config.profileReason}); ${config.profile !== 'smoke' ? 'this run CREATES pets on the target' : 'read-only: this run sends no POST'}`)
  out(
    `Seed:    ${config.seed} (replay with --seed ${config.seed}); ${config.replayPath ? `replaying the generated case at path ${config.replayPath}` : `${config.numRuns} generated cases per property (--num-runs)`}`,
  )
  const daysLeft = daysBetween(new Date(config.now), GET_PET_REMOVAL)
  out(
    `Today:   ${config.now.slice(0, 10)}; getPet ${daysLeft > 0 ? `is deprecated, ${daysLeft} ${daysLeft === 1 ? 'day' : 'days'} before its removal on 2030-12-05 (its requirements are MUST)` : 'reached its removal date 2030-12-05: its requirements are INFO'}`,
  )
  if (!new URL(baseUrl).pathname.replace(/\/+$/, '').endsWith('/v1')) err(`WARNING: the base URL does not end with the version segment /v1 (spec, Versioning 2)`)
  if (config.apiKey !== undefined && config.apiKey.length < 12) {
    err(`WARNING: the API key has only ${config.apiKey.length} character(s); every occurrence of that text is masked in the output, which may garble words`)
  }
  out(
    session.trace.traceId
      ? `Trace:   ${session.trace.traceId} (every request carries it in traceparent, and run/${session.trace.runId} in User-Agent: grep your logs for either)`
      : `Trace:   none sent (--omit-traceparent); every request carries run/${session.trace.runId} in User-Agent`,
  )
  const headerNames = Object.keys(config.headers)
  if (headerNames.length > 0) out(`Headers: ${headerNames.join(', ')} on every request (values masked in every report)`)
  if (config.rateLimit !== undefined) out(`Rate:    at most ${config.rateLimit} requests started in any one second, retries included`)
  for (const secret of config.secrets) {
    if (secret.value.length < 8)
      err(`WARNING: ${secret.placeholder} is only ${secret.value.length} character(s); every occurrence of that text is masked in the output, which may garble words`)
  }
  if (config.insecure) err('WARNING: TLS certificate verification is OFF (--insecure). Never use this against production.')
}

/**
 * One read per kind of request the run sends, at once: a list to see the target answers at all (and one without
 * the key, which the interface refuses with 401), and getPet and a path probe so that an operation that hangs is
 * known after one timeout, not a wave later. No connection or no TLS session: nothing can be judged; a key every
 * operation refuses, or a base URL where nothing answers like the interface: a set-up mistake.
 */
async function preflight(session: RunSession, api: PetstoreApi): Promise<{ ended?: Ending; firstReads: OperationExchange[] }> {
  const firstReads = await Promise.all([
    api.listPets({ limit: 1 }),
    api.getPet(INT64_MAX),
    api.send(withPathBelowBase(api.request({ operation: 'listPets' }, null), ['pets', '']), 'probe'),
  ])
  const ended = await endingOf(session, api, firstReads)
  return ended ? { ended, firstReads } : { firstReads }
}

/** How the run ends at its first reads, when it cannot go on: the target unreachable, the key refused everywhere, no pet store there. */
async function endingOf(session: RunSession, api: PetstoreApi, [list, get, probe]: [OperationExchange, OperationExchange, OperationExchange]): Promise<Ending | undefined> {
  // Anything else (a timeout, a reset, a huge body) is the target's behaviour, which the checks judge and report.
  if (list.failure && (list.failure.kind === 'unreachable' || list.failure.kind === 'tls')) {
    return { exitCode: EXIT.harness, stopReason: `target unreachable: GET ${list.request.url}: ${list.failure.message}` }
  }
  // A server that wants a client certificate closes the connection after the handshake; undici sees only the close.
  const alert = list.failure?.kind === 'connection' ? await session.client.tlsAlert() : undefined
  if (alert) {
    const hint = session.config.clientCert ? 'it refused the client certificate (--client-cert)' : 'it may want a client certificate: give --client-cert and --client-key'
    return { exitCode: EXIT.harness, stopReason: `target unreachable: GET ${list.request.url}: TLS: the server ended the session with ${alert}; ${hint}` }
  }
  // Connections taken and not a byte of an answer to any of the three: nothing can be judged (exit 3), within one timeout.
  const preflights = [list, get, probe]
  if (preflights.every((exchange) => exchange.failure?.silent)) {
    return {
      exitCode: EXIT.harness,
      stopReason: `the target never answered: it took the connections, and none of the run's first requests (GET ${list.request.url}, GET ${get.request.url}, GET ${probe.request.url}) got a byte of an answer within ${session.config.timeoutMs} ms`,
    }
  }
  if (list.failure) session.err(`WARNING: GET ${list.request.url} failed (${list.failure.message}); the checks will say what else fails`)
  if (list.response?.status === 401 && (await keyRefusedEverywhere(api, get, session.config.profile))) {
    return { exitCode: EXIT.usage, stopReason: 'the target answered 401 to the configured key on every operation: check PETSTORE_API_KEY' }
  }
  // Only where the list is not there: a run against a service that answers it sends nothing more.
  if (!listNotThere(list)) return undefined
  // After the others: beside the list, one's timeout would cut the other, which goes again and doubles the wait.
  const noPetStore = noPetStoreReason(session.baseUrl, list, await api.listPets({ limit: 1 }, null))
  if (noPetStore) return { exitCode: EXIT.usage, stopReason: noPetStore }
  return undefined
}

/** Open a run: the session, and how it ended when it cannot go on to the checks. Close the session in every case. */
export async function openRun(
  config: Config,
  suite: Pick<ConformanceSuite, 'startReference'>,
  io: RunIo,
  options: OpenOptions = {},
): Promise<{ session: RunSession; ended?: Ending }> {
  const started = Date.now()
  // The embedded reference's key is random base64url: no word of it stands in a report, where its pieces would be masked.
  const apiKey = config.apiKey ?? (config.baseUrl === undefined ? randomBytes(18).toString('base64url') : '')
  const redact = createRunRedactor(apiKey, config.secrets)
  const reference = config.baseUrl === undefined ? await suite.startReference({ apiKey }) : undefined
  const baseUrl = config.baseUrl ?? (reference as RunningReference).baseUrl
  const runId = randomBytes(4).toString('hex')
  const trace: RunTrace = { ...(config.omitTraceparent ? {} : { traceId: newTraceId() }), runId, userAgent: userAgentOf(runId) }
  const stop = runStop(config.deadlineMs, options.cancel)
  const client = new HttpClient({
    ...config,
    baseUrl,
    stop: stop.signal,
    userAgent: trace.userAgent,
    traceId: trace.traceId,
    keepBodiesUpTo: config.har ? EVIDENCE_BODY_LIMIT : undefined,
  })
  const lagLog = new LagLog()
  // The settings the checks see: the configuration, with the target and the key it resolved to.
  const settings: RunSettings = { ...config, baseUrl, apiKey, embeddedReference: reference !== undefined, runId }
  const session: RunSession = {
    config,
    started,
    baseUrl,
    reference,
    client,
    stop: stop.signal,
    out: (line) => io.out(escapeControlCharacters(redact(line))),
    err: (line) => io.err(escapeControlCharacters(redact(line))),
    redact,
    state: new RunState(settings, client, redact, lagLog),
    trace,
    seeding: { knownBefore: 0, created: 0, note: 'not seeded: the smoke profile is read-only' },
    close: async () => {
      stop.dispose()
      // Once the run stopped, requests still in flight are cut rather than waited for.
      await (stop.signal.aborted ? client.destroy() : client.close())
      await reference?.close()
    },
  }
  try {
    sayWhatIsJudged(session)
    // The preflight's and the seeding's exchanges are judged like every other (policy §2b).
    const api = session.state.api()
    const { ended, firstReads } = await preflight(session, api)
    if (ended) return { session, ended }
    // Against a service of the user's (never the embedded reference, which serves connections at once), directly.
    if (config.baseUrl !== undefined && session.client.writesEditedRequests && mayHoldConnections(firstReads)) {
      const held = await connectionsHeldBack(api)
      if (held) {
        session.out(heldConnectionsLine(held))
        await session.client.keepNoConnectionAlive()
      }
    }
    if (config.profile !== 'smoke') await seed(session, api, runId, lagLog)
    return { session }
  } catch (error) {
    await session.close()
    throw error
  }
}

/** Top up the store to what the checks need (full profile): pets this run created, named by its prefix. */
async function seed(session: RunSession, api: PetstoreApi, runId: string, lagLog: LagLog): Promise<void> {
  const { config, client, stop } = session
  session.seeding = await topUpStore(api, {
    namePrefix: config.namePrefix,
    runId,
    categoryId: config.categoryIds[0] ?? '1',
    concurrency: config.concurrency,
    consistencyWindowMs: config.consistencyWindowMs,
    lagLog,
    stop,
    sleep: (ms) => client.sleep(ms),
    wholeStore: (ids) => session.state.knownPets.storeBeforeWrites(ids),
  })
  session.out(`Seeding: ${session.seeding.note}`)
}
