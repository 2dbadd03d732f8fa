/**
 * A fleet: many targets judged by one run, or by shards on many machines and one merge. Six local targets (the
 * reference, three faults, a conformant look-alike, and one nobody answers) give the same fleet report both ways.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { mergeFleetReports, runFleetConformance } from '../../entry-points/index.js'
import { petstoreSuite } from '../../entry-points/suite.js'
import { runCommandWithFleet } from '../../lib/fleet/fleet-command.js'
import { parseFleet, parseShard, shardOf } from '../../lib/fleet/fleet-file.js'
import type { FleetReport } from '../../lib/fleet/fleet-report.js'
import { targetSeed } from '../../lib/fleet/fleet-run.js'
import { parseJson } from '../../lib/http/json.js'
import { schemaViolations } from '../../lib/spec/schemas.js'
import { faults } from '../../variants/faults/index.js'
import { lookAlikes } from '../../variants/look-alikes.js'
import type { Variant } from '../../variants/variant.js'
import { launchChromium } from '../helpers/browser.js'
import { API_KEY, startTarget, type Target, UNREACHABLE_BASE_URL } from '../helpers/targets.js'

const variant = (name: string): Variant => {
  const found = [...faults, ...lookAlikes].find((candidate) => candidate.name === name)
  if (!found) throw new Error(`no variant ${name}`)
  return found
}
const FLEET = [
  { name: 'eu-reference' },
  { name: 'us-limit-off-by-one', variant: variant('limit-off-by-one') },
  { name: 'us-name-trimmed', variant: variant('name-trimmed') },
  { name: 'ap-key-in-x-api-key', variant: variant('key-accepted-in-x-api-key') },
  { name: 'ap-gzip', variant: variant('gzip-encoded-answers') },
]

function fleetFile(folder: string, targets: readonly Target[]): string {
  const lines = ['defaults:', '  profile: full', '  numRuns: 3', '  sequences: 1', '  maxEdits: 40', 'targets:']
  for (const [index, entry] of FLEET.entries()) lines.push(`  - name: ${entry.name}`, `    baseUrl: ${targets[index]?.baseUrl}`, '    apiKeyEnv: FLEET_KEY')
  lines.push('  - name: eu-unreachable', `    baseUrl: ${UNREACHABLE_BASE_URL}`, '    apiKeyEnv: FLEET_KEY', '    profile: smoke')
  const file = join(folder, 'fleet.yaml')
  writeFileSync(file, `${lines.join('\n')}\n`)
  return file
}

async function command(argv: string[], cwd: string): Promise<{ code: number; out: string }> {
  const lines: string[] = []
  const code = await runCommandWithFleet(petstoreSuite, { argv, env: { FLEET_KEY: API_KEY }, cwd }, { out: (line) => lines.push(line), err: (line) => lines.push(line) })
  return { code, out: lines.join('\n') }
}

/** The report with each target's base URL left out: the two ways judge the same targets served on other ports. */
function withoutPorts(report: FleetReport): unknown {
  return { ...report, targets: report.targets.map(({ baseUrl: _port, ...target }) => target) }
}

/** fleet.json of a folder, held to schemas/fleet.schema.json. */
function readFleet(folder: string): FleetReport {
  const text = readFileSync(join(folder, 'fleet.json'), 'utf8')
  const parsed = parseJson(text)
  expect(parsed.ok && schemaViolations('Fleet', parsed.value), folder).toEqual([])
  return JSON.parse(text)
}

/** fleet.html read in a real browser: the verdicts, drift first and marked, the filter, and links into each target's own report. */
async function readFleetHtml(folder: string, report: FleetReport): Promise<void> {
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    await page.goto(`file://${join(folder, 'fleet.html')}`)
    await expect(page.locator('#fleet-verdict').innerText()).resolves.toBe(`A fleet of 6: exit 3 (no verdict)`)
    const targets = await page
      .locator('#targets tbody tr')
      .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].slice(0, 3).map((cell) => cell.textContent?.trim())))
    expect(targets.map(([name, , exit]) => [name, Number(exit)])).toEqual(report.targets.map((target) => [target.name, target.exitCode]))
    // Every link is to a file of the fleet's own folder that exists: each target's report.html and results.json.
    const links = await page.locator('a').evaluateAll((anchors) => anchors.map((anchor) => (anchor as unknown as { href: string }).href))
    expect(links.length).toBeGreaterThan(report.targets.length * report.requirements.length)
    for (const link of new Set(links.map((href) => href.replace(/#.*$/, '')))) expect(existsSync(fileURLToPath(link)), link).toBe(true)
    // Drift first, and a drifting cell says so in words, not colour alone.
    const drifting = report.requirements.filter((row) => row.drift.length > 0)
    const rows = page.locator('#matrix tbody tr')
    await expect(rows.first().getAttribute('data-drift')).resolves.not.toBe('0')
    const limit = page.locator('#matrix tbody tr', { has: page.locator('code', { hasText: /^listPets\/limit-max-100$/ }) })
    await expect(limit.locator('td[data-target="us-limit-off-by-one"]').innerText()).resolves.toMatch(/^≠ fail$/)
    await expect(limit.locator('td[data-target="eu-reference"]').innerText()).resolves.toBe('pass')
    await page.locator('#drift-only').check()
    await expect(page.locator('#visible').innerText()).resolves.toBe(`${drifting.length} of ${report.requirements.length} requirements shown`)
    await expect(rows.filter({ visible: true }).count()).resolves.toBe(drifting.length)
    // A verdict opens that requirement in the target's own report.
    await limit.locator('td[data-target="us-limit-off-by-one"] a').click()
    await page.waitForURL(/us-limit-off-by-one\/report\.html#listPets%2Flimit-max-100$/)
    await expect(page.locator('tr[id="listPets/limit-max-100"] details').getAttribute('open')).resolves.toBe('')
  } finally {
    await browser.close()
  }
}

describe('a fleet file', () => {
  test('names each target once, with the variable that holds its key, never the key; defaults apply under each target', () => {
    const targets = parseFleet(
      'defaults:\n  profile: full\ntargets:\n  - name: a\n    baseUrl: http://127.0.0.1:1/v1\n    apiKeyEnv: KEY_A\n    profile: smoke\n  - name: b\n    baseUrl: http://127.0.0.1:2/v1\n    apiKeyEnv: KEY_B\n',
      'f.yaml',
    )
    expect(targets.map((target) => [target.name, target.settings.profile])).toEqual([
      ['a', 'smoke'],
      ['b', 'full'],
    ])
    const refused = () =>
      parseFleet('targets:\n  - name: a\n    baseUrl: nope\n    apiKey: s3cr3t-key\n  - name: A\n    baseUrl: http://h/v1\n    apiKeyEnv: K\n    colour: red\n', 'f.yaml')
    expect(refused).toThrow(
      /baseUrl must be a URL[\s\S]*apiKeyEnv must name[\s\S]*apiKey is not read from a fleet file[\s\S]*the name A is used twice[\s\S]*colour is not a setting/,
    )
    // The key written in the file by mistake is not repeated in the message.
    expect(refused).not.toThrow(/s3cr3t/)
  })

  test('shards: each target in exactly one of n slices, slices within one of each other in size, and k/n read strictly', () => {
    const targets = Array.from({ length: 20 }, (_, index) => index)
    for (const count of [1, 3, 7, 20, 25]) {
      const slices = Array.from({ length: count }, (_, index) => shardOf(targets, { index: index + 1, count }))
      expect(slices.flat().sort((a, b) => a - b)).toEqual(targets)
      const sizes = slices.map((slice) => slice.length)
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1)
    }
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 })
    for (const bad of ['0/3', '4/3', '1/0', 'a/b', '1']) expect(() => parseShard(bad)).toThrow(/expected k\/n/)
  })

  test('each target gets a seed of its own from the fleet seed, the same in every shard', () => {
    expect(targetSeed(7, 'eu')).toBe(targetSeed(7, 'eu'))
    expect(targetSeed(7, 'eu')).not.toBe(targetSeed(7, 'us'))
    expect(targetSeed(7, 'eu')).not.toBe(targetSeed(8, 'eu'))
  })
})

/**
 * Ten whole runs in child processes: 29 s on a quiet machine, over a minute beside a score and npm test's other
 * workers. A bound on a stall, not on speed: each run's own deadline and watchdog bound the runs.
 */
const TEN_RUNS_TIMEOUT_MS = 180_000

describe('six targets, one run or three shards and a merge', { timeout: TEN_RUNS_TIMEOUT_MS }, () => {
  test('give the same fleet report: every verdict, the worst exit code, the unreachable target as 3 and not a crash', async () => {
    const serve = () => Promise.all(FLEET.map((entry) => startTarget({ pets: 110, ...(entry.variant ? { variant: entry.variant } : {}) })))
    const oneRunTargets = await serve()
    const shardTargets = await serve()
    try {
      const oneRun = mkdtempSync(join(tmpdir(), 'petstore-fleet-'))
      const whole = await command(['--targets', fleetFile(oneRun, oneRunTargets), '--seed', '7', '--report-dir', join(oneRun, 'reports')], oneRun)
      expect(whole.code, whole.out).toBe(3)

      const sharded = mkdtempSync(join(tmpdir(), 'petstore-shards-'))
      const file = fleetFile(sharded, shardTargets)
      const shards = await Promise.all(
        ['1/3', '2/3', '3/3'].map((shard, index) => command(['--targets', file, '--shard', shard, '--seed', '7', '--report-dir', join(sharded, `shard-${index + 1}`)], sharded)),
      )
      expect(shards.map((shard) => readFleet(join(sharded, `shard-${shards.indexOf(shard) + 1}`)).targets.length)).toEqual([2, 2, 2])
      const merged = await command(['merge', 'shard-1', 'shard-2', 'shard-3', '--report-dir', 'merged'], sharded)
      expect(merged.code, merged.out).toBe(3)

      const fromOneRun = readFleet(join(oneRun, 'reports'))
      const fromShards = readFleet(join(sharded, 'merged'))
      expect(withoutPorts(fromShards)).toEqual(withoutPorts(fromOneRun))
      expect(Object.fromEntries(fromOneRun.targets.map((target) => [target.name, target.exitCode]))).toEqual({
        'ap-gzip': 0,
        'ap-key-in-x-api-key': 1,
        'eu-reference': 0,
        'eu-unreachable': 3,
        'us-limit-off-by-one': 1,
        'us-name-trimmed': 1,
      })
      expect(fromOneRun.targets.find((target) => target.name === 'eu-unreachable')?.stopReason).toMatch(/unreachable/)
      // Drift: the requirement a fault breaks differs from the majority on that target alone, and comes first.
      const limit = fromOneRun.requirements.find((row) => row.id === 'listPets/limit-max-100')
      expect(limit?.drift).toContain('us-limit-off-by-one')
      expect(fromOneRun.requirements[0]?.drift.length).toBeGreaterThan(0)
      await readFleetHtml(join(sharded, 'merged'), fromShards)
      const markdown = readFileSync(join(sharded, 'merged', 'fleet.md'), 'utf8')
      expect(markdown).toMatch(/^## Pet Store conformance: a fleet of 6 \(exit 3\)/)
      expect(markdown).toContain('[report](us-limit-off-by-one/report.html)')
      // Each target's own reports are in the merged folder, as a fleet run leaves them.
      expect(JSON.parse(readFileSync(join(sharded, 'merged', 'eu-reference', 'results.json'), 'utf8')).headline.text).toBe('CONFORMANT')

      // A pattern the shell left alone (quoted, on Windows, in a Kubernetes command) is expanded by the merge itself.
      const globbed = await command(['merge', 'shard-*', '--report-dir', 'globbed'], sharded)
      expect(globbed.code, globbed.out).toBe(3)
      expect(readFleet(join(sharded, 'globbed'))).toEqual(fromShards)
      const nothing = await command(['merge', 'no-such-shard-*', '--report-dir', 'nothing'], sharded)
      expect(nothing.code).toBe(2)
      expect(nothing.out).toMatch(/no-such-shard-\* matches no folder/)

      // A merge never counts a target twice.
      const twice = await command(['merge', 'shard-1', 'shard-1', '--report-dir', 'twice'], sharded)
      expect(twice.code).toBe(2)
      expect(twice.out).toMatch(/is in .*shard-1.* and in .*shard-1.*: a target is counted once/)
    } finally {
      await Promise.all([...oneRunTargets, ...shardTargets].map((target) => target.close()))
    }
  })

  test('the typed API: a fleet given as values, each key read from env by the variable it names, judged as two shards and merged', async () => {
    const [reference, offByOne] = await Promise.all([startTarget({ pets: 110 }), startTarget({ pets: 110, variant: variant('limit-off-by-one') })])
    try {
      const folder = mkdtempSync(join(tmpdir(), 'petstore-fleet-api-'))
      const fleet = {
        targets: [
          { name: 'eu', baseUrl: reference?.baseUrl ?? '', apiKeyEnv: 'EU_KEY' },
          { name: 'us', baseUrl: offByOne?.baseUrl ?? '', apiKeyEnv: 'US_KEY', numRuns: 1 },
        ],
        defaults: { profile: 'full' as const, numRuns: 2, sequences: 1, requirements: ['listPets/'] },
        env: { EU_KEY: API_KEY, US_KEY: API_KEY },
        seed: 7,
      }
      const first = await runFleetConformance({ ...fleet, shard: '1/2', reportDir: join(folder, 'shard-1') })
      const second = await runFleetConformance({ ...fleet, shard: '2/2', reportDir: join(folder, 'shard-2') })
      expect([first.targets.map((target) => target.name), second.targets.map((target) => target.name)]).toEqual([['eu'], ['us']])
      const merged = await mergeFleetReports([join(folder, 'shard-1'), join(folder, 'shard-2')], join(folder, 'merged'))
      expect(readFleet(join(folder, 'merged'))).toEqual(merged)
      expect(merged.exitCode).toBe(1)
      expect(merged.requirements.find((row) => row.id === 'listPets/limit-max-100')?.drift).toEqual(['us'])
      expect(merged.baseline).toBeUndefined()
      // Against last night's fleet.json (here: this one, with us passing limit-max-100 and eu failing limit-caps-size),
      // each target's new failures and fixes are marked, in fleet.json, fleet.md and fleet.html; a target last night
      // did not have is new, not compared.
      const lastNight = structuredClone(merged)
      const row = (id: string) => lastNight.requirements.find((candidate) => candidate.id === id) ?? expect.fail(`no ${id}`)
      row('listPets/limit-max-100').verdicts.us = 'pass'
      row('listPets/limit-caps-size').verdicts.eu = 'fail'
      writeFileSync(join(folder, 'last-night.json'), JSON.stringify(lastNight))
      const compared = await mergeFleetReports([join(folder, 'shard-*')], join(folder, 'compared'), { baseline: join(folder, 'last-night.json') })
      expect(readFleet(join(folder, 'compared'))).toEqual(compared)
      expect(compared.baseline).toEqual({ file: join(folder, 'last-night.json'), newFailures: 1, fixed: 1, newTargets: [] })
      expect(compared.requirements.find((candidate) => candidate.id === 'listPets/limit-max-100')?.changes).toEqual({ us: 'new-failure' })
      expect(compared.requirements.find((candidate) => candidate.id === 'listPets/limit-caps-size')?.changes).toEqual({ eu: 'fixed' })
      expect(compared.requirements.filter((candidate) => candidate.changes).length).toBe(2)
      expect(readFileSync(join(folder, 'compared', 'fleet.md'), 'utf8')).toMatch(/\*\*1 new failures\*\*, 1 fixed[\s\S]*❌ fail \(new failure\)/)
      expect(readFileSync(join(folder, 'compared', 'fleet.html'), 'utf8')).toContain('<span class="change">fixed</span>')
      const withoutUs = { ...lastNight, targets: lastNight.targets.filter((target) => target.name !== 'us') }
      writeFileSync(join(folder, 'without-us.json'), JSON.stringify(withoutUs))
      const partly = await mergeFleetReports([join(folder, 'shard-*')], join(folder, 'partly'), { baseline: join(folder, 'without-us.json') })
      expect(partly.baseline?.newTargets).toEqual(['us'])
      expect(partly.requirements.some((candidate) => candidate.changes?.us)).toBe(false)
      // A key its variable does not hold is that target's set-up mistake (exit 2), not a crash of the fleet.
      const unkeyed = await runFleetConformance({ targets: [{ name: 'eu', baseUrl: reference?.baseUrl ?? '', apiKeyEnv: 'NOT_SET' }], reportDir: join(folder, 'unkeyed') })
      expect(unkeyed.exitCode).toBe(2)
      // A bad value in one target is that target's set-up mistake, named by the fleet file's own key, never by a flag.
      const lines: string[] = []
      const badValue = await runFleetConformance({
        targets: [{ name: 'eu', baseUrl: reference?.baseUrl ?? '', apiKeyEnv: 'FLEET_KEY', timeoutMs: 0 }],
        reportDir: join(folder, 'bad-value'),
        env: { FLEET_KEY: API_KEY },
        onLine: (line) => lines.push(line),
      })
      expect(badValue.exitCode).toBe(2)
      expect(lines.join('\n')).toMatch(/eu: invalid configuration:\n {2}- timeoutMs must be from 1 to 600000, got 0/)
      expect(lines.join('\n')).not.toMatch(/--timeout-ms/)
      expect(lines[0]).toMatch(/^Fleet: 1 of 1 target, /)
      // A fleet with problems is refused whole, each problem named.
      await expect(runFleetConformance({ targets: [{ name: 'a b', baseUrl: 'nope', apiKeyEnv: 'K' }], reportDir: join(folder, 'refused') })).rejects.toThrow(
        /name must be[\s\S]*baseUrl must be a URL/,
      )
      // Numbers out of range are refused, as set-up mistakes, before any target is judged (no targets at once would wait forever).
      const oneTarget = [{ name: 'eu', baseUrl: reference?.baseUrl ?? '', apiKeyEnv: 'FLEET_KEY' }]
      await expect(runFleetConformance({ targets: oneTarget, targetsInFlight: 0, seed: -1, reportDir: join(folder, 'no-flight') })).rejects.toThrow(
        /seed -1: expected a whole number from 0 to 2147483647[\s\S]*targetsInFlight 0: expected a whole number from 1 to 64/,
      )
      // The command says the same under its flags, with exit 2.
      const refused = await command(['--targets', 'fleet.yaml', '--targets-in-flight', '0'], folder)
      expect(refused.code).toBe(2)
      expect(refused.out).toMatch(/--targets-in-flight 0: expected a whole number from 1 to 64/)
    } finally {
      await Promise.all([reference?.close(), offByOne?.close()])
    }
  })

  test('a merge refuses the runs of another suite version, with a message that says so', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-fleet-old-'))
    const old = join(folder, 'old')
    mkdirSync(join(old, 'eu'), { recursive: true })
    writeFileSync(
      join(old, 'fleet.json'),
      JSON.stringify({
        formatVersion: 1,
        tool: { name: 'petstore-conformance', version: '0.0.1' },
        specVersion: '1.0.0',
        exitCode: 0,
        targets: [{ name: 'eu' }],
        requirements: [],
      }),
    )
    const merged = await command(['merge', 'old', '--report-dir', 'out'], folder)
    expect(merged.code).toBe(2)
    expect(merged.out).toMatch(/was judged by petstore-conformance 0\.0\.1; this is .*: run every shard with one version/)
  })
})
