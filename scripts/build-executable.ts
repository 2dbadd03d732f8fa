/**
 * Builds the single executable (`npm run build:exe`, after the bundle): Node's single executable application for
 * this machine's platform, with the command inside (cli/single-executable.ts). It copies the Node that runs this
 * script, and injects the main script and the assets into the copy with postject, as Node's documentation does.
 * The executable is dist/executable/petstore-conformance; it needs nothing beside it, Node included.
 */

import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { build } from 'esbuild'
import { inject } from 'postject'
import { IDENTITY_ASSET } from '../cli/executable-assets.js'
import { packageRoot, packageVersion } from '../lib/spec/package-root.js'
import { BUNDLE_DIR } from './bundle.js'

export const EXECUTABLE_DIR = join(packageRoot, 'dist', 'executable')
export const EXECUTABLE = join(EXECUTABLE_DIR, process.platform === 'win32' ? 'petstore-conformance.exe' : 'petstore-conformance')

/** The fuse Node's binary carries for a single executable's blob (Node's documentation, postject's --sentinel-fuse). */
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'

/** What the executable carries, by the path it has in the unpacked folder: the bundle, a manifest, the schemas. */
function assets(): Record<string, string> {
  const files = (dir: string) => readdirSync(dir).map((name) => join(dir, name))
  const carried = [...files(BUNDLE_DIR), ...files(join(packageRoot, 'schemas'))]
  return Object.fromEntries(carried.map((file) => [relative(packageRoot, file), file]))
}

export async function buildExecutable(): Promise<string> {
  rmSync(EXECUTABLE_DIR, { recursive: true, force: true })
  mkdirSync(EXECUTABLE_DIR, { recursive: true })
  const launcher = join(EXECUTABLE_DIR, 'launcher.cjs')
  await build({
    entryPoints: [join(packageRoot, 'cli', 'single-executable.ts')],
    outfile: launcher,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    logLevel: 'warning',
  })
  // The manifest the command reads its name, version and bin from (lib/spec/package-root.ts).
  const { name, version, bin, type } = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as Record<string, unknown>
  const manifest = join(EXECUTABLE_DIR, 'package.json')
  writeFileSync(manifest, `${JSON.stringify({ name, version, type, bin }, null, 2)}\n`)
  const carried = { 'package.json': manifest, ...assets() }
  const hash = createHash('sha256')
  for (const [key, file] of Object.entries(carried).sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(key).update(readFileSync(file))
  const identity = join(EXECUTABLE_DIR, 'identity')
  writeFileSync(identity, `${packageVersion}-${hash.digest('hex').slice(0, 16)}`)
  const blob = join(EXECUTABLE_DIR, 'sea-prep.blob')
  const config = join(EXECUTABLE_DIR, 'sea-config.json')
  writeFileSync(
    config,
    JSON.stringify({ main: launcher, output: blob, disableExperimentalSEAWarning: true, useCodeCache: false, assets: { [IDENTITY_ASSET]: identity, ...carried } }, null, 2),
  )
  execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: 'ignore' })
  copyFileSync(process.execPath, EXECUTABLE)
  chmodSync(EXECUTABLE, 0o755)
  await inject(EXECUTABLE, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: SENTINEL_FUSE })
  for (const file of [launcher, manifest, identity, blob, config]) rmSync(file)
  return EXECUTABLE
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(`built ${await buildExecutable()}\n`)
