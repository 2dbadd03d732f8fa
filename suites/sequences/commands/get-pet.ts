/**
 * GET /pets/{id}: of a pet the model holds (created or listed, picked by a drawn index), or of an id no pet
 * is known to hold. Postconditions: a known pet is found (a created one within the consistency window) and
 * reads as every other view of it; an unknown id is answered 404 with an Error body, unless a pet of that
 * very id turns up, which the model then knows.
 */
import type fc from 'fast-check'
import { describeAnswer, failureOf } from '../../../lib/checks/assertions.js'
import { windowWords } from '../../../lib/data/eventual-reads.js'
import { petWithId } from '../answers.js'
import type { PlannedCommand } from '../sequence-budget.js'
import type { SequenceRequirement } from '../sequence-outcome.js'
import type { SequenceTarget } from '../sequence-target.js'
import { StoreModel } from '../store-model.js'

/**
 * Read a pet the model holds. Within the commands a pet the sequence created is read once: one not shown yet
 * is left to the sweep, which reads every created pet within the window (`patient`), all at once, so a store
 * that lags costs one wait per sequence.
 */
export async function readKnownPet(model: StoreModel, target: SequenceTarget, id: bigint, patient: boolean): Promise<void> {
  const known = model.pets.get(id)
  if (!known) return
  const requirement: SequenceRequirement = known.created ? 'createPet/round-trip-get' : 'getPet/returns-pet'
  if (known.created && !patient) {
    const exchange = await target.api.getPet(id)
    const pet = petWithId(exchange, id)
    if (!pet) return
    target.decide(requirement)
    await target.observe(model, pet, target.getSource(id, exchange))
    return
  }
  const read = await target.eventually(
    `GET /pets/${id}`,
    () => target.api.getPet(id),
    (exchange) => petWithId(exchange, id) !== undefined,
    known.created !== undefined,
    [id],
  )
  target.decide(requirement)
  const pet = petWithId(read.exchange, id)
  if (!pet) {
    target.fail(requirement, {
      message: `GET /pets/${id} (${target.at(read.exchange)}) did not answer 200 with pet ${id} ${windowWords(read)}; the pet is known from ${known.source.words}`,
      expected: `200 with pet ${id}`,
      actual: describeAnswer(read.exchange),
      exchange: read.exchange,
    })
    return
  }
  await target.observe(model, pet, target.getSource(id, read.exchange))
}

export class GetKnownPet implements fc.AsyncCommand<StoreModel, SequenceTarget>, PlannedCommand {
  constructor(
    private readonly among: 'created' | 'listed',
    private readonly index: number,
  ) {}

  readonly creates = 0

  /** One read; none of a created pet before the sequence created one (its precondition fails). */
  plannedRequests(createdBefore: number): number {
    return this.among === 'created' && createdBefore === 0 ? 0 : 1
  }

  check(model: Readonly<StoreModel>): boolean {
    return model[this.among].length > 0
  }

  async run(model: StoreModel, target: SequenceTarget): Promise<void> {
    if (!target.affords(model, 1)) return target.skip(this.toString())
    const id = StoreModel.pick(model[this.among], this.index)
    target.outcome.steps.push(`${this.toString()}: pet ${id}`)
    if (id !== undefined && target.getPetInService) await readKnownPet(model, target, id, false)
  }

  toString(): string {
    return `get the ${this.among} pet #${this.index}`
  }
}

export class GetUnknownPet implements fc.AsyncCommand<StoreModel, SequenceTarget>, PlannedCommand {
  constructor(private readonly id: bigint) {}

  readonly creates = 0

  plannedRequests(): number {
    return 1
  }

  check(model: Readonly<StoreModel>): boolean {
    return !model.pets.has(this.id)
  }

  async run(model: StoreModel, target: SequenceTarget): Promise<void> {
    if (!target.affords(model, 1)) return target.skip(this.toString())
    target.outcome.steps.push(this.toString())
    if (!target.getPetInService) return
    const exchange = await target.api.getPet(this.id)
    const pet = petWithId(exchange, this.id)
    if (pet) {
      // The store holds a pet of that id after all: from now on the model knows it.
      await target.observe(model, pet, target.getSource(this.id, exchange))
      return
    }
    target.decide('getPet/unknown-id-404')
    const notFound = failureOf(exchange, (expect) => expect.errorAnswer(exchange, 404, `GET /pets/${this.id} (${target.at(exchange)}), an id no pet is known to hold,`))
    if (notFound) target.fail('getPet/unknown-id-404', notFound)
  }

  toString(): string {
    return `get unknown id ${this.id}`
  }
}
