import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { type Config, ConfigError, resolveConfig } from '../../lib/run/config.js'

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

  test('.env.example documents every setting the configuration reads', async () => {
    const { readFileSync } = await import('node:fs')
    const { options } = await import('../../lib/run/config.js')
    const { packageRoot } = await import('../../lib/spec/package-root.js')
    const example = readFileSync(join(packageRoot, '.env.example'), 'utf8')
    expect(
      Object.values(options)
        .filter((option) => !example.includes(`${option.env}=`))
        .map((option) => option.env),
    ).toEqual([])
  })
})
