import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { compiledProjectModules, ensureCompiled } from './self-tests/helpers/compiled-modules.js'

/**
 * The files that take longest, longest first (the classic longest-processing-time order): on a fresh clone (CI)
 * vitest knows no durations and keeps the files' order, which left the files that wait longest (a target that
 * never answers, Retry-After, the consistency window, npm and child processes) to the end, where they ran with
 * the cores idle. Started first, beside one another and beside the variant score's CPU, their waits are hidden.
 * Files not listed follow in vitest's own order (its recorded durations, when it has them).
 */
const SLOWEST_FIRST = [
  'self-tests/variant-score/get-pet-faults',
  'self-tests/package/',
  'self-tests/end-to-end/hostile-targets',
  'self-tests/variant-score/list-pets-faults',
  'self-tests/end-to-end/stops-and-stalls',
  'self-tests/end-to-end/cli-answers',
  'self-tests/variant-score/create-pet-faults',
  'self-tests/variant-score/input-and-habit-faults',
  'self-tests/end-to-end/deprecation',
  'self-tests/variant-score/look-alikes',
  'self-tests/variant-score/errors-and-responses-faults',
  'self-tests/end-to-end/hostile-bounds',
  'self-tests/end-to-end/pipelines',
  'self-tests/end-to-end/fleet',
  'self-tests/ci-examples-fleet',
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

/**
 * A young generation of up to 2 × 64 MiB for the test workers (V8's default is 2 × 16 MiB), set here in vitest's
 * own process before it starts them: worker threads take V8's flags from the process (they accept no V8 flag
 * of their own). The self-tests judge thousands of short-lived answers a second, in-process on both sides;
 * with the default, scavenges took about a tenth of the workers' CPU, and the larger space halves how often
 * they run. It changes no behaviour of the suite, only how often its garbage is collected.
 */
setFlagsFromString('--max-semi-space-size=64')

const root = import.meta.dirname
ensureCompiled(root)

// The project's own tests. The conformance suites under suites/ are run by the command, not here.
export default defineConfig({
  // The test files are vitest's; the modules they import are tsc's output in dist/, loaded by Node (compiled-modules.ts).
  plugins: [compiledProjectModules(root)],
  test: {
    server: { deps: { external: [new RegExp(`^${join(root, 'dist/').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)] } },
    include: ['self-tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    sequence: { sequencer: SlowestFirst },
    // Six workers on two cores, and up to 12 tests at once within a file that runs its tests concurrently (the
    // variant score): many files and tests mostly wait (a consistency window, a timeout, Retry-After, child
    // processes, npm), and with three workers and vitest's 5 at once both cores sat idle for seconds at a time.
    // On Node 24 (docs/architecture.md): three workers 58 s, four 49 s; five and six within the machine's noise.
    maxWorkers: 6,
    maxConcurrency: 12,
    // Self-tests share no module state that one file could spoil for another (checks register once, targets
    // are closed per test), so each worker imports the project once instead of once per file.
    pool: 'threads',
    isolate: false,
  },
})
