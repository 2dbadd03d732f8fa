/**
 * The bound of a shrink against a live target. fast-check shrinks by trying candidates one after another
 * until none fails; a candidate that is answered from memory, or that the budget says not to send, returns
 * at once, so without a bound it would walk the whole shrink tree of a sequence (thousands of candidates)
 * in microtasks alone, and no timer (the deadline, the watchdog) nor signal would get a turn meanwhile.
 *
 * So before every candidate the shrink gives the event loop a turn, and once its requests or its candidates
 * are spent, or the run stops, it throws fast-check's interrupting precondition failure: fast-check then ends
 * the shrink at once and keeps the smallest failing value found so far.
 */
import fc from 'fast-check'
import { yieldToEventLoop } from '../http/waits.js'

export interface ShrinkLimits {
  /** Most requests the candidates may send together. */
  requests: number
  /** Most candidates tried, sent or not: candidates that send nothing cost no request but still cost time. */
  candidates: number
  /** The run's stop (its deadline or a cancel): once aborted, no candidate is tried. */
  stop?: AbortSignal | undefined
}

export class ShrinkBudget {
  private requestsSent = 0
  private candidatesTried = 0
  /** True once a shrink was cut short by this budget (or by the run's stop). */
  spent = false

  constructor(private readonly limits: ShrinkLimits) {}

  /** True when no further candidate may be tried. */
  get exhausted(): boolean {
    return this.requestsSent >= this.limits.requests || this.candidatesTried >= this.limits.candidates || this.limits.stop?.aborted === true
  }

  /** Call at the start of every candidate: a turn for the event loop, then the candidate counted, or the shrink ended. */
  async enterCandidate(): Promise<void> {
    await yieldToEventLoop()
    if (this.exhausted) {
      this.spent = true
      throw new fc.PreconditionFailure(true)
    }
    this.candidatesTried += 1
  }

  /** Requests a candidate sent. */
  charge(requests: number): void {
    this.requestsSent += requests
  }

  get requests(): number {
    return this.requestsSent
  }

  get candidates(): number {
    return this.candidatesTried
  }
}
