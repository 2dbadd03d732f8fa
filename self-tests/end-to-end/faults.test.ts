import { describe, expect, test } from 'vitest'
import { faults } from '../../variants/faults.js'
import { emptyStore, startVariant } from '../../variants/variant.js'
import { runCli } from '../helpers/run-cli.js'

const API_KEY = 'fault-test-key-7d1e'

describe.concurrent('every known fault is caught by a requirement it declares', () => {
  test('there are at least 8 faults, each declaring the requirements that must catch it', () => {
    expect(faults.length).toBeGreaterThanOrEqual(8)
    for (const fault of faults) expect(fault.catches?.length, fault.name).toBeGreaterThan(0)
  })

  test.for(faults)('$name: $description', async (fault) => {
    const server = await startVariant(fault, { apiKey: API_KEY, store: emptyStore() })
    try {
      // Only the requirements the fault declares: this proves it is caught where it should be, and stays fast.
      const outcome = await runCli(['--base-url', server.baseUrl, '--profile', 'full', '--seed', '1', '--requirements', (fault.catches ?? []).join(',')], {
        PETSTORE_API_KEY: API_KEY,
      })
      const failed = outcome.results?.requirements.filter((result) => result.verdict === 'fail').map((result) => result.id) ?? []
      expect(outcome.code, outcome.stderr).toBe(1)
      expect(
        failed.filter((id) => fault.catches?.includes(id as never)),
        `failed: ${failed.join(', ')}`,
      ).not.toEqual([])
    } finally {
      await server.close()
    }
  })
})
