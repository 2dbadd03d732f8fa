import { describe, test } from '../../lib/checks/registry.js'
import { requireGetPetInService, requireServesValid } from '../fixtures.js'
import { describeInvalid, describeValid, invalidBodyProperties, judgeGenerated, validBodyProperties } from './generated-bodies.js'

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
    await judgeGenerated(check, await invalidBodyProperties(check), 'createPet/invalid-body-400', describeInvalid)
    await requireServesValid(check, 'createPet')
  })

  test('[createPet/invalid-body-not-created] no pet is stored from a generated invalid NewPet', async ({ check }) => {
    check.requireWrites()
    await judgeGenerated(check, await invalidBodyProperties(check), 'createPet/invalid-body-not-created', describeInvalid)
  })
})
