/**
 * The package as users install it: packed, installed into an empty folder with no dev dependencies and
 * no install scripts (beside vitest, as a vendor's own project has it), then used four ways: the command
 * (npx), the typed API, a vendor's vitest file calling conformanceSuite (`npx vitest run`), and the GitHub
 * Action's step run as the runner would, with the files it writes to.
 */
import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, test } from 'vitest'
import { runConformance } from '../../entry-points/index.js'
import type { Verdict } from '../../lib/judging/verdicts.js'
import type { RunResult } from '../../lib/reports/run-result.js'
import { SETTINGS } from '../../lib/settings/settings.js'
import { packageRoot, packageVersion } from '../../lib/spec/package-root.js'
import { faults } from '../../variants/faults/index.js'
import { behaviours, startMisbehavingServer } from '../../variants/hostile-servers.js'
import { writeLockedProject } from '../helpers/locked-install.js'
import { API_KEY, useTargets } from '../helpers/targets.js'
import { until } from '../helpers/until.js'

const run = promisify(execFile)

/** Three faults the vitest parity run is held to, each caught in another way: a check, a sequence, the rules of every answer. */
const PARITY_FAULTS = ['limit-off-by-one', 'key-accepted-in-x-api-key', 'error-labelled-problem-json']
/** How the vitest entry titles a requirement judged on the whole run. */
const RUN_WIDE_TITLE_END = ', judged on every answer of the run'
/** The same seed and numbers of generated cases for both runners. */
const PARITY_SETTINGS = { seed: 11, numRuns: 2, sequences: 1, maxEdits: 40 }

interface OutcomeRow {
  path: string
  title: string
  state: 'passed' | 'failed' | 'skipped' | 'pending'
  note?: string
  error?: string
  annotations: Array<{ type: string; message: string }>
}

/** A requirement's verdict as its tests show it: a failed test fails it; then a warning, an INFO note, a pass; all skipped is inconclusive. */
function verdictsOfTests(rows: readonly OutcomeRow[]): Map<string, Verdict> {
  const byId = new Map<string, OutcomeRow[]>()
  for (const row of rows) {
    const id = /^\[([^\]]+)\]/.exec(row.title)?.[1]
    if (id) byId.set(id, [...(byId.get(id) ?? []), row])
  }
  const verdictOf = (tests: OutcomeRow[]): Verdict => {
    if (tests.some((test) => test.state === 'failed')) return 'fail'
    if (tests.some((test) => test.annotations.some((note) => note.type === 'warning'))) return 'warn'
    if (tests.some((test) => test.annotations.some((note) => note.type === 'info'))) return 'info'
    if (tests.some((test) => test.state === 'passed')) return 'pass'
    return 'inconclusive'
  }
  return new Map([...byId].map(([id, tests]) => [id, verdictOf(tests)]))
}
const startTarget = useTargets()
const folder = mkdtempSync(join(tmpdir(), 'petstore-package-'))
const installed = join(folder, 'install')
let tarball = ''
/** The paths the tarball holds, as npm pack listed them. */
let shipped: string[] = []

/** Where the Action's step installs the package (under RUNNER_TEMP). */
const actionPrefix = join(folder, 'petstore-conformance-action')

/** Only PATH: the packed command must not lean on anything of this checkout's environment. */
const bare = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? '',
  HOME: folder,
  npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? folder, '.npm'),
  // Never the registry at test time: what the lockfile pins is in npm's cache, and anything else fails at once.
  npm_config_offline: 'true',
  ...extra,
})

beforeAll(async () => {
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', folder], { cwd: packageRoot, maxBuffer: 16 * 2 ** 20 })
  const [packed] = JSON.parse(stdout)
  tarball = join(folder, packed.filename)
  shipped = packed.files.map((file: { path: string }) => file.path)
  mkdirSync(installed)
  // vitest beside it, the peer dependency of petstore-conformance/vitest; every package at this clone's locked version, from npm's cache.
  writeLockedProject(installed, packageRoot, tarball, ['vitest'])
  await run('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: installed, env: bare() })
  // The GitHub Action's step installs the package itself: its folder gets the same pins, and the step runs offline too.
  mkdirSync(actionPrefix)
  writeLockedProject(actionPrefix, packageRoot, tarball)
  // A bound on a stall, not on speed: npm pack and npm ci took over 60 s beside a busy machine's other work (load 9 on two cores).
}, 180_000)

describe('the package, installed from its tarball alone', () => {
  test('ships what users run and nothing of the project own proof', () => {
    const files = shipped
    expect(files).toEqual(
      expect.arrayContaining([
        'dist/bundle/main.js',
        'dist/bundle/run-in-worker.js',
        'dist/bundle/run-in-worker.js.map',
        'dist/bundle/reference-thread.js',
        'dist/bundle/index.js',
        'dist/entry-points/index.d.ts',
        'dist/bundle/vitest.js',
        'dist/entry-points/vitest.d.ts',
        'dist/lib/run/run-session.d.ts',
        'schemas/results.schema.json',
        'schemas/openapi.json',
        'action.yml',
        'LICENSE',
        'README.md',
      ]),
    )
    const proof = files.filter((file) => /self-tests|variants|mutation-score|benchmarks|^\.ci|ci-examples|\.test\.|scripts\//.test(file))
    expect(proof).toEqual([])
    // The bundle is what runs: no module of tsc's output ships beside it, only the type declarations.
    expect(files.filter((file) => file.startsWith('dist/') && !file.startsWith('dist/bundle/') && !file.endsWith('.d.ts'))).toEqual([])
  })

  test('the README and every shipped doc make sense installed: each link is to a shipped file, no path leaves the package, repository folders are named as such', () => {
    const pages = shipped.filter((file) => file.endsWith('.md'))
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/requirements.md', 'docs/configuration.md']))
    for (const page of pages) {
      const text = readFileSync(join(packageRoot, page), 'utf8')
      expect(text, page).not.toMatch(/\.\.\/(shared|spec)|CONFORMANCE-POLICY\.md|petstore-v1\.md/)
      for (const [, link] of text.matchAll(/\]\(([^)\s#]+)[^)]*\)/g)) {
        if (/^[a-z]+:/.test(link as string)) continue
        const target = join(page, '..', link as string).replace(/\\/g, '/')
        expect(shipped, `${page} links ${link}`).toContain(target)
      }
      // The project's own folders are there in the repository, not in the package: a page that names one says so.
      if (/`(self-tests|variants|benchmarks|ci-examples|soak|mutation-score)\//.test(text)) expect(text, page).toMatch(/repository/)
    }
    // The spec's words every requirement rests on stay quoted where users read them.
    expect(readFileSync(join(packageRoot, 'docs', 'requirements.md'), 'utf8')).toContain('When `limit` is omitted, at most 20 animals are returned.')
  })

  test('npx petstore-conformance answers --version and judges a target; its replay commands say npx', async () => {
    const bin = join(installed, 'node_modules', '.bin', 'petstore-conformance')
    expect((await run(bin, ['--version'], { env: bare() })).stdout.trim()).toBe(packageVersion)
    const target = await startTarget({ variant: faults.find((fault) => fault.name === 'name-trimmed') })
    const reports = join(folder, 'reports')
    const outcome = await run(
      bin,
      ['--base-url', target.baseUrl, '--profile', 'full', '--requirements', 'createPet/echoes-fields', '--seed', '7', '--report-dir', reports, '--quiet'],
      {
        cwd: installed,
        env: bare({ PETSTORE_API_KEY: API_KEY }),
      },
    ).then(
      () => ({ code: 0 }),
      (error: { code: number }) => ({ code: error.code }),
    )
    expect(outcome.code).toBe(1)
    const results = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8'))
    const replay = results.requirements
      .find((result: { id: string }) => result.id === 'createPet/echoes-fields')
      .failures.find((failure: { replay?: unknown }) => failure.replay).replay
    expect(replay.command).toMatch(/^npx petstore-conformance --base-url /)
  })

  test('the typed API: imported by name, type-checked against the shipped .d.ts, it runs and returns the results.json shape', async () => {
    const script = join(installed, 'use-the-api.ts')
    writeFileSync(
      script,
      `import { ConfigError, runConformance, type RunResult } from 'petstore-conformance'
const results: RunResult = await runConformance({ embeddedReference: true, requirements: ['listPets/'], seed: 3 })
let refused = ''
try { await runConformance({ baseUrl: 'not a url' }) } catch (error) { refused = error instanceof ConfigError ? error.problems.join('; ') : 'other' }
console.log(JSON.stringify({ headline: results.headline.text, exitCode: results.exitCode, passed: results.summary.pass, refused }))
`,
    )
    writeFileSync(
      join(installed, 'tsconfig.json'),
      JSON.stringify({
        // Every shipped .d.ts is checked (skipLibCheck false); TypeScript's own default libraries are not ours to prove.
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          types: [],
          skipLibCheck: false,
          skipDefaultLibCheck: true,
          noEmit: false,
          outDir: 'out',
        },
        files: ['use-the-api.ts'],
      }),
    )
    await run(process.execPath, [join(packageRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', installed], { cwd: installed })
    const { stdout } = await run(process.execPath, [join(installed, 'out', 'use-the-api.js')], { cwd: installed, env: bare() })
    const answer = JSON.parse(stdout)
    expect(answer).toMatchObject({ headline: 'CONFORMANT', exitCode: 0 })
    expect(answer.passed).toBeGreaterThan(5)
    expect(answer.refused).toMatch(/is not a URL/)
  })

  // vitest started in a child process, then the run: 47 s beside a score and npm test's other workers; a bound on a stall.
  test("a vendor's vitest project: conformanceSuite runs every check as a test through vitest run, with the verdicts of the command", { timeout: 120_000 }, async () => {
    // The reference and three faulty variants, each twice with the same store of 110 pets (no seeding needed): once for each runner.
    const variants = [undefined, ...PARITY_FAULTS.map((name) => faults.find((fault) => fault.name === name))]
    const forVitest = await Promise.all(variants.map((variant) => startTarget({ pets: 110, ...(variant ? { variant } : {}) })))
    const forCommand = await Promise.all(variants.map((variant) => startTarget({ pets: 110, ...(variant ? { variant } : {}) })))
    const names = variants.map((variant) => variant?.name ?? 'reference')
    writeFileSync(
      join(installed, 'conformance.test.js'),
      `import { conformanceSuite } from 'petstore-conformance/vitest'
for (const target of JSON.parse(process.env.TARGETS)) {
  conformanceSuite({ title: target.name, baseUrl: target.baseUrl, apiKey: process.env.SERVICE_KEY, profile: 'full', ...${JSON.stringify(PARITY_SETTINGS)}, reportDir: 'reports/' + target.name })
}
`,
    )
    writeFileSync(
      join(installed, 'outcome-reporter.js'),
      `import { writeFileSync } from 'node:fs'
export default class OutcomeReporter {
  rows = []
  onTestCaseResult(testCase) {
    const result = testCase.result()
    this.rows.push({ path: testCase.fullName, title: testCase.name, state: result.state, note: result.note, error: result.errors?.[0]?.message, annotations: testCase.annotations().map(({ type, message }) => ({ type, message })) })
  }
  onTestRunEnd() { writeFileSync(process.env.OUTCOMES, JSON.stringify(this.rows)) }
}
`,
    )
    // What `npx vitest` runs, without npx's own start-up.
    const vitestBin = join(installed, 'node_modules', '.bin', 'vitest')
    const targets = JSON.stringify(forVitest.map((target, index) => ({ name: names[index], baseUrl: target.baseUrl })))
    const vitestRun = run(vitestBin, ['run', '--reporter=./outcome-reporter.js'], {
      cwd: installed,
      env: bare({ TARGETS: targets, SERVICE_KEY: API_KEY, OUTCOMES: 'outcomes.json' }),
      maxBuffer: 16 * 2 ** 20,
    }).then(
      () => 0,
      (error: { code: number; stderr: string }) => error.code,
    )
    const commandRuns = await Promise.all(forCommand.map((target) => runConformance({ baseUrl: target.baseUrl, apiKey: API_KEY, profile: 'full', ...PARITY_SETTINGS })))
    // Three faulty variants: a failed MUST fails the vitest run, as it fails the command.
    expect(await vitestRun).toBe(1)
    const rows: OutcomeRow[] = JSON.parse(readFileSync(join(installed, 'outcomes.json'), 'utf8'))
    names.forEach((name, index) => {
      const command = commandRuns[index] as RunResult
      const own = rows.filter((row) => row.path.startsWith(`${name} > `))
      const fromVitest = verdictsOfTests(own)
      const fromCommand = new Map(command.requirements.filter((result) => fromVitest.has(result.id)).map((result) => [result.id, result.verdict]))
      expect({ name, verdicts: Object.fromEntries(fromVitest) }).toEqual({ name, verdicts: Object.fromEntries(fromCommand) })
      // Check by check: the reasons of the skipped tests are the reasons the command gives for its inconclusive checks.
      const skipReasons = new Map<string, string[]>()
      for (const row of own) {
        const id = /^\[([^\]]+)\]/.exec(row.title)?.[1] ?? ''
        if (row.state === 'skipped' && !row.title.endsWith(RUN_WIDE_TITLE_END))
          skipReasons.set(id, [...new Set([...(skipReasons.get(id) ?? []), (row.note ?? '').replace(/^inconclusive: /, '')])])
      }
      const checkIds = new Set(own.filter((row) => !row.title.endsWith(RUN_WIDE_TITLE_END)).map((row) => /^\[([^\]]+)\]/.exec(row.title)?.[1]))
      const commandReasons = command.requirements.filter((result) => checkIds.has(result.id) && result.verdict !== 'inconclusive' && result.reasons.length > 0)
      expect(Object.fromEntries(commandReasons.map((result) => [result.id, [...(skipReasons.get(result.id) ?? [])].sort()]))).toEqual(
        Object.fromEntries(commandReasons.map((result) => [result.id, [...result.reasons].sort()])),
      )
      // Every requirement the command judged has a test; the others cannot be tested.
      for (const result of command.requirements) if (!fromVitest.has(result.id)) expect(result.verdict).toBe('untestable')
      // The reports the vitest run wrote say what its tests say.
      const written: RunResult = JSON.parse(readFileSync(join(installed, 'reports', name, 'results.json'), 'utf8'))
      expect(new Map(written.requirements.filter((result) => fromVitest.has(result.id)).map((result) => [result.id, result.verdict]))).toEqual(fromVitest)
      expect(written.exitCode).toBe(command.exitCode)
    })
    expect(commandRuns.map((result) => result.headline.text)).toEqual(['CONFORMANT', 'NON-CONFORMANT', 'NON-CONFORMANT', 'NON-CONFORMANT'])
    // A failure reads as the command's lines; an inconclusive check is skipped with its reason; a SHOULD warning passes, annotated.
    const failed = rows.filter((row) => row.state === 'failed')
    expect(failed.length).toBeGreaterThan(0)
    expect(failed.some((row) => /^MUST: .*\nreproduce: curl /s.test(row.error ?? ''))).toBe(true)
    expect(rows.filter((row) => row.state === 'skipped').every((row) => /^inconclusive: ./.test(row.note ?? ''))).toBe(true)
    // -t picks tests by requirement id: only those run; the others are skipped by vitest, not judged.
    const filtered = await run(vitestBin, ['run', '-t', 'listPets/limit-max-100', '--reporter=./outcome-reporter.js'], {
      cwd: installed,
      env: bare({ TARGETS: JSON.stringify([{ name: 'reference', baseUrl: forVitest[0]?.baseUrl }]), SERVICE_KEY: API_KEY, OUTCOMES: 'filtered.json' }),
    }).then(
      () => 0,
      () => 1,
    )
    expect(filtered).toBe(0)
    const ran: OutcomeRow[] = JSON.parse(readFileSync(join(installed, 'filtered.json'), 'utf8'))
    expect(ran.filter((row) => row.state !== 'skipped').map((row) => row.title.slice(0, 25))).toEqual(expect.arrayContaining(['[listPets/limit-max-100] ']))
    expect(ran.filter((row) => row.state !== 'skipped').every((row) => row.title.startsWith('[listPets/limit-max-100]'))).toBe(true)
  })

  test('the GitHub Action: its step installs the packaged command, runs it, fills the job summary and sets the outputs', async () => {
    const target = await startTarget({ pets: 30 })
    const outputs = join(folder, 'github-output')
    const summary = join(folder, 'github-step-summary')
    writeFileSync(outputs, '')
    writeFileSync(summary, '')
    const env = bare({
      GITHUB_ACTION_PATH: packageRoot,
      GITHUB_OUTPUT: outputs,
      GITHUB_STEP_SUMMARY: summary,
      RUNNER_TEMP: folder,
      PETSTORE_CONFORMANCE_PACKAGE: tarball,
      // What action.yml maps the inputs to:
      PETSTORE_BASE_URL: target.baseUrl,
      PETSTORE_API_KEY: API_KEY,
      PETSTORE_PROFILE: '',
      PETSTORE_STRICT: '',
      PETSTORE_FAIL_ON: '',
      PETSTORE_BASELINE: '',
      PETSTORE_REPORT_DIR: join(folder, 'action-reports'),
      PETSTORE_ACTION_HAR: 'exchanges.har',
      PETSTORE_QUIET: 'true',
      PETSTORE_MAX_EDITS: '20',
      CI: 'true',
    })
    await run('bash', [join(packageRoot, 'action', 'run.sh')], { cwd: folder, env, timeout: 50_000 }).catch((error) => {
      throw new Error(`${error.message}\n${error.stdout}\n${error.stderr}`)
    })
    expect(readFileSync(outputs, 'utf8')).toMatch(
      /^verdict=CONFORMANT\nexit-code=0\nfailed-must=0\ninconclusive-must=\d+\nreport-dir=.*action-reports\nhar=.*action-reports\/exchanges\.har\n$/,
    )
    // The HAR file is in the report directory, which the action's upload step keeps: every request the run sent (the
    // target's own log misses the edited requests its HTTP layer refused before they reached it).
    const entries = JSON.parse(readFileSync(join(folder, 'action-reports', 'exchanges.har'), 'utf8')).log.entries.length
    const results = JSON.parse(readFileSync(join(folder, 'action-reports', 'results.json'), 'utf8'))
    expect(entries).toBe(results.requestsSent)
    expect(entries).toBeGreaterThanOrEqual(target.requests.length)
    expect(readFileSync(summary, 'utf8')).toMatch(/^## Pet Store conformance: ✅ CONFORMANT/)
    const action = readFileSync(join(packageRoot, 'action.yml'), 'utf8')
    for (const input of ['base-url', 'api-key', 'profile', 'strict', 'fail-on', 'baseline', 'report-dir', 'har', 'artifact-name'])
      expect(action).toMatch(new RegExp(`^  ${input}:$`, 'm'))
    // Each setting the pipelines need is an input, passed to the command as its variable.
    for (const key of ['headers', 'caFile', 'clientCert', 'clientKey', 'clientKeyPassphrase', 'rateLimit', 'omitTraceparent'] as const) {
      const { flag, env: variable } = SETTINGS[key]
      const input = key === 'headers' ? 'headers' : flag
      expect(action).toMatch(new RegExp(`^  ${input}:$`, 'm'))
      expect(action).toContain(`${variable}: \${{ inputs.${input} }}`)
    }
    expect(action).toMatch(/uses: actions\/upload-artifact@v4\n\s+with:\n\s+name: \$\{\{ inputs.artifact-name \}\}\n\s+path: \$\{\{ steps.run.outputs.report-dir/)
  })

  test('the GitHub Action passes a cancel on: SIGTERM to its step ends the command with its reports, exit 3, and the outputs say so', async ({ onTestFinished }) => {
    const server = await startMisbehavingServer(behaviours.hang, onTestFinished)
    const outputs = join(folder, 'github-output-cancelled')
    writeFileSync(outputs, '')
    const reportDir = join(folder, 'action-reports-cancelled')
    const env = bare({
      GITHUB_ACTION_PATH: packageRoot,
      GITHUB_OUTPUT: outputs,
      RUNNER_TEMP: folder,
      PETSTORE_CONFORMANCE_PACKAGE: tarball,
      PETSTORE_BASE_URL: server.baseUrl,
      PETSTORE_API_KEY: API_KEY,
      PETSTORE_REPORT_DIR: reportDir,
      // A hanging target and ten minutes per request: a step that did not pass the cancel on would wait far past this
      // test's own timeout; one that did ends with "cancelled", however busy the machine.
      PETSTORE_TIMEOUT_MS: '600000',
      CI: 'true',
    })
    // After the test above, this is the action's second use in the same job: the package is installed already, and npm is skipped.
    const installedBefore = existsSync(join(actionPrefix, 'installed-package'))
    const step = spawn('bash', [join(packageRoot, 'action', 'run.sh')], { cwd: folder, env })
    let output = ''
    let errors = ''
    step.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    step.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString()
    })
    const ended = new Promise<number | null>((resolve) => step.on('exit', (code) => resolve(code)))
    await until(() => /^Seed: /m.test(output))
    // The runner signals the step's own process, not its children: the script must pass the signal on.
    step.kill('SIGTERM')
    expect(await ended).toBe(3)
    expect(readFileSync(outputs, 'utf8')).toMatch(/^verdict=NO VERDICT\nexit-code=3\n/)
    expect(JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')).stopReason).toBe('cancelled')
    expect(errors.includes('is installed already in this job')).toBe(installedBefore)
  })
})
