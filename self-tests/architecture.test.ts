/**
 * The layout holds what docs/architecture.md says: lib/ is layered and imports only point down, no
 * module imports itself back through others, and the map of the code in the docs names every folder.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { renderInputsTable } from '../lib/spec/inputs-table.js'
import { packageRoot } from '../lib/spec/package-root.js'
import { renderRequirementsTable } from '../lib/spec/requirements-table.js'

const SOURCE_FOLDERS = ['lib', 'cli', 'entry-points', 'suites', 'reference', 'variants', 'mutation-score', 'soak', 'benchmarks', 'scripts', 'self-tests']

function sourceFiles(dir: string): string[] {
  return readdirSync(join(packageRoot, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  )
}

/** Every module of the project and the project modules it imports (relative imports, by path from the root). */
const graph = new Map<string, string[]>(
  SOURCE_FOLDERS.flatMap(sourceFiles).map((file) => {
    const text = readFileSync(join(packageRoot, file), 'utf8')
    const imported = [...text.matchAll(/(?:from\s+|import\s*\(?\s*)'(\.{1,2}\/[^']+)\.js'/g)].map((match) =>
      relative(packageRoot, resolve(packageRoot, dirname(file), `${match[1]}.ts`)),
    )
    return [file, imported]
  }),
)

/** The layer of a module: lib/<layer> for lib, else its top folder. */
function layerOf(file: string): string {
  const [top, second] = file.split('/')
  return top === 'lib' ? `lib/${second}` : (top ?? '')
}

/** What each layer may import, beside itself. Lower layers never import higher ones. */
const MAY_IMPORT: Record<string, string[]> = {
  'lib/http': [],
  'lib/spec': ['lib/http'],
  'lib/settings': ['lib/http', 'lib/spec'],
  'lib/data': ['lib/http', 'lib/spec', 'lib/settings'],
  'lib/neighbourhood': ['lib/http', 'lib/spec', 'lib/settings', 'lib/data'],
  'lib/checks': ['lib/http', 'lib/spec', 'lib/settings', 'lib/data', 'lib/neighbourhood'],
  'lib/judging': ['lib/http', 'lib/spec', 'lib/settings', 'lib/neighbourhood', 'lib/checks'],
  'lib/reports': ['lib/http', 'lib/spec', 'lib/settings', 'lib/neighbourhood', 'lib/checks', 'lib/judging'],
  'lib/run': ['lib/http', 'lib/spec', 'lib/settings', 'lib/data', 'lib/neighbourhood', 'lib/checks', 'lib/judging', 'lib/reports'],
  'lib/fleet': ['lib/http', 'lib/spec', 'lib/settings', 'lib/judging', 'lib/reports', 'lib/run'],
  suites: ['lib/http', 'lib/spec', 'lib/settings', 'lib/data', 'lib/neighbourhood', 'lib/checks'],
  reference: ['lib/http', 'lib/spec'],
  'entry-points': [
    'lib/http',
    'lib/spec',
    'lib/settings',
    'lib/data',
    'lib/neighbourhood',
    'lib/checks',
    'lib/judging',
    'lib/reports',
    'lib/run',
    'lib/fleet',
    'suites',
    'reference',
  ],
  cli: ['lib/spec', 'lib/run', 'lib/fleet', 'entry-points'],
}

describe('the layers of the code', () => {
  test('every module under lib/ is one a reader can hold in mind: 400 lines at most', () => {
    const long = [...graph.keys()]
      .filter((file) => file.startsWith('lib/'))
      .map((file) => ({ file, lines: readFileSync(join(packageRoot, file), 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > 401)
    expect(long).toEqual([])
  })

  test('every module under lib/ sits in a layer folder', () => {
    const loose = [...graph.keys()].filter((file) => file.startsWith('lib/') && file.split('/').length !== 3)
    expect(loose).toEqual([])
    const layers = new Set([...graph.keys()].filter((file) => file.startsWith('lib/')).map(layerOf))
    expect([...layers].sort()).toEqual(
      Object.keys(MAY_IMPORT)
        .filter((layer) => layer.startsWith('lib/'))
        .sort(),
    )
  })

  test('lib/ knows nothing above it: no module of lib/ imports suites/, reference/ or an entry point', () => {
    const upward = [...graph].flatMap(([file, imports]) =>
      file.startsWith('lib/') ? imports.filter((target) => !target.startsWith('lib/')).map((target) => `${file} → ${target}`) : [],
    )
    expect(upward).toEqual([])
  })

  test('the command and the typed API never load vitest: only entry-points/vitest.ts imports it, and nothing shipped imports that', () => {
    const importsVitest = (file: string) => /from 'vitest'/.test(readFileSync(join(packageRoot, file), 'utf8'))
    const shipped = [...graph.keys()].filter((file) => /^(lib|cli|entry-points|suites|reference)\//.test(file))
    expect(shipped.filter(importsVitest)).toEqual(['entry-points/vitest.ts'])
    const reached = new Set<string>()
    const visit = (file: string): void => {
      if (reached.has(file)) return
      reached.add(file)
      for (const target of graph.get(file) ?? []) visit(target)
    }
    visit('cli/main.ts')
    visit('entry-points/index.ts')
    expect([...reached].filter((file) => file === 'entry-points/vitest.ts' || importsVitest(file))).toEqual([])
  })

  test('imports point only down: each layer imports itself and the layers below it', () => {
    const upward: string[] = []
    for (const [file, imports] of graph) {
      const allowed = MAY_IMPORT[layerOf(file)]
      if (!allowed) continue
      for (const target of imports) {
        const layer = layerOf(target)
        if (layer !== layerOf(file) && !allowed.includes(layer)) upward.push(`${file} → ${target}`)
      }
    }
    expect(upward).toEqual([])
  })

  test('no import circle among the project modules', () => {
    const circles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return
      if (state.get(file) === 'open') {
        circles.push([...path.slice(path.indexOf(file)), file].join(' → '))
        return
      }
      state.set(file, 'open')
      for (const target of graph.get(file) ?? []) visit(target, [...path, file])
      state.set(file, 'done')
    }
    for (const file of graph.keys()) visit(file, [])
    expect(circles).toEqual([])
  })

  test('every import names a module that exists', () => {
    const missing = [...graph].flatMap(([file, imports]) => imports.filter((target) => !graph.has(target)).map((target) => `${file} → ${target}`))
    expect(missing).toEqual([])
  })
})

describe('the docs follow the code', () => {
  const architecture = readFileSync(join(packageRoot, 'docs', 'architecture.md'), 'utf8')
  const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8')

  test('docs/architecture.md maps every folder of lib/ and every top-level source folder, and names none that is gone', () => {
    const folders = [...new Set([...graph.keys()].map((file) => (file.startsWith('lib/') ? `${layerOf(file)}/` : `${file.split('/')[0]}/`)))]
    expect(folders.filter((folder) => !architecture.includes(`\`${folder}\``))).toEqual([])
    // A folder the map names exists at the top, in lib/, or one level inside a top-level folder.
    const existing = new Set(
      readdirSync(packageRoot, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
        .flatMap((entry) => [
          `${entry.name}/`,
          ...readdirSync(join(packageRoot, entry.name), { withFileTypes: true })
            .filter((inner) => inner.isDirectory())
            .flatMap((inner) => [`${inner.name}/`, `${entry.name}/${inner.name}/`]),
        ]),
    )
    const named = [...architecture.matchAll(/`((?:lib\/)?[a-z-]+\/)`/g)].map((match) => match[1] as string)
    expect(named.filter((folder) => !existing.has(folder))).toEqual([])
  })

  test('the README fits on two screens and links every page of docs/', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(120)
    const pages = readdirSync(join(packageRoot, 'docs')).filter((name) => name.endsWith('.md'))
    expect(pages.filter((page) => !readme.includes(`docs/${page}`))).toEqual([])
  })

  test('docs/inputs.md is what the input catalogue renders (run npm run requirements-doc after changing it)', () => {
    expect(readFileSync(join(packageRoot, 'docs', 'inputs.md'), 'utf8')).toBe(renderInputsTable())
  })

  test('docs/requirements.md is what the catalogue renders (run npm run requirements-doc after changing the catalogue)', () => {
    expect(readFileSync(join(packageRoot, 'docs', 'requirements.md'), 'utf8')).toBe(renderRequirementsTable())
  })
})
