/**
 * A target that serves one connection at a time and holds an idle kept-alive connection open (a single prefork
 * worker with keep-alive, as Starman with `--workers 1` is) answers a request on another connection only once it has
 * let go of that one, after its keep-alive timeout. A run on kept-alive connections waits that long for most of its
 * requests and meets its deadline with no verdict. Reads tell such a target: one on a connection of its own right
 * after another such read (nothing is held then) is answered at once, and one right after a read on a kept-alive
 * connection (which the target then holds idle) waits at least HELD_MS and RATIO times as long, in each of two rounds.
 * The run's first reads, sent at once, say when to look (mayHoldConnections). Then the run keeps no connection alive:
 * every request goes on a connection of its own, closed after its answer, which such a target serves one after
 * another at its own pace.
 */
import type { OperationExchange, PetstoreApi } from '../spec/petstore-api.js'

/** The least wait on a connection of its own that says the target held it back: far past a read's time at any target nearby. */
export const HELD_MS = 500
/**
 * How many times the read with nothing held the read after a kept-alive one must wait: well past what a loaded machine
 * adds to a read nearby (a first read of 71 ms where the held one took 2 s), and far below a keep-alive timeout's wait.
 */
const RATIO = 5
const ROUNDS = 2

export interface HeldConnections {
  /** Each round's two reads on connections of their own, in ms: with nothing held, then right after a kept-alive read. */
  rounds: Array<{ freeMs: number; heldMs: number }>
}

/**
 * Whether the run's first reads, sent at once on as many connections, look like such a target's: each answered, the
 * first at once and another only after HELD_MS (it waited for the first's connection to be let go). Only then are the
 * reads of connectionsHeldBack sent: a target that answers them all at once, or not at all, is spared them.
 */
export function mayHoldConnections(firstReads: readonly OperationExchange[]): boolean {
  if (firstReads.length < 2 || !firstReads.every((exchange) => exchange.response !== undefined)) return false
  const times = firstReads.map((exchange) => exchange.durationMs)
  return Math.max(...times) >= HELD_MS && Math.max(...times) >= RATIO * Math.min(...times)
}

/** The rounds that showed the target holding a connection back, or undefined as soon as one did not. */
export async function connectionsHeldBack(api: PetstoreApi): Promise<HeldConnections | undefined> {
  const own = () => api.listPets({ limit: 1 }, undefined, { ownConnection: true })
  const answered = (exchange: OperationExchange) => exchange.response !== undefined
  // A connection the run's first reads left open may be held: this read waits for it, and leaves nothing held.
  if (!answered(await own())) return undefined
  const rounds: HeldConnections['rounds'] = []
  for (let round = 0; round < ROUNDS; round++) {
    const free = await own()
    const keptAlive = await api.listPets({ limit: 1 })
    const held = await own()
    // A read that got no answer shows nothing of how connections are served: the checks judge it.
    if (![free, keptAlive, held].every(answered)) return undefined
    if (held.durationMs < HELD_MS || held.durationMs < RATIO * free.durationMs) return undefined
    rounds.push({ freeMs: Math.round(free.durationMs), heldMs: Math.round(held.durationMs) })
  }
  return { rounds }
}

/** What the console says of such a target. */
export function heldConnectionsLine(held: HeldConnections): string {
  const times = held.rounds.map(({ freeMs, heldMs }) => `${freeMs} ms, then ${heldMs} ms`).join('; ')
  return `Connections: a read on a connection of its own waited for the target to let go of an idle kept-alive one (with none open, then after a kept-alive read: ${times}): it serves one connection at a time, so every request of this run goes on a connection of its own, closed after its answer`
}
