/**
 * A run never stalls and never loses its reports: every wait of a run ends by its own bound or by the
 * deadline, with the reason; an operation that stops answering is cut at once, not one timeout per request
 * in flight; the watchdog says what a run that sits still waits on; SIGTERM ends the real command at once
 * with all four reports; reports are written whole or not at all.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test, vi } from 'vitest'
import { type ConformanceOptions, runConformance } from '../../entry-points/index.js'
import type { Check } from '../../lib/checks/check.js'
import { alarmLine, type StallAlarm, watchStalls } from '../../lib/checks/watchdog.js'
import { HttpClient } from '../../lib/http/client.js'
import { renderHtml } from '../../lib/reports/html.js'
import type { RunResult } from '../../lib/reports/run-result.js'
import { renderSummaryMarkdown } from '../../lib/reports/summary-md.js'
import { writeAtomically } from '../../lib/reports/write-reports.js'
import { assembleRun } from '../../lib/run/assemble-run.js'
import { commandPath } from '../../lib/spec/package-root.js'
import { faults } from '../../variants/faults/index.js'
import { behaviours, listsDrip, listsHugeAndSlow, type Misbehaviour, notFound, rateLimitedFor, startMisbehavingServer } from '../../variants/hostile-servers.js'
import { lookAlikes } from '../../variants/look-alikes.js'
import { lagsBehindWrites, type Variant } from '../../variants/variant.js'
import { type CliOutcome, runCli } from '../helpers/run-cli.js'
import { API_KEY, startTarget, type Target } from '../helpers/targets.js'
import { until } from '../helpers/until.js'

const WITH_KEY = { PETSTORE_API_KEY: API_KEY }
/**
 * The safety net of the waits below, not what they test: far over what each takes (at most 6 s on a quiet machine,
 * over 20 s with two npm test runs side by side on two cores), and under the tests' own timeout.
 */
const DEADLINE_MS = 90_000
const WAIT_TEST_TIMEOUT_MS = 120_000

function reasonsOf(outcome: CliOutcome): string {
  return (outcome.results?.requirements ?? []).flatMap((result) => [...result.reasons, ...result.failures.map((failure) => failure.message)]).join('\n')
}

function variantNamed(name: string): Variant {
  const variant = [...faults, ...lookAlikes].find((candidate) => candidate.name === name)
  if (!variant) throw new Error(`no variant ${name}`)
  return variant
}

type Wait = { target: { hostile: Misbehaviour } | { variant: string }; args: string[]; reason: RegExp; exitCode: number }

describe.concurrent('every wait of a run ends, by its own bound or by the deadline, with the reason', () => {
  test.for([
    [
      'a request to a target that never answers',
      { target: { hostile: behaviours.hang }, args: ['--timeout-ms', '500'], reason: /the target never answered: .* within 500 ms/, exitCode: 3 },
    ],
    [
      'a retry after a 429 that never ends',
      {
        target: { hostile: rateLimitedFor(1_000_000, 429, () => '1') },
        args: ['--max-retries', '1', '--sequences', '1', '--requirements', 'listPets/returns-pets'],
        reason: /429/,
        exitCode: 1,
      },
    ],
    [
      're-reads of a created pet the target never shows',
      {
        target: { variant: 'created-never-stored' },
        args: ['--profile', 'full', '--consistency-window-ms', '800', '--requirements', 'createPet/round-trip-get'],
        reason: /within the consistency window of 800 ms/,
        exitCode: 1,
      },
    ],
    [
      'the shared store survey, when lists never end',
      // 2000 ms, not less: the tests of this block run side by side in one process, so one run's synchronous work delays
      // another's target; on a loaded machine a shorter timeout reads as a target that never answered (exit 3).
      { target: { hostile: listsDrip(notFound) }, args: ['--timeout-ms', '2000'], reason: /GET \/pets did not answer within 2 s/, exitCode: 1 },
    ],
    [
      'a place within --concurrency, when every place hangs',
      {
        // The run's first three requests are answered, so its checks start; then every place hangs.
        target: { hostile: answersFirstThenHangs(3) },
        args: ['--timeout-ms', '2000', '--concurrency', '1'],
        reason: /did not answer within 2 s, twice in a row: not sent again/,
        exitCode: 1,
      },
    ],
    [
      'a shrink of the sequences, cut by the deadline',
      {
        target: { variant: 'ids-racy-under-concurrency' },
        args: ['--profile', 'full', '--requirements', 'views/', '--deadline-ms', '2500'],
        reason: /deadline reached: the run deadline of 2500 ms passed/,
        exitCode: 3,
      },
    ],
  ] as Array<[string, Wait]>)('%s', { timeout: WAIT_TEST_TIMEOUT_MS }, async ([, wait], { onTestFinished }) => {
    const baseUrl =
      'hostile' in wait.target
        ? (await startMisbehavingServer(wait.target.hostile, onTestFinished)).baseUrl
        : await startTarget({ variant: variantNamed(wait.target.variant) }).then((target) => {
            onTestFinished(() => target.close())
            return target.baseUrl
          })
    const outcome = await runCli(['--base-url', baseUrl, '--quiet', '--deadline-ms', String(DEADLINE_MS), ...wait.args], WITH_KEY)
    // Ended by the wait's own bound, not by the long deadline (unless the deadline is the bound under test).
    const deadlinePassed = (outcome.results?.harnessErrors ?? []).some((error) => /run deadline of \d+ ms passed/.test(error))
    expect(deadlinePassed).toBe(wait.args.includes('--deadline-ms'))
    expect(outcome.code, outcome.stderr).toBe(wait.exitCode)
    expect(reasonsOf(outcome)).toMatch(wait.reason)
    expect(outcome.results?.watchdog, 'the watchdog saw the run sit still').toBeUndefined()
  })
})

describe.concurrent('a dead operation is cut at once', () => {
  test('lists far over the cap and slow to produce: judged well within 30 s at the defaults, with the cap as the reason; getPet still judged', async ({ onTestFinished }) => {
    const server = await startMisbehavingServer(listsHugeAndSlow(notFound, 256 * 1024), onTestFinished)
    const outcome = await runCli(['--base-url', server.baseUrl, '--quiet'], WITH_KEY)
    expect(outcome.code, outcome.stderr).toBe(1)
    expect(outcome.results?.harnessErrors ?? []).toEqual([])
    const listFailures = outcome.results?.requirements.find((result) => result.id === 'listPets/limit-caps-size')?.failures.map((failure) => failure.message) ?? []
    expect(listFailures.join('\n')).toMatch(/GET \/pets answered with bodies over the cap of 1048576 bytes, twice in a row: not sent again/)
    expect(outcome.results?.requirements.find((result) => result.id === 'getPet/invalid-id')?.verdict).toBe('pass')
  })

  test('when one request to an operation times out, its others in flight are cut at once and sent again one at a time', async ({ onTestFinished }) => {
    const server = await startMisbehavingServer(behaviours.hang, onTestFinished)
    // 4,000 ms: the three later requests must be in flight before the first times out, even on a loaded machine (at
    // 1,000 ms, beside three busy processes and npm test's other files, one was not, and was never cut).
    const client = new HttpClient({ baseUrl: server.baseUrl, concurrency: 8, timeoutMs: 4000, maxBodyBytes: 1024, maxRetries: 3, maxRetryWaitMs: 0 })
    onTestFinished(() => client.destroy())
    const send = () => client.send({ method: 'GET', path: '/pets', operation: 'GET /pets' })
    const first = send()
    // The others start once the first has arrived, so each would time out on its own clock, one after another, if nothing cut them.
    await until(() => server.requests.length === 1)
    const [firstDone, ...others] = await Promise.all([first, send(), send(), send()])
    expect(firstDone.failure?.message).toMatch(/no complete answer within 4000 ms/)
    for (const exchange of others) expect(exchange.retries[0]?.failure).toMatch(/^cut: another GET \/pets request got no answer within 4000 ms/)
    // After the first timeout: one of the cut requests went again, alone, and timed out; the operation was then given up.
    expect(server.requests).toHaveLength(5)
    expect(others.map((exchange) => exchange.failure?.message).join('\n')).toMatch(/GET \/pets did not answer within 4 s, twice in a row: not sent again/)
  })
})

describe('the watchdog', () => {
  test('a run that sends nothing for longer than the request timeout while checks wait gets a line naming each check and what it waits on', async () => {
    const waiting = {
      title: '[views/one-pet-reads-the-same] one pet reads the same',
      waitingOn: ['shared work "sequences:shrink:views/one-pet-reads-the-same"'],
    } as unknown as Check
    const quietClient = { lastActivityAt: performance.now() - 7_000, load: { inFlight: 0, queued: 0, sleeping: 0 } } as unknown as HttpClient
    const alarms: StallAlarm[] = []
    const watchdog = watchStalls(new Set([waiting]), quietClient, { timeoutMs: 1_000, started: Date.now(), onAlarm: (alarm) => alarms.push(alarm) })
    await until(() => alarms.length > 0)
    expect(watchdog.stop()).toEqual(alarms)
    expect(alarmLine(alarms[0] as StallAlarm)).toMatch(
      /^watchdog: nothing sent or answered for \d+ s while 1 check waits: \[views\/one-pet-reads-the-same\] shared work "sequences:shrink:views\/one-pet-reads-the-same" \(requests: 0 in flight/,
    )
  })

  test.for([
    ['the process runs, and nothing is sent for 8 s: an alarm', [1, 1, 1, 1, 1, 1, 1, 1], 1],
    ['the process is not scheduled for 8 s (a busy machine), its timer firing late once: no alarm', [8], 0],
    ['it is not scheduled for 4 s, then runs and sends nothing for 8 s more: an alarm', [4, 1, 1, 1, 1, 1, 1, 1, 1], 1],
  ] as Array<[string, number[], number]>)('stillness counts only the time the process could run: %s', ([, secondsBetweenLooks, expected]) => {
    const waiting = { title: '[listPets/returns-pets] x', waitingOn: [] } as unknown as Check
    let clock = 0
    const client = { lastActivityAt: 0, load: { inFlight: 0, queued: 0, sleeping: 0 } } as unknown as HttpClient
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    try {
      const watchdog = watchStalls(new Set([waiting]), client, { timeoutMs: 1_000, started: Date.now(), onAlarm: () => {}, now: () => clock })
      // Each look of the watchdog, at the clock the process reads when its timer fires.
      for (const seconds of secondsBetweenLooks) {
        clock += seconds * 1_000
        vi.advanceTimersByTime(1_000)
      }
      expect(watchdog.stop()).toHaveLength(expected)
    } finally {
      vi.useRealTimers()
    }
  })

  test('its alarms reach summary.md and report.html, as text', () => {
    const alarm: StallAlarm = {
      atMs: 30_000,
      idleMs: 12_000,
      pendingChecks: 1,
      waiting: [{ check: 'getPet/returns-pet', on: ['GET /pets/<1>'] }],
      inFlight: 0,
      queued: 0,
    }
    const run = assembleRun({
      exitCode: 0,
      baseUrl: 'http://127.0.0.1:1/v1',
      embeddedReference: false,
      profile: 'smoke',
      profileReason: 'test',
      strict: false,
      failOn: 'any',
      seed: 1,
      started: Date.now(),
      today: new Date().toISOString(),
      requirementFilter: [],
      requestsSent: 0,
      requirements: [],
      watchdog: [alarm],
    })
    expect(renderSummaryMarkdown(run)).toContain('### The run sat still (watchdog)\n- watchdog: nothing sent or answered for 12 s while 1 check waits: \\[getPet/returns-pet\\]')
    expect(renderHtml(run)).toContain('<pre id="watchdog">watchdog: nothing sent or answered for 12 s while 1 check waits: [getPet/returns-pet] GET /pets/&lt;1&gt;')
  })

  test.for([
    ['keeps sending', { quietForMs: 0, sleeping: 0 }],
    ['sleeps to a known end (a Retry-After, a re-read within the window)', { quietForMs: 7_000, sleeping: 1 }],
  ] as Array<[string, { quietForMs: number; sleeping: number }]>)('a run that %s raises no alarm', async ([, { quietForMs, sleeping }]) => {
    const waiting = { title: '[listPets/returns-pets] x', waitingOn: [] } as unknown as Check
    const client = {
      get lastActivityAt() {
        return performance.now() - quietForMs
      },
      load: { inFlight: 0, queued: 0, sleeping },
    } as unknown as HttpClient
    // The watchdog's own timer, faked: past its first look (it looks every second) without waiting a second.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    try {
      const watchdog = watchStalls(new Set([waiting]), client, { timeoutMs: 10, started: Date.now(), onAlarm: () => {} })
      vi.advanceTimersByTime(1_200)
      expect(watchdog.stop()).toEqual([])
    } finally {
      vi.useRealTimers()
    }
  })
})

/** The built command as a child process, against `baseUrl`, with its report folder. */
function startCommand(
  args: string[],
  nodeOptions: readonly string[] = [],
): { child: ChildProcess; reportDir: string; output: () => string; exited: Promise<{ code: number | null }> } {
  const cwd = mkdtempSync(join(tmpdir(), 'petstore-signal-'))
  const reportDir = join(cwd, 'reports')
  const child = spawn(process.execPath, [...nodeOptions, commandPath, '--report-dir', reportDir, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...WITH_KEY },
  })
  let text = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString()
  })
  const exited = new Promise<{ code: number | null }>((resolve) => child.on('exit', (code) => resolve({ code })))
  return { child, reportDir, output: () => text, exited }
}

async function outputMatches(output: () => string, pattern: RegExp): Promise<void> {
  await until(() => pattern.test(output()))
}

/** A hostile target that answers its first `answered` requests with a small valid list, then never answers. */
function answersFirstThenHangs(answered: number): Misbehaviour {
  let seen = 0
  return (request, response, count) => (++seen <= answered ? behaviours.ok(request, response, count) : behaviours.hang(request, response, count))
}

/**
 * A target that answers its first requests (the checks run, and some decide), then reads every request and never
 * answers: a run that is not cancelled waits out its request timeouts. With --timeout-ms 60000 that is minutes, so a
 * run that ends within seconds of its cancel ended because of it, however busy the machine.
 */
function answersThenHangs(answered: number): Variant {
  let seen = 0
  return {
    name: 'answers-then-hangs',
    description: `answers its first ${answered} requests, then reads every request and never answers`,
    wrap: (reference) => async (request) => (++seen > answered ? new Promise<never>(() => {}) : reference(request)),
  }
}
/** Requests answered before the target hangs: by then the checks run and some have decided (a run sends about 600). */
const ANSWERED_BEFORE_THE_HANG = 80
/**
 * Ten minutes, the longest a setting allows: far past the test's own timeout. A run that did not end by its cancel
 * would wait these out and the test would time out; one that ends by it says "cancelled". No clock of this machine
 * decides it, however busy the machine is.
 */
const LONG_TIMEOUT_MS = 600_000

/** A full run through the typed API, cancelled once `when` holds: it ends at once, exit 3, "cancelled", each undecided check saying so. */
async function cancelledTypedRun(target: Target, options: ConformanceOptions, when: () => boolean): Promise<RunResult> {
  const cancel = new AbortController()
  const running = runConformance({ baseUrl: target.baseUrl, apiKey: API_KEY, profile: 'full', signal: cancel.signal, ...options })
  await until(when)
  cancel.abort()
  const results = await running
  expect(results.exitCode).toBe(3)
  expect(results.stopReason).toBe('cancelled')
  expect(results.requirements.flatMap((result) => result.reasons).join('\n')).toMatch(/run cancelled before this check finished/)
  return results
}

describe.concurrent('signals', () => {
  test('SIGTERM mid-run: exit 3 at once, all four reports, what was decided kept, everything else "run cancelled"', async ({ onTestFinished }) => {
    const target = await startTarget({ pets: 110, variant: answersThenHangs(ANSWERED_BEFORE_THE_HANG) })
    onTestFinished(() => target.close())
    const run = startCommand(['--base-url', target.baseUrl, '--profile', 'full', '--timeout-ms', String(LONG_TIMEOUT_MS)])
    await until(() => target.requests.length > ANSWERED_BEFORE_THE_HANG)
    run.child.kill('SIGTERM')
    const { code } = await run.exited
    expect(code, run.output()).toBe(3)
    for (const file of ['results.json', 'junit.xml', 'summary.md', 'report.html']) expect(existsSync(join(run.reportDir, file)), file).toBe(true)
    const results = JSON.parse(await readFile(join(run.reportDir, 'results.json'), 'utf8'))
    expect(results.stopReason).toBe('cancelled')
    expect(results.headline.text).toBe('NO VERDICT')
    const verdicts = results.requirements.map((result: { verdict: string }) => result.verdict)
    expect(verdicts).toContain('pass')
    expect(results.requirements.flatMap((result: { reasons: string[] }) => result.reasons).join('\n')).toMatch(/run cancelled \(SIGTERM\) before this check finished/)
  })

  test('the typed API takes a cancel as an AbortSignal, while it seeds the store: exit 3 at once, "cancelled"', async ({ onTestFinished }) => {
    // Lists show a new pet only after a minute, and the run reads them for as long: seeding cannot end before its cancel.
    const target = await startTarget({
      variant: { name: 'lists-lag-a-minute', description: 'lists show a pet a minute after it was created', wrap: lagsBehindWrites(0, LONG_TIMEOUT_MS) },
    })
    onTestFinished(() => target.close())
    await cancelledTypedRun(target, { consistencyWindowMs: LONG_TIMEOUT_MS }, () => target.requests.some((request) => request.method === 'POST'))
  })

  test('the typed API takes a cancel as an AbortSignal, while its checks run: exit 3 at once, "cancelled", what was decided kept', async ({ onTestFinished }) => {
    const target = await startTarget({ pets: 110, variant: answersThenHangs(ANSWERED_BEFORE_THE_HANG) })
    onTestFinished(() => target.close())
    const results = await cancelledTypedRun(target, { timeoutMs: LONG_TIMEOUT_MS }, () => target.requests.length > ANSWERED_BEFORE_THE_HANG)
    expect(results.requirements.map((result) => result.verdict)).toContain('pass')
  })

  test('a second signal exits at once', async ({ onTestFinished }) => {
    const server = await startMisbehavingServer(behaviours.hang, onTestFinished)
    // A cancelled run against a hanging target ends within a tenth of a second, often before a second signal could
    // arrive. A timer the child's preload keeps (and never clears) holds the process open after its run: only the
    // second signal's own exit ends it, whenever that signal comes.
    const run = startCommand(['--base-url', server.baseUrl], ['--import', 'data:text/javascript,setInterval(() => {}, 60000)'])
    await outputMatches(run.output, /^Seed: /m)
    run.child.kill('SIGINT')
    await outputMatches(run.output, /SIGINT: cancelling the run/)
    run.child.kill('SIGINT')
    const { code } = await run.exited
    expect(code).toBe(3)
    expect(run.output()).toMatch(/SIGINT again: exiting at once/)
  })

  test("a second signal after the run has ended still exits at once, with the run's own code", async ({ onTestFinished }) => {
    const server = await startMisbehavingServer(behaviours.hang, onTestFinished)
    // The preload keeps the process open past its run and says when the run's worker has exited: the second signal
    // then comes, for certain, after the work is over, where the signal's default action once killed the process.
    const preload = "process.on('worker', (w) => w.on('exit', () => process.stderr.write('worker exited\\n'))); setInterval(() => {}, 60000)"
    const run = startCommand(['--base-url', server.baseUrl], ['--import', `data:text/javascript,${encodeURIComponent(preload)}`])
    await outputMatches(run.output, /^Seed: /m)
    run.child.kill('SIGINT')
    await outputMatches(run.output, /^worker exited$/m)
    run.child.kill('SIGINT')
    const { code } = await run.exited
    expect(code, run.output()).toBe(3)
    expect(run.output()).toMatch(/SIGINT again: exiting at once\n/)
    expect(existsSync(join(run.reportDir, 'results.json'))).toBe(true)
  })
})

describe('reports are written whole or not at all', () => {
  test('a reader never sees a half-written report: the last good one stays until the new one is complete', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-atomic-')), 'results.json')
    const old = `${JSON.stringify({ run: 'old', pad: 'a'.repeat(1_000) })}\n`
    writeFileSync(file, old)
    const next = `${JSON.stringify({ run: 'new', pad: 'b'.repeat(32 * 2 ** 20) })}\n`
    let reading = true
    const seen = new Set<string>()
    const reader = (async () => {
      while (reading) {
        const text = readFileSync(file, 'utf8')
        seen.add(text === old ? 'old' : text === next ? 'new' : `partial (${text.length} characters)`)
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    await writeAtomically(file, next)
    reading = false
    await reader
    expect([...seen].filter((state) => state.startsWith('partial'))).toEqual([])
    expect(readFileSync(file, 'utf8')).toBe(next)
  })
})
