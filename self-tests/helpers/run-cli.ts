/**
 * The command for end-to-end self-tests. `runCli` runs it in this process, through the same function the
 * binary calls (arguments, an environment of its own, a fresh working folder); `spawnCli` runs the built
 * binary where the process itself is under test. Every results.json a run writes is held to its schema, and its
 * count of exchanges judged to its count of exchanges sent.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { petstoreSuite } from '../../entry-points/suite.js'
import { parseJson } from '../../lib/http/json.js'
import type { RunResult } from '../../lib/reports/run-result.js'
import { runCommand } from '../../lib/run/command.js'
import { formatViolations, schemaViolations } from '../../lib/spec/schemas.js'
import { type SpawnOutcome, spawnCli } from './spawn-cli.js'

export interface CliOutcome extends SpawnOutcome {
  results: RunResult | undefined
}

function withResults(outcome: SpawnOutcome): CliOutcome {
  const file = join(outcome.reportDir, 'results.json')
  if (!existsSync(file)) return { ...outcome, results: undefined }
  const text = readFileSync(file, 'utf8')
  const parsed = parseJson(text)
  const violations = parsed.ok ? schemaViolations('Results', parsed.value) : [{ path: '/', keyword: 'json', message: 'not JSON' }]
  if (violations.length > 0) throw new Error(`results.json breaks schemas/results.schema.json: ${formatViolations(violations)}`)
  const results = JSON.parse(text) as RunResult
  // Every exchange that went out is judged on the rules of every answer (policy §2b), in every run of every self-test.
  if (results.exchanges && results.exchanges.sent !== results.exchanges.judged)
    throw new Error(`the run sent ${results.exchanges.sent} exchanges and judged ${results.exchanges.judged} of them on the rules of every answer`)
  return { ...outcome, results }
}

/**
 * Fewer generated cases than the command's defaults (30 per property, 10 sequences, the whole neighbourhood of the
 * plain requests), the same numbers the variant score runs with, so the end-to-end tests fit npm test's budget;
 * never none (20 edits, every operator among them). A test's own flags or variables win (flags come before the
 * environment). The defaults themselves are proven by the soak (npm run soak) and by the tests that set them
 * (generated-bodies, sequences and the neighbourhood's own run at the command's own numbers).
 */
export const FEWER_GENERATED_CASES = { PETSTORE_NUM_RUNS: '5', PETSTORE_SEQUENCES: '2', PETSTORE_MAX_EDITS: '20' }

export interface RunCliOptions {
  /** Run at the command's own numbers of generated cases, for the tests about them (default: FEWER_GENERATED_CASES). */
  commandDefaults?: boolean
}

/** The command in-process: `args` after a --report-dir in a new folder; the environment is `env` alone (with FEWER_GENERATED_CASES under it). */
export async function runCli(args: readonly string[], env: Record<string, string> = {}, options: RunCliOptions = {}): Promise<CliOutcome> {
  const cwd = mkdtempSync(join(tmpdir(), 'petstore-run-'))
  const reportDir = join(cwd, 'reports')
  const stdout: string[] = []
  const stderr: string[] = []
  const code = await runCommand(
    petstoreSuite,
    { argv: ['--report-dir', reportDir, ...args], env: { ...(options.commandDefaults ? {} : FEWER_GENERATED_CASES), ...env }, cwd },
    { out: (line) => stdout.push(`${line}\n`), err: (line) => stderr.push(`${line}\n`) },
  )
  return withResults({ code, stdout: stdout.join(''), stderr: stderr.join(''), reportDir })
}

/** The built binary as a child process: for what only a process shows (its exit status, its own memory). */
export async function runBuiltCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliOutcome> {
  return withResults(await spawnCli(args, { ...FEWER_GENERATED_CASES, ...env }))
}

export function verdictOf(outcome: CliOutcome, id: string): string | undefined {
  return outcome.results?.requirements.find((result) => result.id === id)?.verdict
}
