/**
 * The package as users install it: packed, installed into an empty folder with no dev dependencies and
 * no install scripts, then used three ways: the command (npx), the typed API, and the GitHub Action's
 * step run as the runner would, with the files it writes to.
 */
import { execFile, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, test } from 'vitest'
import { packageRoot, packageVersion } from '../../lib/spec/package-root.js'
import { faults } from '../../variants/faults/index.js'
import { behaviours, startMisbehavingServer } from '../../variants/hostile-servers.js'
import { API_KEY, useTargets } from '../helpers/targets.js'

const run = promisify(execFile)
const startTarget = useTargets()
const folder = mkdtempSync(join(tmpdir(), 'petstore-package-'))
const installed = join(folder, 'install')
let tarball = ''

/** Only PATH: the packed command must not lean on anything of this checkout's environment. */
const bare = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? '',
  HOME: folder,
  npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? folder, '.npm'),
  ...extra,
})

beforeAll(async () => {
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', folder], { cwd: packageRoot, maxBuffer: 16 * 2 ** 20 })
  tarball = join(folder, JSON.parse(stdout)[0].filename)
  mkdirSync(installed)
  writeFileSync(join(installed, 'package.json'), '{ "name": "a-user-of-the-suite", "private": true, "type": "module" }\n')
  await run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: installed, env: bare() })
}, 120_000)

describe('the package, installed from its tarball alone', () => {
  test('ships what users run and nothing of the project own proof', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: packageRoot, maxBuffer: 16 * 2 ** 20 })
    const files: string[] = JSON.parse(stdout)[0].files.map((file: { path: string }) => file.path)
    expect(files).toEqual(
      expect.arrayContaining([
        'dist/cli/main.js',
        'dist/lib/run/public-api.js',
        'dist/lib/run/public-api.d.ts',
        'schemas/results.schema.json',
        'schemas/openapi.json',
        'action.yml',
        'LICENSE',
        'README.md',
      ]),
    )
    const proof = files.filter((file) => /self-tests|variants|mutation-score|benchmarks|^\.ci|ci-examples|\.test\.|scripts\//.test(file))
    expect(proof).toEqual([])
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
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, types: [], skipLibCheck: false, noEmit: false, outDir: 'out' },
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
      PETSTORE_QUIET: 'true',
      CI: 'true',
    })
    await run('bash', [join(packageRoot, 'action', 'run.sh')], { cwd: folder, env, timeout: 50_000 }).catch((error) => {
      throw new Error(`${error.message}\n${error.stdout}\n${error.stderr}`)
    })
    expect(readFileSync(outputs, 'utf8')).toMatch(/^verdict=CONFORMANT\nexit-code=0\nfailed-must=0\ninconclusive-must=\d+\nreport-dir=.*action-reports\n$/)
    expect(readFileSync(summary, 'utf8')).toMatch(/^## Pet Store conformance: ✅ CONFORMANT/)
    const action = readFileSync(join(packageRoot, 'action.yml'), 'utf8')
    for (const input of ['base-url', 'api-key', 'profile', 'strict', 'fail-on', 'baseline', 'report-dir']) expect(action).toMatch(new RegExp(`^  ${input}:$`, 'm'))
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
      CI: 'true',
    })
    const step = spawn('bash', [join(packageRoot, 'action', 'run.sh')], { cwd: folder, env })
    let output = ''
    step.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    const ended = new Promise<number | null>((resolve) => step.on('exit', (code) => resolve(code)))
    while (!/^Seed: /m.test(output)) await new Promise((resolve) => setTimeout(resolve, 25))
    const signalled = Date.now()
    // The runner signals the step's own process, not its children: the script must pass the signal on.
    step.kill('SIGTERM')
    expect(await ended).toBe(3)
    expect(Date.now() - signalled).toBeLessThan(2_000)
    expect(readFileSync(outputs, 'utf8')).toMatch(/^verdict=NO VERDICT\nexit-code=3\n/)
    expect(JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')).stopReason).toBe('cancelled')
  })
})
