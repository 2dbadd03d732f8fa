import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The files that spend longest waiting start first, then those that take longest: on a fresh clone (CI)
 * vitest knows no durations and keeps the files' order, which started the packed-tarball tests (about 25 s,
 * mostly waiting on npm and child processes) and the tests of stalls and hostile targets (waiting out
 * timeouts) among the last, so the run ended waiting on them while the cores sat idle. Started first,
 * their waits overlap the variant score's work. Within each group vitest's own order (its recorded
 * durations, when it has them) is kept.
 */
const SLOWEST_FIRST = [
  'self-tests/package/',
  'self-tests/end-to-end/stops-and-stalls',
  'self-tests/end-to-end/hostile-',
  'self-tests/end-to-end/pipelines',
  'self-tests/variant-score/',
  'self-tests/end-to-end/',
]

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = SLOWEST_FIRST.findIndex((folder) => file.moduleId.includes(`/${folder}`))
      return at < 0 ? SLOWEST_FIRST.length : at
    }
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}

// The project's own tests. The conformance suites under suites/ are run by the command, not here.
export default defineConfig({
  test: {
    include: ['self-tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    sequence: { sequencer: SlowestFirst },
    // Three workers on two cores: several files mostly wait (lagging targets, Retry-After, child processes, npm), and a third keeps both cores busy meanwhile.
    maxWorkers: 3,
    // Self-tests share no module state that one file could spoil for another (checks register once, targets
    // are closed per test), so each worker imports the project once instead of once per file.
    pool: 'threads',
    isolate: false,
  },
})
