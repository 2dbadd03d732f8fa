/**
 * One exchange, one reading: where the policy allows several answers to one request (400 or 404 for an id at
 * the edges of int64), every requirement that judges that exchange allows the same ones, and each fails only
 * for what its own rule says. The HAR file names, for every exchange, the requirements that read it: each of
 * those must hold on an answer the policy allows.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { lookAlikes } from '../../variants/look-alikes.js'
import { runCli } from '../helpers/run-cli.js'
import { API_KEY, useTargets } from '../helpers/targets.js'

const startTarget = useTargets()
const topIds400 = lookAlikes.find((lookAlike) => lookAlike.name === 'top-int64-ids-400')

interface HarEntry {
  request: { url: string }
  response: { status: number }
  _requirements: string[]
}

describe('one exchange, one reading', () => {
  test('GET /pets/9223372036854775807 answered 400 with a valid Error body: every requirement that reads that exchange holds', async () => {
    const target = await startTarget({ pets: 30, variant: topIds400 })
    const outcome = await runCli(['--base-url', target.baseUrl, '--profile', 'full', '--har', 'exchanges.har'], { PETSTORE_API_KEY: API_KEY })
    const har = JSON.parse(readFileSync(join(outcome.reportDir, '..', 'exchanges.har'), 'utf8')) as { log: { entries: HarEntry[] } }
    const edge = har.log.entries.filter((entry) => entry.request.url.endsWith('/pets/9223372036854775807') && entry.response.status === 400)
    expect(edge.length).toBeGreaterThan(0)
    const readers = new Set(edge.flatMap((entry) => entry._requirements))
    // The exchange is read by the edge-id rule and by the rules of every answer, at least.
    expect([...readers]).toEqual(expect.arrayContaining(['getPet/int64-edge-ids', 'errors/body-schema', 'errors/status-matches-http']))
    const verdicts = Object.fromEntries(outcome.results?.requirements.map((requirement) => [requirement.id, requirement.verdict]) ?? [])
    const disagreeing = [...readers].filter((id) => verdicts[id] === 'fail' || verdicts[id] === 'warn')
    expect(disagreeing, outcome.stdout).toEqual([])
    expect(outcome.code, outcome.stdout).toBe(0)
  })
})
