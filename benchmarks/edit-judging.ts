/**
 * The CPU the suite spends on one edited request besides sending it: written (its head and body), read once, judged
 * by the oracle, and its answer held to the rules of every answer, as explore.ts does for each edit. Every edit a full
 * run plans at seed 1 for the six plain requests, judged in rounds; the median round's CPU per edit.
 */
import { incidentalResults } from '../lib/checks/incidental-checks.js'
import { editAsSent } from '../lib/neighbourhood/edit-as-sent.js'
import { expectationOf } from '../lib/neighbourhood/edit-oracle.js'
import { planEdits } from '../lib/neighbourhood/edit-plan.js'
import { loadJsonCorpus } from '../lib/neighbourhood/json-corpus.js'
import { plainRequests } from '../lib/neighbourhood/plain-requests.js'
import type { OperationExchange } from '../lib/spec/petstore-api.js'
import { median } from './child-process.js'

const KEY = 'benchmark-key-5d2e9a71'
const SPAN = 'ffffffffffffffff'
const ROUNDS = 7

export interface EditJudgingFigures {
  edits: number
  cpuPerEditMicros: number
}

export async function measureEditJudging(): Promise<EditJudgingFigures> {
  await loadJsonCorpus()
  const plains = plainRequests({
    baseUrl: 'http://127.0.0.1:8080/v1',
    apiKey: KEY,
    fields: { 'user-agent': 'petstore-conformance/bench', traceparent: `00-0123456789abcdef0123456789abcdef-${SPAN}-01` },
    list: { limit: 7, status: 'sold' },
    getId: 5n,
    create: { name: 'conformance-n7777777', categoryId: 1n, status: 'sold' },
    operations: ['listPets', 'getPet', 'createPet'],
  })
  const { edits } = planEdits(plains, { seed: 1, every: false, writes: true })
  const context = { apiKey: KEY, baseSegments: ['v1'] }
  const refused = { status: 400, headers: { 'content-type': 'application/json' }, body: '{"code":400,"message":"bad request","status":400}', bodyBytes: 48 }
  const judgeAll = () => {
    edits.forEach((edit, index) => {
      const number = index + 1
      const { plainReading, wire, reading } = editAsSent(edit, number, KEY)
      const expectation = expectationOf(plainReading, reading, edit, context)
      // The head as it went out carries the attempt's span: another text than the one read.
      const sent = wire.head.replace(SPAN, String(number).padStart(16, '0'))
      const exchange: OperationExchange = {
        id: number,
        operation: expectation.route ?? 'probe',
        request: { method: edit.model.method, url: 'http://127.0.0.1:8080/v1/pets', headers: {}, wire: sent, timeoutMs: 10_000 },
        response: refused,
        retries: [],
        durationMs: 1,
        reading,
      }
      incidentalResults(exchange, new Date('2026-01-01'), KEY)
    })
  }
  judgeAll()
  const rounds: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const before = process.cpuUsage()
    judgeAll()
    const spent = process.cpuUsage(before)
    rounds.push((spent.user + spent.system) / edits.length)
  }
  return { edits: edits.length, cpuPerEditMicros: median(rounds) }
}
