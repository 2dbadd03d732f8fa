/**
 * Every fault: the reference with exactly one deviation from the spec or the policy, naming the
 * requirements that must catch it. The mutation score runs the real command against each.
 */
import type { Variant } from '../variant.js'
import { attributionFaults } from './attribution.js'
import { authFaults } from './auth.js'
import { createPetFaults } from './create-pet.js'
import { editFaults } from './edits.js'
import { errorsAndResponsesFaults } from './errors-and-responses.js'
import { frameworkHabitFaults } from './framework-habits.js'
import { getPetFaults } from './get-pet.js'
import { httpPartFaults } from './http-parts.js'
import { listPetsFaults } from './list-pets.js'
import { illFormedTextFaults, spellingFaults } from './spellings.js'
import { viewsFaults } from './views.js'

export const faults: Variant[] = [
  ...listPetsFaults,
  ...createPetFaults,
  ...getPetFaults,
  ...viewsFaults,
  ...authFaults,
  ...errorsAndResponsesFaults,
  ...frameworkHabitFaults,
  ...spellingFaults,
  ...illFormedTextFaults,
  ...editFaults,
  ...httpPartFaults,
  ...attributionFaults,
]
