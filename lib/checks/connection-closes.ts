/** The report of responses/close-announced: the connections the target closed right after an answer that did not announce it. */
import { CloseEvidence } from '../http/close-evidence.js'
import { CLOSE_AFTER_ANSWER_MS, previousWords, type UnannouncedClose } from '../http/connection-reuse.js'
import type { Redactor } from '../http/redaction.js'
import type { CheckReport } from './check-result.js'
import { toEvidence } from './evidence.js'

/** Most closes quoted in the failure's message, each with its exchange as evidence where the client found it. */
const QUOTED = CloseEvidence.QUOTED

/** What the run saw of closes, as the report of responses/close-announced; inconclusive when no request was answered. */
export function closesReport(closes: readonly UnannouncedClose[], answers: number, redact: Redactor, evidence?: CloseEvidence): CheckReport {
  const common = {
    requirementId: 'responses/close-announced',
    title: '[responses/close-announced] every connection the target closed right after an answer was announced by Connection: close, over the whole run',
    incidental: [],
    exchangeIds: [],
    observations: [],
  }
  if (answers === 0) return { ...common, assertions: 0, outcome: 'inconclusive', reason: 'no request was answered, so no connection was seen' }
  if (closes.length === 0) return { ...common, assertions: 1, outcome: 'pass' }
  const quoted = closes.slice(0, QUOTED).map((close) => `${close.afterMs} ms after ${previousWords(close.previous)}`)
  return {
    ...common,
    assertions: 1,
    outcome: 'fail',
    failure: {
      message: `the target closed ${closes.length === 1 ? 'a connection' : `${closes.length} connections`} within ${CLOSE_AFTER_ANSWER_MS} ms of an answer that did not say Connection: close: ${quoted.join('; ')}${closes.length > QUOTED ? '; …' : ''}`,
      expected: 'Connection: close in an answer after which the target closes the connection',
      actual: `closed ${quoted[0]}, unannounced`,
      evidence: closes.slice(0, QUOTED).flatMap((close) => {
        const exchange = evidence?.exchangeOf(close)
        return exchange ? [toEvidence(exchange, redact)] : []
      }),
    },
  }
}
