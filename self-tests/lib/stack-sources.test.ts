/**
 * A stack trace shown from the bundled command names the TypeScript source and line (lib/spec/stack-sources.ts),
 * through the source map beside the bundle, read only when a stack is shown.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, test } from 'vitest'
import { packageRoot } from '../../lib/spec/package-root.js'
import { withSourcePositions } from '../../lib/spec/stack-sources.js'

describe('stack traces of the bundle', () => {
  test('a frame in a bundled module is written as its source file, line and column; frames without a map stay as they are', async ({ onTestFinished }) => {
    const dir = mkdtempSync(join(tmpdir(), 'stack-sources-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    writeFileSync(join(dir, 'thrower.ts'), 'const padding: number = 1\nexport function thrower(): never {\n  throw new Error(`thrown ${padding}`)\n}\n')
    await build({ entryPoints: [join(dir, 'thrower.ts')], outdir: join(dir, 'out'), bundle: true, platform: 'node', format: 'esm', sourcemap: 'linked', logLevel: 'silent' })
    // The frame as V8 writes it for the throw in the bundle (a process with Node's own source maps on, as vitest's is, would write the source already).
    const bundled = join(dir, 'out', 'thrower.js')
    const lines = readFileSync(bundled, 'utf8').split('\n')
    const line = lines.findIndex((text) => text.includes('throw new Error'))
    const column = (lines[line] ?? '').indexOf('throw')
    const frame = `    at thrower (${pathToFileURL(bundled).href}:${line + 1}:${column + 1})`
    expect(withSourcePositions(frame)).toMatch(/^ {4}at thrower \(\S*thrower\.ts:3:3\)$/)
    expect(withSourcePositions(frame.replace(pathToFileURL(bundled).href, bundled))).toMatch(/thrower\.ts:3:3\)$/)
    expect(withSourcePositions('    at f (node:internal/whatever.js:1:1)')).toBe('    at f (node:internal/whatever.js:1:1)')
  })

  test("the shipped bundle's maps lead back to the suite's own sources", () => {
    const folder = join(packageRoot, 'dist', 'bundle')
    const bundle = readdirSync(folder)
      .filter((file) => file.endsWith('.js'))
      .map((file) => join(folder, file))
      .find((file) => readFileSync(file, 'utf8').includes('\nfunction withSourcePositions('))
    expect(bundle).toBeDefined()
    const lines = readFileSync(bundle as string, 'utf8').split('\n')
    const line = lines.findIndex((text) => text.startsWith('function withSourcePositions('))
    expect(withSourcePositions(`    at withSourcePositions (${pathToFileURL(bundle as string).href}:${line + 1}:1)`)).toMatch(
      /^ {4}at withSourcePositions \(lib\/spec\/stack-sources\.ts:\d+:\d+\)$/,
    )
  })
})
