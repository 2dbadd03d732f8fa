/**
 * Bundles what the package runs into one module per entry (esbuild; npm run build runs it after tsc): the bin, the
 * two worker threads it starts, the typed API and the vitest entry, each with every module of the suite and of its
 * dependencies inside, so a start reads five files instead of resolving and reading a few hundred. They sit side by
 * side in dist/bundle/, where each worker is found beside the module that starts it, as in tsc's layout. Source maps
 * beside them name the TypeScript sources; the bin turns them on for its own process (cli/main.ts).
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { packageRoot } from '../lib/spec/package-root.js'

/** Each bundle by its file name in dist/bundle/, and the source it starts from. */
export const BUNDLES = {
  main: 'cli/main.ts',
  'run-in-worker': 'cli/run-in-worker.ts',
  'reference-thread': 'entry-points/reference-thread.ts',
  index: 'entry-points/index.ts',
  vitest: 'entry-points/vitest.ts',
} as const

export const BUNDLE_DIR = join(packageRoot, 'dist', 'bundle')

export async function bundle(): Promise<void> {
  // Chunks are named by their hash: an earlier build's would stay beside the new ones, and npm pack and the single
  // executable carry every file of the folder.
  rmSync(BUNDLE_DIR, { recursive: true, force: true })
  await build({
    entryPoints: Object.fromEntries(Object.entries(BUNDLES).map(([name, source]) => [name, join(packageRoot, source)])),
    outdir: BUNDLE_DIR,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: 'linked',
    splitting: true,
    chunkNames: '[name]-[hash]',
    // The vitest entry runs inside the user's own vitest.
    external: ['vitest'],
    // The dependencies written as CommonJS call require(): in an ES module it is made from the bundle's own URL.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    logLevel: 'warning',
  })
}

if (import.meta.url === `file://${process.argv[1]}`) await bundle()
