/**
 * The self-tests run the project's modules as tsc compiled them (dist/), loaded by Node itself, as the command
 * and the package run them; only the test files are vitest's to transform. Transformed by vite instead, every
 * module a worker imports was rewritten, and every call between modules went through vite's module runner:
 * about a tenth of npm test's CPU (see docs/self-proof.md).
 *
 * Two pieces, both for vitest.config.ts:
 * - `compiledProjectModules`: a vite plugin that resolves a relative import of a project source to its compiled
 *   file, when both exist; vitest loads that natively (the config marks dist/ external). An import of a source
 *   that no longer exists is left to fail, not served from an old compiled file.
 * - `ensureCompiled`: before any test runs, a source newer than its compiled file is compiled (tsc, as
 *   npm run build does, then the bundle), so a test never runs old code: a developer who edits and runs `npx vitest` alone
 *   gets what they edited. npm test compiles first, so there it finds nothing to do.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve, sep } from 'node:path'

/** The compiled file of a source under `root`, or undefined for a file that is not a project source. */
function compiledFileOf(root: string, source: string): string | undefined {
  const path = relative(root, source)
  if (path.startsWith('..') || path.split(sep)[0] === 'dist' || path.split(sep).includes('node_modules')) return undefined
  return join(root, 'dist', path.replace(/\.ts$/, '.js'))
}

/** A vite plugin: a relative import of a project module (written `./x.js`, as NodeNext asks) resolves to dist/x.js. */
export function compiledProjectModules(root: string) {
  return {
    name: 'compiled-project-modules',
    enforce: 'pre' as const,
    resolveId(source: string, importer: string | undefined): string | null {
      if (!importer || !source.startsWith('.') || !source.endsWith('.js')) return null
      const imported = resolve(dirname(importer), source)
      const compiled = compiledFileOf(root, imported)
      if (!compiled || !existsSync(imported.replace(/\.js$/, '.ts')) || !existsSync(compiled)) return null
      return compiled
    },
  }
}

/** The folders tsc compiles: tsconfig.json's include, folders only. */
function sourceFolders(root: string): string[] {
  const { include } = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { include: string[] }
  return include.filter((entry) => !entry.endsWith('.ts'))
}

function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourcesUnder(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

const mtimeOf = (path: string) => (existsSync(path) ? statSync(path).mtimeMs : 0)

/**
 * The sources whose compiled file is missing or older than they are; test files are left out, since vitest
 * runs them from their source. A file tsc found unchanged in content is
 * not written again (a checkout touches sources it leaves alone), so `stamp`, written after each build here,
 * stands for every compiled file: a source older than the stamp is compiled as it is.
 */
export function staleSources(root: string, stamp: string): string[] {
  const stampedAt = mtimeOf(stamp)
  return sourceFolders(root)
    .flatMap((folder) => (existsSync(join(root, folder)) ? sourcesUnder(join(root, folder)) : []))
    .filter((source) => {
      if (source.endsWith('.test.ts')) return false
      const compiled = compiledFileOf(root, source) as string
      if (!existsSync(compiled)) return true
      const changedAt = statSync(source).mtimeMs
      return changedAt > statSync(compiled).mtimeMs && changedAt > stampedAt
    })
}

/** Compiles the project when a source is newer than what dist/ holds; a type error stops the tests with tsc's own report. */
export function ensureCompiled(root: string, log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): void {
  const stamp = join(root, 'dist', '.compiled-for-self-tests')
  const stale = staleSources(root, stamp)
  if (stale.length === 0) return
  log(`self-tests run the compiled modules: ${stale.length} source(s) newer than dist/ (${relative(root, stale[0] as string)}${stale.length > 1 ? ', …' : ''}); compiling with tsc`)
  // The bin its package.json names: TypeScript 7's exports keep bin/ from being resolved as a module path.
  const manifest = createRequire(join(root, 'package.json')).resolve('typescript/package.json')
  const tsc = join(dirname(manifest), (JSON.parse(readFileSync(manifest, 'utf8')) as { bin: { tsc: string } }).bin.tsc)
  execFileSync(process.execPath, [tsc], { cwd: root, stdio: 'inherit' })
  // And the bundle the command runs from (npm run build does both).
  execFileSync(process.execPath, [join(root, 'dist', 'scripts', 'bundle.js')], { cwd: root, stdio: 'inherit' })
  writeFileSync(stamp, `${new Date().toISOString()}\n`)
}
