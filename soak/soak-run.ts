#!/usr/bin/env node
import { peakRssBytes } from '../lib/reports/write-reports.js'
import { scoreVariant, type VariantKind } from '../mutation-score/score-variant.js'
/**
 * One run of the soak, in a process of its own so that a hang can be cut and a crash stays its own:
 * `node dist/soak/soak-run.js <fault|look-alike> <variant> <seed>`. It judges the variant with the whole
 * suite at the command's defaults and prints its score as one JSON line.
 */
import { faults } from '../variants/faults/index.js'
import { lookAlikes } from '../variants/look-alikes.js'

const [kind, name, seed] = process.argv.slice(2)
const variant = (kind === 'fault' ? faults : lookAlikes).find((candidate) => candidate.name === name)
if (!variant || seed === undefined) {
  process.stderr.write(`usage: soak-run.js <fault|look-alike> <variant> <seed>; no ${kind} named ${name}\n`)
  process.exit(2)
}
// At the command's defaults, from the variant's own store (seeding included), as a user's first run is.
const score = await scoreVariant(variant, kind as VariantKind, { seed, args: [], storePets: 0 })
process.stdout.write(`${JSON.stringify({ ...score, peakRssBytes: peakRssBytes() })}\n`)
