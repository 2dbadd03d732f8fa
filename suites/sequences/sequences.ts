/**
 * The run's model-based sequences: sent once and shared by every requirement they judge, each failure
 * shrunk to a minimal sequence and reported as numbered exchanges, with a curl script that replays the
 * whole sequence and the command that re-runs it from its seed.
 */

import fc from 'fast-check'
import type { Check } from '../../lib/checks/check.js'
import { curlScript } from '../../lib/checks/evidence.js'
import { LiveProperty, type Shrunk } from '../../lib/data/live-property.js'
import { ShrinkBudget } from '../../lib/data/shrink-budget.js'
import { excerpt } from '../../lib/http/excerpt.js'
import { excerptOfBody } from '../../lib/http/kept-bodies.js'
import type { OperationExchange } from '../../lib/spec/petstore-api.js'
import { causeOfCreate, VALID_BODY_REQUIREMENTS, type ValidBodyRequirement } from '../createPet/generated-bodies.js'
import { getPetRemoved, isRefusal, replayCommand, replayPathFor } from '../fixtures.js'
import { commandsArbitrary, type SequenceCommand, sweep } from './commands.js'
import { plannedRequestsOf, sequencesBudget, sharedCap } from './sequence-budget.js'
import type { SequenceOutcome, SequenceRequirement } from './sequence-outcome.js'
import { requestCapOf, SequenceTarget } from './sequence-target.js'
import { StoreModel } from './store-model.js'

/** The property name a sequence's replay path starts with: `sequences:3:1:0@B:A`. */
export const SEQUENCES_PROPERTY = 'sequences'
/** Requests all shrinks of a run may send together: a few dozen re-runs of a short sequence. */
const SHRINK_BUDGET = 150
/** Most shrink candidates all shrinks of a run try together, sent or not (a candidate whose commands all fail their preconditions sends nothing). */
export const SHRINK_CANDIDATES = 400
const NUMBERED_EXCHANGES = 60
const ANSWER_CHARS = 240

export interface SequenceRun {
  sequences: LiveProperty<Iterable<SequenceCommand>, SequenceRequirement, SequenceOutcome>
  /** The path of the one sequence this run replays (--replay-path sequences:…); '' when it replays a generated case; undefined when it replays nothing. */
  replay: string | undefined
}

/** The sequences of the run, sent once; in smoke they only read. Another property's replay sends none. */
export function sequenceRun(check: Check): Promise<SequenceRun> {
  return check.once('sequences', async (api) => {
    const survey = await check.survey()
    const { context } = check
    const options = { writes: !check.isReadOnly, length: context.sequenceLength, categoryIds: context.categoryIds }
    let runs = 0
    const count = Math.max(1, context.sequences)
    // The seed's sequences share the run's budget (sequence-budget.ts); a shrink's candidate or a replay has its own cap.
    const caps = new WeakMap<object, number>()
    const budget = sequencesBudget(count, context.sequenceLength)
    const sequences = new LiveProperty<Iterable<SequenceCommand>, SequenceRequirement, SequenceOutcome>({
      arbitrary: (replayPath) => commandsArbitrary(options, replayPath),
      seed: context.seed,
      numRuns: count,
      // Every sequence at once: the commands within one run one after another, and the HTTP client bounds the requests in flight.
      concurrency: count,
      // One budget for every shrink of the run, in requests sent.
      cost: (outcome) => outcome.exchanges.length,
      shrinkBudget: new ShrinkBudget({ requests: SHRINK_BUDGET, candidates: SHRINK_CANDIDATES, stop: check.stop }),
      plan: (values) => {
        const plans = values.map((commands) => plannedRequestsOf(commands, context.sequenceLength))
        const cap = sharedCap(plans, budget, context.sequenceLength)
        for (const commands of values) caps.set(commands, cap)
      },
      evaluate: async (commands) => {
        runs += 1
        const ownCap = requestCapOf(context.sequenceLength)
        const cap = caps.get(commands) ?? ownCap
        const target = new SequenceTarget({
          namePrefix: `${check.petName(`seq${runs}`)} `,
          api: (record) => api.recording(record),
          eventually: (what, read, found, ofCreatedPet, pets) => check.eventually(what, () => read(), found, api, { ofCreatedPet, pets }),
          getPetInService: !getPetRemoved(check),
          validListsServed: !isRefusal(survey.limit100),
          requestCap: cap,
          ...(cap < ownCap ? { capWords: `the ${count} sequences of the run share ${budget} requests, the longest cut first` } : {}),
        })
        const model = new StoreModel(survey.pets)
        await fc.asyncModelRun(() => ({ model, real: target }), commands)
        await sweep(model, target)
        return target.outcome
      },
    })
    const replay = replayPathFor(check, SEQUENCES_PROPERTY)
    if (replay === undefined) {
      if (context.sequences > 0) await sequences.runAll()
    } else if (replay !== '') {
      await sequences.replay(replay)
    }
    return { sequences, replay }
  })
}

/** `3. GET /pets?status=sold&limit=100 → 200 [{"id":…}]`: one line per exchange, in the order they came back. */
function numberedExchanges(exchanges: readonly OperationExchange[], redact: (text: string) => string): string {
  const lines = exchanges.slice(0, NUMBERED_EXCHANGES).map((exchange, index) => {
    const path = exchange.request.url.replace(/^https?:\/\/[^/]+/, '')
    const body = exchange.request.body !== undefined ? ` ${excerpt(exchange.request.body, ANSWER_CHARS)}` : ''
    const answer = exchange.response ? `${exchange.response.status} ${excerptOfBody(exchange.response, ANSWER_CHARS)}` : `no answer: ${exchange.failure?.message ?? 'unknown'}`
    return redact(`${index + 1}. ${exchange.request.method} ${path}${body} → ${answer}`)
  })
  if (exchanges.length > NUMBERED_EXCHANGES) lines.push(`… and ${exchanges.length - NUMBERED_EXCHANGES} more exchanges`)
  return lines.join('\n')
}

/** The rules of a create that an experiment on its body alone can show. */
function isValidBodyRequirement(id: string): id is ValidBodyRequirement {
  return (VALID_BODY_REQUIREMENTS as readonly string[]).includes(id)
}

/**
 * Judge one requirement over the run's sequences: the first sequence that broke it, shrunk, with its numbered
 * exchanges, a curl script and the replay command; a pass only when at least one sequence could decide it.
 */
export async function judgeSequences(check: Check, requirementId: SequenceRequirement): Promise<void> {
  const { sequences, replay } = await sequenceRun(check)
  const replaying = replay !== undefined
  check.require(sequences.outcomes.length > 0, replaying ? `the replay path ${check.context.replayPath} names no sequence` : 'no sequence ran (--sequences 0)')
  check.adopt(sequences.exchanges)
  const broken = sequences.outcomes.find((outcome) => outcome.failures[requirementId])
  let shrunk: Shrunk<Iterable<SequenceCommand>, SequenceRequirement, SequenceOutcome> | undefined
  if (broken && !replaying) {
    shrunk = await check.once(`sequences:shrink:${requirementId}`, () => sequences.shrink(requirementId))
    check.adopt(sequences.exchanges)
  }
  const shown: SequenceOutcome | undefined = shrunk?.outcome ?? broken
  const failure = shown?.failures[requirementId]
  const path = shrunk?.path ?? replay ?? ''
  const note = shrunk
    ? ` (sequence shrunk in ${shrunk.shrinks} steps to ${shrunk.outcome.steps.length} commands${shrunk.budgetSpent ? `, stopped by the run's shrink budget of ${SHRINK_BUDGET} requests and ${SHRINK_CANDIDATES} candidates, or by the run's end` : ''})`
    : replaying
      ? ' (replayed sequence)'
      : sequences.shrinkBudgetSpent
        ? ` (not shrunk: the run's shrink budget of ${SHRINK_BUDGET} requests and ${SHRINK_CANDIDATES} candidates was spent, or the run ended)`
        : ' (not shrunk: it did not fail again when re-run)'
  const { context, redact } = check
  const settings = [
    ['sequences', Math.max(1, context.sequences)],
    ['sequenceLength', context.sequenceLength],
  ] as const
  // A create this sequence saw fail a rule of creates: the same body alone, then each input made plain (root causes by experiment).
  const post = failure?.exchange?.request.method === 'POST' ? failure.exchange : undefined
  const cause = post && isValidBodyRequirement(requirementId) ? await causeOfCreate(check, post.request.body, requirementId) : undefined
  check.expect.that(failure === undefined, `${failure?.message}${note}`, {
    ...(failure?.exchange ? { exchange: failure.exchange } : {}),
    ...(cause ? { cause } : {}),
    ...(failure?.expected !== undefined ? { expected: failure.expected } : {}),
    ...(failure?.actual !== undefined ? { actual: failure.actual } : {}),
    ...(shown
      ? {
          replay: {
            seed: context.seed,
            path: path ? `${SEQUENCES_PROPERTY}:${path}` : '',
            counterexample: `commands: ${shown.steps.join('; ')}\n${numberedExchanges(shown.exchanges, redact)}`,
            command: replayCommand(check, requirementId, path ? `${SEQUENCES_PROPERTY}:${path}` : undefined, settings),
            script: curlScript(shown.exchanges, redact, `the sequence that broke ${requirementId} (seed ${context.seed}${path ? `, path ${SEQUENCES_PROPERTY}:${path}` : ''})`),
          },
        }
      : {}),
  })
  const decided = sequences.outcomes.filter((outcome) => outcome.decided.has(requirementId)).length
  for (const outcome of sequences.outcomes) for (const note of outcome.notes) if (note.requirement === requirementId) check.observe(note.text)
  check.require(decided > 0, `none of the ${sequences.outcomes.length} sequences could decide it on this target`)
  check.observe(`${decided} of ${sequences.outcomes.length} sequences decided it (seed ${check.context.seed}; ${sequences.exchanges.length} requests in all)`)
}
