/**
 * What a run promises holds for every request it sends (README, policy §5), seen from a gateway in front of the
 * target as a vendor's logs see it: every request carries a W3C traceparent with the run's trace id and a span of its
 * own, edited requests included; and the HAR file holds one entry per request the gateway saw, plus one per request
 * its parser refused, each with its span.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { PetStore } from '../../reference/pet-store.js'
import type { RunningServer } from '../../reference/server.js'
import { startVariant } from '../../variants/variant.js'
import { type LoggingGateway, startLoggingGateway } from '../helpers/logging-gateway.js'
import { runCli } from '../helpers/run-cli.js'

const KEY = 'trace-and-har-key-5e1f0c'
const running: Array<RunningServer | LoggingGateway> = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()))
})

interface HarEntry {
  request: { method: string; url: string; headers: Array<{ name: string; value: string }> }
}

describe('every request the run sends, as the target’s logs see it', () => {
  test('a full run behind a logging gateway: a traceparent on every request, edited ones included, and one HAR entry per request sent', { timeout: 120_000 }, async () => {
    const target = await startVariant(undefined, { apiKey: KEY, store: new PetStore() })
    const gateway = await startLoggingGateway(target.baseUrl)
    running.push(gateway, target)
    const outcome = await runCli(
      ['--base-url', gateway.baseUrl, '--profile', 'full', '--seed', '11', '--har', 'exchanges.har', '--header', 'X-Tenant: acme'],
      { PETSTORE_API_KEY: KEY },
      { commandDefaults: true },
    )
    expect(outcome.code, outcome.stdout).toBe(0)
    const traceId = outcome.results?.trace?.traceId
    expect(traceId).toMatch(/^[0-9a-f]{32}$/)
    // Every request that reached the gateway, the edited ones among them, carries the run's trace and a span of its own.
    expect(gateway.seen.length).toBeGreaterThan(500)
    expect(outcome.results?.neighbourhood?.sent).toBeGreaterThanOrEqual(20)
    const untraced = gateway.seen.filter((line) => !new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`).test(line.traceparent ?? '') || line.traceparent?.includes('-0000000000000000-'))
    expect(untraced.slice(0, 5), `${untraced.length} requests without the run's traceparent`).toEqual([])
    const spans = gateway.seen.map((line) => line.traceparent)
    expect(new Set(spans).size).toBe(spans.length)
    // One HAR entry per request the gateway saw, and per request it refused, each with its span.
    const har = JSON.parse(readFileSync(join(outcome.reportDir, '..', 'exchanges.har'), 'utf8')) as { log: { entries: HarEntry[] } }
    expect(har.log.entries.length).toBe(gateway.seen.length + gateway.refused)
    const harSpans = new Set(har.log.entries.map((entry) => entry.request.headers.find((header) => header.name.toLowerCase() === 'traceparent')?.value))
    for (const span of spans) expect(harSpans.has(span), `the HAR file has no entry for ${span}`).toBe(true)
  })
})
