import { describe, expect, test } from 'vitest'
import type { RequirementResult } from '../../lib/judging/verdicts.js'
import { behaviours, type Misbehaviour, rateLimitedFor, resetOnce, startMisbehavingServer } from '../../variants/hostile-servers.js'
import { makeCertificates } from '../helpers/certificates.js'
import { startForwardProxy } from '../helpers/forward-proxy.js'
import { type CliOutcome, runBuiltCli, runCli, verdictOf } from '../helpers/run-cli.js'
import { API_KEY, startTarget, type TargetOptions } from '../helpers/targets.js'

type OnFinished = (close: () => Promise<void>) => void

async function targetFor(options: TargetOptions, onTestFinished: OnFinished) {
  const target = await startTarget(options)
  onTestFinished(() => target.close())
  return target
}

const WITH_KEY = { PETSTORE_API_KEY: API_KEY }

function resultOf(outcome: CliOutcome, id: string): RequirementResult | undefined {
  return outcome.results?.requirements.find((result) => result.id === id)
}

/** One misbehaviour on every request; only the list checks run. In-process, or as the built binary when its own memory is under test. */
async function runAgainst(behaviour: Misbehaviour, onTestFinished: OnFinished, extra: string[] = [], run = runCli) {
  const server = await startMisbehavingServer(behaviour, onTestFinished)
  const outcome = await run(['--base-url', server.baseUrl, '--requirements', 'listPets/returns-pets,responses/', ...extra], WITH_KEY)
  return { server, outcome }
}

describe.concurrent('broken answers become failures that name the problem, on time', () => {
  // On time by counting, not by the clock: requests to GET /pets that never complete are given up after two timeouts
  // in a row, so the run sends at most those two and the ones already in flight beside them (--concurrency, 8), and
  // it ends by its checks, not by its deadline (45 s: under the test's own timeout, and about thirty times what
  // these runs take on a quiet machine). A short timeout only where no answer ever completes: on a busy
  // machine a good answer may take longer than 800 ms, and a broken one is broken at once. The drip's first
  // octets must still arrive within the timeout to tell it from a target that never answers: beside three busy
  // processes they once took longer than 800 ms, so it gets 3 s.
  test.for([
    ['sends headers, then a byte every 100 ms', 'drip', ['--timeout-ms', '3000'], /no complete answer within 3000 ms/],
    ['resets the connection', 'reset', [], /connection failed: .*\(after 3 retries: connection failed/],
    ['sends truncated JSON', 'truncated', [], /the list body is not JSON/],
  ] as const)('a target that %s', async ([, behaviour, timeout, message], { onTestFinished }) => {
    const { server, outcome } = await runAgainst(behaviours[behaviour], onTestFinished, [...timeout, '--deadline-ms', '45000'])
    expect(outcome.code, outcome.stderr).toBe(1)
    expect(resultOf(outcome, 'listPets/returns-pets')?.failures[0]?.message).toMatch(message)
    expect(outcome.results?.harnessErrors ?? []).toEqual([])
    if (timeout.length > 0) expect(server.requests.filter((request) => /^\/v1\/pets(\?|$)/.test(request.url)).length).toBeLessThanOrEqual(2 + 8)
  })

  test('a target that takes connections and never answers cannot be judged: exit 3 within one timeout, with that one reason', async ({ onTestFinished }) => {
    const { server, outcome } = await runAgainst(behaviours.hang, onTestFinished, ['--timeout-ms', '800', '--deadline-ms', '45000'])
    expect(outcome.code, outcome.stderr).toBe(3)
    expect(outcome.results?.stopReason).toMatch(
      /^the target never answered: it took the connections, and none of the run's first requests \(GET .*\/pets\?limit=1, .*\) got a byte of an answer within 800 ms$/,
    )
    expect(outcome.results?.headline.text).toBe('NO VERDICT')
    // The three first requests, and nothing after them.
    expect(server.requests.length).toBe(3)
  })

  test('a target that sends 300 MB: the body is cut at the cap and the suite stays small', async ({ onTestFinished }) => {
    const { outcome } = await runAgainst(behaviours.huge, onTestFinished, ['--max-body-bytes', String(4 * 2 ** 20)], runBuiltCli)
    expect(outcome.code, outcome.stderr).toBe(1)
    expect(resultOf(outcome, 'listPets/returns-pets')?.failures[0]?.message).toMatch(/response body over the cap of 4194304 bytes/)
    expect(outcome.results?.peakRssBytes).toBeLessThan(250 * 2 ** 20)
    expect(outcome.stdout).toMatch(/peak memory \d+ MiB/)
  })

  test.for([
    ['labelled text/html', 'html', /Content-Type (is )?text\/html/],
    ['without a Content-Type', 'unlabelled', /Content-Type (is )?(missing|\(absent\))/],
  ] as const)('JSON %s fails responses/json-content-type', async ([, behaviour, message], { onTestFinished }) => {
    const { outcome } = await runAgainst(behaviours[behaviour], onTestFinished)
    expect(outcome.code).toBe(1)
    expect(resultOf(outcome, 'responses/json-content-type')?.failures[0]?.message).toMatch(message)
  })
})

describe.concurrent('rate limits and retries', () => {
  test('429 with Retry-After in seconds, then as an HTTP date: honoured, retried and reported on the requirement', async ({ onTestFinished }) => {
    let answered = 0
    const server = await startMisbehavingServer(
      rateLimitedFor(2, 429, () => (++answered === 1 ? '1' : new Date(Date.now() + 1000).toUTCString())),
      onTestFinished,
    )
    const outcome = await runCli(['--base-url', server.baseUrl, '--requirements', 'listPets/returns-pets'], WITH_KEY)
    expect(outcome.code, outcome.stdout).toBe(0)
    const retried = resultOf(outcome, 'listPets/returns-pets')?.retried.join('\n') ?? ''
    expect(retried).toMatch(/retried after 429 \(waited \d+ ms\)/)
    expect(outcome.stdout).toMatch(/listPets\/returns-pets \((1 check|2 checks), \d+ retried requests?\)/)
  })

  test('when the retries run out, the verdict says the rate limit outlasted them', async ({ onTestFinished }) => {
    const server = await startMisbehavingServer(
      rateLimitedFor(1000, 429, () => '0'),
      onTestFinished,
    )
    const outcome = await runCli(['--base-url', server.baseUrl, '--requirements', 'listPets/returns-pets', '--max-retries', '2'], WITH_KEY)
    expect(outcome.code).toBe(1)
    expect(resultOf(outcome, 'listPets/returns-pets')?.failures[0]?.message).toMatch(/has status 429 \(still 429 after 2 retries\), expected 200/)
  })

  test('a Retry-After longer than --max-retry-wait-ms is not waited for: the total wait stays bounded', async ({ onTestFinished }) => {
    const server = await startMisbehavingServer(
      rateLimitedFor(1000, 503, () => '3600'),
      onTestFinished,
    )
    const outcome = await runCli(['--base-url', server.baseUrl, '--requirements', 'listPets/returns-pets', '--max-retry-wait-ms', '2000'], WITH_KEY)
    expect(outcome.code).toBe(1)
    // The hour the target asked for is over --max-retry-wait-ms: the run took the 503 as the answer and waited for nothing.
    expect(resultOf(outcome, 'listPets/returns-pets')?.retried).toEqual([])
    expect(resultOf(outcome, 'listPets/returns-pets')?.failures[0]?.message).toMatch(/has status 503, expected 200/)
  })

  test('a read broken in transit is retried once it works, and the retry is reported', async ({ onTestFinished }) => {
    const server = await startMisbehavingServer(resetOnce(), onTestFinished)
    // No sequences: their lists would be further requests to the same URL.
    const outcome = await runCli(['--base-url', server.baseUrl, '--requirements', 'listPets/returns-pets', '--sequences', '0'], WITH_KEY)
    expect(outcome.code, outcome.stdout).toBe(0)
    expect(server.requests.filter((request) => request.url === '/v1/pets').length).toBe(2)
    const anyRetried = outcome.results?.requirements.flatMap((result) => result.retried).join('\n') ?? ''
    // Reset on the connection that had carried the run's first answers, or on one of its own: either way it goes again.
    // On a busy machine the reset may reach the client as the connection closed before any byte of an answer: a read
    // lost so goes again too, in those words.
    expect(anyRetried).toMatch(/GET .*: retried after (connection failed|the connection was reset by the target|the connection was closed by the target before any byte)/)
  })

  test('a POST whose connection is reset is sent again at most once, on a connection of its own, and only when the lists show it was not processed', async ({ onTestFinished }) => {
    const target = await targetFor(
      {
        variant: {
          name: 'posts-reset',
          description: 'every POST /pets connection is reset before an answer',
          wrap: (reference) => async (request) => (request.method === 'POST' ? { status: 500, headers: {}, body: '', delivery: { resetConnection: true } } : reference(request)),
        },
      },
      onTestFinished,
    )
    const outcome = await runCli(
      ['--base-url', target.baseUrl, '--profile', 'full', '--requirements', 'createPet/returns-201-pet,createPet/ids-unique', '--max-retries', '3'],
      WITH_KEY,
    )
    expect(outcome.code).toBe(1)
    const posts = target.requests.filter((request) => request.method === 'POST')
    expect(posts.length).toBeGreaterThan(0)
    // A POST sent again says why: the lists showed no pet of its name.
    const retriedPosts = (outcome.results?.requirements ?? []).flatMap((result) => result.retried).filter((line) => line.startsWith('POST'))
    for (const line of retriedPosts) expect(line).toMatch(/no pet of its name is in GET \/pets\?status=.*so it was sent again on a connection of its own/)
    // Seeding, the fixed and the generated cases: every body arrived at most twice. (A sequence may create two
    // identical pets on purpose, at once: those are two creates, not one sent again.)
    const bodies = posts.map((post) => post.body).filter((body) => !/-seq\d+ /.test(body ?? ''))
    const times = new Map<string | undefined, number>()
    for (const body of bodies) times.set(body, (times.get(body) ?? 0) + 1)
    expect(Math.max(...times.values())).toBeLessThanOrEqual(2)
    // The fixed and the generated checks both fail, in either order: each names the broken connection.
    for (const failure of resultOf(outcome, 'createPet/returns-201-pet')?.failures ?? []) expect(`${failure.message} ${failure.actual}`).toMatch(/connection failed/)
    expect(resultOf(outcome, 'createPet/returns-201-pet')?.failures.length).toBeGreaterThan(0)
  })

  test('requests in flight never exceed --concurrency', async ({ onTestFinished }) => {
    const server = await startMisbehavingServer(behaviours.slowList, onTestFinished)
    const outcome = await runCli(['--base-url', server.baseUrl, '--requirements', 'listPets/', '--concurrency', '2'], WITH_KEY)
    expect(outcome.results).toBeDefined()
    expect(server.requests.length).toBeGreaterThan(10)
    expect(server.peakInFlight).toBe(2)
  })
})

describe.concurrent('TLS and proxies', () => {
  const certificates = makeCertificates()

  test('an https target is verified: unknown CA → exit 3 naming TLS; --ca-file → conformant, through HTTPS_PROXY too; --insecure → conformant with a loud warning', async ({
    onTestFinished,
  }) => {
    const target = await targetFor({ pets: 3, tls: { key: certificates.key, cert: certificates.cert } }, onTestFinished)
    const args = ['--base-url', target.baseUrl, '--requirements', 'listPets/returns-pets']
    const unverified = await runCli(args, WITH_KEY)
    expect(unverified.code).toBe(3)
    expect(unverified.stderr).toMatch(/target unreachable: .*TLS/)
    const withCa = await runCli([...args, '--ca-file', certificates.caFile], WITH_KEY)
    expect(withCa.code, withCa.stderr).toBe(0)
    expect(verdictOf(withCa, 'listPets/returns-pets')).toBe('pass')
    const proxy = await startForwardProxy(onTestFinished)
    const tunnelled = await runCli([...args, '--ca-file', certificates.caFile], { ...WITH_KEY, HTTPS_PROXY: proxy.url })
    expect(tunnelled.code, tunnelled.stderr).toBe(0)
    expect(proxy.relayed).toContain(new URL(target.baseUrl).host)
    const insecure = await runCli([...args, '--insecure'], WITH_KEY)
    expect(insecure.code).toBe(0)
    expect(insecure.stderr).toMatch(/WARNING: TLS certificate verification is OFF/)
  })

  test('HTTP_PROXY is honoured, and NO_PROXY takes a host out of it', async ({ onTestFinished }) => {
    const target = await targetFor({ pets: 3 }, onTestFinished)
    const proxy = await startForwardProxy(onTestFinished)
    const args = ['--base-url', target.baseUrl, '--requirements', 'listPets/returns-pets']
    const proxied = await runCli(args, { ...WITH_KEY, HTTP_PROXY: proxy.url })
    expect(proxied.code, proxied.stderr).toBe(0)
    expect(proxy.relayed.length).toBeGreaterThan(0)
    expect(proxy.relayed.every((url) => url.startsWith(target.baseUrl) || url === new URL(target.baseUrl).host)).toBe(true)
    const relayedBefore = proxy.relayed.length
    const direct = await runCli(args, { ...WITH_KEY, HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' })
    expect(direct.code).toBe(0)
    expect(proxy.relayed.length).toBe(relayedBefore)
  })
})
