/** Every allowance, by the layer of the service it changes (docs/allowances.md is rendered from them). */
import type { Allowance } from './allowance.js'
import { answerAllowances } from './answers.js'
import { authAllowances } from './auth.js'
import { createPetAllowances } from './create-pet.js'
import { fieldAllowances } from './fields.js'
import { getPetAllowances } from './get-pet.js'
import { listPetsAllowances } from './list-pets.js'
import { routingAllowances } from './routing.js'
import { storeAllowances } from './store.js'
import { transportAllowances } from './transport.js'

export const allowances: readonly Allowance[] = [
  ...storeAllowances,
  ...listPetsAllowances,
  ...createPetAllowances,
  ...getPetAllowances,
  ...fieldAllowances,
  ...authAllowances,
  ...routingAllowances,
  ...answerAllowances,
  ...transportAllowances,
]
