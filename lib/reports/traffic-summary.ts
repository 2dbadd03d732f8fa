/**
 * Where the time of a run went, from its traffic log: per operation, the latency of its answers (p50, p95,
 * max) and its attempts by status class; and the run as a timeline of equal slices, each with the most
 * requests in flight, the requests started, and the retries, 429s and timeouts seen in it. results.json
 * keeps it; report.html draws it.
 */
import type { AttemptRecord } from '../http/traffic.js'

export type StatusClass = '1xx' | '2xx' | '3xx' | '4xx' | '5xx' | 'no answer'

export const STATUS_CLASSES: readonly StatusClass[] = ['1xx', '2xx', '3xx', '4xx', '5xx', 'no answer']

export interface OperationTraffic {
  /** `GET /pets`, `POST /pets`, `GET /pets/{id}`, or the probes of other paths. */
  operation: string
  /** Attempts sent, retries included. */
  requests: number
  /** Latency of the attempts that were answered, in ms (nearest rank); absent when none was. */
  latencyMs?: { p50: number; p95: number; max: number }
  byStatusClass: Record<StatusClass, number>
}

export interface TimelineSlice {
  /** The most requests in flight at once within the slice. */
  inFlight: number
  /** Requests sent within the slice. */
  started: number
  /** Attempts within the slice that were retried. */
  retried: number
  /** Attempts answered 429 within the slice. */
  tooManyRequests: number
  /** Attempts that timed out within the slice. */
  timeouts: number
}

export interface TrafficSummary {
  operations: OperationTraffic[]
  timeline: {
    /** The length of one slice, in ms; the first starts at the run's start. */
    sliceMs: number
    slices: TimelineSlice[]
  }
}

/** Most slices of a timeline: fine enough to see a burst, small enough for results.json. */
const MOST_SLICES = 120

function nearestRank(sorted: readonly number[], percentile: number): number {
  return sorted[Math.max(0, Math.ceil((percentile / 100) * sorted.length) - 1)] ?? 0
}

function classOf(attempt: AttemptRecord): StatusClass {
  if (attempt.status === undefined) return 'no answer'
  const hundreds = Math.floor(attempt.status / 100)
  return hundreds >= 1 && hundreds <= 5 ? (`${hundreds}xx` as StatusClass) : 'no answer'
}

function operationTraffic(operation: string, attempts: readonly AttemptRecord[]): OperationTraffic {
  const byStatusClass = Object.fromEntries(STATUS_CLASSES.map((name) => [name, 0])) as Record<StatusClass, number>
  for (const attempt of attempts) byStatusClass[classOf(attempt)] += 1
  const latencies = attempts
    .filter((attempt) => attempt.status !== undefined)
    .map((attempt) => Math.round(attempt.durationMs))
    .sort((a, b) => a - b)
  return {
    operation,
    requests: attempts.length,
    ...(latencies.length > 0 ? { latencyMs: { p50: nearestRank(latencies, 50), p95: nearestRank(latencies, 95), max: latencies[latencies.length - 1] ?? 0 } } : {}),
    byStatusClass,
  }
}

function timeline(attempts: readonly AttemptRecord[], runStartedAt: number, durationMs: number): TrafficSummary['timeline'] {
  const sliceMs = Math.max(10, Math.ceil(Math.max(durationMs, 1) / MOST_SLICES))
  const count = Math.max(1, Math.ceil(Math.max(durationMs, 1) / sliceMs))
  const slices: TimelineSlice[] = Array.from({ length: count }, () => ({ inFlight: 0, started: 0, retried: 0, tooManyRequests: 0, timeouts: 0 }))
  const indexAt = (at: number) => Math.min(count - 1, Math.max(0, Math.floor((at - runStartedAt) / sliceMs)))
  const sliceAt = (at: number) => slices[indexAt(at)] as TimelineSlice
  // In flight: +1 at each start, -1 at each end; each slice keeps the highest level it saw, and a level held across slices counts in each.
  const steps = attempts.flatMap((attempt) => [
    { at: attempt.startedAt, change: 1 },
    { at: attempt.startedAt + attempt.durationMs, change: -1 },
  ])
  steps.sort((a, b) => a.at - b.at || a.change - b.change)
  let level = 0
  let lastIndex = 0
  for (const step of steps) {
    const index = indexAt(step.at)
    for (let carried = lastIndex + 1; carried <= index; carried++) {
      const slice = slices[carried] as TimelineSlice
      slice.inFlight = Math.max(slice.inFlight, level)
    }
    level += step.change
    const slice = slices[index] as TimelineSlice
    slice.inFlight = Math.max(slice.inFlight, level)
    lastIndex = Math.max(lastIndex, index)
  }
  for (const attempt of attempts) {
    const slice = sliceAt(attempt.startedAt)
    slice.started += 1
    if (attempt.retried) sliceAt(attempt.startedAt + attempt.durationMs).retried += 1
    if (attempt.status === 429) sliceAt(attempt.startedAt + attempt.durationMs).tooManyRequests += 1
    if (attempt.failure?.kind === 'timeout') sliceAt(attempt.startedAt + attempt.durationMs).timeouts += 1
  }
  return { sliceMs, slices }
}

/** The summary of a run's attempts, the run having started at `runStartedAt` (ms since the epoch) and lasted `durationMs`. */
export function summariseTraffic(attempts: readonly AttemptRecord[], runStartedAt: number, durationMs: number): TrafficSummary {
  const byOperation = new Map<string, AttemptRecord[]>()
  for (const attempt of attempts) {
    const operation = attempt.operation ?? `${attempt.method} (other)`
    const ofOperation = byOperation.get(operation)
    if (ofOperation) ofOperation.push(attempt)
    else byOperation.set(operation, [attempt])
  }
  return {
    operations: [...byOperation]
      .map(([operation, ofOperation]) => operationTraffic(operation, ofOperation))
      .sort((a, b) => (a.operation < b.operation ? -1 : a.operation > b.operation ? 1 : 0)),
    timeline: timeline(attempts, runStartedAt, durationMs),
  }
}
