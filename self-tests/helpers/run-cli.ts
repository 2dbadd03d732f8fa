/** The real command, for end-to-end self-tests. */
import { runSuite, type SuiteOutcome } from '../../mutation-score/run-suite.js'

export type CliOutcome = SuiteOutcome
export const runCli = runSuite

export function verdictOf(outcome: CliOutcome, id: string): string | undefined {
  return outcome.results?.requirements.find((result) => result.id === id)?.verdict
}
