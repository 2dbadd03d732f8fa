import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { type Config, ConfigError, resolveConfig } from '../../lib/run/config.js'
import { SETTINGS, type SettingKey, type SettingValues, settingEntries } from '../../lib/settings/settings.js'
import { renderConfigurationDoc, renderEnvExample } from '../../lib/settings/settings-docs.js'
import { packageRoot } from '../../lib/spec/package-root.js'
import { makeCertificates } from '../helpers/certificates.js'

function resolveWith(argv: string[], env: Record<string, string> = {}, dotenv?: string): Config {
  const cwd = mkdtempSync(join(tmpdir(), 'petstore-config-'))
  if (dotenv !== undefined) writeFileSync(join(cwd, '.env'), dotenv)
  const config = resolveConfig({ argv, env, cwd, today: () => new Date('2026-01-01T00:00:00Z'), randomSeed: () => 42 })
  if (config === 'help') throw new Error('help')
  return config
}

function problemsOf(argv: string[], env: Record<string, string> = {}): string[] {
  try {
    resolveWith(argv, env)
  } catch (error) {
    if (error instanceof ConfigError) return error.problems
    throw error
  }
  return []
}

describe('configuration precedence: flags > PETSTORE_* variables > .env > defaults', () => {
  test('a flag beats the variable, which beats the .env file', () => {
    const dotenv = 'PETSTORE_SEED=1\nPETSTORE_CONCURRENCY=3\nPETSTORE_NUM_RUNS=9\n'
    const config = resolveWith(['--seed', '3'], { PETSTORE_SEED: '2', PETSTORE_CONCURRENCY: '4' }, dotenv)
    expect([config.seed, config.concurrency, config.numRuns]).toEqual([3, 4, 9])
  })

  test('defaults: no target means the embedded reference in the full profile; a random seed', () => {
    const config = resolveWith([])
    expect(config).toMatchObject({ baseUrl: undefined, profile: 'full', seed: 42, strict: false, concurrency: 8 })
  })

  test('a given URL defaults to the read-only smoke profile; full must be asked for', () => {
    const env = { PETSTORE_BASE_URL: 'https://staging.example/v1/', PETSTORE_API_KEY: 'k' }
    expect(resolveWith([], env)).toMatchObject({ profile: 'smoke', baseUrl: 'https://staging.example/v1' })
    expect(resolveWith(['--profile', 'full'], env).profile).toBe('full')
  })

  test('--strict alone means true; --strict=false and PETSTORE_STRICT=0 mean false', () => {
    expect(resolveWith(['--strict']).strict).toBe(true)
    expect(resolveWith(['--strict=false']).strict).toBe(false)
    expect(resolveWith([], { PETSTORE_STRICT: '0' }).strict).toBe(false)
  })

  test('the clock is injectable', () => {
    expect(resolveWith(['--now', '2031-01-01']).now).toBe('2031-01-01T00:00:00.000Z')
  })
})

describe('bad settings are refused with a message that says what to fix', () => {
  test.for([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--base-url', 'not a url', '--api-key', 'k'], /not a URL/],
    [['--base-url', 'ftp://x/v1', '--api-key', 'k'], /http or https/],
    [['--base-url', 'https://x/v1'], /API key is needed/],
    [['--api-key', ''], /key is empty/],
    [['--timeout-ms', 'soon'], /--timeout-ms must be a whole number/],
    [['--profile', 'everything'], /smoke or full/],
    [['--ca-file', '/nonexistent/ca.pem'], /cannot be read/],
    [['--category-ids', '1,x'], /not an int64/],
    [['--category-ids', '9223372036854775808'], /not an int64/],
    [['--now', 'yesterday'], /ISO 8601/],
    [['--requirements', 'auth/,listPets/limit-'], /"listPets\/limit-" names no requirement/],
  ] as Array<[string[], RegExp]>)('%j', ([argv, message]) => {
    expect(problemsOf(argv).join('\n')).toMatch(message)
  })
})

describe('set-up mistakes are configuration errors, never a verdict', () => {
  test('a base URL or key variable that is set but empty is refused; an empty line in .env means unset', () => {
    expect(problemsOf([], { PETSTORE_BASE_URL: '' }).join('\n')).toMatch(/PETSTORE_BASE_URL is set but empty/)
    expect(problemsOf(['--base-url', 'http://127.0.0.1:1/v1'], { PETSTORE_API_KEY: '  ' }).join('\n')).toMatch(/PETSTORE_API_KEY is set but empty/)
    expect(resolveWith([], {}, 'PETSTORE_BASE_URL=\nPETSTORE_API_KEY=\n').baseUrl).toBeUndefined()
  })

  test('in CI, no target is refused unless the embedded reference is asked for; outside CI it is the zero-config run', () => {
    expect(problemsOf([], { CI: 'true' }).join('\n')).toMatch(/no target in CI/)
    expect(problemsOf(['--embedded-reference'], { CI: 'true' })).toEqual([])
    expect(problemsOf([], { CI: 'false' })).toEqual([])
    expect(problemsOf([])).toEqual([])
    expect(problemsOf(['--embedded-reference', '--base-url', 'http://127.0.0.1:1/v1'], { PETSTORE_API_KEY: 'k'.repeat(20) }).join('\n')).toMatch(/exclude each other/)
  })

  test('docs/configuration.md and .env.example are what the settings table renders (run npm run configuration-doc after changing it)', () => {
    expect(readFileSync(join(packageRoot, 'docs', 'configuration.md'), 'utf8')).toBe(renderConfigurationDoc())
    expect(readFileSync(join(packageRoot, '.env.example'), 'utf8')).toBe(renderEnvExample())
  })
})

/** One value each setting can take that is not its default, as text and as the typed API's value. */
const SAMPLES: { [K in SettingKey]: [string, SettingValues[K]] } = {
  baseUrl: ['http://127.0.0.1:9/v1', 'http://127.0.0.1:9/v1'],
  apiKey: ['a-key-of-twenty-chars', 'a-key-of-twenty-chars'],
  profile: ['smoke', 'smoke'],
  strict: ['true', true],
  reportDir: ['elsewhere', 'elsewhere'],
  seed: ['7', 7],
  requirements: ['auth/,listPets/limit-max-100', ['auth/', 'listPets/limit-max-100']],
  numRuns: ['3', 3],
  sequences: ['0', 0],
  sequenceLength: ['4', 4],
  replayPath: ['valid:1:2', 'valid:1:2'],
  concurrency: ['2', 2],
  timeoutMs: ['1234', 1234],
  maxBodyBytes: ['2048', 2048],
  maxRetries: ['1', 1],
  maxRetryWaitMs: ['10', 10],
  deadlineMs: ['5000', 5000],
  consistencyWindowMs: ['0', 0],
  categoryIds: ['1,-9223372036854775808', ['1', '-9223372036854775808']],
  namePrefix: ['mine-', 'mine-'],
  caFile: ['ca.pem', 'ca.pem'],
  insecure: ['yes', true],
  clientCert: ['client-copy.pem', 'client-copy.pem'],
  clientKey: ['client-copy.key', 'client-copy.key'],
  clientKeyPassphrase: ['a-passphrase', 'a-passphrase'],
  headers: ['X-Tenant: acme-staging', { 'X-Tenant': 'acme-staging' }],
  maxEdits: ['300', 300],
  editOperators: ['octet,notation', ['octet', 'notation']],
  rateLimit: ['5', 5],
  maxCreates: ['40', 40],
  omitTraceparent: ['true', true],
  har: ['run.har', 'run.har'],
  baseline: ['earlier.json', 'earlier.json'],
  failOn: ['new', 'new'],
  artifactsUrl: ['https://ci.example/run/1', 'https://ci.example/run/1'],
  now: ['2031-02-03', '2031-02-03'],
  embeddedReference: ['true', true],
  dryRun: ['1', true],
  quiet: ['on', true],
}

describe('extra headers: for a gateway, never in the way of what the checks test', () => {
  test('--header again adds one; PETSTORE_HEADERS holds lines or a JSON object; ${VAR} is read from the environment and the .env file', () => {
    const env = { GATEWAY_SECRET: 'from-the-environment' }
    expect(resolveWith(['--header', 'X-Tenant: acme', '--header', 'X-Secret: ${GATEWAY_SECRET}'], env).headers).toEqual({ 'X-Tenant': 'acme', 'X-Secret': 'from-the-environment' })
    expect(resolveWith([], { ...env, PETSTORE_HEADERS: 'X-Tenant: acme\nX-Secret: ${GATEWAY_SECRET}\n' }).headers).toEqual({
      'X-Tenant': 'acme',
      'X-Secret': 'from-the-environment',
    })
    expect(resolveWith([], { PETSTORE_HEADERS: '{"X-Tenant":"acme: with a colon"}' }).headers).toEqual({ 'X-Tenant': 'acme: with a colon' })
    expect(resolveWith(['--header', 'X-Secret: ${IN_DOTENV}'], {}, 'IN_DOTENV=from-dotenv\n').headers).toEqual({ 'X-Secret': 'from-dotenv' })
    const config = resolveWith(['--header', 'X-Secret: ${GATEWAY_SECRET}', '--header', 'X-Tenant: acme-tenant'], env)
    expect(config.secrets).toEqual([
      { value: 'from-the-environment', placeholder: '${GATEWAY_SECRET}' },
      { value: 'acme-tenant', placeholder: '[value of X-Tenant]' },
    ])
  })

  test.for([
    [['--header', 'Authorization: Bearer x'], /Authorization cannot be set: the suite sends its own/],
    [['--header', 'host: elsewhere'], /host cannot be set/],
    [['--header', 'Content-Length: 3'], /Content-Length cannot be set/],
    [['--header', 'traceparent: 00-x'], /--omit-traceparent/],
    [['--header', 'X-A: 1', '--header', 'x-a: 2'], /x-a is given twice/],
    [['--header', 'no colon here'], /each header must read "Name: value"/],
    [['--header', 'Bad Name: 1'], /"Bad Name" is not a header name/],
    [['--header', 'X-Secret: ${NOT_SET_ANYWHERE}'], /\$\{NOT_SET_ANYWHERE\} is not set in the environment/],
  ] as const)('%j is refused', ([argv, message]) => {
    const problems = problemsOf([...argv]).join('\n')
    expect(problems).toMatch(message)
    // A refusal names the header, never its value.
    expect(problems).not.toMatch(/Bearer x|elsewhere/)
  })

  test('the typed API is checked the same way', () => {
    expect(() => resolveConfig({ env: {}, cwd: tmpdir(), today: () => new Date(), randomSeed: () => 1, values: { headers: { authorization: 'Bearer x' } } })).toThrow(
      /authorization cannot be set/,
    )
  })
})

describe('every setting is defined once: a flag, a variable, a .env line and a typed API value give the same run', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'petstore-settings-'))
  writeFileSync(join(cwd, 'ca.pem'), 'not checked here')
  const certificates = makeCertificates()
  for (const [name, from] of [
    ['client.pem', certificates.clientCertFile],
    ['client-copy.pem', certificates.clientCertFile],
    ['client.key', certificates.clientKeyFile],
    ['client-copy.key', certificates.clientKeyFile],
  ]) {
    copyFileSync(from as string, join(cwd, name as string))
  }
  writeFileSync(join(cwd, 'earlier.json'), JSON.stringify({ formatVersion: 1, requirements: [] }))
  const sources = { cwd, today: () => new Date('2026-01-01T00:00:00Z'), randomSeed: () => 42 }
  const resolved = (config: Config | 'help') => {
    if (config === 'help') throw new Error('help')
    return config
  }

  test.for(settingEntries().map(([key]) => key))('%s', (key) => {
    const setting = SETTINGS[key]
    const [text, value] = SAMPLES[key]
    // The settings a sample needs beside it (a target needs a key; a replay path needs its seed; fail-on new needs a baseline).
    const base: Partial<Record<string, string>> = {
      PETSTORE_API_KEY: 'a-key-of-twenty-chars',
      PETSTORE_SEED: '7',
      PETSTORE_BASELINE: 'earlier.json',
      PETSTORE_CLIENT_CERT: 'client.pem',
      PETSTORE_CLIENT_KEY: 'client.key',
    }
    const company = { ...base }
    delete company[setting.env]
    // A client certificate needs its key beside it: without the sample, its half of the pair is the base's.
    const withoutSample = key === 'clientCert' || key === 'clientKey' ? base : company
    const fromFlag = resolved(resolveConfig({ ...sources, env: company, argv: [`--${setting.flag}=${text}`] }))
    const fromVariable = resolved(resolveConfig({ ...sources, env: { ...company, [setting.env]: text } }))
    writeFileSync(join(cwd, `${key}.env`), `${setting.env}=${text}\n`)
    const fromFile = resolved(resolveConfig({ ...sources, env: company, argv: ['--env-file', `${key}.env`] }))
    const fromApi = resolved(resolveConfig({ ...sources, env: company, values: { [key]: value } }))
    const none = resolved(resolveConfig({ ...sources, env: withoutSample }))
    const configKey = key as keyof Config
    expect(fromFlag[configKey]).not.toEqual(none[configKey])
    expect([fromVariable[configKey], fromFile[configKey], fromApi[configKey]]).toEqual([fromFlag[configKey], fromFlag[configKey], fromFlag[configKey]])
  })

  test('the typed API checks its values as the command checks text, and names the setting', () => {
    const problems = (values: SettingValues) => {
      try {
        resolveConfig({ ...sources, env: {}, values })
        return ''
      } catch (error) {
        return error instanceof ConfigError ? error.problems.join('\n') : String(error)
      }
    }
    expect(problems({ timeoutMs: 0 })).toMatch(/^timeoutMs must be from 1 to 600000, got 0/)
    expect(problems({ concurrency: 2.5 })).toMatch(/^concurrency must be from 1 to 256, got 2.5/)
    expect(problems({ requirements: ['auth/', 'listPets/limit-'] })).toMatch(/"listPets\/limit-" names no requirement/)
    expect(problems({ profile: 'everything' as 'full' })).toMatch(/^profile must be smoke or full/)
    expect(problems({ baseUrl: 'http://x/v1?q=1', apiKey: 'k'.repeat(20) })).toMatch(/query string/)
    expect(problems({ categoryIds: ['1', '9223372036854775808'] })).toMatch(/not an int64/)
    expect(problems({ now: 'yesterday' })).toMatch(/ISO 8601/)
    // Named as options throughout: no flag of the command in the typed API's words.
    expect(problems({ timeoutMs: 0, concurrency: 0, baseUrl: 'not a url', replayPath: 'x' })).not.toMatch(/--[a-z]/)
  })
})
