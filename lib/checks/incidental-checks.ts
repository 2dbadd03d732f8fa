/**
 * Requirements judged on every exchange, whichever check sent it: no 5xx, JSON labelled as JSON,
 * every body valid against the schema of its operation and status, Error status equal to HTTP status.
 */

import { responseJson } from '../http/client.js'
import { isJsonObject, JsonNumber } from '../http/json.js'
import { GET_PET_REMOVAL, type RequirementId } from '../spec/catalogue.js'
import type { Operation, OperationExchange } from '../spec/petstore-api.js'
import { formatViolations, type SchemaName, schemaViolations } from '../spec/schemas.js'
import { mediaType } from './assertions.js'

/** The requirements judged on every exchange: any check's request may be the one that shows a failure. */
export const EVERY_EXCHANGE_REQUIREMENTS: readonly RequirementId[] = [
  'responses/no-server-error',
  'responses/json-content-type',
  'listPets/body-schema',
  'createPet/body-schema',
  'getPet/body-schema',
  'errors/body-schema',
  'errors/status-matches-http',
]

export interface IncidentalResult {
  requirementId: RequirementId
  ok: boolean
  message?: string
}

const SUCCESS_SCHEMA: Record<Operation, { schema: SchemaName; requirementId: RequirementId }> = {
  listPets: { schema: 'Pets', requirementId: 'listPets/body-schema' },
  createPet: { schema: 'Pet', requirementId: 'createPet/body-schema' },
  getPet: { schema: 'Pet', requirementId: 'getPet/body-schema' },
}

/** The rules of every answer, judged on one exchange (RunState.findingsOf judges each exchange once per run). */
export function incidentalResults(exchange: OperationExchange, now: Date): IncidentalResult[] {
  const response = exchange.response
  if (!response) return []
  // A path the spec does not name is judged only by the check that probed it.
  if (exchange.operation === 'probe') return []
  // From its removal date getPet may be gone (a 404 page, a 410): its answers no longer bear on the rules of every answer.
  if (exchange.operation === 'getPet' && now.getTime() >= GET_PET_REMOVAL.getTime()) return []
  const results: IncidentalResult[] = []
  const status = response.status
  const finalRateLimit = status === 429 || (status === 503 && response.headers['retry-after'] !== undefined)
  results.push(
    status >= 500
      ? { requirementId: 'responses/no-server-error', ok: false, message: finalRateLimit ? `${status} still after ${exchange.retries.length} retries` : `answered ${status}` }
      : { requirementId: 'responses/no-server-error', ok: true },
  )
  const isSuccess = status >= 200 && status < 300
  const isClientError = status >= 400 && status < 500 && status !== 429
  if (!isSuccess && !isClientError) return results

  const type = mediaType(response)
  results.push({
    requirementId: 'responses/json-content-type',
    ok: type === 'application/json',
    ...(type === 'application/json' ? {} : { message: `Content-Type is ${response.headers['content-type'] ?? 'missing'}, expected application/json` }),
  })

  const { schema, requirementId } = isSuccess ? SUCCESS_SCHEMA[exchange.operation] : { schema: 'Error' as const, requirementId: 'errors/body-schema' as const }
  const parsed = responseJson(exchange)
  if (!parsed.ok) {
    results.push({ requirementId, ok: false, message: `the ${status} body is not JSON (${parsed.error}), expected ${schema}` })
    return results
  }
  const violations = schemaViolations(schema, parsed.value)
  results.push(
    violations.length === 0 ? { requirementId, ok: true } : { requirementId, ok: false, message: `the ${status} body is not a valid ${schema}: ${formatViolations(violations)}` },
  )

  if (isClientError && isJsonObject(parsed.value)) {
    const errorStatus = parsed.value.status
    if (errorStatus instanceof JsonNumber) {
      const same = errorStatus.integer === BigInt(status)
      results.push(
        same
          ? { requirementId: 'errors/status-matches-http', ok: true }
          : { requirementId: 'errors/status-matches-http', ok: false, message: `Error status ${errorStatus.text} on a ${status} answer` },
      )
    }
  }
  return results
}
