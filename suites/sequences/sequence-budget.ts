/**
 * The request budget of a run's sequences, set before any is sent. Each sequence's commands are known once the
 * seed has drawn them, and so is the most each can send: its commands' requests, a read of every pet it creates
 * and a list of each status those pets may show (the sweep). When the sequences of a run would send more than the
 * budget together, one cap is found for all of them, the largest that fits, so the longest are cut first and the
 * shorter ones run whole. A run's sequences then send at most the budget whatever the seed drew, so a long draw no
 * longer swells the run (re-reads of a lagging store within the consistency window come on top, as they do for a cap).
 */
import { PET_STATUSES } from '../../lib/spec/petstore-api.js'
import { requestCapOf } from './sequence-target.js'

/** What a command may send at most, given how many pets its sequence created before it. */
export interface PlannedCommand {
  /** Requests the command sends at most (re-reads within the consistency window aside). */
  plannedRequests(createdBefore: number): number
  /** Pets it creates at most: each is read once more, and listed, by the sweep. */
  readonly creates: number
}

/**
 * The requests the sequences of a run send together at most: `length − 2` a sequence (100 at the command's defaults),
 * and never less than the 3 one create needs (the create, its read and the list of its status).
 */
export function sequencesBudget(sequences: number, length: number): number {
  return Math.max(1, sequences) * Math.max(3, length - 2)
}

/** fast-check's commands are wrapped (`cmd`); a plain command stands for itself. */
function commandOf(entry: unknown): Partial<PlannedCommand> {
  return ((entry as { cmd?: unknown }).cmd ?? entry) as Partial<PlannedCommand>
}

/** The most one sequence of these commands sends: its commands, a read of each pet it creates, a list of each status they may show; at most its cap. */
export function plannedRequestsOf(commands: Iterable<unknown>, length: number): number {
  let requests = 0
  let created = 0
  for (const entry of commands) {
    const command = commandOf(entry)
    requests += command.plannedRequests?.(created) ?? 1
    created += command.creates ?? 0
  }
  return Math.min(requestCapOf(length), requests + created + Math.min(PET_STATUSES.length, created))
}

/**
 * The one cap every sequence of the run gets: the largest whose cut plans fit the budget together; the cap of
 * one sequence (`requestCapOf`) when they fit whole.
 */
export function sharedCap(plans: readonly number[], budget: number, length: number): number {
  const within = (cap: number) => plans.reduce((sum, plan) => sum + Math.min(plan, cap), 0) <= budget
  let cap = requestCapOf(length)
  while (cap > 0 && !within(cap)) cap -= 1
  return cap
}
