import { defineConfig } from 'vitest/config'

// The project's own tests. The conformance suites under suites/ are run by the command, not here.
export default defineConfig({
  test: {
    include: ['self-tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Three workers on two cores: several files mostly wait (lagging targets, Retry-After, child processes), and a third keeps both cores busy meanwhile.
    maxWorkers: 3,
  },
})
