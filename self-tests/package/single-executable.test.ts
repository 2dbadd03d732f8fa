/**
 * The single executable (`npm run build:exe`), as a vendor without Node runs it: copied alone into an empty folder,
 * started with no Node on PATH, it serves the reference and judges it conformant, exit 0; a second start unpacks
 * nothing again; replay lines name it as it was called.
 */
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { validateWorkflow } from '@action-validator/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parse as parseYaml } from 'yaml'
import { packageRoot } from '../../lib/spec/package-root.js'
import { buildExecutable } from '../../scripts/build-executable.js'

const API_KEY = 'single-executable-key-81c2'
const folder = mkdtempSync(join(tmpdir(), 'petstore-executable-'))
/** Its own temporary folder, where it unpacks what it carries. */
const temporary = mkdtempSync(join(tmpdir(), 'petstore-executable-tmp-'))
const executable = join(folder, 'petstore-conformance')
/** No Node anywhere on PATH: the executable carries its own. */
const env = { PATH: join(folder, 'no-such-folder'), TMPDIR: temporary, PETSTORE_API_KEY: API_KEY }

beforeAll(async () => {
  copyFileSync(await buildExecutable(), executable)
  await startable()
}, 120_000)

/**
 * Linux refuses to start a file some process still holds open for writing (ETXTBSY): a child forked elsewhere while
 * the copy was open holds it until that child execs, which no code here can wait on. Started once, it is startable;
 * the start that tells goes to a folder of its own, so what the tests see unpacked is theirs.
 */
async function startable(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'petstore-executable-start-'))
  try {
    for (let attempt = 1; attempt <= 50; attempt++) {
      const started = spawnSync(executable, ['--version'], { env: { ...env, TMPDIR: scratch }, cwd: folder })
      if ((started.error as NodeJS.ErrnoException | undefined)?.code !== 'ETXTBSY') return
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}
afterAll(() => {
  rmSync(folder, { recursive: true, force: true })
  rmSync(temporary, { recursive: true, force: true })
})

describe('the single executable, alone in a folder, with no Node on PATH', () => {
  test('serves the reference, judges it CONFORMANT with exit 0, and names itself in its replay lines', async () => {
    expect(readdirSync(folder)).toEqual(['petstore-conformance'])
    const serve: ChildProcess = spawn(executable, ['serve', '--port', '0'], { env, cwd: folder })
    try {
      let output = ''
      const baseUrl = await new Promise<string>((resolve, reject) => {
        serve.stdout?.on('data', (chunk) => {
          output += chunk
          const served = /serving (http:\/\/\S+\/v1)/.exec(output)
          if (served) resolve(served[1] as string)
        })
        serve.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)))
      })
      const reports = join(folder, 'reports')
      const run = await promisify(execFile)(executable, ['--base-url', baseUrl, '--seed', '7', '--report-dir', reports], { env, cwd: folder }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      )
      expect(run.stdout).toMatch(/Verdict: CONFORMANT \(exit 0\) — smoke profile/)
      expect(run.code).toBe(0)
      const summary = readFileSync(join(reports, 'summary.md'), 'utf8')
      expect(summary).not.toContain('npx petstore-conformance')
    } finally {
      serve.kill('SIGTERM')
    }
    // It unpacked what it carries once, into one folder of its own (beside the compile cache every start of the command keeps).
    expect(readdirSync(temporary).filter((name) => name.startsWith('petstore-conformance-') && name !== 'petstore-conformance-compile-cache')).toHaveLength(1)
  }, 120_000)

  test('the release workflow in ci-examples/ builds it, proves it alone and attaches it to the release: a valid workflow', () => {
    const text = readFileSync(join(packageRoot, 'ci-examples', 'release', 'single-executable.yml'), 'utf8')
    expect(validateWorkflow(text).errors).toEqual([])
    const workflow = parseYaml(text) as { on: { release: { types: string[] } }; jobs: Record<string, { steps: Array<{ run?: string }> }> }
    expect(workflow.on.release.types).toEqual(['published'])
    const runs = Object.values(workflow.jobs).flatMap((job) => job.steps.map((step) => step.run ?? ''))
    expect(runs.some((run) => run.includes('npm run build:exe'))).toBe(true)
    expect(runs.some((run) => /env -i .*petstore-conformance --base-url/.test(run))).toBe(true)
    expect(runs.some((run) => /gh release upload .*petstore-conformance-linux-x64/.test(run))).toBe(true)
  })

  test('a temporary folder it cannot write is a set-up mistake: exit 2, saying so, never a verdict', async () => {
    const outcome = await promisify(execFile)(executable, ['--version'], { env: { ...env, TMPDIR: executable }, cwd: folder }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    )
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).toMatch(/could not start: .*ENOTDIR[\s\S]*set TMPDIR to a folder it may write/)
  })

  test('answers --help and --version like the npm package', async () => {
    const help = await promisify(execFile)(executable, ['--help'], { env, cwd: folder })
    expect(help.stdout).toContain('Usage: petstore-conformance')
    const { version } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }
    expect((await promisify(execFile)(executable, ['--version'], { env, cwd: folder })).stdout.trim()).toBe(version)
  })
})
