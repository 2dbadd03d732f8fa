/**
 * Every setting of a run, defined once: its name, its flag and variable, its type, its default, its help text and its
 * validation. The command's flags, the environment and `.env`, `--help`, the typed API's option types,
 * `docs/configuration.md` and `.env.example` all come from this table; adding a setting touches this table and its
 * use. A value read as text is parsed by its setting; one handed to the typed API is checked by the same setting.
 *
 * What depends on several settings (a key is needed for a target; `--fail-on new` needs a baseline) or on
 * the place of the run (the working folder, CI, the clock) is decided in lib/run/config.ts.
 */
import { exactInteger, isInt64 } from '../http/int64.js'
import { filterEntrySelects, requirements } from '../spec/catalogue.js'
import { EDIT_OPERATOR_IDS, type OperatorId } from './edit-operator-ids.js'
import { type ExtraHeaders, extraHeadersProblem, parseExtraHeaders } from './extra-headers.js'
import { Refused } from './refused.js'

export { EDIT_OPERATOR_IDS, type OperatorId }

/** `smoke`: read-only, no POST at all (policy §3); `full`: writes included; `deep`: full, with every value of every edit class (policy §2b). */
export type Profile = 'smoke' | 'full' | 'deep'

export interface Setting<T> {
  flag: string
  /** The variable it is read from, in the environment and in `.env`. */
  env: string
  /** The type as the docs and `--help` name it. */
  type: string
  /** The default value; undefined when there is none or when the run works it out (then `defaultWords` says how). */
  default: T | undefined
  defaultWords?: string
  help: string
  /** True for a flag that is true when given alone (`--strict`). */
  switch?: boolean
  /** True for a flag that may be given again: each adds a line to its text (`--header`). */
  repeatable?: boolean
  /** From the text of a flag or a variable: the value, or what is wrong with the text. */
  parse: (text: string, name: string) => T | Refused
  /** What is wrong with a value, from text or from the typed API; undefined when it is fine. */
  problem?: (value: T, name: string) => string | undefined
}

export { Refused }

function wholeNumber(options: { flag: string; env: string; default?: number; min: number; max: number; help: string; defaultWords?: string }): Setting<number> {
  const { min, max } = options
  return {
    default: undefined,
    ...options,
    type: `whole number, ${min} to ${max}`,
    parse: (text, name) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : new Refused(`${name} must be a whole number from ${min} to ${max}, got "${text}"`)),
    problem: (value, name) => (Number.isInteger(value) && value >= min && value <= max ? undefined : `${name} must be from ${min} to ${max}, got ${value}`),
  }
}

function yesNo(options: { flag: string; env: string; help: string }): Setting<boolean> {
  return {
    ...options,
    type: 'true or false',
    default: false,
    switch: true,
    parse: (text, name) => {
      const value = text.trim().toLowerCase()
      if (['1', 'true', 'yes', 'on'].includes(value)) return true
      if (['0', 'false', 'no', 'off'].includes(value)) return false
      return new Refused(`${name} must be true or false, got "${text}"`)
    },
    problem: (value, name) => (typeof value === 'boolean' ? undefined : `${name} must be true or false, got ${String(value)}`),
  }
}

function text(options: { flag: string; env: string; type?: string; help: string; default?: string; defaultWords?: string; problem?: Setting<string>['problem'] }): Setting<string> {
  return { type: 'text', default: undefined, ...options, parse: (value) => value }
}

function oneOf<const T extends string>(choices: readonly T[], options: { flag: string; env: string; help: string; default?: T; defaultWords?: string }): Setting<T> {
  const problem = (value: string, name: string) => (choices.includes(value as T) ? undefined : `${name} must be ${choices.join(' or ')}, got "${value}"`)
  return {
    default: undefined,
    ...options,
    type: choices.join(' or '),
    parse: (value, name) => {
      const refused = problem(value, name)
      return refused ? new Refused(refused) : (value as T)
    },
    problem,
  }
}

/** Comma-separated in text; an array of strings in the typed API. */
function list(options: { flag: string; env: string; help: string; defaultWords: string; problem: (entry: string) => string | undefined }): Setting<readonly string[]> {
  return {
    flag: options.flag,
    env: options.env,
    help: options.help,
    type: 'comma-separated list',
    default: [],
    defaultWords: options.defaultWords,
    parse: (value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    problem: (values) => values.map(options.problem).find((problem) => problem !== undefined),
  }
}

function urlProblem(value: string): string | undefined {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return `--base-url / PETSTORE_BASE_URL is not a URL: "${value}" (expected e.g. https://staging.example.com/v1)`
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `--base-url must be http or https, got ${url.protocol}`
  if (url.search || url.hash) return '--base-url must not carry a query string or fragment'
  if (url.username || url.password) return '--base-url must not carry credentials; use PETSTORE_API_KEY'
  return undefined
}

function apiKeyProblem(value: string): string | undefined {
  if (value.trim() === '') return 'the API key is empty'
  if (/\s/.test(value)) return 'the API key contains white space'
  return undefined
}

/** A replay path as a failure reports it; a sequence's ends with `@` and which of its commands ran. */
function replayPathProblem(value: string): string | undefined {
  return /^[a-z][A-Za-z0-9-]*(:\d+)+(@[A-Za-z0-9+/]*:[A-Za-z0-9+/]*)?$/.test(value.trim())
    ? undefined
    : `--replay-path must look like valid:12:0:3 or sequences:3:1@B:A (the path a failure reports), got "${value}"`
}

/** An entry that selects no requirement is a typo, and running nothing would be a vacuous pass. */
function requirementEntryProblem(entry: string): string | undefined {
  return requirements.some((req) => filterEntrySelects(entry, req.id))
    ? undefined
    : `--requirements: "${entry}" names no requirement (give an id such as listPets/limit-max-100, or an area such as auth/)`
}

function categoryIdProblem(entry: string): string | undefined {
  const value = exactInteger(entry)
  return value !== undefined && isInt64(value) && /^-?\d+$/.test(entry) ? undefined : `category id "${entry}" is not an int64 integer`
}

function dateProblem(value: string | Date, name: string): string | undefined {
  return Number.isNaN(new Date(value).getTime()) ? `${name} must be an ISO 8601 date, got "${String(value)}"` : undefined
}

/** Every setting. The names of the first six are fixed by the policy. */
export const SETTINGS = {
  baseUrl: text({
    flag: 'base-url',
    env: 'PETSTORE_BASE_URL',
    type: 'URL',
    defaultWords: 'none: the embedded reference implementation',
    help: 'target base URL ending with /v1; none runs the embedded reference',
    problem: urlProblem,
  }),
  apiKey: text({
    flag: 'api-key',
    env: 'PETSTORE_API_KEY',
    defaultWords: 'none (needed for a target)',
    help: 'API key sent as Bearer token (prefer the variable to the flag); never printed',
    problem: apiKeyProblem,
  }),
  profile: oneOf(['smoke', 'full', 'deep'], {
    flag: 'profile',
    env: 'PETSTORE_PROFILE',
    defaultWords: 'smoke for a given URL, full for the embedded reference',
    help: 'smoke (read-only), full (creates pets) or deep (full, with every value of every edit of every request: for your own builds)',
  }),
  strict: yesNo({ flag: 'strict', env: 'PETSTORE_STRICT', help: 'SHOULD warnings also make the run non-conformant' }),
  reportDir: text({
    flag: 'report-dir',
    env: 'PETSTORE_REPORT_DIR',
    type: 'folder',
    default: 'reports',
    help: 'where results.json, junit.xml, summary.md and report.html are written',
  }),
  seed: wholeNumber({
    flag: 'seed',
    env: 'PETSTORE_SEED',
    defaultWords: 'random, printed at the start',
    min: 0,
    max: 2 ** 31 - 1,
    help: 'seed of generated cases and sequences',
  }),
  requirements: list({
    flag: 'requirements',
    env: 'PETSTORE_REQUIREMENTS',
    defaultWords: 'all',
    help: 'requirement ids or prefixes to run (e.g. auth/,listPets/limit-caps-size)',
    problem: requirementEntryProblem,
  }),
  numRuns: wholeNumber({ flag: 'num-runs', env: 'PETSTORE_NUM_RUNS', default: 30, min: 1, max: 100_000, help: 'generated cases per property' }),
  sequences: wholeNumber({
    flag: 'sequences',
    env: 'PETSTORE_SEQUENCES',
    default: 10,
    min: 0,
    max: 1_000,
    help: 'random sequences of creates, lists and gets checked against a model (0: none)',
  }),
  sequenceLength: wholeNumber({
    flag: 'sequence-length',
    env: 'PETSTORE_SEQUENCE_LENGTH',
    default: 12,
    min: 1,
    max: 200,
    help: 'most commands in one sequence; a sequence sends at most 2 × this + 6 requests, and the sequences of a run at most --sequences × (this − 2) together (3 a sequence at least), the longest cut first (re-reads within the consistency window aside)',
  }),
  replayPath: text({
    flag: 'replay-path',
    env: 'PETSTORE_REPLAY_PATH',
    defaultWords: 'none',
    help: 'replay one generated case or sequence: the path a failure reports, e.g. valid:12:0:3 (needs --seed)',
    problem: replayPathProblem,
  }),
  concurrency: wholeNumber({ flag: 'concurrency', env: 'PETSTORE_CONCURRENCY', default: 8, min: 1, max: 256, help: 'requests in flight at once' }),
  timeoutMs: wholeNumber({ flag: 'timeout-ms', env: 'PETSTORE_TIMEOUT_MS', default: 10_000, min: 1, max: 600_000, help: 'timeout of one request, in ms' }),
  // 1 MiB: fifteen times the largest page of 100 generated pets, and small enough that the answers a run keeps
  // stay far under the suite's 300 MiB memory bound whatever the target sends (policy §5).
  maxBodyBytes: wholeNumber({
    flag: 'max-body-bytes',
    env: 'PETSTORE_MAX_BODY_BYTES',
    default: 1024 * 1024,
    min: 1024,
    max: 1024 ** 3,
    help: 'largest response body read, after decoding (gzip, deflate, br), in bytes',
  }),
  maxRetries: wholeNumber({
    flag: 'max-retries',
    env: 'PETSTORE_MAX_RETRIES',
    default: 3,
    min: 0,
    max: 20,
    help: 'retries of a rate-limited request (429, or 503 with Retry-After) or of a read that failed in transit',
  }),
  maxRetryWaitMs: wholeNumber({ flag: 'max-retry-wait-ms', env: 'PETSTORE_MAX_RETRY_WAIT_MS', default: 10_000, min: 0, max: 600_000, help: 'longest Retry-After honoured, in ms' }),
  deadlineMs: wholeNumber({ flag: 'deadline-ms', env: 'PETSTORE_DEADLINE_MS', default: 600_000, min: 1_000, max: 24 * 3_600_000, help: 'deadline of the whole run, in ms' }),
  consistencyWindowMs: wholeNumber({
    flag: 'consistency-window-ms',
    env: 'PETSTORE_CONSISTENCY_WINDOW_MS',
    default: 5_000,
    min: 0,
    max: 600_000,
    help: 'how long a created pet may take to show in reads (a replica that lags), in ms; 0: at once',
  }),
  categoryIds: list({
    flag: 'category-ids',
    env: 'PETSTORE_CATEGORY_IDS',
    defaultWords: 'any int64',
    help: 'category ids the target knows; the pets the suite creates use them',
    problem: categoryIdProblem,
  }),
  namePrefix: text({ flag: 'name-prefix', env: 'PETSTORE_NAME_PREFIX', default: 'conformance-', help: 'name prefix of the pets the suite creates' }),
  caFile: text({ flag: 'ca-file', env: 'PETSTORE_CA_FILE', type: 'file', defaultWords: 'none', help: 'PEM file of extra trusted certificate authorities' }),
  insecure: yesNo({ flag: 'insecure', env: 'PETSTORE_INSECURE', help: 'do not verify TLS certificates (loud; never for production)' }),
  clientCert: text({
    flag: 'client-cert',
    env: 'PETSTORE_CLIENT_CERT',
    type: 'file',
    defaultWords: 'none',
    help: 'PEM file of the client certificate, for a target that asks for one (mutual TLS); needs --client-key',
  }),
  clientKey: text({ flag: 'client-key', env: 'PETSTORE_CLIENT_KEY', type: 'file', defaultWords: 'none', help: 'PEM file of the private key of --client-cert' }),
  clientKeyPassphrase: text({
    flag: 'client-key-passphrase',
    env: 'PETSTORE_CLIENT_KEY_PASSPHRASE',
    defaultWords: 'none',
    help: 'passphrase of an encrypted --client-key (prefer the variable to the flag); never printed',
  }),
  headers: {
    flag: 'header',
    env: 'PETSTORE_HEADERS',
    type: '"Name: value", repeatable (the variable: one per line, or a JSON object)',
    default: {},
    defaultWords: 'none',
    repeatable: true,
    help: '"Name: value", an extra header on every request, e.g. a gateway\'s (give it again for another); ${VAR} in a value is read from the environment; values never printed; not Authorization, Host or Content-Length',
    parse: parseExtraHeaders,
    problem: extraHeadersProblem,
  } satisfies Setting<ExtraHeaders>,
  editOperators: list({
    flag: 'edit-operators',
    env: 'PETSTORE_EDIT_OPERATORS',
    defaultWords: 'all',
    help: `the edit operators of the neighbourhood to apply (policy §2b), e.g. octet,notation to rerun only those: ${EDIT_OPERATOR_IDS.join(', ')}`,
    problem: (entry) =>
      (EDIT_OPERATOR_IDS as readonly string[]).includes(entry) ? undefined : `--edit-operators: "${entry}" is no edit operator (one of ${EDIT_OPERATOR_IDS.join(', ')})`,
  }),
  maxEdits: wholeNumber({
    flag: 'max-edits',
    env: 'PETSTORE_MAX_EDITS',
    defaultWords: "none: the profile's whole plan (every operator on every part)",
    min: 20,
    max: 1_000_000,
    help: 'at most this many edited requests in the neighbourhood of the plain ones (policy §2b), chosen by the seed with every operator kept; less than every part then',
  }),
  maxCreates: wholeNumber({
    flag: 'max-creates',
    env: 'PETSTORE_MAX_CREATES',
    defaultWords: 'none: every create the checks need',
    min: 0,
    max: 1_000_000,
    help: 'most requests that may create a pet (POST, seeding included) the run sends; the checks beyond it are inconclusive and say so',
  }),
  rateLimit: wholeNumber({
    flag: 'rate-limit',
    env: 'PETSTORE_RATE_LIMIT',
    defaultWords: 'none: as fast as --concurrency allows',
    min: 1,
    max: 100_000,
    help: 'most requests in any one second, retries included, on top of --concurrency (the suite starts at most N in any 1.1 s)',
  }),
  omitTraceparent: yesNo({
    flag: 'omit-traceparent',
    env: 'PETSTORE_OMIT_TRACEPARENT',
    help: 'send no W3C traceparent header (for a target that refuses headers it does not know); User-Agent still names the run',
  }),
  har: text({
    flag: 'har',
    env: 'PETSTORE_HAR',
    type: 'file',
    defaultWords: 'none',
    help: 'write every exchange of the run to this HAR 1.2 file (masked like the reports), each entry tagged with the requirements that judged it',
  }),
  baseline: text({
    flag: 'baseline',
    env: 'PETSTORE_BASELINE',
    type: 'file',
    defaultWords: 'none',
    help: 'results.json of an earlier run: mark each requirement new failure, fixed, still failing or unchanged',
  }),
  failOn: oneOf(['any', 'new'], {
    flag: 'fail-on',
    env: 'PETSTORE_FAIL_ON',
    default: 'any',
    help: 'with new (and a baseline), only failures the baseline did not have fail the run',
  }),
  artifactsUrl: text({
    flag: 'artifacts-url',
    env: 'PETSTORE_ARTIFACTS_URL',
    type: 'URL',
    defaultWords: 'the GitHub Actions run page, when known',
    help: "link to this run's reports, for summary.md",
  }),
  now: {
    flag: 'now',
    env: 'PETSTORE_NOW',
    type: 'ISO 8601 date',
    default: undefined,
    defaultWords: 'the clock',
    help: 'the date the run takes as today, for the getPet deprecation rule',
    parse: (value: string) => value,
    problem: dateProblem,
  } satisfies Setting<string | Date>,
  embeddedReference: yesNo({
    flag: 'embedded-reference',
    env: 'PETSTORE_EMBEDDED_REFERENCE',
    help: 'judge the embedded reference on purpose (needed in CI, where no target is a set-up mistake)',
  }),
  dryRun: yesNo({ flag: 'dry-run', env: 'PETSTORE_DRY_RUN', help: 'print the plan (requests per operation, any POST) and send nothing to the target' }),
  quiet: yesNo({ flag: 'quiet', env: 'PETSTORE_QUIET', help: 'no progress lines on stderr during the run' }),
}

export type SettingKey = keyof typeof SETTINGS

/** The value type of one setting. */
export type SettingValue<K extends SettingKey> = (typeof SETTINGS)[K] extends Setting<infer T> ? T : never

/** Settings as values, each optional: what the typed API takes and what flags and variables are read into. */
export type SettingValues = { [K in SettingKey]?: SettingValue<K> }

/** Every setting as [key, setting], in the table's order. */
export function settingEntries(): Array<[SettingKey, Setting<unknown>]> {
  return Object.entries(SETTINGS) as Array<[SettingKey, Setting<unknown>]>
}
