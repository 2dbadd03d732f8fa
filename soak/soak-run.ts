#!/usr/bin/env node
import { peakRssBytes } from '../lib/reports/write-reports.js'
import { scoreVariant, type VariantKind } from '../mutation-score/score-variant.js'
/**
 * One run of the soak, in a process of its own so that a hang can be cut and a crash stays its own:
 * `node dist/soak/soak-run.js <fault|look-alike> <variant> <seed>` (a look-alike's name may be
 * a combination of allowances, `limit-clamped+charset-utf-8`). It judges the variant with the whole
 * suite at the command's defaults and prints its score as one JSON line.
 */
import { lookAlikeNamed } from '../variants/allowances/combinations.js'
import { faults } from '../variants/faults/index.js'

const [kind, name = '', seed] = process.argv.slice(2)
// A look-alike is named by its allowances, joined by `+` when it combines several.
const variant = kind === 'fault' ? faults.find((candidate) => candidate.name === name) : lookAlikeNamed(name)
if (!variant || seed === undefined) {
  process.stderr.write(`usage: soak-run.js <fault|look-alike> <variant> <seed>; no ${kind} named ${name}\n`)
  process.exit(2)
}
// At the command's defaults, from the variant's own store (seeding included), as a user's first run is.
const score = await scoreVariant(variant, kind as VariantKind, { seed, args: [], storePets: 0 })
process.stdout.write(`${JSON.stringify({ ...score, peakRssBytes: peakRssBytes() })}\n`)
