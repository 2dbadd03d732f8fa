#!/usr/bin/env node
/**
 * The fleet benchmark (npm run bench:fleet): 20 targets at loopback (the reference, each holding 110 pets as a
 * staging store would), judged by one fleet run of the built command (`--targets`, four in flight, its default)
 * and by 20 runs of the command one after another, as 20 separate jobs would; the same for each profile. Each
 * way gets targets of its own, so neither judges the pets the other created. Prints the wall time of each way,
 * their ratio, and the exit codes. Options: --targets N (default 20), --profiles smoke,full, --out FILE (default
 * reports/bench-fleet.json).
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { commandPath, packageRoot, packageVersion } from '../lib/spec/package-root.js'
import { populatedStore } from '../reference/pet-store.js'
import type { RunningServer } from '../reference/server.js'
import { startVariant } from '../variants/variant.js'

const API_KEY = 'fleet-benchmark-key-71c4e0'
const COMMAND = commandPath

function command(args: readonly string[], cwd: string): Promise<number> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [COMMAND, ...args],
      { cwd, env: { PATH: process.env.PATH ?? '', FLEET_KEY: API_KEY, PETSTORE_API_KEY: API_KEY }, maxBuffer: 64 * 2 ** 20 },
      (error) => done(error ? (typeof error.code === 'number' ? error.code : -1) : 0),
    )
  })
}

async function serveTargets(count: number): Promise<RunningServer[]> {
  return Promise.all(Array.from({ length: count }, () => startVariant(undefined, { apiKey: API_KEY, store: populatedStore(110) })))
}

interface FleetFigures {
  profile: string
  targets: number
  fleetWallMs: number
  fleetExit: number
  sequentialWallMs: number
  sequentialExits: number[]
  ratio: number
}

async function measure(profile: string, count: number): Promise<FleetFigures> {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-bench-fleet-'))
  const [forFleet, forSequence] = [await serveTargets(count), await serveTargets(count)]
  try {
    const lines = ['defaults:', `  profile: ${profile}`, 'targets:']
    for (const [index, target] of forFleet.entries()) lines.push(`  - name: target-${index + 1}`, `    baseUrl: ${target.baseUrl}`, '    apiKeyEnv: FLEET_KEY')
    writeFileSync(join(folder, 'fleet.yaml'), `${lines.join('\n')}\n`)
    let started = performance.now()
    const fleetExit = await command(['--targets', 'fleet.yaml', '--seed', '7', '--report-dir', 'fleet'], folder)
    const fleetWallMs = performance.now() - started
    started = performance.now()
    const sequentialExits: number[] = []
    for (const [index, target] of forSequence.entries()) {
      sequentialExits.push(await command(['--base-url', target.baseUrl, '--profile', profile, '--seed', '7', '--quiet', '--report-dir', `run-${index + 1}`], folder))
    }
    const sequentialWallMs = performance.now() - started
    return { profile, targets: count, fleetWallMs, fleetExit, sequentialWallMs, sequentialExits, ratio: sequentialWallMs / fleetWallMs }
  } finally {
    await Promise.all([...forFleet, ...forSequence].map((target) => target.close()))
    rmSync(folder, { recursive: true, force: true })
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { targets: { type: 'string' }, profiles: { type: 'string' }, out: { type: 'string' } } })
  const count = Number(values.targets ?? 20)
  const profiles = (values.profiles ?? 'smoke,full').split(',')
  const out = resolve(values.out ?? join(packageRoot, 'reports', 'bench-fleet.json'))
  process.stdout.write(`Fleet benchmark: petstore-conformance ${packageVersion}, ${availableParallelism()} cores, Node ${process.version}, ${count} targets at loopback\n`)
  const figures: FleetFigures[] = []
  for (const profile of profiles) {
    const measured = await measure(profile, count)
    figures.push(measured)
    process.stdout.write(
      `  ${profile.padEnd(6)} one fleet run ${(measured.fleetWallMs / 1000).toFixed(1).padStart(6)} s (exit ${measured.fleetExit})   ${count} runs one after another ${(measured.sequentialWallMs / 1000).toFixed(1).padStart(6)} s (exits ${[...new Set(measured.sequentialExits)].join(',')})   ×${measured.ratio.toFixed(2)}\n`,
    )
  }
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, `${JSON.stringify({ tool: packageVersion, node: process.version, at: new Date().toISOString(), figures }, null, 2)}\n`)
  process.stdout.write(`Figures written to ${out}\n`)
  return figures.every((measured) => measured.fleetExit === 0 && measured.sequentialExits.every((code) => code === 0)) ? 0 : 1
}

process.exitCode = await main()
