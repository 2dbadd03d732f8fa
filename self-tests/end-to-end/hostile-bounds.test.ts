/**
 * A target built to hurt the suite cannot stretch, swell or stall a run (policy §5): a dead operation is
 * given up after two timeouts, the deadline is the deadline, bodies are bounded after decoding, parsing
 * is bounded and linear, what the target sends reaches every report as data, and no redirect is followed.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { behaviours, hostileBehaviours, listsDrip, notFound, redirectsTo, startMisbehavingServer } from '../../variants/hostile-servers.js'
import { launchChromium } from '../helpers/browser.js'
import { type CliOutcome, runBuiltCli, runCli } from '../helpers/run-cli.js'
import { API_KEY } from '../helpers/targets.js'

const WITH_KEY = { PETSTORE_API_KEY: API_KEY }

function failuresOf(outcome: CliOutcome, id: string): string[] {
  return outcome.results?.requirements.find((result) => result.id === id)?.failures.map((failure) => failure.message) ?? []
}

describe.concurrent('a hostile target gets a clear verdict, within bounds', () => {
  test('lists that drip forever: after two timeouts GET /pets is given up, every check that needs it fails at once with that reason, and getPet is still judged', async ({
    onTestFinished,
  }) => {
    const server = await startMisbehavingServer(listsDrip(notFound), onTestFinished)
    // 6 s: the lists' two timeouts are waited out, and the quick answers of getPet stay far within it on a busy machine
    // (with 800 ms, one did not; with 3 s, one did not beside two mutation scores and a whole npm test).
    const outcome = await runCli(['--base-url', server.baseUrl, '--timeout-ms', '6000', '--quiet'], WITH_KEY)
    expect(outcome.code).toBe(1)
    const lists = server.requests.filter((request) => /^\/v1\/pets(\?|$)/.test(request.url))
    // Two timeouts in a row give the operation up; only the requests already in flight (at most --concurrency) also time out.
    expect(lists.length).toBeLessThanOrEqual(2 + 8)
    expect(failuresOf(outcome, 'listPets/limit-caps-size').join('\n')).toMatch(/GET \/pets did not answer within 6 s, (twice|\d+ times) in a row: not sent again/)
    // getPet is judged on its own answers: a pass, or, on a machine too starved to read a quick answer within 6 s (two
    // mutation scores, a red team and a whole npm test beside it), its own request's timeout; never the lists' give-up.
    const getPet = outcome.results?.requirements.find((result) => result.id === 'getPet/invalid-id')
    const ownTimeouts = failuresOf(outcome, 'getPet/invalid-id').every((failure) => /^GET \/pets\/\S+: no complete answer within 6000 ms/.test(failure))
    expect(getPet?.verdict === 'pass' || (getPet?.verdict === 'fail' && ownTimeouts), failuresOf(outcome, 'getPet/invalid-id').join('\n')).toBe(true)
  })

  test('a hanging target and a deadline: the run ends before a single request could time out, exit 3, everything undecided is "deadline reached"', async ({ onTestFinished }) => {
    const server = await startMisbehavingServer(behaviours.hang, onTestFinished)
    const outcome = await runCli(['--base-url', server.baseUrl, '--deadline-ms', '1500', '--quiet'], WITH_KEY)
    expect(outcome.code).toBe(3)
    // Ended by the deadline, not by a request's 10 s timeout: the request in flight was cut, never timed out.
    expect(outcome.results?.harnessErrors).toEqual([expect.stringMatching(/^the run deadline of 1500 ms passed/)])
    expect(outcome.results?.headline.text).toBe('NO VERDICT')
    const verdicts = new Set(outcome.results?.requirements.map((result) => result.verdict))
    expect([...verdicts].filter((verdict) => verdict === 'pass' || verdict === 'fail' || verdict === 'warn')).toEqual([])
    const reasons = outcome.results?.requirements.flatMap((result) => result.reasons) ?? []
    expect(reasons.filter((reason) => /deadline reached/.test(reason)).length).toBeGreaterThan(20)
  })

  test.for([
    ['a gzip bomb (1 GiB inflated from 1 MiB)', 'gzipBomb', /response body over the cap of 1048576 bytes \(decoded\)/],
    ['JSON nested 400,000 levels deep', 'deepNesting', /JSON nested deeper than 10,064 levels/],
    ['two thousand headers', 'headerFlood', /response headers over the cap of 65536 bytes/],
  ] as const)('%s fails the list with a message that names it', async ([, behaviour, message], { onTestFinished }) => {
    const server = await startMisbehavingServer(hostileBehaviours[behaviour], onTestFinished)
    const outcome = await runCli(['--base-url', server.baseUrl, '--requirements', 'listPets/returns-pets', '--quiet'], WITH_KEY)
    expect(outcome.code, outcome.stderr).toBe(1)
    expect(failuresOf(outcome, 'listPets/returns-pets').join('\n')).toMatch(message)
  })

  test('a megabyte to every request (a number of a million digits): judged on its digits, the id is no int64, and the whole run stays under 300 MiB (policy §5)', async ({
    onTestFinished,
  }) => {
    const server = await startMisbehavingServer(hostileBehaviours.giantNumber, onTestFinished)
    // The built command, at its defaults: every check keeps the answers it judged, a few hundred megabytes of them.
    const outcome = await runBuiltCli(['--base-url', server.baseUrl, '--quiet'], WITH_KEY)
    expect(outcome.code, outcome.stderr).toBe(1)
    expect(failuresOf(outcome, 'listPets/body-schema').join('\n')).toMatch(/\/0\/id/)
    // Its one pet has no status, and every filter lists it: a pet whose status is not the one asked for, said as such.
    expect(failuresOf(outcome, 'listPets/status-filter-matches').join('\n')).toMatch(/listed 1 pet whose status is not "(available|pending|sold)" \(another, or none\)/)
    expect(server.requests.length).toBeGreaterThan(100)
    // The policy's bound. On a quiet machine the run peaks near 190-205 MiB (npm run bench:hostile). It once failed
    // here at random at 302-328 MiB: the measure was the test runner's, which getrusage keeps across exec (the
    // peak of the process the CLI was forked from); a run now reports its own (peak-memory.test.ts).
    expect(outcome.results?.peakRssBytes).toBeLessThan(300 * 2 ** 20)
  })

  test('an honest gzip-encoded answer is decoded and passes', async ({ onTestFinished }) => {
    const server = await startMisbehavingServer(hostileBehaviours.gzipped, onTestFinished)
    const outcome = await runCli(['--base-url', server.baseUrl, '--requirements', 'listPets/returns-pets,listPets/body-schema', '--quiet'], WITH_KEY)
    expect(outcome.results?.requirements.filter((result) => result.id.startsWith('listPets/')).map((result) => result.verdict)).toContain('pass')
    expect(failuresOf(outcome, 'listPets/body-schema')).toEqual([])
    expect(failuresOf(outcome, 'listPets/returns-pets')).toEqual([])
  })

  test('plain JSON labelled gzip fails the list with a message that names the decoding, and is not read again: the target would send the same', async ({ onTestFinished }) => {
    const server = await startMisbehavingServer(hostileBehaviours.mislabelledGzip, onTestFinished)
    const outcome = await runCli(['--base-url', server.baseUrl, '--requirements', 'listPets/returns-pets', '--quiet'], WITH_KEY)
    expect(outcome.code).toBe(1)
    expect(failuresOf(outcome, 'listPets/returns-pets').join('\n')).toMatch(/the gzip body cannot be decoded/)
    const lists = outcome.results?.requirements.find((result) => result.id === 'listPets/returns-pets')
    expect(lists?.retried ?? []).toEqual([])
  })

  test('headers over the cap are not read again (the target would send the same), and two in a row give the operation up', async ({ onTestFinished }) => {
    const server = await startMisbehavingServer(hostileBehaviours.headerFlood, onTestFinished)
    const outcome = await runCli(['--base-url', server.baseUrl, '--quiet'], WITH_KEY)
    expect(outcome.code).toBe(1)
    expect(outcome.results?.requirements.find((result) => result.id === 'listPets/returns-pets')?.retried ?? []).toEqual([])
    expect(failuresOf(outcome, 'listPets/limit-caps-size').join('\n')).toMatch(
      /GET \/pets answered with headers over the cap of 65536 bytes, (twice|\d+ times) in a row: not sent again/,
    )
    // Every operation floods: each is given up after its first unusable answers, not read again and again with backoff.
    expect(server.requests.length).toBeLessThan(40)
  })

  test('a redirect to another origin is never followed, and the key never goes there; the redirect is judged as the answer it is', async ({ onTestFinished }) => {
    const elsewhere = await startMisbehavingServer(behaviours.ok, onTestFinished)
    const server = await startMisbehavingServer(redirectsTo(`${elsewhere.baseUrl}/pets`), onTestFinished)
    const outcome = await runCli(['--base-url', server.baseUrl, '--requirements', 'listPets/returns-pets', '--quiet'], WITH_KEY)
    expect(outcome.code).toBe(1)
    expect(failuresOf(outcome, 'listPets/returns-pets').join('\n')).toMatch(/status 302, expected 200/)
    expect(elsewhere.requests).toEqual([])
  })

  test('markup and terminal escapes from the target reach every report as data: no script runs, no escape reaches the console', async ({ onTestFinished }) => {
    const server = await startMisbehavingServer(hostileBehaviours.markupInError, onTestFinished)
    const outcome = await runCli(['--base-url', server.baseUrl, '--requirements', 'listPets/returns-pets,errors/', '--quiet'], WITH_KEY)
    expect(outcome.code).toBe(1)
    const escapeCharacter = String.fromCharCode(0x1b)
    for (const text of [outcome.stdout, outcome.stderr, ...['junit.xml', 'summary.md'].map((file) => readFileSync(join(outcome.reportDir, file), 'utf8'))]) {
      expect(text).not.toContain(escapeCharacter)
      expect(text).not.toContain(String.fromCharCode(0x07))
    }
    expect(readFileSync(join(outcome.reportDir, 'junit.xml'), 'utf8')).toMatch(/\\u001b\]0;pwned/)
    const browser = await launchChromium()
    try {
      const page = await browser.newPage()
      const dialogs: string[] = []
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message())
        void dialog.dismiss()
      })
      await page.goto(`file://${join(outcome.reportDir, 'report.html')}`)
      await page.locator('tr[id="listPets/returns-pets"] summary').click()
      await expect(page.title()).resolves.not.toMatch(/pwned/)
      await expect(page.locator('tr[id="listPets/returns-pets"]').innerText()).resolves.toMatch(/<script>document\.title=\\?"pwned\\?"<\/script>/)
      expect(await page.locator('img').count()).toBe(0)
      expect(dialogs).toEqual([])
    } finally {
      await browser.close()
    }
  })
})
