/**
 * The main script of the single executable (`npm run build:exe`, Node's single executable applications): a Node
 * with the command inside, for a vendor with no Node. Node runs a single executable's main script as CommonJS
 * from memory; the command is ES modules and starts worker threads from files. So this script writes the bundle
 * it carries (dist/bundle/, package.json, schemas/) once into a folder of its own under the temporary folder,
 * named by the package's version and a hash of what it carries, then imports the command from there, as `npx`
 * would from node_modules. A second start finds the folder and writes nothing; two starts at once each write
 * a folder of their own and the first to rename it wins.
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { getAsset, getAssetKeys } from 'node:sea'
import { pathToFileURL } from 'node:url'
import { IDENTITY_ASSET } from './executable-assets.js'

function unpacked(): string {
  const folder = join(tmpdir(), `petstore-conformance-${getAsset(IDENTITY_ASSET, 'utf8')}`)
  if (existsSync(folder)) return folder
  const staging = `${folder}.${process.pid}.partial`
  for (const key of getAssetKeys()) {
    if (key === IDENTITY_ASSET) continue
    const file = join(staging, key)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, new Uint8Array(getAsset(key)))
  }
  try {
    renameSync(staging, folder)
  } catch (error) {
    // Another start renamed its copy first: the same files.
    rmSync(staging, { recursive: true, force: true })
    if (!existsSync(folder)) throw error
  }
  return folder
}

/** A start that cannot unpack or load the command is a set-up mistake (exit 2), never a verdict: exit 1 would read as non-conformant. */
function cannotStart(error: unknown): never {
  const why = error instanceof Error ? error.message : String(error)
  process.stderr.write(`petstore-conformance could not start: ${why}\n(it unpacks itself under the temporary folder, ${tmpdir()}: set TMPDIR to a folder it may write)\n`)
  process.exit(2)
}

// Replay lines name the executable as it was called, in place of `npx petstore-conformance`.
process.env.PETSTORE_CONFORMANCE_EXECUTABLE = process.argv0
let folder: string
try {
  folder = unpacked()
} catch (error) {
  cannotStart(error)
}
import(pathToFileURL(join(folder, 'dist', 'bundle', 'main.js')).href).catch(cannotStart)
