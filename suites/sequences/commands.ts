/**
 * The commands of a sequence (fast-check \`AsyncCommand\`s over the model and the target, each in commands/
 * with its own precondition, run and postcondition) and the arbitrary that draws them: creates (one pet, or
 * several at once, valid bodies with and without status and category ids across int64), lists (every
 * combination of status and limit the policy names, out-of-range limits included) and gets (of a pet the
 * sequence created, of one it listed, of an id no pet is known to hold). A read-only arbitrary, for the
 * smoke profile, draws only lists and gets. After the commands, the sweep reads every created pet in every view.
 */
import fc from 'fast-check'
import { type NewPetArbitraryOptions, validNewPetArbitrary } from '../../lib/data/new-pet-arbitraries.js'
import { INT64_MAX } from '../../lib/http/int64.js'
import { PET_STATUSES } from '../../lib/spec/petstore-api.js'
import { CreatePets } from './commands/create-pets.js'
import { GetKnownPet, GetUnknownPet, readKnownPet } from './commands/get-pet.js'
import { ListPets } from './commands/list-pets.js'
import type { SequenceTarget } from './sequence-target.js'
import type { StoreModel } from './store-model.js'

export type SequenceCommand = fc.AsyncCommand<StoreModel, SequenceTarget>

export interface CommandOptions extends NewPetArbitraryOptions {
  /** False in the smoke profile: the sequences then only read. */
  writes: boolean
  /** Most commands in one sequence. */
  length: number
}

/**
 * After the commands: every created pet read by GET (within the window, all at once, so a lagging store costs
 * one wait), and every status they show listed complete, so each is seen in every view.
 */
export async function sweep(model: StoreModel, target: SequenceTarget): Promise<void> {
  if (target.brokenTransport) return
  if (target.getPetInService) await Promise.all(model.created.map((id) => readKnownPet(model, target, id, true)))
  const shown = new Set(model.created.map((id) => model.pets.get(id)?.view.status))
  await Promise.all(PET_STATUSES.filter((status) => shown.has(status)).map((status) => new ListPets({ status, limit: 100 }, true).run(model, target)))
}

/** Limits: none (the default page), the landmarks 1, 20, 21, 99 and 100, any of 1..100, and out of range. */
const limitArbitrary: fc.Arbitrary<number | undefined> = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 2 },
  { arbitrary: fc.constantFrom(100, 1, 20, 21, 99), weight: 3 },
  { arbitrary: fc.integer({ min: 1, max: 100 }), weight: 2 },
  { arbitrary: fc.constantFrom(0, 101, -1), weight: 1 },
)

const listArbitrary: fc.Arbitrary<SequenceCommand> = fc
  .record({ status: fc.option(fc.constantFrom(...PET_STATUSES), { nil: undefined }), limit: limitArbitrary })
  .map(({ status, limit }) => new ListPets({ ...(status !== undefined ? { status } : {}), ...(limit !== undefined ? { limit } : {}) }))

/**
 * Ids in the top quarter of int64, far above any counter (a pet that holds one is taken as found, never as a
 * fault), and clear of int64's last values, where 400 is also allowed and getPet/int64-edge-ids judges: for these
 * only 404 is right.
 */
const unknownIdArbitrary: fc.Arbitrary<SequenceCommand> = fc.bigInt({ min: 2n ** 62n, max: INT64_MAX - 2n ** 16n }).map((id) => new GetUnknownPet(id))

const index = fc.nat({ max: 99 })

/** Sequences of at most `length` commands; `replayPath` replays a shrunk sequence (see lib/data/live-property.ts). */
export function commandsArbitrary(options: CommandOptions, replayPath?: string): fc.Arbitrary<Iterable<SequenceCommand>> {
  const pet = validNewPetArbitrary(options)
  const reads: Array<fc.WeightedArbitrary<SequenceCommand>> = [
    { arbitrary: listArbitrary, weight: 4 },
    { arbitrary: index.map((at) => new GetKnownPet('listed', at)), weight: 1 },
    { arbitrary: unknownIdArbitrary, weight: 1 },
  ]
  const writes: Array<fc.WeightedArbitrary<SequenceCommand>> = [
    { arbitrary: pet.map((one) => new CreatePets([one])), weight: 4 },
    { arbitrary: fc.array(pet, { minLength: 2, maxLength: 2 }).map((several) => new CreatePets(several)), weight: 1 },
    { arbitrary: index.map((at) => new GetKnownPet('created', at)), weight: 2 },
  ]
  const command = fc.oneof(...(options.writes ? [...writes, ...reads] : reads))
  return fc.commands([command], { maxCommands: options.length, size: 'max', ...(replayPath !== undefined ? { replayPath } : {}) })
}
