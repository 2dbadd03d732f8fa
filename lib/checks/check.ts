/**
 * What every check of suites/ runs with: an API bound to the target, the shared assertions and the
 * store survey. It records every exchange, judges the requirements that hold on every exchange, and
 * gives the runner the check's outcome and evidence.
 */
import { type EventualRead, LagLog, readWithinWindow } from '../data/eventual-reads.js'
import { KnownPets, type WindowedReads } from '../data/known-pets.js'
import { type StoreSurvey, surveyLists, surveyStore } from '../data/store-survey.js'
import type { HttpClient } from '../http/client.js'
import { excerpt, MESSAGE_LIMIT } from '../http/excerpt.js'
import type { Redactor } from '../http/redaction.js'
import type { CoverageRow } from '../neighbourhood/edit-plan.js'
import { type OperationExchange, PetstoreApi } from '../spec/petstore-api.js'
import { withSourcePositions } from '../spec/stack-sources.js'
import { Assertions, ConformanceFailure, Inconclusive } from './assertions.js'
import type { CheckReport, IncidentalFinding } from './check-result.js'
import { requirementIdOfTitle } from './check-result.js'
import type { ClientView } from './client-view.js'
import { DistinctIds } from './distinct-ids.js'
import type { EditFinding } from './edited-lists.js'
import { createRunRedactor, toEvidence } from './evidence.js'
import { incidentalResults } from './incidental-checks.js'
import type { RunSettings } from './run-settings.js'

/** The edits of a run (results.json `neighbourhood`): every request, part and operator with its count, and the pets the edits left on the store. */
export interface NeighbourhoodRecord {
  coverage: CoverageRow[]
  planned: number
  sent: number
  /** Creates the edits (and their plain requests) were answered 201 to: pets left on the store. */
  created: number
  /** Edits beyond the cover not sent, because the target's rate limit had paused the run long enough (policy §2, rate limits). */
  gaveWay: number
  /** The creates the service refused, how many of them the run verified were not stored, and why the rest could not be (policy §2b, the leakage rule). */
  refusedCreates?: RefusedCreatesRecord
}

export interface RefusedCreatesRecord {
  refused: number
  verified: number
  /** How they were verified: by lists that hold every pet of the run, or by the ids a stored one would have taken. */
  by?: 'lists' | 'ids'
  /** Why the rest could not be verified. */
  undecided?: string
}

/** The report that holds the findings of every exchange: no requirement of its own, only the findings it carries. */
export const EVERY_EXCHANGE_REPORT = 'run/every-exchange'

/** Most exchanges attached as evidence to one failure. */
const EVIDENCE_PER_FAILURE = 5

/** What the checks of one run share: the settings, one HTTP client, the survey and work done once. */
export class RunState {
  survey?: Promise<StoreSurvey>
  readonly shared = new Map<string, Promise<unknown>>()
  /** The checks still running, for the watchdog to say what each waits on. */
  readonly pending = new Set<Check>()
  /** The findings of each exchange on the rules of every answer, made once however many checks record it (the sequences' exchanges are recorded by 16). */
  private readonly findingsByExchange = new WeakMap<OperationExchange, IncidentalFinding[]>()

  findingsOf(exchange: OperationExchange): IncidentalFinding[] {
    let findings = this.findingsByExchange.get(exchange)
    if (!findings) {
      findings = [...incidentalResults(exchange, this.today, this.settings.apiKey), ...this.distinctIds.judge(exchange)].map((result) => ({
        requirementId: result.requirementId,
        exchangeId: exchange.id,
        ok: result.ok,
        ...(result.message ? { message: excerpt(result.message, MESSAGE_LIMIT) } : {}),
        ...(result.ok ? {} : { evidence: toEvidence(exchange, this.redact) }),
      }))
      this.findingsByExchange.set(exchange, findings)
      // The same exchange may come as several objects (a lost create sent again is returned as one): it is judged once.
      if (!exchange.failure?.notSent && !this.judgedIds.has(exchange.id)) {
        this.judgedIds.add(exchange.id)
        this.everyExchange.push(findings)
      }
    }
    return findings
  }

  /** The ids the run's creates were answered with (createPet/ids-unique, whichever checks sent them). */
  private readonly distinctIds = new DistinctIds()
  /** The ids of the exchanges judged, and their findings: the run's report of every exchange (policy §2b), those no check recorded included. */
  private readonly judgedIds = new Set<number>()
  private readonly everyExchange: IncidentalFinding[][] = []

  /** How many exchanges that went out were judged on the rules of every answer (results.json `exchanges.judged`). */
  get exchangesJudged(): number {
    return this.judgedIds.size
  }

  /**
   * The findings of every exchange the run judged, as one report: the survey's reads, seeding, retries, lookups and
   * searches count like every check's exchanges, whether a check recorded them or not (verdicts count an exchange once).
   */
  everyExchangeReport(): CheckReport {
    return {
      requirementId: EVERY_EXCHANGE_REPORT,
      title: 'every exchange of the run, held to the rules of every answer',
      outcome: 'pass',
      observations: [],
      incidental: this.everyExchange.flat(),
      exchangeIds: [],
      assertions: 0,
    }
  }

  /** What the neighbourhood of the run's requests came to (policy §2b): the edits planned per request, part and operator, and what they did. */
  readonly neighbourhood: NeighbourhoodRecord = { coverage: [], planned: 0, sent: 0, created: 0, gaveWay: 0 }

  /** Drops the shared answers once every check has ended, so their bodies can be collected. */
  release(): void {
    this.shared.clear()
    this.survey = undefined
  }

  constructor(
    readonly settings: RunSettings,
    readonly client: HttpClient,
    /** Masks the key and the run's other secrets in everything a report quotes. */
    readonly redact: Redactor = createRunRedactor(settings.apiKey),
    /** The lags reads of created pets saw (seeding's included), for createPet/read-your-writes-lag. */
    readonly lagLog = new LagLog(),
  ) {
    this.today = new Date(settings.now)
    const stop = client.options.stop
    this.windowedReads = { windowMs: settings.consistencyWindowMs, log: lagLog, ...(stop ? { stop } : {}), sleep: (ms) => client.sleep(ms) }
    this.knownPets = new KnownPets(this.windowedReads)
  }

  /** The date the run takes as today, read once (every exchange recorded is judged against it). */
  readonly today: Date
  /** How every read within the consistency window waits: the window, the lag log, the run's stop, the client's sleep. */
  readonly windowedReads: WindowedReads
  /** The pets the run knows exist; every check's API reads them within the consistency window. */
  readonly knownPets: KnownPets

  /** An API on the run's client that judges every exchange on the rules of every answer, records it as no check's, and reads known pets within the consistency window. */
  api(): PetstoreApi {
    return new PetstoreApi(this.client, this.settings.apiKey, (exchange) => void this.findingsOf(exchange), undefined, this.knownPets)
  }
}

/** How a check ended, as the runner saw it. */
export type CheckEnd = { state: 'pass' } | { state: 'inconclusive'; reason: string } | { state: 'fail'; error: unknown }

export class Check {
  readonly expect: Assertions
  readonly exchanges: OperationExchange[] = []
  readonly observations: string[] = []
  readonly api: PetstoreApi
  readonly context: RunSettings
  private readonly findings: IncidentalFinding[] = []
  private readonly seenExchanges = new Set<number>()
  /** What the check awaits now, each with how many times at once (several requests may be in flight). */
  private readonly waits = new Map<string, number>()

  constructor(
    private readonly state: RunState,
    readonly title: string,
  ) {
    this.context = state.settings
    this.expect = new Assertions(requirementIdOfTitle(title) ?? '')
    this.api = new PetstoreApi(
      state.client,
      state.settings.apiKey,
      (exchange) => this.record(exchange),
      (what, work) => this.waitFor(what, work),
      state.knownPets,
    )
  }

  /** What the check waits on now, in words (for the watchdog): requests, shared work, the survey, re-reads. */
  get waitingOn(): string[] {
    return [...this.waits].map(([what, count]) => (count > 1 ? `${what} (×${count})` : what))
  }

  /** Awaits `work`, known meanwhile as what the check waits on. */
  private async waitFor<T>(what: string, work: Promise<T>): Promise<T> {
    this.waits.set(what, (this.waits.get(what) ?? 0) + 1)
    try {
      return await work
    } finally {
      const left = (this.waits.get(what) ?? 1) - 1
      if (left > 0) this.waits.set(what, left)
      else this.waits.delete(what)
    }
  }

  /** The date the run takes as today. */
  get now(): Date {
    return this.state.today
  }

  /** Masks the key in text the check quotes itself (a script it writes, say), as the reports mask everything else. */
  get redact(): Redactor {
    return this.state.redact
  }

  /** The pets the run knows exist, and which of them its creates made. */
  get knownPets(): KnownPets {
    return this.state.knownPets
  }

  /** What the neighbourhood of the run's requests came to, for results.json. */
  get neighbourhood(): NeighbourhoodRecord {
    return this.state.neighbourhood
  }

  /** Of the client: what a check may read of it. */
  get client(): ClientView {
    const { ownFields: fields, writesEditedRequests, pause, answeredHttpVersions, writes } = this.state.client
    return { fields, writesEditedRequests, pausedMs: pause.pausedMs, answeredHttpVersions, writes }
  }

  /** Aborted when the run stops (its deadline, or a cancel): long work such as a shrink ends there. */
  get stop(): AbortSignal | undefined {
    return this.state.client.options.stop
  }

  get isReadOnly(): boolean {
    return this.context.profile === 'smoke'
  }

  /** The store survey shared by all checks of the run; its exchanges become evidence of this check too. */
  async survey(): Promise<StoreSurvey> {
    this.state.survey ??= surveyStore(this.state.api())
    const survey = await this.waitFor('the store survey (shared)', this.state.survey)
    for (const exchange of surveyLists(survey)) this.record(exchange)
    return survey
  }

  /**
   * A request several checks judge (e.g. the 400 of limit=0, read by a MUST and a SHOULD check):
   * sent once per run under `key`, and recorded as evidence of every check that asks for it.
   */
  async shared(key: string, send: (api: PetstoreApi) => Promise<OperationExchange>): Promise<OperationExchange> {
    const exchange = await this.once(`exchange:${key}`, send)
    this.record(exchange)
    return exchange
  }

  /**
   * Work several checks judge (a generated-case run, a shrink): done once per run under `key`, with an API
   * that records nothing; a check adopts the exchanges it judges with `adopt`.
   */
  once<T>(key: string, compute: (api: PetstoreApi) => Promise<T>): Promise<T> {
    let pending = this.state.shared.get(key) as Promise<T> | undefined
    if (!pending) {
      pending = compute(this.state.api())
      this.state.shared.set(key, pending)
    }
    return this.waitFor(`shared work "${key}"`, pending)
  }

  /**
   * Read a pet this run created until `found` holds or the consistency window closes (policy §2): at once, then with
   * backoff, a bounded number of times. `what` names the read in the lag report. The window opens when the latest 201
   * of `pets` came, when the run knows them all. A read of a pet the run did not create (`ofCreatedPet: false`) waits
   * the same, but is left out of the lag report.
   */
  eventually(
    what: string,
    read: (api: PetstoreApi) => Promise<OperationExchange>,
    found: (exchange: OperationExchange) => boolean,
    api: PetstoreApi = this.api,
    { ofCreatedPet = true, pets = [] }: { ofCreatedPet?: boolean; pets?: readonly bigint[] } = {},
  ): Promise<EventualRead> {
    const reads = { ...this.state.windowedReads, what, read: () => read(api), found, ofCreatedPet, since: this.knownPets.latestCreatedAt(pets) }
    return this.waitFor(`${what}, read until found within the consistency window`, readWithinWindow(reads))
  }

  /** Record exchanges sent by shared work as this check's own: evidence, and the rules of every answer. */
  adopt(exchanges: Iterable<OperationExchange>): void {
    for (const exchange of exchanges) this.record(exchange)
  }

  /** Stop the check: it could not be decided on this target in this run. */
  inconclusive(reason: string): never {
    throw new Inconclusive(reason)
  }

  /** A precondition on the data or the profile; when it does not hold the check is inconclusive. */
  require(condition: boolean, reason: string): void {
    if (!condition) this.inconclusive(reason)
  }

  /** An answer is needed to judge: a request that got none (a timeout, a reset) shows nothing either way. */
  requireAnswer(exchange: OperationExchange, what: string): void {
    this.require(exchange.response !== undefined, `${what} got no answer (${exchange.failure?.message ?? 'unknown'}), so nothing shows whether it was served`)
  }

  /** Checks that create pets are inconclusive in the read-only smoke profile. */
  requireWrites(): void {
    this.require(!this.isReadOnly, 'the smoke profile is read-only and sends no POST; run with --profile full')
  }

  /** Findings on an edited request's answer, each charged to its own requirement, with the plain request's exchange beside it as evidence. */
  charge(exchange: OperationExchange, findings: readonly EditFinding[], plain: OperationExchange | undefined, what: string): void {
    // Judged and let go: a check that sends thousands of requests keeps their findings and ids, not their bodies.
    this.recordFindingsOnly(exchange)
    const { redact } = this.state
    for (const finding of findings) {
      this.findings.push({
        requirementId: finding.requirementId,
        exchangeId: exchange.id,
        ok: finding.ok,
        ...(finding.message !== undefined ? { message: redact(excerpt(`${what}: ${finding.message}`, MESSAGE_LIMIT)) } : {}),
        ...(finding.ok ? {} : { evidence: toEvidence(exchange, redact), ...(plain ? { plain: toEvidence(plain, redact) } : {}) }),
      })
    }
  }

  /** Record what the target does, for an INFO requirement. */
  observe(note: string): void {
    this.observations.push(note)
  }

  /** A name for a pet this run creates: the configured prefix, the run id, and a label. */
  petName(label: string): string {
    return `${this.context.namePrefix}${this.context.runId}-${label}`
  }

  /** The rules of every answer judged on an exchange the check does not keep as evidence (its failures carry their own). */
  private recordFindingsOnly(exchange: OperationExchange): void {
    if (this.seenExchanges.has(exchange.id)) return
    this.seenExchanges.add(exchange.id)
    this.unkeptExchangeIds.push(exchange.id)
    this.findings.push(...this.state.findingsOf(exchange))
  }

  /** Ids of exchanges judged but not kept (recordFindingsOnly). */
  private readonly unkeptExchangeIds: number[] = []

  private record(exchange: OperationExchange): void {
    if (this.seenExchanges.has(exchange.id)) return
    this.seenExchanges.add(exchange.id)
    this.exchanges.push(exchange)
    this.findings.push(...this.state.findingsOf(exchange))
  }

  /** The report of this check, given how it ended. */
  report(end: CheckEnd): CheckReport {
    const { redact } = this.state
    // What a report quotes of the target is cut first: a message may carry a name or a number of millions of characters.
    const quote = (text: string) => redact(excerpt(text, MESSAGE_LIMIT))
    const { requirementId } = this.expect
    const common = {
      requirementId,
      title: redact(this.title),
      observations: this.observations.map(redact),
      incidental: this.findings,
      exchangeIds: [...this.exchanges.map((exchange) => exchange.id), ...this.unkeptExchangeIds],
      retried: this.exchanges
        .filter((exchange) => exchange.retries.length > 0)
        .map((exchange) =>
          redact(
            `${exchange.request.method} ${exchange.request.url}: retried after ${exchange.retries.map((attempt) => `${attempt.status ?? attempt.failure} (waited ${Math.round(attempt.waitedMs ?? 0)} ms)`).join(', ')}`,
          ),
        ),
      assertions: this.expect.count,
    }
    if (!requirementId) return { ...common, outcome: 'error', reason: 'the check title does not start with [requirement-id]' }
    if (end.state === 'inconclusive') return { ...common, outcome: 'inconclusive', reason: redact(end.reason) }
    if (end.state === 'fail') {
      const failure = this.expect.failure
      if (failure && end.error instanceof ConformanceFailure) {
        const cited = failure.exchange ? [failure.exchange, ...this.exchanges.filter((exchange) => exchange.id !== failure.exchange?.id)] : this.exchanges
        return {
          ...common,
          outcome: 'fail',
          failure: {
            message: quote(failure.message),
            ...(failure.expected !== undefined ? { expected: quote(failure.expected) } : {}),
            ...(failure.actual !== undefined ? { actual: quote(failure.actual) } : {}),
            ...(failure.schemaErrors ? { schemaErrors: failure.schemaErrors.slice(0, 20).map(quote) } : {}),
            ...(failure.cause ? { cause: { input: failure.cause.input, words: quote(failure.cause.words) } } : {}),
            ...(failure.replay
              ? {
                  replay: {
                    ...failure.replay,
                    counterexample: redact(failure.replay.counterexample),
                    ...(failure.replay.script !== undefined ? { script: redact(failure.replay.script) } : {}),
                  },
                }
              : {}),
            evidence: cited.slice(0, EVIDENCE_PER_FAILURE).map((exchange) => toEvidence(exchange, redact)),
          },
        }
      }
      const error = end.error instanceof Error ? end.error : new Error(String(end.error))
      return { ...common, outcome: 'error', reason: redact(`${error.name}: ${error.message}\n${withSourcePositions(error.stack ?? '')}`) }
    }
    if (this.expect.count === 0 && this.observations.length === 0) {
      return { ...common, outcome: 'error', reason: 'the check ran no assertion, so it cannot pass' }
    }
    return { ...common, outcome: 'pass' }
  }
}
