/**
 * --dry-run: the plan of a run, with nothing sent to the target. The same run is made against the
 * embedded reference (an empty store for `full`, so seeding shows at its largest; 150 pets
 * for `smoke`, so the read-only checks have data), and its requests are counted by operation.
 */
import { randomBytes } from 'node:crypto'
import { counted } from '../judging/headline.js'
import { EXIT } from '../judging/verdicts.js'
import type { RunResult } from '../reports/run-result.js'
import type { Config } from './config.js'
import { runConfigured } from './run-conformance.js'
import type { RunIo } from './run-session.js'
import type { ConformanceSuite } from './suite.js'

const silent: RunIo = { out: () => {}, err: () => {} }

/** The operation a request path below /v1 stands for; other spellings are the auth probes. */
function operationOf(method: string, path: string): string {
  if (path === '/v1/pets') return `${method} /pets`
  if (method === 'GET' && /^\/v1\/pets\/[^/]+$/.test(path)) return 'GET /pets/{id}'
  return 'probes of other spellings of the paths'
}

export async function planRun(config: Config, suite: ConformanceSuite, io: RunIo): Promise<number> {
  const apiKey = `dry-run-${randomBytes(12).toString('hex')}`
  const reference = await suite.startReference({ apiKey, pets: config.profile === 'smoke' ? 150 : 0, keepRequests: true })
  let result: RunResult | undefined
  try {
    // Counted at full speed, with no HAR file: the rate limit and the HAR are for the real run.
    const counting = {
      ...config,
      baseUrl: reference.baseUrl,
      apiKey,
      dryRun: false,
      quiet: true,
      baseline: undefined,
      failOn: 'any' as const,
      rateLimit: undefined,
      har: undefined,
    }
    const outcome = await runConfigured(counting, suite, silent, { writeReports: false })
    result = outcome.result
  } finally {
    await reference.close()
  }
  // Edited requests that HTTP refuses as written never reach the reference's log: the run counted what it sent.
  const sent = Math.max(result?.requestsSent ?? 0, reference.requests.length)
  const counts = new Map<string, number>()
  for (const request of reference.requests) {
    const operation = operationOf(request.method, request.url.split('?')[0] ?? '')
    counts.set(operation, (counts.get(operation) ?? 0) + 1)
  }
  const posts = counts.get('POST /pets') ?? 0
  const target = config.baseUrl ?? 'the embedded reference'
  io.out(`Dry run: nothing is sent to ${target}.`)
  io.out(
    `Plan of a ${config.profile} run (${config.profileReason}), seed ${config.seed}${config.requirements.length ? `, requirements ${config.requirements.join(',')}` : ''}: counted against the embedded reference holding ${config.profile !== 'smoke' ? 'no pets (seeding at its largest; a store that already holds 101 pets needs up to 101 fewer creates)' : '150 pets'}.`,
  )
  for (const [operation, count] of [...counts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) io.out(`  ${operation.padEnd(40)} ${counted(count, 'request')}`)
  if (sent > reference.requests.length) io.out(`  ${'edits HTTP refuses before a service'.padEnd(40)} ${counted(sent - reference.requests.length, 'request')}`)
  io.out(`  ${'total'.padEnd(40)} ${counted(sent, 'request')}`)
  const edits = result?.neighbourhood
  if (edits)
    io.out(`Edits: ${counted(edits.sent, 'request')} of the total edit the plain ones one part at a time (docs/neighbourhood.md); --max-edits or --edit-operators send fewer.`)
  if (config.rateLimit !== undefined) {
    const seconds = (Math.ceil(sent / config.rateLimit) - 1) * 1.1
    io.out(`Rate:  at --rate-limit ${config.rateLimit}, at least ${seconds.toFixed(1)} s (retries on top).`)
  }
  io.out(posts > 0 ? `POST: yes, ${counted(posts, 'POST')}: this run CREATES pets on the target.` : 'POST: none: this run sends no POST.')
  return EXIT.conformant
}
