/**
 * The package's typed API: `import { runConformance } from 'petstore-conformance'`. It takes the same
 * settings as the command (by the names of its flags, in camelCase), validates them the same way, makes
 * the same run, and returns what results.json holds (schemas/results.schema.json). It writes no report
 * and prints nothing unless asked, and reads no environment variable it is not handed.
 */
import { randomInt } from 'node:crypto'
import type { Profile } from '../checks/run-settings.js'
import type { RunResult } from '../reports/run-result.js'
import { type Config, ConfigError, resolveConfig, options as settings } from './config.js'
import { runConfigured } from './run-conformance.js'

export interface ConformanceOptions {
  /** The target's base URL, ending with /v1; none judges the embedded reference. */
  baseUrl?: string
  apiKey?: string
  profile?: Profile
  strict?: boolean
  seed?: number
  /** Requirement ids or prefixes (`auth/`) to run; none runs all. */
  requirements?: readonly string[]
  numRuns?: number
  /** Model-based sequences (default 10; 0: none) and most commands in each (default 12). */
  sequences?: number
  sequenceLength?: number
  replayPath?: string
  concurrency?: number
  timeoutMs?: number
  maxBodyBytes?: number
  maxRetries?: number
  maxRetryWaitMs?: number
  deadlineMs?: number
  consistencyWindowMs?: number
  categoryIds?: readonly string[]
  namePrefix?: string
  caFile?: string
  insecure?: boolean
  /** The results.json of an earlier run. */
  baseline?: string
  failOn?: 'any' | 'new'
  artifactsUrl?: string
  /** The day the run takes as today. */
  now?: string | Date
  embeddedReference?: boolean
  /** Where reports go when `writeReports` is true (default `reports` below the current folder). */
  reportDir?: string
  /** Write results.json, junit.xml, summary.md and report.html (default false). */
  writeReports?: boolean
  /** Cancels the run, as SIGTERM does the command's: requests in flight end, what was decided is kept, the rest is inconclusive ("run cancelled"), exit code 3. */
  signal?: AbortSignal
  /** Variables as the command would read them (PETSTORE_*, HTTP_PROXY, CI); default none, so nothing leaks in from process.env. */
  env?: Readonly<Record<string, string | undefined>>
  /** Receives the lines the command would print; default: nothing is printed. */
  onLine?: (line: string, stream: 'out' | 'err') => void
}

/** The option names that differ from the configuration's own keys. */
const KEY_OF: Partial<Record<keyof ConformanceOptions, keyof typeof settings>> = { requirements: 'requirementFilter', baseline: 'baselineFile' }

/** The options as command-line arguments, so that they pass the very validation the command applies. */
function argumentsOf(conformance: ConformanceOptions): string[] {
  const argv: string[] = []
  for (const [name, value] of Object.entries(conformance) as Array<[keyof ConformanceOptions, unknown]>) {
    const setting = settings[(KEY_OF[name] ?? name) as keyof typeof settings]
    if (!setting || value === undefined) continue
    const text = Array.isArray(value) ? value.join(',') : value instanceof Date ? value.toISOString() : String(value)
    argv.push(`--${setting.flag}=${text}`)
  }
  return argv
}

/** Resolves the options as the command would; throws ConfigError listing every problem. */
export function configFor(conformance: ConformanceOptions = {}): Config {
  const config = resolveConfig({
    argv: argumentsOf(conformance),
    env: conformance.env ?? {},
    cwd: process.cwd(),
    today: () => new Date(),
    randomSeed: () => randomInt(0, 2 ** 31 - 1),
  })
  if (config === 'help') throw new ConfigError(['--help is not a setting of the API'])
  return config
}

/** One conformance run; resolves with its results (exit code included) whatever the verdict. */
export async function runConformance(conformance: ConformanceOptions = {}): Promise<RunResult> {
  const config = configFor(conformance)
  const emit = conformance.onLine ?? (() => {})
  const { result } = await runConfigured(
    config,
    { out: (line) => emit(line, 'out'), err: (line) => emit(line, 'err') },
    { writeReports: conformance.writeReports ?? false, ...(conformance.signal ? { cancel: conformance.signal } : {}) },
  )
  if (!result) throw new Error('the run ended without results')
  return result
}

export type { Headline, HeadlineText } from '../judging/headline.js'
export type { RequirementResult, Verdict } from '../judging/verdicts.js'
export type { RunResult } from '../reports/run-result.js'
export { type Level, type Requirement, type RequirementId, requirements } from '../spec/catalogue.js'
export { type Config, ConfigError, type ConfigSources, resolveConfig } from './config.js'
