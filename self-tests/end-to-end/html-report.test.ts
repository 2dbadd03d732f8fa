import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, test } from 'vitest'
import { faults } from '../../variants/faults/index.js'
import { launchChromium } from '../helpers/browser.js'
import { runCli } from '../helpers/run-cli.js'
import { API_KEY, useTargets } from '../helpers/targets.js'

const startTarget = useTargets()

describe('the reports of a failing run, read as a person reads them', () => {
  test('all four reports are written; report.html shows the verdict, opens a failure on evidence whose curl line reproduces it, and filters', async () => {
    const fault = faults.find((candidate) => candidate.name === 'create-answers-200')
    const target = await startTarget({ variant: fault })
    const outcome = await runCli(['--base-url', target.baseUrl, '--profile', 'full', '--requirements', 'createPet/returns-201-pet,listPets/', '--seed', '3'], {
      PETSTORE_API_KEY: API_KEY,
    })
    expect(outcome.code).toBe(1)
    expect(readdirSync(outcome.reportDir).sort()).toEqual(['junit.xml', 'report.html', 'results.json', 'summary.md'])
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
    } finally {
      await browser.close()
    }
  })
})
