/** Runs the real command (the build in dist/) as a child process, in an empty folder with a clean environment, and reads its results. */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { packageRoot } from '../lib/package-root.js'
import type { RunResult } from '../lib/reports/run-result.js'

export interface SuiteOutcome {
  code: number
  stdout: string
  stderr: string
  reportDir: string
  results: RunResult | undefined
}

export function runSuite(args: string[], env: Record<string, string> = {}): Promise<SuiteOutcome> {
  const cwd = mkdtempSync(join(tmpdir(), 'petstore-run-'))
  const reportDir = join(cwd, 'reports')
  // Only PATH and the given variables: a developer's own PETSTORE_* settings must not leak in.
  const childEnv = { PATH: process.env.PATH ?? '', ...env }
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(packageRoot, 'dist/cli/main.js'), '--report-dir', reportDir, ...args],
      { cwd, env: childEnv, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        let results: RunResult | undefined
        try {
          results = JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8'))
        } catch {
          results = undefined
        }
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
        resolve({ code, stdout, stderr, reportDir, results })
      },
    )
  })
}
