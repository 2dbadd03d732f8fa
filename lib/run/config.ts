/**
 * Configuration: command-line flags, then PETSTORE_* environment variables, then a .env file (dotenv),
 * then defaults, each setting as lib/settings/settings.ts defines it; or values handed to the typed API,
 * checked by the same table. The only module that reads the environment. Every value is validated before
 * the run sends anything; a bad value is a ConfigError (exit code 2).
 */
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { createSecureContext } from 'node:tls'
import { parseArgs } from 'node:util'
import { parse as parseDotenv } from 'dotenv'
import type { ProxySettings } from '../http/exchange.js'
import type { Secret } from '../http/redaction.js'
import { type Baseline, loadBaseline } from '../judging/baseline.js'
import { expandExtraHeaders } from '../settings/extra-headers.js'
import { commandInvocation, type Invocation } from '../settings/invocation.js'
import { type Profile, Refused, SETTINGS, type SettingKey, type SettingValue, type SettingValues, settingEntries } from '../settings/settings.js'

/** Settings with no default: undefined when not given. */
type Optional =
  | 'baseUrl'
  | 'apiKey'
  | 'replayPath'
  | 'caFile'
  | 'artifactsUrl'
  | 'clientCert'
  | 'clientKey'
  | 'clientKeyPassphrase'
  | 'rateLimit'
  | 'maxEdits'
  | 'har'
  | 'maxCreates'
/** Settings whose value the run works out from others, or from where it runs (see resolveConfig). */
type WorkedOut = Optional | 'profile' | 'seed' | 'now' | 'baseline'

/** Every setting as the run uses it: defaults applied, paths resolved, the baseline read. */
export type Config = { [K in Exclude<SettingKey, WorkedOut>]: SettingValue<K> } & { [K in Optional]: SettingValue<K> | undefined } & {
  profile: Profile
  /** Why this profile was chosen, for the console. */
  profileReason: string
  seed: number
  /** The clock of the run (ISO date). */
  now: string
  /** The verdicts of an earlier run's results.json, read once, to compare with. */
  baseline: Baseline | undefined
  /** The usual proxy variables, read here so that nothing else reads the environment. */
  proxy: ProxySettings
  /** Values masked in every output besides the key: the extra headers' values, the client key's passphrase. */
  secrets: Secret[]
  /** How the user started the run: replay lines are written in that form. */
  invocation: Invocation
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

export interface ConfigSources {
  /** Command-line arguments (none for the typed API). */
  argv?: readonly string[]
  env: Readonly<Record<string, string | undefined>>
  cwd: string
  /** Where the clock reads today, when --now is not given. */
  today: () => Date
  /** Seed used when none is configured. */
  randomSeed: () => number
  /** Values handed to the typed API: they win over flags and variables, and are checked as values, never read as text. */
  values?: SettingValues
  /** How the user started the run (default: the command, as the environment shows it was typed). */
  invocation?: Invocation
}

type Texts = Partial<Record<SettingKey, string>>

function readArgv(argv: readonly string[]): { texts: Texts; envFile?: string; help: boolean } {
  const parseOptions: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {
    'env-file': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  }
  for (const [, setting] of settingEntries()) parseOptions[setting.flag] = { type: 'string', ...(setting.repeatable ? { multiple: true } : {}) }
  // Switches are parsed as strings so that "--strict" and "--strict=false" both work.
  const normalised = argv.map((arg) => {
    const setting = settingEntries().find(([, candidate]) => candidate.switch && arg === `--${candidate.flag}`)?.[1]
    return setting ? `--${setting.flag}=true` : arg
  })
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({ args: normalised, options: parseOptions, strict: true, allowPositionals: false })
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    // A flag of the fleet's, given to one run: say whose it is.
    const fleetFlag = /Unknown option '(--(?:shard|targets-in-flight))'/.exec(message)?.[1]
    throw new ConfigError([fleetFlag ? `${fleetFlag} is a flag of a fleet run: give --targets fleet.yaml too (docs/fleet.md)` : message])
  }
  const texts: Texts = {}
  for (const [key, setting] of settingEntries()) {
    const value = parsed.values[setting.flag]
    if (typeof value === 'string') texts[key] = value
    // A repeatable flag given several times: one line each.
    if (Array.isArray(value)) texts[key] = value.filter((item) => typeof item === 'string').join('\n')
  }
  const envFile = parsed.values['env-file']
  return { texts, ...(typeof envFile === 'string' ? { envFile } : {}), help: parsed.values.help === true }
}

function readVariables(variables: Readonly<Record<string, string | undefined>>): Texts {
  const texts: Texts = {}
  for (const [key, setting] of settingEntries()) {
    const value = variables[setting.env]
    if (value !== undefined && value !== '') texts[key] = value
  }
  return texts
}

/** Every variable of the .env file (a header's `${VAR}` may name any of them). */
function readEnvFile(path: string, explicit: boolean, problems: string[]): Record<string, string> {
  if (!existsSync(path)) {
    if (explicit) problems.push(`--env-file ${path}: no such file`)
    return {}
  }
  try {
    return parseDotenv(readFileSync(path, 'utf8'))
  } catch (error) {
    problems.push(`--env-file ${path}: ${error instanceof Error ? error.message : String(error)}`)
    return {}
  }
}

/** Each text parsed by its setting, then the typed API's values over them; every value checked by its setting. */
function settingValues(texts: Texts, handed: SettingValues, problems: string[]): SettingValues {
  const values: Record<string, unknown> = {}
  for (const [key, setting] of settingEntries()) {
    const name = `--${setting.flag}`
    const text = texts[key]
    if (text !== undefined) {
      const parsed = setting.parse(text, name)
      if (parsed instanceof Refused) problems.push(parsed.message)
      else values[key] = parsed
    }
    if (handed[key] !== undefined) values[key] = handed[key]
    if (values[key] === undefined) continue
    const problem = setting.problem?.(values[key], name)
    if (problem) {
      problems.push(problem)
      delete values[key]
    }
  }
  return values as SettingValues
}

function baselineOf(path: string | undefined, cwd: string, problems: string[]): Baseline | undefined {
  if (path === undefined) return undefined
  try {
    return loadBaseline(resolve(cwd, path))
  } catch (error) {
    problems.push(`--baseline ${path}: ${error instanceof Error ? error.message : String(error)} (give the results.json of an earlier run)`)
    return undefined
  }
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

/** The profile and why it was chosen: a given URL is read-only unless full is asked for. */
function profileOf(given: Profile | undefined, baseUrl: string | undefined): { profile: Profile; profileReason: string } {
  if (given !== undefined) return { profile: given, profileReason: 'chosen by configuration' }
  if (baseUrl === undefined) return { profile: 'full', profileReason: 'default against the embedded reference' }
  return { profile: 'smoke', profileReason: 'default against a given URL; writes need an explicit --profile full' }
}

/** Resolve the configuration; throws ConfigError listing every problem found. */
export function resolveConfig(sources: ConfigSources): Config | 'help' {
  const problems: string[] = []
  const fromArgv = readArgv(sources.argv ?? [])
  if (fromArgv.help) return 'help'
  const envFilePath = resolve(sources.cwd, fromArgv.envFile ?? '.env')
  const envFileVariables = readEnvFile(envFilePath, fromArgv.envFile !== undefined, problems)
  const texts: Texts = { ...readVariables(envFileVariables), ...readVariables(sources.env), ...fromArgv.texts }
  const handed = sources.values ?? {}
  const values = settingValues(texts, handed, problems)
  const given = (key: SettingKey) => texts[key] !== undefined || handed[key] !== undefined

  // A variable that is set but empty is a missing secret in a pipeline, never "no target": judging the
  // embedded reference instead would pass a release gate on nothing.
  for (const key of ['baseUrl', 'apiKey'] as const) {
    const variable = SETTINGS[key].env
    if (fromArgv.texts[key] === undefined && handed[key] === undefined && sources.env[variable] !== undefined && sources.env[variable]?.trim() === '') {
      problems.push(`${variable} is set but empty (a missing secret?): give it a value, or unset it`)
    }
  }
  const baseUrl = values.baseUrl?.replace(/\/+$/, '')
  const embeddedReference = values.embeddedReference ?? false
  if (baseUrl !== undefined && embeddedReference) problems.push('--embedded-reference and --base-url exclude each other: give one target')
  if (baseUrl === undefined && !given('baseUrl') && !embeddedReference && isCi(sources.env)) {
    problems.push('no target in CI: set PETSTORE_BASE_URL (or --base-url); to judge the embedded reference implementation on purpose, add --embedded-reference')
  }
  if (baseUrl !== undefined && !given('apiKey')) problems.push('an API key is needed for a target: set PETSTORE_API_KEY (or --api-key)')
  if (values.replayPath !== undefined && values.seed === undefined) problems.push('--replay-path needs the --seed of the run that reported it')
  if (values.failOn === 'new' && values.baseline === undefined) problems.push('--fail-on new needs --baseline: new failures are new against an earlier run')

  const [caFile, clientCert, clientKey] = (['caFile', 'clientCert', 'clientKey'] as const).map((key) => readableFile(key, values[key], sources.cwd, problems))
  if ((values.clientCert === undefined) !== (values.clientKey === undefined)) problems.push('--client-cert and --client-key go together: give both, or neither')
  else if (clientCert !== undefined && clientKey !== undefined) problems.push(...clientCertificateProblems(clientCert, clientKey, values.clientKeyPassphrase))
  const extraHeaders = expandExtraHeaders(values.headers ?? {}, { ...envFileVariables, ...sources.env })
  problems.push(...extraHeaders.problems)
  const passphrase = values.clientKeyPassphrase

  // Every setting at its value or the table's default; then what the run works out from others or from where it runs.
  const defaulted = Object.fromEntries(settingEntries().map(([key, setting]) => [key, values[key] ?? setting.default]))
  const config = {
    ...defaulted,
    ...profileOf(values.profile, baseUrl),
    baseUrl,
    embeddedReference,
    reportDir: resolve(sources.cwd, values.reportDir ?? (SETTINGS.reportDir.default as string)),
    seed: values.seed ?? sources.randomSeed(),
    replayPath: values.replayPath?.trim(),
    caFile,
    clientCert,
    clientKey,
    headers: extraHeaders.headers,
    secrets: [...extraHeaders.secrets, ...(passphrase ? [{ value: passphrase, placeholder: '$PETSTORE_CLIENT_KEY_PASSPHRASE' }] : [])],
    har: values.har === undefined ? undefined : resolve(sources.cwd, values.har),
    baseline: baselineOf(values.baseline, sources.cwd, problems),
    artifactsUrl: values.artifactsUrl ?? githubRunUrl(sources.env),
    now: new Date(values.now ?? sources.today()).toISOString(),
    proxy: proxySettings(sources.env),
    invocation: sources.invocation ?? commandInvocation(sources.env),
  } as Config
  if (problems.length > 0) {
    // The typed API is given options, not flags: its problems name them so (baseUrl, not --base-url).
    const named = sources.argv === undefined && sources.values !== undefined ? problems.map(inOptionNames) : problems
    throw new ConfigError(named, config.reportDir, texts.baseUrl ?? handed.baseUrl, texts.apiKey ?? handed.apiKey)
  }
  return config
}

/** Settings, longest flag first, so that no flag is read as the start of a longer one. */
const BY_FLAG_LENGTH = settingEntries().sort(([, a], [, b]) => b.flag.length - a.flag.length)

/** A problem in the words of the typed API: each `--flag` (and `--flag / PETSTORE_VARIABLE`) is the option's name. */
function inOptionNames(problem: string): string {
  let named = problem
  for (const [key, setting] of BY_FLAG_LENGTH) {
    named = named.replace(new RegExp(`--${setting.flag}(?![\\w-])(?: / ${setting.env})?`, 'g'), key)
  }
  return named
}

/** A file setting's path, resolved against the working folder; a file that cannot be read is a problem (and no path). */
function readableFile(key: 'caFile' | 'clientCert' | 'clientKey', given: string | undefined, cwd: string, problems: string[]): string | undefined {
  if (given === undefined) return undefined
  const path = resolve(cwd, given)
  try {
    readFileSync(path)
    return path
  } catch {
    problems.push(`--${SETTINGS[key].flag} ${given}: the file cannot be read`)
    return undefined
  }
}

/** A certificate and key that do not load (not PEM, not a pair, a wrong passphrase) would fail every request: a set-up mistake, said before the run. */
function clientCertificateProblems(certFile: string, keyFile: string, passphrase: string | undefined): string[] {
  try {
    createSecureContext({ cert: readFileSync(certFile), key: readFileSync(keyFile), ...(passphrase ? { passphrase } : {}) })
    return []
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return [
      `--client-cert / --client-key: the certificate and key do not load (${reason})${/bad decrypt|passphrase/i.test(reason) ? '; check PETSTORE_CLIENT_KEY_PASSPHRASE' : ''}`,
    ]
  }
}
