import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, test } from 'vitest'
import { requirementIdOfTitle } from '../lib/checks/check-result.js'
import { isRequirementId, requirements } from '../lib/spec/catalogue.js'
import { packageRoot } from '../lib/spec/package-root.js'
import { registeredChecks } from '../suites/index.js'

const suitesDir = join(packageRoot, 'suites')

function checkFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? checkFiles(join(dir, entry.name)) : entry.name.endsWith('.checks.ts') ? [join(dir, entry.name)] : [],
  )
}

const checks = registeredChecks()
const titledIds = checks.map((check) => requirementIdOfTitle(check.title))

describe('the requirement catalogue and the suites name each other', () => {
  test('every suite file of suites/ is loaded by suites/index.ts, so none of its checks is silently left out', () => {
    const index = readFileSync(join(suitesDir, 'index.ts'), 'utf8')
    const missing = checkFiles(suitesDir)
      .map((file) => `./${relative(suitesDir, file).replace(/\.ts$/, '.js')}`)
      .filter((path) => !index.includes(`import '${path}'`))
    expect(missing).toEqual([])
    expect(checks.length).toBeGreaterThan(100)
  })

  test('every check title is unique: vitest -t, the vitest entry and the reports name a check by its title', () => {
    const titles = checks.map((check) => check.title)
    expect(titles.filter((title, index) => titles.indexOf(title) !== index)).toEqual([])
  })

  test('every check title starts with [id] of a requirement the catalogue has', () => {
    expect(checks.filter((check) => !isRequirementId(requirementIdOfTitle(check.title) ?? '')).map((check) => check.title)).toEqual([])
  })

  test('no two checks share a title, so every line of a report points at one check', () => {
    const titles = checks.map((check) => check.title)
    expect(titles.filter((title, index) => titles.indexOf(title) !== index)).toEqual([])
  })

  test('every testable requirement has at least one check in suites/, but those the run reports from what all checks saw', () => {
    const missing = requirements.filter((req) => req.testable && !req.reportedByRun && !titledIds.includes(req.id)).map((req) => req.id)
    expect(missing).toEqual([])
  })

  test('every requirement quotes its spec text and says where it stands', () => {
    for (const req of requirements) {
      expect(req.specText.length, req.id).toBeGreaterThan(10)
      expect(req.source.length, req.id).toBeGreaterThan(3)
      expect(req.id).toMatch(/^[A-Za-z]+\/[a-z0-9-]+$/)
    }
  })
})
