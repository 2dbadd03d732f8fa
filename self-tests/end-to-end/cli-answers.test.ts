/** The command answers what a user asks before running: its version, its options, the requirements, the plan; and says how a long run is going. */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import { requirements } from '../../lib/spec/catalogue.js'
import { commandPath, packageRoot } from '../../lib/spec/package-root.js'
import { lookAlikes } from '../../variants/look-alikes.js'
import type { Variant } from '../../variants/variant.js'
import { runCli } from '../helpers/run-cli.js'
import { API_KEY, useTargets } from '../helpers/targets.js'

const startTarget = useTargets()
const WITH_KEY = { PETSTORE_API_KEY: API_KEY }

/** The modules the built command loaded to answer `args`, as file paths below the package (module-trace.ts). */
async function modulesLoadedFor(args: readonly string[]): Promise<{ code: number; modules: string[] }> {
  const out = join(mkdtempSync(join(tmpdir(), 'petstore-trace-')), 'modules.txt')
  const trace = join(packageRoot, 'dist/self-tests/helpers/module-trace.js')
  const code = await promisify(execFile)(process.execPath, ['--import', trace, commandPath, ...args], {
    env: { PATH: process.env.PATH ?? '', MODULE_TRACE_OUT: out, PETSTORE_API_KEY: API_KEY },
    cwd: tmpdir(),
  }).then(
    () => 0,
    (error: { code: number }) => error.code,
  )
  const modules = existsSync(out)
    ? readFileSync(out, 'utf8')
        .split('\n')
        .filter((url) => url.startsWith('file:'))
    : []
  return { code, modules: modules.flatMap((url) => sourcesOf(url.slice(`file://${packageRoot}/`.length))) }
}

/** The sources a loaded file holds, by path below the package: a bundle's (dist/bundle/), as its source map lists them; any other file, itself. */
function sourcesOf(file: string): string[] {
  if (!file.startsWith('dist/bundle/')) return [file]
  const { sources } = JSON.parse(readFileSync(join(packageRoot, `${file}.map`), 'utf8')) as { sources: string[] }
  return sources.map((source) => relative(packageRoot, join(packageRoot, 'dist', 'bundle', source)))
}

/** What only a run needs: the HTTP client, the checks, the reference, the reports, and the libraries they stand on. */
const RUN_MODULES = /^(node_modules\/(undici|fast-check|ajv|ajv-formats|lossless-json|p-queue)\/|(dist\/)?(suites|reference|lib\/http\/client|lib\/checks\/runner|lib\/reports)\/?)/

describe('the command loads only what the verb needs', () => {
  test.for([['--version'], ['--help'], ['--list-requirements'], ['--list-requirements', '--json'], ['--no-such-flag']])(
    '%s answers without loading the run (HTTP client, checks, reference, reports)',
    async (args) => {
      const { code, modules } = await modulesLoadedFor(args)
      expect(code).toBe(args[0] === '--no-such-flag' ? 2 : 0)
      expect(modules.length).toBeGreaterThan(0)
      expect(modules.filter((module) => RUN_MODULES.test(module))).toEqual([])
    },
  )

  test('a run loads them, so the trace above would see them', async () => {
    const { code, modules } = await modulesLoadedFor([
      '--embedded-reference',
      '--requirements',
      'listPets/returns-pets',
      '--report-dir',
      mkdtempSync(join(tmpdir(), 'petstore-run-')),
    ])
    expect(code).toBe(0)
    expect(modules.filter((module) => RUN_MODULES.test(module)).length).toBeGreaterThan(5)
  })
})

/** The built command with `args`, run by this Node with `nodeOptions`, only PATH and `env`; its exit code and standard error. */
async function runBuilt(args: readonly string[], env: Record<string, string>, nodeOptions: readonly string[] = []): Promise<{ code: number; stderr: string }> {
  return promisify(execFile)(process.execPath, [...nodeOptions, commandPath, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    cwd: tmpdir(),
  }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  )
}

/** The files below `folder`, by path from it (none when it does not exist). */
const filesBelow = (folder: string): string[] => (existsSync(folder) ? readdirSync(folder, { recursive: true, encoding: 'utf8' }) : [])

describe('the command keeps its compiled code between runs', () => {
  test("in the package's own folder under the temporary folder, where NODE_COMPILE_CACHE says, or nowhere when NODE_DISABLE_COMPILE_CACHE is set", async () => {
    const temporary = mkdtempSync(join(tmpdir(), 'petstore-tmp-'))
    expect((await runBuilt(['--version'], { TMPDIR: temporary })).code).toBe(0)
    // V8's code of the command's own modules, in a folder per Node version and flags.
    expect(filesBelow(join(temporary, 'petstore-conformance-compile-cache')).length).toBeGreaterThan(1)

    const chosen = mkdtempSync(join(tmpdir(), 'petstore-cache-'))
    const otherTemporary = mkdtempSync(join(tmpdir(), 'petstore-tmp-'))
    expect((await runBuilt(['--version'], { TMPDIR: otherTemporary, NODE_COMPILE_CACHE: chosen })).code).toBe(0)
    expect(filesBelow(chosen).length).toBeGreaterThan(1)
    expect(filesBelow(otherTemporary)).toEqual([])

    const untouched = mkdtempSync(join(tmpdir(), 'petstore-tmp-'))
    expect((await runBuilt(['--version'], { TMPDIR: untouched, NODE_DISABLE_COMPILE_CACHE: '1' })).code).toBe(0)
    expect(filesBelow(untouched)).toEqual([])
  })

  test('on a Node older than engines admits, it says which Node it needs and exits 2 (a set-up mistake), before loading anything else', async () => {
    // Node 20 as the command sees it: process.versions.node is configurable, so a preload can stand in for an old binary.
    const preload = `data:text/javascript,Object.defineProperty(process.versions, 'node', { value: '20.20.2' })`
    const outcome = await runBuilt(['--version'], {}, ['--import', preload])
    expect(outcome).toEqual({ code: 2, stderr: 'petstore-conformance needs Node 22.19 or later (24 or 26 recommended); this is Node 20.20.2\n' })
  })

  test("an error the command's own thread does not catch is a harness error, exit 3, never Node's exit 1 (non-conformant)", async () => {
    // Thrown in the command's main thread once it has started (and in its worker, which inherits the preload: its error is the command's to report).
    const preload = `data:text/javascript,setTimeout(() => { throw new Error('thrown by the test') }, 0)`
    const outcome = await runBuilt(['--version'], {}, ['--import', preload])
    expect(outcome.code).toBe(3)
    expect(outcome.stderr).toMatch(/Harness error: Error: thrown by the test/)
  })
})

describe('what the command answers without a run', () => {
  test('--version prints the package version; -h and --help print the options and the exit codes', async () => {
    const version = await runCli(['--version'])
    expect(version.code).toBe(0)
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')).version)
    for (const flag of ['-h', '--help']) {
      const help = await runCli([flag])
      expect(help.code).toBe(0)
      expect(help.stdout).toMatch(/--consistency-window-ms +PETSTORE_CONSISTENCY_WINDOW_MS/)
      expect(help.stdout).toMatch(/--dry-run[\s\S]*--list-requirements[\s\S]*Exit codes: 0 conformant/)
    }
  })

  test('--list-requirements lists every requirement with its level, operation and spec text; --json gives the same as JSON', async () => {
    const text = await runCli(['--list-requirements'])
    expect(text.stdout.trim().split('\n')).toHaveLength(requirements.length)
    expect(text.stdout).toMatch(/^listPets\/limit-default-20 +MUST +listPets +When `limit` is omitted, at most 20 animals are returned\.$/m)
    expect(text.stdout).toMatch(/^scope\/events +untestable /m)
    const json = JSON.parse((await runCli(['--list-requirements', '--json'])).stdout)
    expect(json).toHaveLength(requirements.length)
    expect(json[0]).toMatchObject({ id: 'listPets/returns-pets', level: 'MUST', operation: 'listPets', testable: true })
  })

  test('--dry-run prints the plan, requests per operation and whether any POST would be sent, and sends nothing to the target', async () => {
    const target = await startTarget({ pets: 5 })
    // The plan is counted at full speed and writes no HAR file: a rate limit only says how long the real run takes at least.
    const smoke = await runCli(['--base-url', target.baseUrl, '--dry-run', '--rate-limit', '2', '--har', 'reports/never.har'], WITH_KEY)
    expect(smoke.code, smoke.stderr).toBe(0)
    const total = Number(/^ {2}total +(\d+) requests$/m.exec(smoke.stdout)?.[1])
    expect(smoke.stdout).toContain(`Rate:  at --rate-limit 2, at least ${((Math.ceil(total / 2) - 1) * 1.1).toFixed(1)} s (retries on top).`)
    expect(existsSync(join(smoke.reportDir, 'never.har'))).toBe(false)
    expect(smoke.stdout).toMatch(`Dry run: nothing is sent to ${target.baseUrl}.`)
    expect(smoke.stdout).toMatch(/^ {2}GET \/pets +\d+ requests$/m)
    expect(smoke.stdout).toMatch(/^POST: none: this run sends no POST\.$/m)
    const full = await runCli(['--base-url', target.baseUrl, '--dry-run', '--profile', 'full'], WITH_KEY)
    expect(full.stdout).toMatch(/^ {2}POST \/pets +\d+ requests$/m)
    expect(full.stdout).toMatch(/^POST: yes, \d+ POSTs: this run CREATES pets on the target\.$/m)
    expect(target.requests).toEqual([])
    expect(target.store.size).toBe(5)
  })
})

describe('what the command says during and after a run', () => {
  test('a long run prints progress on stderr as plain lines, at most one every 2 s; --quiet prints none', async () => {
    const slow = {
      name: 'slow',
      description: 'every answer takes 300 ms',
      wrap: (handler) => async (request) => ({ ...(await handler(request)), delivery: { delayMs: 300 } }),
    } satisfies Variant
    const target = await startTarget({ pets: 30, variant: slow })
    // Without the sequences: they judge these requirements too, and would add a minute of 300 ms answers one at a time.
    const args = ['--base-url', target.baseUrl, '--requirements', 'listPets/limit-caps-size,listPets/limit-max-100', '--concurrency', '1', '--sequences', '0']
    const [loud, quiet] = await Promise.all([runCli(args, WITH_KEY), runCli([...args, '--quiet'], WITH_KEY)])
    expect(loud.code, loud.stderr).toBe(0)
    const lines = loud.stderr.split('\n').filter((line) => line.startsWith('progress: '))
    expect(lines.length).toBeGreaterThan(0)
    expect(lines[0]).toMatch(/^progress: \d+\/\d+ checks, \d+ s, judging (listPets|getPet)\/[a-z0-9-]+$/)
    expect(quiet.stderr).not.toMatch(/progress: /)
  })

  test('counts are in plain words, and --strict shows in the console and as a JUnit failure for each warning', async () => {
    const clamped = lookAlikes.find((variant) => variant.name === 'limit-clamped')
    const target = await startTarget({ pets: 30, variant: clamped })
    const outcome = await runCli(['--base-url', target.baseUrl, '--requirements', 'listPets/limit-out-of-range-400,listPets/limit-default-20', '--strict'], WITH_KEY)
    expect(outcome.code).toBe(1)
    expect(outcome.stdout).toMatch(/^ {2}PASS +MUST +listPets\/limit-default-20 \((1 check|2 checks)\)$/m)
    expect(outcome.stdout).toMatch(/^Verdict: NON-CONFORMANT \(strict: 1 SHOULD warning counts as failures\) \(exit 1\)/m)
    const junit = readFileSync(join(outcome.reportDir, 'junit.xml'), 'utf8')
    const warnings = outcome.results?.requirements.find((result) => result.id === 'listPets/limit-out-of-range-400')?.failedChecks ?? 0
    expect(warnings).toBeGreaterThan(0)
    expect(junit.match(/<failure [^>]*type="SHOULD"/g)).toHaveLength(warnings)
  })

  test('a run that could decide nothing reads NOT PROVEN, not CONFORMANT', async () => {
    const target = await startTarget({ pets: 0 })
    const outcome = await runCli(['--base-url', target.baseUrl, '--requirements', 'listPets/limit-default-20'], WITH_KEY)
    expect(outcome.code).toBe(0)
    expect(outcome.stdout).toMatch(/^Verdict: NOT PROVEN \(no requirement could be decided on this target\) \(exit 0\)/m)
    expect(readFileSync(join(outcome.reportDir, 'summary.md'), 'utf8')).toMatch(/❔ NOT PROVEN/)
  })
})

describe('a fleet flag given to one run', () => {
  test.for(['--shard 1/2', '--targets-in-flight 4'])('%s without --targets says whose flag it is, exit 2', async (flag) => {
    const outcome = await runCli(flag.split(' '))
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toContain(`${flag.split(' ')[0]} is a flag of a fleet run: give --targets fleet.yaml too (docs/fleet.md)`)
    expect(outcome.stderr).not.toMatch(/Unknown option/)
  })
})
