/** The built command (package.json's bin, dist/bundle/main.js) as a child process, in an empty folder with a clean environment. */
import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { commandPath } from '../../lib/spec/package-root.js'

export interface SpawnOutcome {
  code: number
  stdout: string
  stderr: string
  reportDir: string
}

/** Runs the command with `args` (a --report-dir in a new folder first); only PATH and `env` reach it. */
export function spawnCli(args: readonly string[], env: Record<string, string> = {}): Promise<SpawnOutcome> {
  const cwd = mkdtempSync(join(tmpdir(), 'petstore-run-'))
  const reportDir = join(cwd, 'reports')
  // A developer's own PETSTORE_* settings must not leak in.
  const childEnv = { PATH: process.env.PATH ?? '', ...env }
  return new Promise((resolve) => {
    execFile(process.execPath, [commandPath, '--report-dir', reportDir, ...args], { cwd, env: childEnv, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
      resolve({ code, stdout, stderr, reportDir })
    })
  })
}
