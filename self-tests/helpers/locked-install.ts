/**
 * A user's project that installs the packed package offline. Without a lockfile, npm resolves every range against
 * the registry at test time: a network the test does not control (a newer release, a slow answer, none at all) then
 * decides whether the test passes. Here the project gets a package-lock.json that pins each package the install
 * needs to the version this clone's own lockfile holds, so `npm ci --offline` (or `npm install` with
 * npm_config_offline) takes every tarball from npm's cache, where this clone's `npm ci` left it, and never asks
 * the registry. What is tested stays what users get: the tarball's files, its `dependencies` and `bin`, laid out by npm.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

interface LockEntry {
  version?: string
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
  dev?: boolean
  devOptional?: boolean
  peer?: boolean
  [field: string]: unknown
}

/** The entries of the clone's lockfile that `names` need, with their own dependencies, by the paths the lockfile gives them. */
function closureOf(names: readonly string[], lock: Record<string, LockEntry>): Record<string, LockEntry> {
  const taken: Record<string, LockEntry> = {}
  // [the folder whose node_modules a search starts in, the package's name]: Node's resolution over the lockfile's paths.
  const pending: Array<[string, string]> = names.map((name) => ['', name])
  while (pending.length > 0) {
    const [from, name] = pending.pop() as [string, string]
    let folder = from
    let path = ''
    for (;;) {
      const candidate = `${folder ? `${folder}/` : ''}node_modules/${name}`
      if (lock[candidate]) {
        path = candidate
        break
      }
      if (!folder) break
      const cut = folder.lastIndexOf('/node_modules/')
      folder = cut < 0 ? '' : folder.slice(0, cut)
    }
    // Missing: an optional dependency of another platform, which the clone's own install skipped too.
    if (!path || taken[path]) continue
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = lock[path] as LockEntry
    taken[path] = entry
    const needs = [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {})]
    for (const peer of Object.keys(entry.peerDependencies ?? {})) if (!entry.peerDependenciesMeta?.[peer]?.optional) needs.push(peer)
    for (const dependency of needs) pending.push([path, dependency])
  }
  return taken
}

/**
 * Writes package.json and package-lock.json of a user's project in `folder`: the tarball, and beside it the packages
 * of `alongside` (vitest, say) at this clone's versions. Every other package is the one this clone's lockfile chose.
 */
export function writeLockedProject(folder: string, packageRoot: string, tarball: string, alongside: readonly string[] = []): void {
  const own = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'))
  const lock: Record<string, LockEntry> = JSON.parse(readFileSync(join(packageRoot, 'package-lock.json'), 'utf8')).packages
  const dependencies: Record<string, string> = { [own.name]: `file:${tarball}` }
  for (const name of alongside) dependencies[name] = lock[`node_modules/${name}`]?.version ?? 'missing from the lockfile'
  const packages: Record<string, unknown> = {
    '': { name: 'a-user-of-the-suite', dependencies },
    ...closureOf([...Object.keys(own.dependencies ?? {}), ...alongside], lock),
    [`node_modules/${own.name}`]: {
      version: own.version,
      resolved: `file:${tarball}`,
      dependencies: own.dependencies,
      bin: own.bin,
      engines: own.engines,
      peerDependencies: own.peerDependencies,
      peerDependenciesMeta: own.peerDependenciesMeta,
    },
  }
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ name: 'a-user-of-the-suite', private: true, type: 'module', dependencies }, null, 2)}\n`)
  writeFileSync(join(folder, 'package-lock.json'), `${JSON.stringify({ name: 'a-user-of-the-suite', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`)
}
