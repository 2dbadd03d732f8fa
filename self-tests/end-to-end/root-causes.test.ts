import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { errorResponse } from '../../reference/handler.js'
import { isCreatePet, type Variant } from '../../variants/variant.js'
import { runCli } from '../helpers/run-cli.js'
import { API_KEY, useTargets } from '../helpers/targets.js'

const startTarget = useTargets()

const everyCreate500: Variant = {
  name: 'every-create-500',
  description: 'every POST /pets is answered 500',
  wrap: (reference) => async (request) => (isCreatePet(request) ? errorResponse(500, 'internal', 'database down') : reference(request)),
}

describe('one cause, one failure', () => {
  test('requirements that fail from the same broken answer (a 500 on every create) are pointed at it, and it is named once', async () => {
    const target = await startTarget({ pets: 120, variant: everyCreate500 })
    const outcome = await runCli(['--base-url', target.baseUrl, '--profile', 'full', '--requirements', 'createPet/', '--quiet'], { PETSTORE_API_KEY: API_KEY })
    expect(outcome.code).toBe(1)
    const causes = outcome.results?.rootCauses ?? []
    expect(causes).toHaveLength(1)
    expect(causes[0]?.cause).toBe('POST /pets answered 500')
    expect(causes[0]?.requirements.length).toBeGreaterThanOrEqual(4)
    expect(outcome.stdout.match(/^Root cause: /gm)).toHaveLength(1)
    expect(outcome.stdout).toMatch(/^Root cause: POST \/pets answered 500: \d+ requirements failed from it \(createPet\//m)
    // The first requirement of the cause shows the evidence; the others point at the cause instead of repeating it.
    expect(outcome.stdout.match(/failed from the root cause: POST \/pets answered 500/g)).toHaveLength((causes[0]?.requirements.length ?? 0) - 1)
    const summary = readFileSync(join(outcome.reportDir, 'summary.md'), 'utf8')
    expect(summary).toMatch(/### Root causes \(1\)\n- POST /)
    const html = readFileSync(join(outcome.reportDir, 'report.html'), 'utf8')
    expect(html.match(/id="root-causes"/g)).toHaveLength(1)
  })

  test('a failure of its own is not a root cause', async () => {
    const target = await startTarget({ pets: 30 })
    const outcome = await runCli(['--base-url', target.baseUrl, '--requirements', 'listPets/'], { PETSTORE_API_KEY: API_KEY })
    expect(outcome.code).toBe(0)
    expect(outcome.results?.rootCauses).toEqual([])
  })
})
