/**
 * The typed API's run, for any suite: options as values (their names and types are the settings table's,
 * lib/settings/settings.ts), checked as the command checks its flags, the same run the command makes, and
 * what results.json holds back (schemas/results.schema.json). It writes no report and prints nothing unless
 * asked, and reads no environment variable it is not handed. entry-points/index.ts binds it to the suites.
 */
import { randomInt } from 'node:crypto'
import type { RunResult } from '../reports/run-result.js'
import type { Invocation } from '../settings/invocation.js'
import type { SettingValues } from '../settings/settings.js'
import { type Config, ConfigError, resolveConfig } from './config.js'
import { runConfigured } from './run-conformance.js'
import type { ConformanceSuite } from './suite.js'

/** Every setting of docs/configuration.md by its option name, and what only the API has. */
export type ConformanceOptions = SettingValues & {
  /** Write results.json, junit.xml, summary.md and report.html to `reportDir` (default false). */
  writeReports?: boolean
  /** Cancels the run, as SIGTERM does the command's: requests in flight end, what was decided is kept, the rest is inconclusive ("run cancelled"), exit code 3. */
  signal?: AbortSignal
  /** Variables as the command would read them (PETSTORE_*, HTTP_PROXY, CI); default none, so nothing leaks in from process.env. Options win over them. */
  env?: Readonly<Record<string, string | undefined>>
  /** Receives the lines the command would print; default: nothing is printed. */
  onLine?: (line: string, stream: 'out' | 'err') => void
}

/** Resolves the options as the command resolves its flags; throws ConfigError listing every problem. */
export function configFor(conformance: ConformanceOptions = {}, invocation: Invocation = { kind: 'typed-api' }): Config {
  const { writeReports: _writeReports, signal: _signal, env = {}, onLine: _onLine, ...values } = conformance
  const config = resolveConfig({ env, cwd: process.cwd(), today: () => new Date(), randomSeed: () => randomInt(0, 2 ** 31 - 1), values, invocation })
  if (config === 'help') throw new ConfigError(['--help is not a setting of the API'])
  return config
}

/** One conformance run of `suite`; resolves with its results (exit code included) whatever the verdict. */
export async function runConformanceWith(suite: ConformanceSuite, conformance: ConformanceOptions = {}): Promise<RunResult> {
  const config = configFor(conformance)
  const emit = conformance.onLine ?? (() => {})
  const { result } = await runConfigured(
    config,
    suite,
    { out: (line) => emit(line, 'out'), err: (line) => emit(line, 'err') },
    { writeReports: conformance.writeReports ?? false, cancel: conformance.signal },
  )
  if (!result) throw new Error('the run ended without results')
  return result
}
