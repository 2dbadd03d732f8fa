import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import type { RunResult } from '../../lib/reports/run-result.js'
import { faults } from '../../variants/faults/index.js'
import { launchChromium } from '../helpers/browser.js'
import { runCli } from '../helpers/run-cli.js'
import { API_KEY, useTargets } from '../helpers/targets.js'

const startTarget = useTargets()

/** The run at a glance: a row per operation with its latencies and status classes, and a timeline drawn in shapes and words, not colours. */
async function readTheRunAtAGlance(page: Page, results: RunResult): Promise<void> {
  const traffic = results.traffic ?? expect.fail('results.json has no traffic')
  const rows = await page.locator('#latency tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')))
  expect(rows).toEqual(
    traffic.operations.map((operation) => [
      operation.operation,
      String(operation.requests),
      String(operation.latencyMs?.p50 ?? '–'),
      String(operation.latencyMs?.p95 ?? '–'),
      String(operation.latencyMs?.max ?? '–'),
      ...Object.values(operation.byStatusClass).map(String),
    ]),
  )
  expect(rows.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(results.requestsSent)
  const timeline = page.locator('svg#timeline')
  await expect(timeline.isVisible()).resolves.toBe(true)
  const total = (key: 'tooManyRequests' | 'timeouts' | 'retried') => traffic.timeline.slices.reduce((sum, slice) => sum + slice[key], 0)
  const labels = await timeline.locator('text').allTextContents()
  expect(labels).toEqual(expect.arrayContaining([`429s (${total('tooManyRequests')})`, `timeouts (${total('timeouts')})`, `retries (${total('retried')})`]))
  const most = Math.max(...traffic.timeline.slices.map((slice) => slice.inFlight))
  expect(labels).toContain(`${most} in flight`)
  // Readable without colour: everything is drawn in the text colour, kinds told apart by shape and by name.
  const paints = await timeline.evaluate((svg) => [...svg.querySelectorAll('[fill],[stroke]')].flatMap((node) => [node.getAttribute('fill'), node.getAttribute('stroke')]))
  expect(paints.length).toBeGreaterThan(5)
  for (const paint of paints) expect([null, 'currentColor', 'none']).toContain(paint)
  await expect(page.locator('#timeline-summary').innerText()).resolves.toMatch(new RegExp(`^At most ${most} requests in flight at once; ${total('tooManyRequests')} answered 429`))
}

/** The report links the HAR file, and a page that opens it as a HAR viewer does (a file input, JSON.parse) finds one entry per request. */
async function openTheHarFile(browser: Browser, report: Page, requests: number): Promise<void> {
  const href = (await report.locator('#har-link').getAttribute('href')) ?? expect.fail('report.html links no HAR file')
  const harPath = fileURLToPath(new URL(href, report.url()))
  const viewer = await browser.newPage()
  await viewer.setContent(
    '<input type="file" id="har"><output id="read"></output><script>document.getElementById("har").addEventListener("change", async (event) => { const log = JSON.parse(await event.target.files[0].text()).log; document.getElementById("read").textContent = [log.version, log.entries.length, log.entries.every((entry) => !Number.isNaN(Date.parse(entry.startedDateTime)) && entry.request.url.startsWith("http"))].join(" ") })</script>',
  )
  await viewer.setInputFiles('#har', harPath)
  await viewer.waitForFunction('document.getElementById("read").textContent !== ""')
  await expect(viewer.locator('#read').innerText()).resolves.toBe(`1.2 ${requests} true`)
}

describe('the reports of a failing run, read as a person reads them', () => {
  test('all four reports and the HAR file are written; report.html shows the verdict, opens a failure on evidence whose curl line reproduces it, filters, shows the run at a glance and links the HAR file', async () => {
    const fault = faults.find((candidate) => candidate.name === 'create-answers-200')
    const target = await startTarget({ variant: fault })
    const outcome = await runCli(
      ['--base-url', target.baseUrl, '--profile', 'full', '--requirements', 'createPet/returns-201-pet,listPets/', '--seed', '3', '--har', 'reports/exchanges.har'],
      { PETSTORE_API_KEY: API_KEY },
    )
    expect(outcome.code).toBe(1)
    expect(readdirSync(outcome.reportDir).sort()).toEqual(['exchanges.har', 'junit.xml', 'report.html', 'results.json', 'summary.md'])
    expect(readFileSync(join(outcome.reportDir, 'summary.md'), 'utf8')).toMatch(/NON-CONFORMANT[\s\S]*`createPet\/returns-201-pet` MUST/)

    // junit.xml: a test case per check, named with its requirement id; failures carry evidence, the rest is skipped with a reason.
    const junit = readFileSync(join(outcome.reportDir, 'junit.xml'), 'utf8')
    const cases = junit.match(/<testcase /g) ?? []
    expect(cases.length).toBeGreaterThan(outcome.results?.requirements.length ?? 0)
    expect(junit).toMatch(
      /<testcase classname="createPet\/returns-201-pet" name="\[createPet\/returns-201-pet\] [^"]*">\s*<failure message="MUST: [^"]*status 200[^"]*" type="MUST">[^<]*reproduce: curl /,
    )
    expect(junit).toMatch(/<testcase classname="listPets\/limit-caps-size" name="\[listPets\/limit-caps-size\] limit=1 is answered 200/)
    expect(junit).toMatch(/<skipped message="skipped: left out by the requirement filter"\/>/)
    expect(junit).toMatch(/<skipped message="untestable: the spec says: not shown"\/>/)
    expect(junit.match(/<testcase /g)?.length).toBe((junit.match(/<\/testcase>|<testcase [^>]*><\/testcase>/g) ?? []).length)

    // The printed curl line, run as it is, shows the same deviation.
    const curl = outcome.results?.requirements.find((result) => result.id === 'createPet/returns-201-pet')?.failures[0]?.evidence[0]?.curl ?? ''
    expect(curl).toMatch(/^curl .*\$PETSTORE_API_KEY/)
    // Asynchronously: the target runs in this process and must keep answering.
    const { stdout: reproduced } = await promisify(execFile)('bash', ['-c', curl], { env: { PATH: process.env.PATH ?? '', PETSTORE_API_KEY: API_KEY }, timeout: 10_000 })
    expect(reproduced).toMatch(/^HTTP\/1\.1 200 /)

    const browser = await launchChromium()
    try {
      const page = await browser.newPage()
      const outside: string[] = []
      page.on('request', (request) => {
        if (!request.url().startsWith('file://')) outside.push(request.url())
      })
      await page.goto(`file://${join(outcome.reportDir, 'report.html')}`)
      await expect(page.locator('#verdict').innerText()).resolves.toBe('NON-CONFORMANT')

      const failing = page.locator('tr.requirement[data-verdict="fail"]', { hasText: 'createPet/returns-201-pet' })
      await expect(failing.isVisible()).resolves.toBe(true)
      const curlLine = failing.locator('pre.curl').first()
      await expect(curlLine.isVisible()).resolves.toBe(false)
      await failing.locator('summary').click()
      await expect(curlLine.isVisible()).resolves.toBe(true)
      await expect(curlLine.innerText()).resolves.toBe(curl)
      await expect(failing.innerText()).resolves.toMatch(/has status 200, expected 201/)

      // Show failures only: every visible row is a failure, and the count says so.
      for (const verdict of ['warn', 'inconclusive', 'pass', 'info', 'skipped', 'untestable']) await page.uncheck(`input[name=verdict][value=${verdict}]`)
      const visibleVerdicts = await page.locator('tr.requirement:visible').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-verdict')))
      expect(visibleVerdicts.length).toBe(outcome.results?.summary.fail)
      expect(new Set(visibleVerdicts)).toEqual(new Set(['fail']))
      await page.check('input[name=verdict][value=untestable]')
      await page.selectOption('#area', 'scope')
      const scopeRows = await page.locator('tr.requirement:visible').count()
      expect(scopeRows).toBe(outcome.results?.requirements.filter((result) => result.area === 'scope').length)
      await expect(page.locator('#visible').innerText()).resolves.toBe(`${scopeRows} of ${outcome.results?.requirements.length} requirements shown`)
      expect(outside).toEqual([])

      // Failures first, each with an anchor that opens it, quoting whose words it judges.
      const anchored = await browser.newPage()
      await anchored.goto(`file://${join(outcome.reportDir, 'report.html')}#createPet/returns-201-pet`)
      await expect(anchored.locator('tr.requirement').first().getAttribute('data-verdict')).resolves.toBe('fail')
      const opened = anchored.locator('tr[id="createPet/returns-201-pet"]')
      await expect(opened.locator('pre.curl').first().isVisible()).resolves.toBe(true)
      await expect(opened.innerText()).resolves.toMatch(/The spec says \(Endpoints › Add an animal\):/)
      const policyRow = anchored.locator('tr[id="listPets/limit-out-of-range"]')
      await policyRow.locator('summary').click()
      await expect(policyRow.innerText()).resolves.toMatch(/The conformance policy says \(CONFORMANCE-POLICY §2\):[\s\S]*How the policy settles it:/)

      await readTheRunAtAGlance(page, outcome.results ?? expect.fail('no results'))
      await openTheHarFile(browser, page, outcome.results?.requestsSent ?? 0)
    } finally {
      await browser.close()
    }
  })
})
