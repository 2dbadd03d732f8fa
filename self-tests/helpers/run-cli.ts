/** The real command, for end-to-end self-tests. Every results.json a run writes is held to its schema. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseJson } from '../../lib/json.js'
import { formatViolations, schemaViolations } from '../../lib/schemas.js'
import { runSuite, type SuiteOutcome } from '../../mutation-score/run-suite.js'

export type CliOutcome = SuiteOutcome

export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliOutcome> {
  const outcome = await runSuite(args, env)
  if (outcome.results) {
    const parsed = parseJson(readFileSync(join(outcome.reportDir, 'results.json'), 'utf8'))
    const violations = parsed.ok ? schemaViolations('Results', parsed.value) : [{ path: '/', keyword: 'json', message: 'not JSON' }]
    if (violations.length > 0) throw new Error(`results.json breaks schemas/results.schema.json: ${formatViolations(violations)}`)
  }
  return outcome
}

export function verdictOf(outcome: CliOutcome, id: string): string | undefined {
  return outcome.results?.requirements.find((result) => result.id === id)?.verdict
}
