import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { isRequirementId, requirements } from '../lib/catalogue.js'
import { packageRoot } from '../lib/package-root.js'

function suiteFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? suiteFiles(join(dir, entry.name)) : entry.name.endsWith('.test.ts') ? [join(dir, entry.name)] : [],
  )
}

/** Every `[area/slug]` a test title of suites/ names. */
const titledIds = suiteFiles(join(packageRoot, 'suites')).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/\(\s*'\[([A-Za-z0-9]+\/[a-z0-9-]+)\]/g)].map((match) => match[1] as string),
)

describe('the requirement catalogue and the suites name each other', () => {
  test('every test title names a requirement the catalogue has', () => {
    expect(titledIds.filter((id) => !isRequirementId(id))).toEqual([])
  })

  test('every testable requirement has at least one check in suites/', () => {
    const missing = requirements.filter((req) => req.testable && !titledIds.includes(req.id)).map((req) => req.id)
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
