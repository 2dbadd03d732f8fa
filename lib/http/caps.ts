/**
 * What bounds a run's cost to the target and to this machine, whatever the target does: the requests that may create
 * a pet (--max-creates; the spec has no DELETE, so every pet a run creates stays), and the memory the answers take
 * (policy §5: under 300 MiB) — large bodies read a few at a time, and those kept for evidence within a budget.
 */
import { LARGE_BODY_BYTES } from './decoded-bodies.js'
import type { Exchange, TransportFailure } from './exchange.js'
import { integerField } from './json.js'
import { KeptBodies } from './kept-bodies.js'
import { forgetReading, responseObject } from './response-json.js'
import type { RecordedResponse } from './traffic.js'

/** Methods that create nothing: every other request counts against --max-creates. */
const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Whether a request of this method may create a pet. */
export function mayCreate(method: string): boolean {
  return !READ_ONLY_METHODS.has(method.toUpperCase())
}

/**
 * The requests that may create a pet, counted once each whatever their retries, within --max-creates when given; and
 * what their answers showed: with the store as the run found it, the ids they name are every pet the run may have made.
 */
export class WriteBudget {
  /** Sent so far, answered 2xx (pets the run may have created), and not sent once the budget was spent. */
  sent = 0
  answered2xx = 0
  notSent = 0
  /** Of those sent, the ones whose end names no pet: no answer, or a 2xx whose body shows no id (a pet may have been made unseen). */
  unknownOutcomes = 0
  /** The ids the 2xx answers showed. */
  readonly idsShown = new Set<bigint>()
  /** The requests sent and not yet ended, by exchange id, each with what its end settles. */
  private readonly open = new Map<number, { ended: Promise<void>; end: () => void }>()

  constructor(private readonly maxCreates: number | undefined) {}

  /** Counts a request that may create a pet (exchange `id`); the failure it gets instead when the budget is spent. */
  take(id: number): TransportFailure | undefined {
    if (this.maxCreates !== undefined && this.sent >= this.maxCreates) {
      this.notSent += 1
      return { kind: 'over-budget', message: `not sent: the run's budget of ${this.maxCreates} requests that may create a pet (--max-creates) is spent`, notSent: true }
    }
    this.sent += 1
    let end = () => {}
    const ended = new Promise<void>((resolve) => {
      end = resolve
    })
    this.open.set(id, { ended, end })
    return undefined
  }

  /** How a request ended, its answer or why it got none, learnt when it was counted: the exchange, as it was. */
  ended(exchange: Exchange): Exchange {
    const open = this.open.get(exchange.id)
    if (!open) return exchange
    this.open.delete(exchange.id)
    open.end()
    const status = exchange.response?.status
    if (status === undefined) {
      if (!exchange.failure?.notSent) this.unknownOutcomes += 1
    } else if (status >= 200 && status < 300) {
      this.answered2xx += 1
      const id = integerField(responseObject(exchange)?.id)
      if (id === undefined) this.unknownOutcomes += 1
      else this.idsShown.add(id)
    }
    return exchange
  }

  /** Settles once every request counted so far has ended. */
  async settled(): Promise<void> {
    await Promise.all([...this.open.values()].map((open) => open.ended))
  }
}

/**
 * Bodies from LARGE_BODY_BYTES on (decoded-bodies.ts) count against the budget below; together they keep at most the budget in memory,
 * the oldest moved to a temporary file past it (kept-bodies.ts). A page of 100 pets with short names is about
 * 10 KiB; a run against a conformant target keeps well under the budget and moves nothing.
 */
const KEPT_BODIES_BUDGET_BYTES = 8 * 1024 * 1024

/** Bodies past this many bytes are read at most LARGE_BODIES_AT_ONCE at a time (body-reader.ts): a page of 100 pets with long names is far below it. */
const LARGE_BODY_GATE_BYTES = 256 * 1024
const LARGE_BODIES_AT_ONCE = 4

/**
 * Large bodies read a few at a time (policy §5: peak memory whatever the target sends). A body that grows past
 * `thresholdBytes` waits for one of `slots` before it is read further; meanwhile its connection is not read, so
 * the target waits. A body holding a slot reads to its end without waiting for anything else, so no two bodies
 * ever wait on each other. A target that answers a megabyte to every request then costs `slots` megabytes of
 * bodies being read at once, not one per request in flight.
 */
export class LargeBodyGate {
  private free: number
  private readonly waiting: Array<() => void> = []

  constructor(
    readonly thresholdBytes: number,
    slots: number,
  ) {
    this.free = slots
  }

  /** Waits for a slot; the function returned gives it back. */
  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free -= 1
    else await new Promise<void>((resolve) => this.waiting.push(resolve))
    let released = false
    return () => {
      if (released) return
      released = true
      const next = this.waiting.shift()
      if (next) next()
      else this.free += 1
    }
  }
}

/** The memory the answers of one client take: the large bodies read now, and those kept. */
export class BodyMemory {
  /** The bodies past LARGE_BODY_GATE_BYTES being read now, at most LARGE_BODIES_AT_ONCE. */
  readonly gate = new LargeBodyGate(LARGE_BODY_GATE_BYTES, LARGE_BODIES_AT_ONCE)
  private readonly kept = new KeptBodies({ largeBytes: LARGE_BODY_BYTES, budgetBytes: KEPT_BODIES_BUDGET_BYTES, forget: forgetReading })

  /** Counts an answer's body against the budget (the oldest move out past it). */
  keep(response: RecordedResponse): void {
    this.kept.keep(response)
  }

  /** Removes the moved bodies' files: the client is closing. */
  discard(): void {
    this.kept.discard()
  }
}
