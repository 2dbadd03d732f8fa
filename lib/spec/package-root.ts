import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The folder of this package, whether running from sources (lib/) or from the build (dist/lib/). */
function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'petstore-conformance') {
      return dir
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error('petstore-conformance: package.json not found above the module')
    dir = parent
  }
}

export const packageRoot = findPackageRoot()

const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> }

export const packageVersion: string = manifest.version

/** The command's module as package.json's bin names it (the bundle npx runs). */
export const commandPath: string = join(packageRoot, manifest.bin['petstore-conformance'] ?? 'dist/bundle/main.js')
