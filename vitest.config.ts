import { defineConfig } from 'vitest/config'

// The project's own tests. The conformance suites under suites/ are run by the command, not here.
export default defineConfig({
  test: {
    include: ['self-tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
  },
})
