import { defineConfig } from 'vitest/config'

// The project's own tests. The conformance suites under suites/ are run by the command, not here.
export default defineConfig({
  test: {
    include: ['self-tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Four workers on two cores: several files mostly wait (lagging targets, Retry-After, child processes, npm), and the others keep both cores busy meanwhile.
    maxWorkers: 4,
    // Self-tests share no module state that one file could spoil for another (checks register once, targets
    // are closed per test), so each worker imports the project once instead of once per file.
    pool: 'threads',
    isolate: false,
  },
})
