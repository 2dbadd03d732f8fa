/**
 * The suite in the pipelines it runs in: staging behind a gateway that wants its header or a client
 * certificate, production that must not see more than N requests a second, and a vendor who looks for a
 * failing request in their own logs or opens every exchange as a HAR file.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { describe, expect, test } from 'vitest'
import { configFor, runConformance } from '../../entry-points/index.js'
import { packageVersion } from '../../lib/spec/package-root.js'
import { errorResponse } from '../../reference/handler.js'
import { faults } from '../../variants/faults/index.js'
import type { Variant } from '../../variants/variant.js'
import { mostWithin } from '../helpers/arrivals.js'
import { makeCertificates } from '../helpers/certificates.js'
import { API_KEY, useTargets } from '../helpers/targets.js'

const startTarget = useTargets()
const GATEWAY_SECRET = 'gateway-secret-5b1d7e0c9a'
const TENANT = 'tenant-acme-staging-42'

/** An access gateway in front of the reference: a request without its header is refused 403, before the service sees it. */
function gatewayRequiring(header: string, value: string): Variant {
  return {
    name: 'behind-a-gateway',
    description: `a gateway that refuses any request without ${header}`,
    wrap: (reference) => async (request) => (request.headers[header] === value ? reference(request) : errorResponse(403, 'forbidden', `the gateway wants ${header}`)),
  }
}

function reportsIn(dir: string): string[] {
  return readdirSync(dir).map((name) => readFileSync(join(dir, name), 'utf8'))
}

// ajv-formats ships CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default

/** A validator of HAR 1.2 files: the har-schema package's JSON Schemas (draft-06). */
function harValidator() {
  const harSchemas = createRequire(import.meta.url)('har-schema') as Record<string, { $id: string }>
  const ajv = new Ajv({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addMetaSchema(createRequire(import.meta.url)('ajv/dist/refs/json-schema-draft-06.json'))
  for (const schema of Object.values(harSchemas)) ajv.addSchema(schema)
  return ajv.getSchema('har.json#') ?? expect.fail('har-schema has no har.json')
}

describe('behind a gateway: extra headers and client certificates', () => {
  test('--header reaches the gateway on every request, the auth checks keep it beside what they test, and its value is in no output', async () => {
    const target = await startTarget({ variant: gatewayRequiring('x-gateway-secret', GATEWAY_SECRET) })
    const reportDir = mkdtempSync(join(tmpdir(), 'petstore-gateway-'))
    const lines: string[] = []
    const result = await runConformance({
      baseUrl: target.baseUrl,
      apiKey: API_KEY,
      requirements: ['auth/', 'listPets/limit-max-100'],
      seed: 5,
      headers: { 'X-Gateway-Secret': '${GATEWAY_SECRET}', 'X-Tenant': TENANT },
      env: { GATEWAY_SECRET },
      writeReports: true,
      reportDir,
      har: join(reportDir, 'run.har'),
      onLine: (line) => lines.push(line),
    })
    expect(result.verdict, lines.join('\n')).toBe('conformant')
    expect(target.requests.length).toBeGreaterThan(20)
    for (const request of target.requests) expect([request.headers['x-gateway-secret'], request.headers['x-tenant']]).toEqual([GATEWAY_SECRET, TENANT])
    // The auth checks send exactly what they test, with the gateway's headers kept.
    const authorizations = new Set(target.requests.map((request) => request.headers.authorization))
    expect(authorizations).toContain(undefined)
    expect(authorizations).toContain('Bearer not-the-api-key-0123456789')
    expect(authorizations).toContain(`Bearer ${API_KEY}`)
    expect(lines).toContain('Headers: X-Gateway-Secret, X-Tenant on every request (values masked in every report)')

    const outputs = [...lines, ...reportsIn(reportDir)]
    expect(outputs).toHaveLength(lines.length + 5)
    for (const text of outputs) for (const secret of [GATEWAY_SECRET, TENANT, encodeURIComponent(GATEWAY_SECRET), API_KEY]) expect(text).not.toContain(secret)
    // A value written as ${VAR} shows as written, so a curl line reads it from the same variable; a literal one is named.
    const har = readFileSync(join(reportDir, 'run.har'), 'utf8')
    expect(har).toContain('"value": "${GATEWAY_SECRET}"')
    expect(har).toContain('"value": "[value of X-Tenant]"')

    // Without the header the gateway refuses every request, and the run does not pass.
    const refused = await runConformance({ baseUrl: target.baseUrl, apiKey: API_KEY, requirements: ['listPets/limit-max-100'], seed: 5 })
    expect(refused.verdict).not.toBe('conformant')
  })

  test('mutual TLS: with --client-cert and --client-key (passphrase from the environment) the run reaches a server that requires one; without, it stops on TLS, never a verdict', async () => {
    const certificates = makeCertificates()
    const target = await startTarget({ tls: { key: certificates.key, cert: certificates.cert, clientCa: readFileSync(certificates.caFile, 'utf8') } })
    const common = { baseUrl: target.baseUrl, apiKey: API_KEY, caFile: certificates.caFile, requirements: ['listPets/limit-max-100'], seed: 5 }
    const lines: string[] = []
    const withCertificate = await runConformance({
      ...common,
      clientCert: certificates.clientCertFile,
      clientKey: certificates.encryptedClientKeyFile,
      env: { PETSTORE_CLIENT_KEY_PASSPHRASE: certificates.clientKeyPassphrase },
      onLine: (line) => lines.push(line),
    })
    expect(withCertificate.verdict, lines.join('\n')).toBe('conformant')
    for (const line of lines) expect(line).not.toContain(certificates.clientKeyPassphrase)

    const without = await runConformance(common)
    expect(without.exitCode).toBe(3)
    expect(without.stopReason).toMatch(/^target unreachable: .*TLS/)
    const wrongPassphrase = () => configFor({ ...common, clientCert: certificates.clientCertFile, clientKey: certificates.encryptedClientKeyFile, clientKeyPassphrase: 'not-it' })
    expect(wrongPassphrase).toThrow(/clientCert \/ clientKey: the certificate and key do not load .*check PETSTORE_CLIENT_KEY_PASSPHRASE/)
    expect(() => configFor({ ...common, clientCert: certificates.clientCertFile })).toThrow(/clientCert and clientKey go together/)
  })
})

describe('polite to production: --rate-limit', () => {
  test('no more than N requests start in any second, retries included, and the server receives exactly those', async () => {
    let answered = 0
    // One request in four is refused 429 with Retry-After: 0, so retries go out at once unless the limit holds them.
    const target = await startTarget({
      variant: {
        name: 'refuses-one-in-four',
        description: 'answers 429 with Retry-After: 0 to every fourth request',
        wrap: (reference) => async (request) => (++answered % 4 === 0 ? errorResponse(429, 'rate_limited', 'slow down', { 'retry-after': '0' }) : reference(request)),
      },
    })
    const rateLimit = 40
    const harFile = join(mkdtempSync(join(tmpdir(), 'petstore-rate-')), 'exchanges.har')
    const result = await runConformance({ baseUrl: target.baseUrl, apiKey: API_KEY, requirements: ['listPets/limit-caps-size'], seed: 5, rateLimit, numRuns: 1, har: harFile })
    expect(result.exitCode).toBeLessThan(2)
    const arrivals = target.requests.map((request) => request.at)
    expect(arrivals.length, String(arrivals.length)).toBeGreaterThan(2 * rateLimit)
    const retried = result.traffic?.timeline.slices.reduce((sum, slice) => sum + slice.retried, 0) ?? 0
    expect(retried).toBeGreaterThan(5)
    // The HAR file holds every attempt the server received, the retried ones marked.
    const entries = JSON.parse(readFileSync(harFile, 'utf8')).log.entries as Array<{ startedDateTime: string; _retried?: boolean; response: { status: number } }>
    expect(entries).toHaveLength(arrivals.length)
    expect(entries.filter((entry) => entry._retried).length).toBe(retried)
    expect(entries.filter((entry) => entry.response.status === 429).length).toBe(Math.floor(answered / 4))
    // Never more than N starts within a second, on the run's own clock: a start is stamped in the same turn the limit
    // lets it go. (Arrival times at this in-process server would also show the pauses of a busy machine, not the limit.)
    const starts = entries.map((entry) => Date.parse(entry.startedDateTime)).sort((a, b) => a - b)
    expect(mostWithin(starts, 1000)).toBeLessThanOrEqual(rateLimit)
    // And it did hold them: N every 1.1 s, the first N at once.
    const spanMs = (starts.at(-1) ?? 0) - (starts[0] ?? 0)
    expect(spanMs).toBeGreaterThanOrEqual(Math.floor((starts.length - 1) / rateLimit) * 1100 - 10)
  })

  test('when a rate-limited run stops, it ends at its deadline: nothing left in line waits for its second', async () => {
    const target = await startTarget()
    // At 2 requests a second the run's 600-odd requests would take five minutes (far past this test's own timeout);
    // its deadline stops it after 1.5 s, and what was still in line is dropped, never sent.
    const result = await runConformance({ baseUrl: target.baseUrl, apiKey: API_KEY, profile: 'full', seed: 5, rateLimit: 2, deadlineMs: 1_500 })
    expect(result.exitCode).toBe(3)
    expect(result.harnessErrors).toEqual([expect.stringMatching(/^the run deadline of 1500 ms passed/)])
    expect(target.requests.length).toBeLessThanOrEqual(4)
    expect(result.requestsSent).toBe(target.requests.length)
  })
})

describe('a failing request, found in the vendor logs', () => {
  test('every request carries the run trace id and its own span id, and the run in User-Agent; a failure names its span in the console, results.json, junit.xml, report.html and the HAR file', async () => {
    const target = await startTarget({ variant: faults.find((fault) => fault.name === 'limit-off-by-one'), pets: 30 })
    const reportDir = mkdtempSync(join(tmpdir(), 'petstore-trace-'))
    const lines: string[] = []
    const harFile = join(reportDir, 'exchanges.har')
    const result = await runConformance({
      baseUrl: target.baseUrl,
      apiKey: API_KEY,
      requirements: ['listPets/limit-caps-size', 'listPets/limit-default-20'],
      seed: 5,
      numRuns: 2,
      writeReports: true,
      reportDir,
      har: harFile,
      onLine: (line) => lines.push(line),
    })
    expect(result.verdict).toBe('non-conformant')
    const traceId = result.trace?.traceId ?? expect.fail('no trace id')
    expect(traceId).toMatch(/^[0-9a-f]{32}$/)
    const spans = target.requests.map((request) => new RegExp(`^00-${traceId}-([0-9a-f]{16})-01$`).exec(request.headers.traceparent ?? '')?.[1])
    expect(spans).not.toContain(undefined)
    expect(new Set(spans).size).toBe(target.requests.length)
    for (const request of target.requests) expect(request.headers['user-agent']).toBe(`petstore-conformance/${packageVersion} run/${result.trace?.runId}`)

    const failure = result.requirements.find((requirement) => requirement.id === 'listPets/limit-caps-size')?.failures[0]
    const spanId = failure?.evidence[0]?.trace?.spanId ?? expect.fail('the failure names no span')
    expect(spans).toContain(spanId)
    expect(lines.join('\n')).toContain(`in your logs: trace ${traceId}, span ${spanId}`)
    const reports = Object.fromEntries(readdirSync(reportDir).map((name) => [name, readFileSync(join(reportDir, name), 'utf8')]))
    for (const name of ['results.json', 'junit.xml', 'report.html']) expect(reports[name], name).toContain(spanId)
    for (const name of ['results.json', 'junit.xml', 'report.html']) expect(reports[name], name).toContain(traceId)

    // The HAR file: valid HAR 1.2, one entry per request the server logged, each tagged with the requirements that judged it.
    const har = JSON.parse(reports['exchanges.har'] ?? '{}')
    const validate = harValidator()
    expect(validate(har), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true)
    const entries = har.log.entries as Array<{ _spanId: string; _requirements: string[]; request: { url: string } }>
    expect(entries).toHaveLength(target.requests.length)
    expect(new Set(entries.map((entry) => entry._spanId))).toEqual(new Set(spans))
    expect(entries.find((entry) => entry._spanId === spanId)?._requirements).toContain('listPets/limit-caps-size')
    expect(entries.filter((entry) => entry._requirements.includes('responses/json-content-type')).length).toBeGreaterThan(5)
    expect(reports['exchanges.har']).not.toContain(API_KEY)

    // Off for a target that refuses headers it does not know: no traceparent, the run still named in User-Agent.
    const plain = await startTarget()
    const untraced = await runConformance({ baseUrl: plain.baseUrl, apiKey: API_KEY, requirements: ['listPets/limit-max-100'], seed: 5, omitTraceparent: true })
    expect(untraced.trace?.traceId).toBeUndefined()
    expect(plain.requests.filter((request) => request.headers.traceparent !== undefined)).toEqual([])
    expect(new Set(plain.requests.map((request) => request.headers['user-agent']))).toEqual(new Set([`petstore-conformance/${packageVersion} run/${untraced.trace?.runId}`]))
  })
})
