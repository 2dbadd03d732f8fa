/**
 * Create pets, one or several at once (overlapping in time). Postcondition of each answer: 201 with a Pet
 * and an integer id, echoing the body sent, with an id no pet the model knows holds (those created in the
 * same batch included); the model then holds the pet as its 201 answer showed it.
 */
import type fc from 'fast-check'
import { describeAnswer, lostToDroppedConnection } from '../../../lib/checks/assertions.js'
import { petDifferences } from '../../../lib/checks/differences.js'
import { renderValidNewPet, type ValidNewPet } from '../../../lib/data/new-pet-arbitraries.js'
import { integerField } from '../../../lib/http/json.js'
import { responseObject } from '../../../lib/http/response-json.js'
import type { OperationExchange, PetStatus } from '../../../lib/spec/petstore-api.js'
import type { PlannedCommand } from '../sequence-budget.js'
import type { SequenceTarget } from '../sequence-target.js'
import type { StoreModel } from '../store-model.js'

/** A pet as sent: the sequence's name prefix, then the generated name; field by field and as the exact body text. */
interface SentPet {
  name: string
  categoryId: bigint
  status?: PetStatus
  body: string
}

function sentPet(pet: ValidNewPet, namePrefix: string): SentPet {
  const tagged = { ...pet, name: `${namePrefix}${pet.name}` }
  return { name: tagged.name, categoryId: pet.categoryId, ...(pet.status !== undefined ? { status: pet.status } : {}), body: renderValidNewPet(tagged) }
}

function petWords(pet: ValidNewPet): string {
  return `{name ${JSON.stringify(pet.name.length > 24 ? `${pet.name.slice(0, 24)}…` : pet.name)}, categoryId ${pet.categoryId}${pet.categoryIdSpelling === 'integer' ? '' : ' (respelled)'}, status ${pet.status ?? '(none)'}}`
}

export class CreatePets implements fc.AsyncCommand<StoreModel, SequenceTarget>, PlannedCommand {
  constructor(private readonly pets: readonly ValidNewPet[]) {}

  get creates(): number {
    return this.pets.length
  }

  plannedRequests(): number {
    return this.pets.length
  }

  check(): boolean {
    return true
  }

  async run(model: StoreModel, target: SequenceTarget): Promise<void> {
    if (!target.affords(model, this.pets.length, this.pets.length)) return target.skip(this.toString())
    target.outcome.steps.push(this.toString())
    const pets = this.pets.map((pet) => sentPet(pet, target.namePrefix))
    const posts = await Promise.all(pets.map((pet) => target.api.createPet({ raw: pet.body })))
    posts.forEach((post, index) => {
      this.postcondition(model, target, pets[index] as SentPet, post)
    })
  }

  private postcondition(model: StoreModel, target: SequenceTarget, pet: SentPet, post: OperationExchange): void {
    const words = `POST /pets (${target.at(post)})`
    // No answer because the target closed the connection under it: the pet may exist or not, and nothing is decided.
    if (lostToDroppedConnection(post)) return
    target.decide('createPet/returns-201-pet')
    const body = post.response?.status === 201 ? responseObject(post) : undefined
    const id = body ? integerField(body.id) : undefined
    if (!body || id === undefined) {
      target.fail('createPet/returns-201-pet', {
        message: `${words}, a valid NewPet, was not answered 201 with a Pet carrying an integer id`,
        expected: '201 with a Pet',
        actual: describeAnswer(post),
        exchange: post,
      })
      return
    }
    target.decide('createPet/echoes-fields')
    const echoed = petDifferences({ name: pet.name, categoryId: pet.categoryId, ...(pet.status !== undefined ? { status: pet.status } : {}) }, body)
    if (echoed.length > 0) {
      target.fail('createPet/echoes-fields', {
        message: `${words} does not echo the body sent: ${echoed.join('; ')}`,
        expected: pet.body,
        actual: describeAnswer(post),
        exchange: post,
      })
    }
    // The model already holds the pets created before this answer, those of this same batch included.
    const holder = model.holderOf(id)
    if (holder) {
      target.fail('createPet/ids-unique', {
        message: `${words} answered id ${id}, already the id of a pet (${holder})`,
        expected: 'an id no other pet holds',
        actual: `id ${id}`,
        exchange: post,
      })
    } else if (model.pets.size > 0) {
      target.decide('createPet/ids-unique')
    }
    model.recordCreated(id, body, { words: `the 201 answer of ${target.at(post)}` }, pet.status)
  }

  toString(): string {
    return this.pets.length === 1 ? `create ${petWords(this.pets[0] as ValidNewPet)}` : `create at once ${this.pets.map(petWords).join(' and ')}`
  }
}
