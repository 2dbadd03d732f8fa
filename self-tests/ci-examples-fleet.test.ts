/**
 * The fleet's CI examples are ready to copy: the GitHub Actions matrix and the Kubernetes Indexed Job are valid
 * against the schemas of their platforms, offline (SchemaStore's workflow schema inside @action-validator/core, the
 * Kubernetes API's schemas inside kubernetes-models), they agree with each other and with the fleet file beside
 * them, and the commands the workflow runs do what it says: its n shard commands, run as n processes, and its
 * merge give one fleet report with every target once.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { validateWorkflow } from '@action-validator/core'
import { Job } from 'kubernetes-models/batch/v1/Job'
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap'
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim'
import { describe, expect, test } from 'vitest'
import { parseAllDocuments, parse as parseYaml } from 'yaml'
import { parseFleet } from '../lib/fleet/fleet-file.js'
import type { FleetReport } from '../lib/fleet/fleet-report.js'
import { commandPath, packageRoot } from '../lib/spec/package-root.js'
import { API_KEY, startTarget } from './helpers/targets.js'

const folder = join(packageRoot, 'ci-examples', 'fleet')
const read = (name: string) => readFileSync(join(folder, name), 'utf8')
const workflowText = read('github-actions-shards.yml')
const workflow = parseYaml(workflowText) as {
  env: Record<string, string>
  jobs: Record<
    string,
    {
      needs?: string
      if?: string
      strategy?: { matrix: { shard: number[] } }
      steps: Array<{ name?: string; run?: string; uses?: string; env?: Record<string, string>; with?: Record<string, string> }>
    }
  >
}
const manifests = parseAllDocuments(read('kubernetes-indexed-job.yaml')).map(
  (document) => document.toJS() as { kind: string; metadata: { name: string } } & Record<string, unknown>,
)
const fleetTargets = parseFleet(read('fleet.yaml'), 'fleet.yaml')

const KUBERNETES_MODELS = { ConfigMap, PersistentVolumeClaim, Job } as const

/** The manifest validated as its kind, by the Kubernetes API's own schema; throws with what is wrong. */
function validateManifest(manifest: { kind: string } & Record<string, unknown>): void {
  const Model = KUBERNETES_MODELS[manifest.kind as keyof typeof KUBERNETES_MODELS]
  if (!Model) throw new Error(`no schema for kind ${manifest.kind}`)
  new Model(manifest as never).validate()
}

const shardStep = () => workflow.jobs.shard?.steps.find((step) => step.run?.includes('--shard')) ?? expect.fail('no shard step')
const mergeStep = () => workflow.jobs.merge?.steps.find((step) => step.run?.includes(' merge ')) ?? expect.fail('no merge step')
const shardJob = () =>
  manifests.find((manifest) => manifest.kind === 'Job' && JSON.stringify(manifest).includes('--shard')) as unknown as { spec: Record<string, unknown> } & Record<string, unknown>

describe('the fleet examples are valid for their platforms, offline', () => {
  test('the GitHub Actions workflow passes the workflow schema; the same workflow with a job that names no runner does not', () => {
    expect(validateWorkflow(workflowText).errors).toEqual([])
    expect(validateWorkflow(workflowText.replace(/^ {4}runs-on: ubuntu-latest\n/m, '')).errors).not.toEqual([])
  })

  test('every manifest of the Indexed Job passes the Kubernetes API schema of its kind; a Job with completions in words does not', () => {
    expect(manifests.map((manifest) => manifest.kind).sort()).toEqual(['ConfigMap', 'Job', 'Job', 'PersistentVolumeClaim'])
    for (const manifest of manifests) expect(() => validateManifest(manifest), manifest.metadata.name).not.toThrow()
    const broken = structuredClone(shardJob())
    broken.spec.completions = 'three'
    expect(() => validateManifest(broken as never)).toThrow(/completions must be integer/)
  })
})

describe('the fleet examples agree with each other and with the fleet file', () => {
  test('the Indexed Job judges the fleet file beside it, its index + 1 being the shard, with one seed for every shard', () => {
    const config = manifests.find((manifest) => manifest.kind === 'ConfigMap') as unknown as { data: Record<string, string> }
    expect(parseFleet(config.data['fleet.yaml'] ?? '', 'ConfigMap')).toEqual(fleetTargets)
    const job = shardJob() as { spec: { completionMode: string; completions: number; parallelism: number; backoffLimitPerIndex: number } }
    expect(job.spec.completionMode).toBe('Indexed')
    const text = JSON.stringify(job)
    expect(text).toContain(`--shard \\"$((JOB_COMPLETION_INDEX + 1))/${job.spec.completions}\\"`)
    // One failing shard neither retries nor stops the others: the merge reports every target.
    expect(job.spec.backoffLimitPerIndex).toBe(0)
    const merge = JSON.stringify(manifests.find((manifest) => manifest.kind === 'Job' && manifest !== (job as unknown)))
    const shards = Array.from({ length: job.spec.completions }, (_, index) => `shard-${index + 1}`)
    expect(merge).toContain(`merge ${shards.join(' ')} --report-dir fleet`)
    for (const shard of shards) expect(merge).toContain(`/reports/$FLEET_RUN/${shard}/fleet.json`)
  })

  test('the matrix has one job per shard, every shard has every key its targets name, and the merge joins exactly the shards', () => {
    const shards = workflow.jobs.shard?.strategy?.matrix.shard ?? []
    expect(shards).toEqual(Array.from({ length: shards.length }, (_, index) => index + 1))
    expect(shardStep().run).toContain(`--shard \${{ matrix.shard }}/${shards.length}`)
    expect(Object.keys(shardStep().env ?? {}).sort()).toEqual([...new Set(fleetTargets.map((target) => target.apiKeyEnv))].sort())
    expect(workflow.env.FLEET_SEED).not.toContain('matrix')
    expect(workflow.jobs.merge?.needs).toBe('shard')
    expect(workflow.jobs.merge?.if).toBe('always()')
    expect(mergeStep().run).toContain(`merge ${shards.map((shard) => `shard-${shard}`).join(' ')} --report-dir fleet`)
  })
})

/** A command line of the workflow, run with the built command in place of `npx --yes petstore-conformance@0`. */
function runLine(line: string, cwd: string, env: Record<string, string>): Promise<number> {
  const args = (line.replace(/^npx --yes petstore-conformance@0 /, '').match(/"[^"]*"|\S+/g) ?? []).map((arg) =>
    arg.replace(/^"(.*)"$/, '$1').replace(/\$(\w+)/g, (_, name: string) => env[name] ?? ''),
  )
  return new Promise((resolve) => {
    execFile(process.execPath, [commandPath, ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...env } }, (error) =>
      resolve(error ? (typeof error.code === 'number' ? error.code : -1) : 0),
    )
  })
}

describe('the workflow runs as it says', () => {
  test('its shard commands, as many processes as the matrix has jobs, and its merge give one fleet report with every target once', async () => {
    // The example's fleet, each target served here instead of at its example address.
    const targets = await Promise.all(fleetTargets.map(() => startTarget({ pets: 110 })))
    try {
      const cwd = mkdtempSync(join(tmpdir(), 'petstore-fleet-example-'))
      let fleet = read('fleet.yaml')
      fleetTargets.forEach((target, index) => {
        fleet = fleet.replace(target.baseUrl, targets[index]?.baseUrl ?? '')
      })
      // A production target's rate limit would only make the test wait: here every target is on loopback.
      writeFileSync(join(cwd, 'fleet.yaml'), fleet.replace(/^ *rateLimit: \d+\n/gm, ''))
      // PETSTORE_* variables apply under the file: the generated cases of the variant score, to keep the test quick.
      const env = {
        FLEET_SEED: '7',
        PETSTORE_NUM_RUNS: '5',
        PETSTORE_SEQUENCES: '2',
        PETSTORE_MAX_EDITS: '20',
        ...Object.fromEntries(fleetTargets.map((target) => [target.apiKeyEnv, API_KEY])),
      }
      const shards = workflow.jobs.shard?.strategy?.matrix.shard ?? []
      const codes = await Promise.all(shards.map((shard) => runLine((shardStep().run ?? '').replaceAll('${{ matrix.shard }}', String(shard)), cwd, env)))
      expect(codes).toEqual(shards.map(() => 0))
      expect(await runLine(mergeStep().run ?? '', cwd, env)).toBe(0)
      const report = JSON.parse(readFileSync(join(cwd, 'fleet', 'fleet.json'), 'utf8')) as FleetReport
      expect(report.targets.map((target) => target.name).sort()).toEqual(fleetTargets.map((target) => target.name).sort())
      expect(report.targets.map((target) => target.verdict)).toEqual(report.targets.map(() => 'CONFORMANT'))
    } finally {
      await Promise.all(targets.map((target) => target.close()))
    }
  })
})
