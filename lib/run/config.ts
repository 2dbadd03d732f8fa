/**
 * Configuration: command-line flags, then PETSTORE_* environment variables, then a .env file (dotenv),
 * then defaults. The only module that reads the environment. Every value is validated before the run
 * sends anything; a bad value is a ConfigError (exit code 2).
 */
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { parse as parseDotenv } from 'dotenv'
import type { Profile } from '../checks/run-settings.js'
import type { ProxySettings } from '../http/client.js'
import { exactInteger, isInt64 } from '../http/int64.js'
import { type Baseline, loadBaseline } from '../judging/baseline.js'
import { filterEntrySelects, requirements } from '../spec/catalogue.js'

export interface Config {
  /** Target base URL, ending with /v1; undefined runs the embedded reference implementation. */
  baseUrl: string | undefined
  apiKey: string | undefined
  profile: Profile
  /** Why this profile was chosen, for the console. */
  profileReason: string
  strict: boolean
  reportDir: string
  seed: number
  /** Requirement ids or id prefixes (e.g. `auth/`) to run; empty runs all. */
  requirementFilter: string[]
  numRuns: number
  /** Model-based sequences per run, and most commands in each (see suites/sequences/). */
  sequences: number
  sequenceLength: number
  /** fast-check path of one generated case to replay (with the seed); undefined runs numRuns cases. */
  replayPath: string | undefined
  concurrency: number
  timeoutMs: number
  maxBodyBytes: number
  maxRetries: number
  maxRetryWaitMs: number
  deadlineMs: number
  /** How long a created pet may take to show in reads (policy §2, consistency); 0 means at once. */
  consistencyWindowMs: number
  /** Category ids the generators draw from (exact int64 digits); empty means any int64. */
  categoryIds: string[]
  namePrefix: string
  caFile: string | undefined
  insecure: boolean
  /** The verdicts of an earlier run's results.json, read once, to compare with. */
  baseline: Baseline | undefined
  /** `any`: every MUST failure fails the run; `new`: only failures the baseline did not have. */
  failOn: 'any' | 'new'
  /** Where CI keeps this run's reports, for the link in summary.md. */
  artifactsUrl: string | undefined
  /** The clock of the run (ISO date); injectable so date-dependent rules can be tested. */
  now: string
  /** The usual proxy variables, read here so that nothing else reads the environment. */
  proxy: ProxySettings
  /** Print the plan and send nothing to the target. */
  dryRun: boolean
  /** No progress lines on stderr. */
  quiet: boolean
}

export class ConfigError extends Error {
  constructor(
    readonly problems: string[],
    /** Where reports go, when the settings that name it could be read: a stopped run still writes them there. */
    readonly reportDir?: string,
    /** The target as configured, for those reports. */
    readonly baseUrl?: string,
    /** The key as configured, so those reports can mask it. */
    readonly apiKey?: string,
  ) {
    super(`invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

interface Option {
  flag: string
  env: string
  kind: 'string' | 'boolean'
  description: string
}

/** Every setting, its flag and its variable. The names of the first six are fixed by the policy. */
export const options = {
  baseUrl: { flag: 'base-url', env: 'PETSTORE_BASE_URL', kind: 'string', description: 'target base URL ending with /v1; none runs the embedded reference' },
  apiKey: { flag: 'api-key', env: 'PETSTORE_API_KEY', kind: 'string', description: 'API key sent as Bearer token (prefer the variable to the flag)' },
  profile: { flag: 'profile', env: 'PETSTORE_PROFILE', kind: 'string', description: 'smoke (read-only) or full (creates pets)' },
  strict: { flag: 'strict', env: 'PETSTORE_STRICT', kind: 'boolean', description: 'SHOULD warnings also make the run non-conformant' },
  reportDir: { flag: 'report-dir', env: 'PETSTORE_REPORT_DIR', kind: 'string', description: 'where reports are written (default reports/)' },
  seed: { flag: 'seed', env: 'PETSTORE_SEED', kind: 'string', description: 'seed of generated cases (default: random, printed)' },
  requirementFilter: {
    flag: 'requirements',
    env: 'PETSTORE_REQUIREMENTS',
    kind: 'string',
    description: 'comma-separated requirement ids or prefixes to run (e.g. auth/,listPets/limit-caps-size)',
  },
  numRuns: { flag: 'num-runs', env: 'PETSTORE_NUM_RUNS', kind: 'string', description: 'generated cases per property (default 30)' },
  sequences: {
    flag: 'sequences',
    env: 'PETSTORE_SEQUENCES',
    kind: 'string',
    description: 'random sequences of creates, lists and gets checked against a model (default 10; 0: none)',
  },
  sequenceLength: {
    flag: 'sequence-length',
    env: 'PETSTORE_SEQUENCE_LENGTH',
    kind: 'string',
    description: 'most commands in one sequence (default 12); a sequence sends at most 2 × this + 6 requests, re-reads within the consistency window aside',
  },
  replayPath: {
    flag: 'replay-path',
    env: 'PETSTORE_REPLAY_PATH',
    kind: 'string',
    description: 'replay one generated case or sequence: the path a failure reports, e.g. valid:12:0:3 (needs --seed)',
  },
  concurrency: { flag: 'concurrency', env: 'PETSTORE_CONCURRENCY', kind: 'string', description: 'requests in flight at once (default 8)' },
  timeoutMs: { flag: 'timeout-ms', env: 'PETSTORE_TIMEOUT_MS', kind: 'string', description: 'timeout of one request in ms (default 10000)' },
  maxBodyBytes: { flag: 'max-body-bytes', env: 'PETSTORE_MAX_BODY_BYTES', kind: 'string', description: 'largest response body read, after decoding, in bytes (default 1048576)' },
  maxRetries: { flag: 'max-retries', env: 'PETSTORE_MAX_RETRIES', kind: 'string', description: 'retries of a rate-limited request or a failed read (default 3)' },
  maxRetryWaitMs: { flag: 'max-retry-wait-ms', env: 'PETSTORE_MAX_RETRY_WAIT_MS', kind: 'string', description: 'longest Retry-After honoured, in ms (default 10000)' },
  deadlineMs: { flag: 'deadline-ms', env: 'PETSTORE_DEADLINE_MS', kind: 'string', description: 'deadline of the whole run in ms (default 600000)' },
  consistencyWindowMs: {
    flag: 'consistency-window-ms',
    env: 'PETSTORE_CONSISTENCY_WINDOW_MS',
    kind: 'string',
    description: 'how long a created pet may take to show in reads, in ms (default 5000; 0: at once)',
  },
  categoryIds: { flag: 'category-ids', env: 'PETSTORE_CATEGORY_IDS', kind: 'string', description: 'comma-separated category ids the target knows (default: any int64)' },
  namePrefix: { flag: 'name-prefix', env: 'PETSTORE_NAME_PREFIX', kind: 'string', description: 'name prefix of pets the suite creates (default conformance-)' },
  caFile: { flag: 'ca-file', env: 'PETSTORE_CA_FILE', kind: 'string', description: 'PEM file of extra trusted certificate authorities' },
  insecure: { flag: 'insecure', env: 'PETSTORE_INSECURE', kind: 'boolean', description: 'do not verify TLS certificates (loud; never for production)' },
  baselineFile: {
    flag: 'baseline',
    env: 'PETSTORE_BASELINE',
    kind: 'string',
    description: 'results.json of an earlier run: mark each requirement new failure, fixed, still failing or unchanged',
  },
  failOn: { flag: 'fail-on', env: 'PETSTORE_FAIL_ON', kind: 'string', description: 'any (default) or new: with new, only failures the baseline did not have fail the run' },
  artifactsUrl: {
    flag: 'artifacts-url',
    env: 'PETSTORE_ARTIFACTS_URL',
    kind: 'string',
    description: "link to this run's reports for summary.md (default: the GitHub Actions run, when known)",
  },
  now: { flag: 'now', env: 'PETSTORE_NOW', kind: 'string', description: 'the date the run takes as today (ISO 8601; default: the clock)' },
  embeddedReference: {
    flag: 'embedded-reference',
    env: 'PETSTORE_EMBEDDED_REFERENCE',
    kind: 'boolean',
    description: 'judge the embedded reference on purpose (needed in CI, where no target is a set-up mistake)',
  },
  dryRun: { flag: 'dry-run', env: 'PETSTORE_DRY_RUN', kind: 'boolean', description: 'print the plan (requests per operation, any POST) and send nothing to the target' },
  quiet: { flag: 'quiet', env: 'PETSTORE_QUIET', kind: 'boolean', description: 'no progress lines on stderr during the run' },
} as const satisfies Record<string, Option>

type Key = keyof typeof options
type RawSettings = Partial<Record<Key, string>>

export interface ConfigSources {
  argv: readonly string[]
  env: Readonly<Record<string, string | undefined>>
  cwd: string
  /** Where the clock reads today, when --now is not given. */
  today: () => Date
  /** Seed used when none is configured. */
  randomSeed: () => number
}

export const USAGE = `Usage: petstore-conformance [options]

Runs the Pet Store v1 conformance suite against --base-url, or against the embedded
reference implementation when no base URL is given.

Options (each also read from the environment variable shown, then from .env):
${Object.values(options)
  .map((option) => `  --${option.flag.padEnd(18)} ${option.env.padEnd(28)} ${option.description}`)
  .join('\n')}
  --env-file          file read as .env (default ./.env)
  --list-requirements every requirement: id, level, operation, spec text (--json for JSON)
  --version           the version of the suite
  -h, --help          this text

Exit codes: 0 conformant, 1 non-conformant, 2 usage or configuration error, 3 target unreachable or harness error.`

function readArgv(argv: readonly string[]): { settings: RawSettings; envFile?: string; help: boolean } {
  const parseOptions: Record<string, { type: 'string' | 'boolean'; short?: string }> = { 'env-file': { type: 'string' }, help: { type: 'boolean', short: 'h' } }
  for (const option of Object.values(options)) parseOptions[option.flag] = { type: 'string' }
  // Booleans are parsed as strings so that "--strict" and "--strict=false" both work.
  const normalised = argv.map((arg) => {
    const flag = Object.values(options).find((option) => option.kind === 'boolean' && arg === `--${option.flag}`)
    return flag ? `--${flag.flag}=true` : arg
  })
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({ args: normalised, options: parseOptions, strict: true, allowPositionals: false })
  } catch (error) {
    throw new ConfigError([error instanceof Error ? error.message : String(error)])
  }
  const settings: RawSettings = {}
  for (const [key, option] of Object.entries(options) as [Key, Option][]) {
    const value = parsed.values[option.flag]
    if (typeof value === 'string') settings[key] = value
  }
  const envFile = parsed.values['env-file']
  return { settings, ...(typeof envFile === 'string' ? { envFile } : {}), help: parsed.values.help === true }
}

function readVariables(variables: Readonly<Record<string, string | undefined>>): RawSettings {
  const settings: RawSettings = {}
  for (const [key, option] of Object.entries(options) as [Key, Option][]) {
    const value = variables[option.env]
    if (value !== undefined && value !== '') settings[key] = value
  }
  return settings
}

function readEnvFile(path: string, explicit: boolean, problems: string[]): RawSettings {
  if (!existsSync(path)) {
    if (explicit) problems.push(`--env-file ${path}: no such file`)
    return {}
  }
  try {
    return readVariables(parseDotenv(readFileSync(path, 'utf8')))
  } catch (error) {
    problems.push(`--env-file ${path}: ${error instanceof Error ? error.message : String(error)}`)
    return {}
  }
}

/** Ids or prefixes; an entry that selects no requirement is a typo, and running nothing would be a vacuous pass. */
function requirementFilterSetting(raw: string | undefined, problems: string[]): string[] {
  const entries = (raw ?? '')
    .split(',')
    .map((text) => text.trim())
    .filter((text) => text !== '')
  for (const entry of entries) {
    if (!requirements.some((req) => filterEntrySelects(entry, req.id))) {
      problems.push(`--requirements: "${entry}" names no requirement (give an id such as listPets/limit-max-100, or an area such as auth/)`)
    }
  }
  return entries
}

function replayPathSetting(raw: string | undefined, seed: string | undefined, problems: string[]): string | undefined {
  if (raw === undefined) return undefined
  // A sequence's path ends with `@` and which of its commands ran (fast-check's replay path of commands).
  if (!/^[a-z][A-Za-z0-9-]*(:\d+)+(@[A-Za-z0-9+/]*:[A-Za-z0-9+/]*)?$/.test(raw.trim())) {
    problems.push(`--replay-path must look like valid:12:0:3 or sequences:3:1@B:A (the path a failure reports), got "${raw}"`)
  }
  if (seed === undefined) problems.push('--replay-path needs the --seed of the run that reported it')
  return raw.trim()
}

function baselineSetting(raw: string | undefined, cwd: string, problems: string[]): Baseline | undefined {
  if (raw === undefined) return undefined
  try {
    return loadBaseline(resolve(cwd, raw))
  } catch (error) {
    problems.push(`--baseline ${raw}: ${error instanceof Error ? error.message : String(error)} (give the results.json of an earlier run)`)
    return undefined
  }
}

function failOnSetting(raw: string | undefined, baseline: string | undefined, problems: string[]): 'any' | 'new' {
  if (raw === undefined || raw === 'any') return 'any'
  if (raw !== 'new') problems.push(`--fail-on must be any or new, got "${raw}"`)
  else if (baseline === undefined) problems.push('--fail-on new needs --baseline: new failures are new against an earlier run')
  return 'new'
}

/** CI systems set CI (GitHub Actions, GitLab, CircleCI, Jenkins with the plugin, …); "false" or "0" means not. */
function isCi(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env.CI?.trim().toLowerCase()
  return value !== undefined && value !== '' && value !== 'false' && value !== '0'
}

/** HTTP_PROXY, HTTPS_PROXY and NO_PROXY (lower case first, as curl and undici read them). */
function proxySettings(env: Readonly<Record<string, string | undefined>>): ProxySettings {
  return {
    httpProxy: env.http_proxy ?? env.HTTP_PROXY ?? '',
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? '',
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
  }
}

/** The Actions run page, where its artifacts are, when the run is inside GitHub Actions. */
function githubRunUrl(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: runId } = env
  return server && repository && runId ? `${server}/${repository}/actions/runs/${runId}` : undefined
}

function integerSetting(raw: string | undefined, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  if (raw === undefined) return fallback
  if (!/^\d+$/.test(raw.trim())) {
    problems.push(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`)
    return fallback
  }
  const value = Number(raw.trim())
  if (value < min || value > max) {
    problems.push(`${name} must be from ${min} to ${max}, got ${value}`)
    return fallback
  }
  return value
}

function booleanSetting(raw: string | undefined, name: string, problems: string[]): boolean {
  if (raw === undefined) return false
  const value = raw.trim().toLowerCase()
  if (['1', 'true', 'yes', 'on'].includes(value)) return true
  if (['0', 'false', 'no', 'off'].includes(value)) return false
  problems.push(`${name} must be true or false, got "${raw}"`)
  return false
}

function baseUrlSetting(raw: string | undefined, problems: string[]): string | undefined {
  if (raw === undefined) return undefined
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    problems.push(`--base-url / PETSTORE_BASE_URL is not a URL: "${raw}" (expected e.g. https://staging.example.com/v1)`)
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    problems.push(`--base-url must be http or https, got ${url.protocol}`)
  }
  if (url.search || url.hash) problems.push('--base-url must not carry a query string or fragment')
  if (url.username || url.password) problems.push('--base-url must not carry credentials; use PETSTORE_API_KEY')
  return url.href.replace(/\/+$/, '')
}

/** Resolve the configuration; throws ConfigError listing every problem found. */
export function resolveConfig(sources: ConfigSources): Config | 'help' {
  const problems: string[] = []
  const fromArgv = readArgv(sources.argv)
  if (fromArgv.help) return 'help'
  const envFilePath = resolve(sources.cwd, fromArgv.envFile ?? '.env')
  const fromFile = readEnvFile(envFilePath, fromArgv.envFile !== undefined, problems)
  const raw: RawSettings = { ...fromFile, ...readVariables(sources.env), ...fromArgv.settings }

  // A variable that is set but empty is a missing secret in a pipeline, never "no target": judging the
  // embedded reference instead would pass a release gate on nothing.
  for (const key of ['baseUrl', 'apiKey'] as const) {
    const variable = options[key].env
    if (fromArgv.settings[key] === undefined && sources.env[variable] !== undefined && sources.env[variable]?.trim() === '') {
      problems.push(`${variable} is set but empty (a missing secret?): give it a value, or unset it`)
    }
  }
  const baseUrl = baseUrlSetting(raw.baseUrl, problems)
  const embeddedReference = booleanSetting(raw.embeddedReference, '--embedded-reference', problems)
  if (baseUrl !== undefined && embeddedReference) problems.push('--embedded-reference and --base-url exclude each other: give one target')
  if (baseUrl === undefined && !embeddedReference && isCi(sources.env)) {
    problems.push('no target in CI: set PETSTORE_BASE_URL (or --base-url); to judge the embedded reference implementation on purpose, add --embedded-reference')
  }
  if (raw.apiKey !== undefined && raw.apiKey.trim() === '') problems.push('the API key is empty')
  if (raw.apiKey !== undefined && /\s/.test(raw.apiKey)) problems.push('the API key contains white space')
  if (baseUrl !== undefined && raw.apiKey === undefined) {
    problems.push('an API key is needed for a target: set PETSTORE_API_KEY (or --api-key)')
  }

  let profile: Profile
  let profileReason: string
  if (raw.profile !== undefined) {
    if (raw.profile !== 'smoke' && raw.profile !== 'full') problems.push(`--profile must be smoke or full, got "${raw.profile}"`)
    profile = raw.profile === 'full' ? 'full' : 'smoke'
    profileReason = 'chosen by configuration'
  } else if (baseUrl === undefined) {
    profile = 'full'
    profileReason = 'default against the embedded reference'
  } else {
    profile = 'smoke'
    profileReason = 'default against a given URL; writes need an explicit --profile full'
  }

  let now = sources.today()
  if (raw.now !== undefined) {
    const parsed = new Date(raw.now)
    if (Number.isNaN(parsed.getTime())) problems.push(`--now must be an ISO 8601 date, got "${raw.now}"`)
    else now = parsed
  }

  const categoryIds = (raw.categoryIds ?? '')
    .split(',')
    .map((text) => text.trim())
    .filter((text) => text !== '')
  for (const text of categoryIds) {
    const value = exactInteger(text)
    if (value === undefined || !isInt64(value) || !/^-?\d+$/.test(text)) problems.push(`category id "${text}" is not an int64 integer`)
  }

  const caFile = raw.caFile === undefined ? undefined : resolve(sources.cwd, raw.caFile)
  if (caFile !== undefined) {
    try {
      readFileSync(caFile)
    } catch {
      problems.push(`--ca-file ${raw.caFile}: the file cannot be read`)
    }
  }

  const config: Config = {
    baseUrl,
    apiKey: raw.apiKey,
    profile,
    profileReason,
    strict: booleanSetting(raw.strict, '--strict', problems),
    reportDir: resolve(sources.cwd, raw.reportDir ?? 'reports'),
    seed: integerSetting(raw.seed, '--seed', sources.randomSeed(), 0, 2 ** 31 - 1, problems),
    requirementFilter: requirementFilterSetting(raw.requirementFilter, problems),
    numRuns: integerSetting(raw.numRuns, '--num-runs', 30, 1, 100_000, problems),
    sequences: integerSetting(raw.sequences, '--sequences', 10, 0, 1_000, problems),
    sequenceLength: integerSetting(raw.sequenceLength, '--sequence-length', 12, 1, 200, problems),
    replayPath: replayPathSetting(raw.replayPath, raw.seed, problems),
    concurrency: integerSetting(raw.concurrency, '--concurrency', 8, 1, 256, problems),
    timeoutMs: integerSetting(raw.timeoutMs, '--timeout-ms', 10_000, 1, 600_000, problems),
    // 1 MiB: fifteen times the largest page of 100 generated pets, and small enough that the answers a run keeps
    // stay far under the suite's 300 MiB memory bound whatever the target sends (policy §5).
    maxBodyBytes: integerSetting(raw.maxBodyBytes, '--max-body-bytes', 1024 * 1024, 1024, 1024 ** 3, problems),
    maxRetries: integerSetting(raw.maxRetries, '--max-retries', 3, 0, 20, problems),
    maxRetryWaitMs: integerSetting(raw.maxRetryWaitMs, '--max-retry-wait-ms', 10_000, 0, 600_000, problems),
    deadlineMs: integerSetting(raw.deadlineMs, '--deadline-ms', 600_000, 1_000, 24 * 3_600_000, problems),
    consistencyWindowMs: integerSetting(raw.consistencyWindowMs, '--consistency-window-ms', 5_000, 0, 600_000, problems),
    categoryIds,
    namePrefix: raw.namePrefix ?? 'conformance-',
    caFile,
    insecure: booleanSetting(raw.insecure, '--insecure', problems),
    baseline: baselineSetting(raw.baselineFile, sources.cwd, problems),
    failOn: failOnSetting(raw.failOn, raw.baselineFile, problems),
    artifactsUrl: raw.artifactsUrl ?? githubRunUrl(sources.env),
    now: now.toISOString(),
    proxy: proxySettings(sources.env),
    dryRun: booleanSetting(raw.dryRun, '--dry-run', problems),
    quiet: booleanSetting(raw.quiet, '--quiet', problems),
  }
  if (problems.length > 0) throw new ConfigError(problems, config.reportDir, raw.baseUrl, raw.apiKey)
  return config
}
