/**
 * The peak memory a run reports is its own (policy §5: under 300 MiB). getrusage's maxRSS keeps across exec the
 * peak of the process a child was forked from, so a run spawned by a large parent (vitest's worker, a CI wrapper)
 * used to report the parent's size: the giant-number test failed at random in npm test with 302-328 MiB, the size
 * of the test runner, while the run itself never passed 201 MiB.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'
import { packageRoot } from '../../lib/spec/package-root.js'

test("a process spawned by a parent of 256 MiB reports its own peak, not the parent's", async () => {
  // Touched, so that it is resident in this process when the child is forked.
  const ballast = Buffer.alloc(256 * 2 ** 20, 1)
  try {
    const module = join(packageRoot, 'dist/lib/reports/write-reports.js')
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--input-type=module',
      '-e',
      `const { peakRssBytes } = await import(${JSON.stringify(module)}); console.log(peakRssBytes())`,
    ])
    const childPeak = Number(stdout.trim())
    expect(childPeak).toBeGreaterThan(10 * 2 ** 20)
    expect(childPeak).toBeLessThan(ballast.length / 2)
  } finally {
    ballast.fill(0, 0, 1)
  }
})
