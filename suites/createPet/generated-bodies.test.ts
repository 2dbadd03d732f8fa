import { describe, test } from '../../lib/check.js'
import type { ValidNewPet } from '../../lib/new-pet-arbitraries.js'
import { requireGetPetInService } from '../fixtures.js'
import { invalidBodyProperties, judgeGenerated, validBodyProperties } from './generated-bodies.js'

/** The counterexample in words; a short name is also spelled out in code points, since some are invisible. */
const describeValid = (pet: ValidNewPet) =>
  `name ${JSON.stringify(pet.name)} (${[...pet.name].length} code points${[...pet.name].length <= 8 && pet.name !== '' ? `: ${[...pet.name].map((char) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ')}` : ''}), categoryId ${pet.categoryId}${pet.categoryIdSpelling === 'point-zero' ? ' written as .0' : ''}, status ${pet.status ?? '(none)'}`

describe('createPet: generated valid NewPet bodies (fast-check; --seed, --num-runs)', () => {
  test('[createPet/returns-201-pet] every generated valid NewPet is answered 201 with a Pet carrying an id', async ({ check }) => {
    check.requireWrites()
    await judgeGenerated(check, await validBodyProperties(check), 'createPet/returns-201-pet', describeValid)
  })

  test('[createPet/echoes-fields] every generated valid NewPet is echoed exactly: name code point for code point, categoryId digit for digit, status when sent', async ({
    check,
  }) => {
    check.requireWrites()
    await judgeGenerated(check, await validBodyProperties(check), 'createPet/echoes-fields', describeValid)
  })

  test('[createPet/round-trip-get] GET /pets/{id} returns every generated pet as it was created', async ({ check }) => {
    check.requireWrites()
    requireGetPetInService(check)
    await judgeGenerated(check, await validBodyProperties(check), 'createPet/round-trip-get', describeValid)
  })
})

describe('createPet: generated invalid NewPet bodies, one broken rule each (fast-check)', () => {
  test('[createPet/invalid-body-400] every generated invalid NewPet is answered exactly 400 with an Error body', async ({ check }) => {
    check.requireWrites()
    await judgeGenerated(check, await invalidBodyProperties(check), 'createPet/invalid-body-400', (invalid) => `rule broken: ${invalid.rule} (${invalid.detail})`)
  })

  test('[createPet/invalid-body-not-created] no pet is stored from a generated invalid NewPet', async ({ check }) => {
    check.requireWrites()
    await judgeGenerated(check, await invalidBodyProperties(check), 'createPet/invalid-body-not-created', (invalid) => `rule broken: ${invalid.rule} (${invalid.detail})`)
  })
})
