/**
 * A stack trace whose frames in a bundled module (dist/bundle/) name the TypeScript source and its line instead. The
 * bundle's source map is read only when a stack is shown (a harness error, a check that threw): turning Node's own
 * source-map support on for the whole run cost a full run about 50 MiB of memory and 8 % of its time, for stacks it
 * almost never shows.
 */
import { existsSync, readFileSync } from 'node:fs'
import { SourceMap } from 'node:module'
import { dirname, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { packageRoot } from './package-root.js'

const maps = new Map<string, SourceMap | undefined>()

/** The source map beside a module, read once; undefined for a module that has none (or one that cannot be read). */
function sourceMapOf(file: string): SourceMap | undefined {
  if (!maps.has(file)) {
    let map: SourceMap | undefined
    try {
      if (existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')))
    } catch {
      map = undefined
    }
    maps.set(file, map)
  }
  return maps.get(file)
}

/** A frame's location: a file URL or an absolute path of a .js module, its line and column. */
const FRAME_LOCATION = /(file:\/\/\/[^\s()]+?\.js|\/[^\s()]+?\.js):(\d+):(\d+)/g

/** The stack with each frame of a module that has a source map beside it written as the source's path (from the package root), line and column. */
export function withSourcePositions(stack: string): string {
  return stack.replace(FRAME_LOCATION, (whole, location: string, line: string, column: string) => {
    const file = location.startsWith('file://') ? fileURLToPath(location) : location
    const entry = sourceMapOf(file)?.findEntry(Number(line) - 1, Number(column) - 1)
    if (!entry || !('originalSource' in entry)) return whole
    // A map names its sources from its own folder (esbuild writes ../../lib/…).
    const source = entry.originalSource.startsWith('file://') ? fileURLToPath(entry.originalSource) : resolve(dirname(file), entry.originalSource)
    return `${relative(packageRoot, source)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`
  })
}
