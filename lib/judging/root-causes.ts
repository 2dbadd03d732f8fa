/**
 * One cause, one failure: when several requirements fail on the same broken answer (every create answered
 * 500, every list timing out), the reports name that answer once and point the requirements that failed
 * from it at it, so a reader fixes one thing instead of hunting through a dozen failures.
 */
import type { Evidence } from '../checks/evidence.js'
import type { RequirementResult } from './verdicts.js'

export interface RootCause {
  /** The broken answer, in words: "POST /pets answered 500". */
  cause: string
  /** The requirements whose failures all came from it. */
  requirements: string[]
}

/** GET /v1/pets/123?x=1 → GET /pets/{id}: the operation a request was, whatever its id and query. */
function operationOf(evidence: Evidence): string {
  const path = new URL(evidence.request.url).pathname.replace(/^.*?\/pets/, '/pets')
  return `${evidence.request.method} ${path.replace(/^\/pets\/[^/]+$/, '/pets/{id}')}`
}

/** The broken answer behind one failure, when it is one that breaks everything after it: a 5xx, or no answer at all. */
function brokenAnswer(evidence: Evidence | undefined): string | undefined {
  if (!evidence) return undefined
  if (evidence.failure) return `${operationOf(evidence)}: ${evidence.failure.replace(/ \(after \d+ retr.*$/, '')}`
  if (evidence.response && evidence.response.status >= 500) return `${operationOf(evidence)} answered ${evidence.response.status}`
  return undefined
}

/** Causes shared by two requirements or more whose every recorded failure came from the same broken answer. */
export function findRootCauses(results: readonly RequirementResult[]): RootCause[] {
  const byCause = new Map<string, string[]>()
  for (const result of results) {
    if (result.verdict !== 'fail' && result.verdict !== 'warn') continue
    const causes = new Set(result.failures.map((failure) => brokenAnswer(failure.evidence[0])))
    const [cause] = causes
    if (causes.size !== 1 || cause === undefined) continue
    byCause.set(cause, [...(byCause.get(cause) ?? []), result.id])
  }
  return [...byCause]
    .filter(([, ids]) => ids.length >= 2)
    .map(([cause, ids]) => ({ cause, requirements: ids }))
    .sort((a, b) => b.requirements.length - a.requirements.length)
}

/** The requirements with the root cause they failed from, when they share one. */
export function withRootCauses(results: readonly RequirementResult[], causes: readonly RootCause[]): RequirementResult[] {
  const causeOf = new Map(causes.flatMap((cause) => cause.requirements.map((id) => [id, cause.cause] as const)))
  return results.map((result) => {
    const cause = causeOf.get(result.id)
    return cause ? { ...result, rootCause: cause } : result
  })
}
