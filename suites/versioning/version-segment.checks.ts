import { describe, test } from '../../lib/checks/registry.js'

describe('versioning: the version segment', () => {
  test('[versioning/base-url-v1] whether the base URL ends with /v1 is recorded', async ({ check }) => {
    const endsWithV1 = new URL(check.context.baseUrl).pathname.replace(/\/+$/, '').endsWith('/v1')
    check.observe(endsWithV1 ? 'the base URL ends with /v1' : `the base URL ${check.context.baseUrl} does not end with /v1`)
  })
})
