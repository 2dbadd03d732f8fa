import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { compiledProjectModules, staleSources } from './helpers/compiled-modules.js'

/** A project folder: tsconfig.json including lib/, and each file written with its modification time (seconds). */
function project(files: Record<string, number>): string {
  const root = mkdtempSync(join(tmpdir(), 'petstore-compiled-'))
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ include: ['lib', 'vitest.config.ts'] }))
  for (const [path, modifiedAt] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), '')
    utimesSync(join(root, path), modifiedAt, modifiedAt)
  }
  return root
}

const STAMP = 'dist/.compiled-for-self-tests'
const stale = (root: string) => staleSources(root, join(root, STAMP)).map((path) => path.slice(root.length + 1))

describe('the self-tests never run a compiled module older than its source', () => {
  test('a source edited after it was compiled, or never compiled, is stale; test files are run from source', () => {
    const root = project({
      'lib/kept.ts': 100,
      'dist/lib/kept.js': 200,
      'lib/edited.ts': 300,
      'dist/lib/edited.js': 200,
      'lib/new.ts': 100,
      'lib/types.d.ts': 300,
      'lib/a.test.ts': 300,
    })
    expect(stale(root).sort()).toEqual(['lib/edited.ts', 'lib/new.ts'])
  })

  test('a source touched but left as it was (a checkout) counts as compiled once a build after it is stamped', () => {
    const root = project({ 'lib/touched.ts': 300, 'dist/lib/touched.js': 200, [STAMP]: 250 })
    expect(stale(root)).toEqual(['lib/touched.ts'])
    utimesSync(join(root, STAMP), 400, 400)
    expect(stale(root)).toEqual([])
  })

  test('an import of a project source resolves to its compiled file; other imports, and a source since deleted, are left to vite', () => {
    const root = project({ 'lib/a.ts': 100, 'dist/lib/a.js': 200, 'dist/lib/gone.js': 200, 'node_modules/x/y.js': 100 })
    const { resolveId } = compiledProjectModules(root)
    const importer = join(root, 'lib', 'b.ts')
    expect(resolveId('./a.js', importer)).toBe(join(root, 'dist', 'lib', 'a.js'))
    expect(resolveId('./gone.js', importer)).toBeNull()
    expect(resolveId('../node_modules/x/y.js', importer)).toBeNull()
    expect(resolveId('ajv', importer)).toBeNull()
    expect(resolveId('./a.js', undefined)).toBeNull()
  })
})
