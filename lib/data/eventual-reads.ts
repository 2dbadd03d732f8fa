/**
 * Reads of a pet the run created, within the consistency window (policy §2): a service may answer from a
 * replica that lags behind its writes. The read is sent at once, and repeated with backoff while what it
 * looks for is missing, a bounded number of times, until the window closes. Nothing waits when the pet is
 * already there. Every lag seen is recorded, and the run reports the longest (an INFO requirement).
 * Once a pet has stayed missing for a whole window, later reads look once: the target has shown that it
 * does not show pets within the window, and waiting again would only stretch the run.
 */
import { delay } from '../http/waits.js'
import type { OperationExchange } from '../spec/petstore-api.js'

/** Most reads of one pet within a window: the first, then the retries. */
export const MAX_READS = 8
/** The first wait between reads; each next wait doubles. */
const FIRST_BACKOFF_MS = 100

export interface EventualRead {
  /** The last read: the one that found the pet, or the last one sent before the window closed. */
  exchange: OperationExchange
  found: boolean
  reads: number
  /** From the window's opening (the 201, or the first read's start) to the read that found the pet, or to the last read. */
  waitedMs: number
  windowMs: number
  /** True when the read looked only once because an earlier pet had already used up a window. */
  windowSpent: boolean
}

/**
 * How long a read looked, for a failure's message: "within the consistency window of 5000 ms (8 reads over 5120 ms)".
 * A last read that got no answer (a timeout, a reset) is named as such: the window did not close on a missing pet.
 */
export function windowWords(read: EventualRead): string {
  const reads = `${read.reads} ${read.reads === 1 ? 'read' : 'reads'} over ${read.waitedMs} ms`
  const { failure, response } = read.exchange
  const unanswered = failure && !response ? `; the last read got no answer (${failure.message}), which is no lag of the store` : ''
  return `within the consistency window of ${read.windowMs} ms (${reads}${read.windowSpent ? '; read once: an earlier pet already stayed missing for a whole window' : ''}${unanswered})`
}

/** The lags the checks of one run saw, for createPet/read-your-writes-lag, and whether a read has spent a whole window yet. */
export class LagLog {
  /** Reads of created pets within the window (each may have sent several requests). */
  reads = 0
  /** Reads of created pets that had to be repeated. */
  readonly lags: Array<{ what: string; ms: number; reads: number }> = []
  /** Reads of created pets that found nothing when the window closed. */
  readonly missing: string[] = []
  /**
   * Set once any read (of a created pet or of one the run only listed) stayed missing for a whole window: a target
   * that loses pets would make every later read wait one out, so from then on each is read once.
   */
  windowSpent = false
}

/** The waits between reads within a window: doubling from 100 ms, at most MAX_READS - 1 of them, their sum within the window. */
export function backoffSchedule(windowMs: number): number[] {
  const waits: number[] = []
  let total = 0
  for (let wait = FIRST_BACKOFF_MS; waits.length < MAX_READS - 1 && total < windowMs; wait *= 2) {
    const next = Math.min(wait, windowMs - total)
    waits.push(next)
    total += next
  }
  return waits
}

export interface EventualReadOptions {
  windowMs: number
  /** The read, in words, for the lag report and failure messages. */
  what: string
  read: () => Promise<OperationExchange>
  found: (exchange: OperationExchange) => boolean
  log: LagLog
  /** False for a read that prepares data (seeding): its miss is no evidence that the target loses pets. */
  missIsEvidence?: boolean
  /**
   * False for a read of a pet this run did not create (a sequence reading a listed pet again): it waits within the
   * window like any read, but it is no read of a write, so createPet/read-your-writes-lag does not count it.
   */
  ofCreatedPet?: boolean
  /** The run's stop (its deadline, or a cancel): no wait outlasts it. */
  stop?: AbortSignal
  /** How to wait between reads (the HTTP client's sleep, so the watchdog knows a timed wait from a stall); by default a plain delay. */
  sleep?: (ms: number) => Promise<void>
  /** The first read, when it was already sent. */
  first?: OperationExchange
  /**
   * When the window opened, on `now`'s clock: the instant the create's 201 came, for a pet this run created. A read
   * the run could send only later (its requests queued, a rate limit's pause) still closes the window where the
   * policy puts it, not a window after that read. By default the first read's start.
   */
  since?: number | undefined
  /** The clock the window is counted on (ms): the process's monotonic one. */
  now?: () => number
}

export async function readWithinWindow({
  windowMs,
  what,
  read,
  found,
  log,
  missIsEvidence = true,
  ofCreatedPet = true,
  stop,
  sleep = (ms) => delay(ms, stop),
  first,
  since,
  now = () => performance.now(),
}: EventualReadOptions): Promise<EventualRead> {
  if (ofCreatedPet) log.reads += 1
  const started = since ?? now() - (first?.durationMs ?? 0)
  let exchange = first ?? (await read())
  let reads = 1
  const schedule = log.windowSpent ? [] : backoffSchedule(windowMs)
  for (const wait of schedule) {
    if (found(exchange)) break
    // A read that was not sent (its operation given up, or the run stopped) will not be sent again: waiting out the window would only stretch the run.
    if (stop?.aborted || exchange.failure?.notSent) break
    // The window is counted on the clock, the reads' own time included: no read starts after it closed, so a pet that
    // shows only later is missing when the window closes (policy, consistency), however slowly the target answers.
    const left = windowMs - (now() - started)
    if (left <= 0) break
    await sleep(Math.min(wait, left))
    exchange = await read()
    reads += 1
  }
  const ok = found(exchange)
  const waitedMs = Math.round(now() - started)
  if (ok && reads > 1 && ofCreatedPet) log.lags.push({ what, ms: waitedMs, reads })
  // A read never sent shows nothing of the store: it is no evidence that the target loses pets.
  if (!ok && missIsEvidence && !exchange.failure?.notSent) {
    log.windowSpent = true
    if (ofCreatedPet) log.missing.push(what)
  }
  return { exchange, found: ok, reads, waitedMs, windowMs, windowSpent: schedule.length === 0 && windowMs > 0 }
}
