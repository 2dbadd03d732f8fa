/**
 * The run's watchdog: a run must never sit still unseen. Every wait of a run is bounded (a request by its
 * timeout, a retry by --max-retry-wait-ms, a re-read by the consistency window, a shrink by its budget, all
 * by the deadline), so a run that has sent nothing and heard nothing for longer than the request timeout
 * (at least 5 s, so that a loaded machine's pauses are not taken for one) while checks are still running, and
 * is not sleeping to a known end (a Retry-After, a re-read's pause), is a fault of the suite, or a wait that
 * should have been bounded and is not.
 * The watchdog says so at once, naming each waiting check and what it waits on, instead of leaving a pipeline
 * to guess why nothing moves; the alarm is also kept in results.json.
 * Stillness counts only time the process had to run in: when the watchdog's own timer fires late, the process was
 * not scheduled (a machine busy with other work), and the lateness is taken off, since a run that could not run
 * could not have sent anything either.
 */
import type { HttpClient } from '../http/client.js'
import type { Check } from './check.js'
import { requirementIdOfTitle } from './check-result.js'

/** How often the watchdog looks. */
const LOOK_EVERY_MS = 1_000
/** Past the request timeout, so that a request ending at its timeout is not taken for a stall. */
const SLACK_MS = 1_000
/** The shortest stillness that raises an alarm, whatever the request timeout. */
const LEAST_STILLNESS_MS = 5_000
/** Most alarms one run keeps (a stall that lasts raises one per further timeout). */
const MOST_ALARMS = 20
/** Most waiting checks one alarm names. */
const MOST_NAMED = 12

export interface StallAlarm {
  /** Since the run started, in ms. */
  atMs: number
  /** How long nothing was sent or answered, in ms. */
  idleMs: number
  pendingChecks: number
  /** The waiting checks (at most 12), each with what it waits on now. */
  waiting: Array<{ check: string; on: string[] }>
  inFlight: number
  queued: number
}

export interface Watchdog {
  /** Stops looking; the alarms raised so far. */
  stop(): StallAlarm[]
}

/** The alarm as one line for the console. */
export function alarmLine(alarm: StallAlarm): string {
  const waits = alarm.waiting.map((wait) => `[${wait.check}] ${wait.on.length > 0 ? wait.on.join(', ') : 'its own work (no request, no shared work)'}`)
  const more = alarm.pendingChecks > alarm.waiting.length ? `; and ${alarm.pendingChecks - alarm.waiting.length} more` : ''
  return (
    `watchdog: nothing sent or answered for ${(alarm.idleMs / 1000).toFixed(0)} s while ${alarm.pendingChecks} ${alarm.pendingChecks === 1 ? 'check waits' : 'checks wait'}: ` +
    `${waits.join('; ')}${more} (requests: ${alarm.inFlight} in flight, ${alarm.queued} waiting for a place)`
  )
}

export interface WatchOptions {
  timeoutMs: number
  started: number
  onAlarm: (alarm: StallAlarm) => void
  /** The monotonic clock (performance.now), for tests. */
  now?: () => number
}

export function watchStalls(pending: ReadonlySet<Check>, client: HttpClient, options: WatchOptions): Watchdog {
  const clock = options.now ?? (() => performance.now())
  const alarms: StallAlarm[] = []
  const stillness = Math.max(options.timeoutMs, LEAST_STILLNESS_MS)
  let lastAlarmAt = Number.NEGATIVE_INFINITY
  let lastLookAt = clock()
  let activitySeen = client.lastActivityAt
  /** How late the watchdog's timer fired since the last activity it saw: time the process was not running. */
  let starvedMs = 0
  const look = () => {
    const now = clock()
    const activity = client.lastActivityAt
    if (activity !== activitySeen) {
      activitySeen = activity
      starvedMs = 0
    }
    starvedMs += Math.max(0, now - lastLookAt - LOOK_EVERY_MS)
    lastLookAt = now
    const idleMs = now - activity - starvedMs
    const quietSinceAlarm = now - Math.max(lastAlarmAt, activity) - starvedMs
    const { sleeping, ...load } = client.load
    if (pending.size === 0 || sleeping > 0 || idleMs <= stillness + SLACK_MS || quietSinceAlarm <= stillness || alarms.length >= MOST_ALARMS) return
    lastAlarmAt = now
    const alarm: StallAlarm = {
      atMs: Date.now() - options.started,
      idleMs: Math.round(idleMs),
      pendingChecks: pending.size,
      waiting: [...pending].slice(0, MOST_NAMED).map((check) => ({ check: requirementIdOfTitle(check.title) ?? check.title, on: check.waitingOn })),
      ...load,
    }
    alarms.push(alarm)
    options.onAlarm(alarm)
  }
  const timer = setInterval(look, LOOK_EVERY_MS)
  timer.unref()
  return {
    stop: () => {
      clearInterval(timer)
      return alarms
    },
  }
}
