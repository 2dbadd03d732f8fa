import { createServer, request as httpRequest } from 'node:http'
import { dirname, join } from 'node:path'
import { describe, expect, onTestFinished, test } from 'vitest'
import { PetStore } from '../../reference/pet-store.js'
import { faults } from '../../variants/faults/index.js'
import { startVariant } from '../../variants/variant.js'
import { runCli, verdictOf } from '../helpers/run-cli.js'
import { API_KEY, UNREACHABLE_BASE_URL, useTargets } from '../helpers/targets.js'

const startTarget = useTargets()

/** A gateway in front of `baseUrl` that serves its paths under `from` instead of `to`; closed when the test finishes. Resolves with its origin. */
async function rewritingProxy(baseUrl: string, from: string, to: string): Promise<string> {
  const target = new URL(baseUrl)
  const proxy = createServer((incoming, outgoing) => {
    const path = (incoming.url ?? '/').replace(new RegExp(`^${from}`), to)
    const forwarded = httpRequest({ host: target.hostname, port: target.port, method: incoming.method, path, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(outgoing)
    })
    forwarded.on('error', () => outgoing.destroy())
    incoming.pipe(forwarded)
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  onTestFinished(() => new Promise<void>((resolve) => proxy.close(() => resolve())))
  return `http://127.0.0.1:${(proxy.address() as { port: number }).port}`
}

describe('the command against the reference implementation', () => {
  test('with no target it runs the embedded reference in full: conformant, every requirement given a verdict', async () => {
    // The whole neighbourhood (the command's default), fewer generated cases: the edits' requirements are decided too.
    const outcome = await runCli(['--seed', '11'], { PETSTORE_NUM_RUNS: '5', PETSTORE_SEQUENCES: '2' }, { commandDefaults: true })
    expect(outcome.code, outcome.stderr).toBe(0)
    expect(outcome.stdout).toMatch(/Profile: full \(default against the embedded reference\)/)
    expect(outcome.stdout).toMatch(/Seed: +11/)
    const results = outcome.results?.requirements ?? []
    expect(results.length).toBeGreaterThan(40)
    const undecided = results
      .filter((result) => !['pass', 'info', 'untestable'].includes(result.verdict))
      .map((result) => `${result.id}: ${result.verdict} ${result.reasons.join(';')}`)
    expect(undecided).toEqual([])
    expect(outcome.results).toMatchObject({ profile: 'full', seed: 11, verdict: 'conformant', exitCode: 0, target: { embeddedReference: true } })
  })

  test('the same seed gives the same generated cases and verdicts at concurrency 1 and 16', async () => {
    // Twelve cases per property: enough to show the order of sending changes nothing; the number is the test's own.
    const [one, sixteen] = await Promise.all([
      runCli(['--seed', '9', '--concurrency', '1', '--num-runs', '12', '--sequences', '4']),
      runCli(['--seed', '9', '--concurrency', '16', '--num-runs', '12', '--sequences', '4']),
    ])
    expect([one.code, sixteen.code]).toEqual([0, 0])
    // The store's size the survey saw is not the seed's: at concurrency 16 a check may create a pet before the survey's lists are answered.
    const generated = (note: string) => note.replace(/the \d+ pets the store is known to hold/, 'the pets the store is known to hold')
    const verdicts = (outcome: typeof one) =>
      outcome.results?.requirements.map(
        (result) =>
          `${result.id} ${result.verdict} ${result.observations
            .filter((note) => note.includes('generated'))
            .map(generated)
            .join()}`,
      )
    expect(verdicts(sixteen)).toEqual(verdicts(one))
    expect(verdicts(one)?.join('\n')).toMatch(/createPet\/echoes-fields pass 12 of 12 generated cases decided it \(seed 9\)/)
  })

  test('--requirements runs only the ids and prefixes it names; every other requirement is skipped', async () => {
    const outcome = await runCli(['--requirements', 'auth/missing-key-401, listPets/limit-default-20,listPets/limit-max-100'])
    expect(outcome.code, outcome.stderr).toBe(0)
    const ran = outcome.results?.requirements.filter((result) => !['skipped', 'untestable'].includes(result.verdict)).map((result) => result.id)
    expect(ran?.sort()).toEqual(['auth/missing-key-401', 'listPets/limit-default-20', 'listPets/limit-max-100'])
    expect(verdictOf(outcome, 'auth/missing-key-401')).toBe('pass')
    expect(verdictOf(outcome, 'getPet/returns-pet')).toBe('skipped')
  })

  test('a base URL that does not end with /v1 gets a warning at start; one that does, none', async () => {
    const server = await startTarget({ pets: 2 })
    // The interface served under /api instead of /v1, as a gateway might: the warning, and the requirement's observation.
    const withoutVersion = `${await rewritingProxy(server.baseUrl, '/api', '/v1')}/api`
    const warned = await runCli(['--base-url', withoutVersion, '--requirements', 'versioning/'], { PETSTORE_API_KEY: API_KEY })
    expect(warned.stderr).toMatch(/WARNING: the base URL does not end with the version segment \/v1/)
    expect(warned.results?.requirements.find((result) => result.id === 'versioning/base-url-v1')?.observations).toEqual([`the base URL ${withoutVersion} does not end with /v1`])
    const quiet = await runCli(['--base-url', `${server.baseUrl}/`, '--requirements', 'versioning/'], { PETSTORE_API_KEY: API_KEY })
    expect(quiet.code, quiet.stderr).toBe(0)
    expect(quiet.stderr).not.toMatch(/version segment/)
  })

  test('an unreachable target ends with exit code 3', async () => {
    const outcome = await runCli(['--base-url', UNREACHABLE_BASE_URL], { PETSTORE_API_KEY: API_KEY })
    expect(outcome.code).toBe(3)
    expect(outcome.stderr).toMatch(/target unreachable/)
  })

  test('a run past its deadline stops, writes its reports and ends with exit code 3', async () => {
    const slow = await startTarget({
      variant: { name: 'slow', description: 'every answer takes 400 ms', wrap: (handler) => async (request) => ({ ...(await handler(request)), delivery: { delayMs: 400 } }) },
    })
    const outcome = await runCli(['--base-url', slow.baseUrl, '--deadline-ms', '1000'], { PETSTORE_API_KEY: API_KEY })
    expect(outcome.code).toBe(3)
    expect(outcome.stderr).toMatch(/deadline of 1000 ms passed/)
    expect(outcome.results?.verdict).toBe('error')
  })

  test.for([
    ['an unknown flag', ['--colour'], {}, /Unknown option '--colour'/],
    ['a malformed URL', ['--base-url', 'http//nowhere'], {}, /is not a URL: "http\/\/nowhere"/],
    ['a non-numeric timeout', ['--timeout-ms', 'soon'], {}, /--timeout-ms must be a whole number/],
    ['an unreadable CA file', ['--ca-file', '/nonexistent/ca.pem'], {}, /cannot be read/],
    ['an empty API key', [], { PETSTORE_API_KEY: ' ' }, /the API key is empty/],
  ] as const)('%s ends with exit code 2 and a message, before any request is sent', async ([, args, env, message]) => {
    const server = await startTarget()
    const target = args[0] === '--base-url' ? [] : ['--base-url', server.baseUrl]
    const outcome = await runCli([...target, ...args], { PETSTORE_API_KEY: API_KEY, ...env })
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toMatch(message)
    expect(server.requests).toEqual([])
  })

  test('a distinctive key and extra header values appear in no console line, no report file and no HAR file (plain, base64, URL-encoded), even in failure evidence', async () => {
    // '+', '/' and '=' make the URL-encoded form differ from the plain one.
    const key = 'sk_live+Q7/x9=distinctive-4f9c'
    const headerSecret = 'gw+Secret/7=distinctive-9a0b'
    const tenant = 'tenant-distinctive-5c6d'
    const withHeaders = ['--header', 'X-Gateway-Secret: ${GATEWAY_SECRET}', '--header', `X-Tenant: ${tenant}`]
    const server = await startTarget({
      variant: {
        name: 'echoes-credentials',
        description: 'every answer echoes the Authorization header',
        wrap: (reference) => async (request) => {
          const answer = await reference(request)
          const echo = [request.headers.authorization, request.headers['x-gateway-secret'], request.headers['x-tenant']].join(' ')
          return { ...answer, headers: { ...answer.headers, 'x-echo': echo }, body: answer.status >= 400 ? answer.body.replace('}', `,"echo":"${echo}"}`) : answer.body }
        },
      },
    })
    const failing = await runCli(['--base-url', server.baseUrl, '--profile', 'full', ...withHeaders], { PETSTORE_API_KEY: `${key}-wrong`, GATEWAY_SECRET: headerSecret })
    const embedded = await runCli(['--seed', '3', '--api-key', key, ...withHeaders, '--har', 'exchanges.har'], { GATEWAY_SECRET: headerSecret })
    // A target that takes the key from a query string: the failure's evidence holds the URL the suite sent it in.
    const inQuery = await startVariant(
      faults.find((fault) => fault.name === 'key-accepted-as-api-key-parameter'),
      { apiKey: key, store: new PetStore() },
    )
    const queried = await runCli(['--base-url', inQuery.baseUrl, '--requirements', 'auth/key-elsewhere-refused', ...withHeaders], {
      PETSTORE_API_KEY: key,
      GATEWAY_SECRET: headerSecret,
    }).finally(() => inQuery.close())
    // A key the target refuses everywhere is a set-up mistake (exit 2), and its reports still say so without the key.
    expect(failing.code).toBe(2)
    expect(queried.code, queried.stdout).toBe(1)
    const { readFileSync, readdirSync } = await import('node:fs')
    const files = [failing, embedded, queried].flatMap((run) => readdirSync(run.reportDir).map((name) => readFileSync(`${run.reportDir}/${name}`, 'utf8')))
    expect(files).toHaveLength(12)
    const har = readFileSync(join(dirname(embedded.reportDir), 'exchanges.har'), 'utf8')
    files.push(har)
    expect(JSON.parse(har).log.entries.length).toBe(embedded.results?.requestsSent)
    expect(files.join('')).toContain('api_key=$PETSTORE_API_KEY')
    expect(files.join('')).toContain('${GATEWAY_SECRET}')
    for (const secret of [key, `${key}-wrong`, headerSecret, tenant]) {
      const forms = [secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('base64url'), encodeURIComponent(secret)]
      for (const text of [embedded.stdout, embedded.stderr, failing.stdout, failing.stderr, queried.stdout, queried.stderr, ...files])
        for (const form of forms) expect(text).not.toContain(form)
    }
    expect(files.join('')).toContain('$PETSTORE_API_KEY')
  })
})
