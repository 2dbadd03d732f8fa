/**
 * The commands of a sequence (fast-check `AsyncCommand`s over the model and the target) and the arbitrary
 * that draws them: creates (one pet, or several at once, valid bodies with and without status and category
 * ids across int64), lists (every combination of status and limit the policy names, out-of-range limits
 * included) and gets (of a pet the sequence created, of one it listed, of an id no pet is known to hold).
 * A read-only arbitrary, for the smoke profile, draws only lists and gets.
 */
import fc from 'fast-check'
import { type NewPetArbitraryOptions, renderValidNewPet, type ValidNewPet, validNewPetArbitrary } from '../../lib/data/new-pet-arbitraries.js'
import { INT64_MAX } from '../../lib/http/int64.js'
import { PET_STATUSES } from '../../lib/spec/petstore-api.js'
import { type ListRequest, listWords, type SentPet, type SequenceTarget } from './sequence-target.js'
import { StoreModel } from './store-model.js'

export type SequenceCommand = fc.AsyncCommand<StoreModel, SequenceTarget>

export interface CommandOptions extends NewPetArbitraryOptions {
  /** False in the smoke profile: the sequences then only read. */
  writes: boolean
  /** Most commands in one sequence. */
  length: number
}

/** A generated pet as sent: the run's prefix, then the generated name. */
function sentPet(pet: ValidNewPet, namePrefix: string): SentPet {
  const tagged = { ...pet, name: `${namePrefix}${pet.name}` }
  return { name: tagged.name, categoryId: pet.categoryId, ...(pet.status !== undefined ? { status: pet.status } : {}), body: renderValidNewPet(tagged) }
}

function petWords(pet: ValidNewPet): string {
  return `{name ${JSON.stringify(pet.name.length > 24 ? `${pet.name.slice(0, 24)}…` : pet.name)}, categoryId ${pet.categoryId}${pet.categoryIdSpelling === 'point-zero' ? '.0' : ''}, status ${pet.status ?? '(none)'}}`
}

class CreatePets implements SequenceCommand {
  constructor(private readonly pets: readonly ValidNewPet[]) {}
  check(): boolean {
    return true
  }
  async run(model: StoreModel, target: SequenceTarget): Promise<void> {
    if (!target.affords(model, this.pets.length, this.pets.length)) return target.skip(this.toString())
    target.outcome.steps.push(this.toString())
    await target.create(
      model,
      this.pets.map((pet) => sentPet(pet, target.namePrefix)),
    )
  }
  toString(): string {
    return this.pets.length === 1 ? `create ${petWords(this.pets[0] as ValidNewPet)}` : `create at once ${this.pets.map(petWords).join(' and ')}`
  }
}

class ListPets implements SequenceCommand {
  constructor(private readonly query: ListRequest) {}
  check(): boolean {
    return true
  }
  async run(model: StoreModel, target: SequenceTarget): Promise<void> {
    if (!target.affords(model, 1)) return target.skip(this.toString())
    target.outcome.steps.push(this.toString())
    await target.list(model, this.query)
  }
  toString(): string {
    return `list ${listWords(this.query).slice('GET '.length)}`
  }
}

/** GET of a pet the model holds, picked by a drawn index among those the sequence created (or listed). */
class GetKnownPet implements SequenceCommand {
  constructor(
    private readonly among: 'created' | 'listed',
    private readonly index: number,
  ) {}
  check(model: Readonly<StoreModel>): boolean {
    return model[this.among].length > 0
  }
  async run(model: StoreModel, target: SequenceTarget): Promise<void> {
    if (!target.affords(model, 1)) return target.skip(this.toString())
    const id = StoreModel.pick(model[this.among], this.index)
    target.outcome.steps.push(`${this.toString()}: pet ${id}`)
    if (id !== undefined && target.getPetInService) await target.getKnown(model, id)
  }
  toString(): string {
    return `get the ${this.among} pet #${this.index}`
  }
}

class GetUnknownPet implements SequenceCommand {
  constructor(private readonly id: bigint) {}
  check(model: Readonly<StoreModel>): boolean {
    return !model.pets.has(this.id)
  }
  async run(model: StoreModel, target: SequenceTarget): Promise<void> {
    if (!target.affords(model, 1)) return target.skip(this.toString())
    target.outcome.steps.push(this.toString())
    if (target.getPetInService) await target.getUnknown(model, this.id)
  }
  toString(): string {
    return `get unknown id ${this.id}`
  }
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

/** Ids in the top quarter of int64, far above any counter: a pet that holds one is taken as found, never as a fault. */
const unknownIdArbitrary: fc.Arbitrary<SequenceCommand> = fc.bigInt({ min: 2n ** 62n, max: INT64_MAX }).map((id) => new GetUnknownPet(id))

const index = fc.nat({ max: 99 })

/** Sequences of at most `length` commands; `replayPath` replays a shrunk sequence (see lib/data/command-sequences.ts). */
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
