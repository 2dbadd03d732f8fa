import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { categoryIdRespelling, invalidNewPetArbitrary, renderValidNewPet, validNewPetArbitrary } from '../../lib/data/new-pet-arbitraries.js'
import { classifyNewPet, NEW_PET_RULES } from '../../lib/data/new-pet-oracle.js'
import { INT64_MAX, INT64_MIN } from '../../lib/http/int64.js'
import { requestBodyText } from '../../lib/spec/operation-requests.js'
import { INTEGER_RESPELLINGS, JSON_RESPELLINGS } from '../../lib/spec/spellings.js'

const SAMPLES = 3000
const ANY_CATEGORY = { categoryIds: [] }

describe('the NewPet oracle classifies bodies exactly as the schema does, on the exact digits', () => {
  test.for([
    ['{"name":"","categoryId":0}', 'an empty name'],
    ['{"name":"x","categoryId":5.0}', 'categoryId 5.0 (an integer value)'],
    ['{"name":"x","categoryId":9223372036854775807}', 'categoryId 2^63 - 1'],
    ['{"name":"x","categoryId":-9223372036854775808}', 'categoryId -2^63'],
    ['{"name":"x","categoryId":1,"status":"sold","colour":"red"}', 'an unknown property'],
  ])('valid: %s (%s)', ([text]) => {
    expect(classifyNewPet(text as string)).toEqual({ valid: true })
  })

  test.for([
    ['', 'body-empty'],
    ['{"name":', 'body-malformed-json'],
    ['[{"name":"x","categoryId":1}]', 'body-not-object'],
    ['{"categoryId":1}', 'name-missing'],
    ['{"name":"x"}', 'categoryId-missing'],
    ['{"name":7,"categoryId":1}', 'name-wrong-type'],
    ['{"name":"x","categoryId":"1"}', 'categoryId-wrong-type'],
    ['{"name":"x","categoryId":1.5}', 'categoryId-fractional'],
    ['{"name":"x","categoryId":1.00000000000000001}', 'categoryId-fractional'],
    ['{"name":"x","categoryId":9223372036854775808}', 'categoryId-outside-int64'],
    ['{"name":"x","categoryId":-9223372036854775809}', 'categoryId-outside-int64'],
    ['{"name":"x","categoryId":1,"status":null}', 'status-wrong-type'],
    ['{"name":"x","categoryId":1,"status":"Sold"}', 'status-outside-enum'],
  ])('invalid: %s breaks %s', ([text, rule]) => {
    expect(classifyNewPet(text as string)).toMatchObject({ valid: false, rules: [rule] })
  })
})

describe('generated NewPet bodies', () => {
  test(`${SAMPLES} valid bodies are all valid, well-formed Unicode, and cover the int64 landmarks and long names`, () => {
    const pets = fc.sample(validNewPetArbitrary(ANY_CATEGORY), { seed: 42, numRuns: SAMPLES })
    for (const pet of pets) {
      expect(classifyNewPet(renderValidNewPet(pet)), renderValidNewPet(pet)).toEqual({ valid: true })
      expect(/\p{Cs}/u.test(pet.name), 'a lone surrogate').toBe(false)
    }
    const ids = new Set(pets.map((pet) => pet.categoryId))
    for (const landmark of [0n, INT64_MAX, INT64_MIN, 2n ** 53n + 1n]) expect(ids.has(landmark), String(landmark)).toBe(true)
    expect(pets.some((pet) => pet.categoryId > 2n ** 53n)).toBe(true)
    expect(pets.some((pet) => pet.categoryId < 0n)).toBe(true)
    expect(pets.some((pet) => pet.name === '')).toBe(true)
    expect(pets.some((pet) => pet.name.length > 0 && pet.name.trim() === '')).toBe(true)
    expect(pets.some((pet) => /^\s.*\S\s$/su.test(pet.name))).toBe(true)
    expect(pets.some((pet) => [...pet.name].some((char) => (char.codePointAt(0) ?? 0) > 0xffff))).toBe(true)
    expect(pets.some((pet) => /[\u0300-\u036f]/.test(pet.name))).toBe(true)
    expect(pets.some((pet) => /[\u0590-\u06ff]/.test(pet.name))).toBe(true)
    expect(pets.some((pet) => [...pet.name].some((char) => char === '"' || char === '\\' || (char.codePointAt(0) ?? 0x20) < 0x20))).toBe(true)
    expect(Math.max(...pets.map((pet) => pet.name.length))).toBeGreaterThan(1500)
    expect(new Set(pets.map((pet) => pet.status))).toEqual(new Set([undefined, 'available', 'pending', 'sold']))
    expect(pets.some((pet) => Object.keys(pet.extra).length > 0)).toBe(true)
    // Every integer respelling of the input catalogue is drawn, and each renders a body the oracle finds valid.
    for (const spelling of INTEGER_RESPELLINGS) expect(pets.some((pet) => categoryIdRespelling(pet) === spelling)).toBe(true)
  })

  test('with configured category ids, valid bodies only use those', () => {
    const pets = fc.sample(validNewPetArbitrary({ categoryIds: ['3', '9223372036854775807'] }), { seed: 7, numRuns: 500 })
    expect(new Set(pets.map((pet) => pet.categoryId))).toEqual(new Set([3n, INT64_MAX]))
  })

  test(`${SAMPLES} invalid bodies each break exactly the rule they are labelled with, and every rule is drawn`, () => {
    const cases = fc.sample(invalidNewPetArbitrary(ANY_CATEGORY), { seed: 43, numRuns: SAMPLES })
    for (const invalid of cases) {
      const text = requestBodyText(invalid.body)
      expect(classifyNewPet(text), `${invalid.detail}: ${text}`).toMatchObject({ valid: false, rules: [invalid.rule] })
    }
    expect(new Set(cases.map((invalid) => invalid.rule))).toEqual(new Set(NEW_PET_RULES))
    const details = cases.map((invalid) => invalid.detail)
    for (const type of ['a number', 'a boolean', 'null', 'an array', 'an object'])
      expect(
        details.some((detail) => detail === `name is ${type}`),
        type,
      ).toBe(true)
    expect(details).toContain('categoryId is 9223372036854775808, outside int64')
    expect(details).toContain('categoryId is -9223372036854775809, outside int64')
    expect(details).toContain('categoryId is 1.00000000000000001')
    expect(details.some((detail) => /^categoryId is the string "-?\d+"$/.test(detail))).toBe(true)
    expect(details).toContain('status is "Available"')
    expect(details).toContain('status is ""')
  })
})

describe('the JSON respellings of the input catalogue mean the JSON they respell (RFC 8259)', () => {
  test('on generated valid NewPets with names of any characters: the same value once parsed, and past ASCII written in escapes alone', () => {
    const pets = fc.sample(validNewPetArbitrary(ANY_CATEGORY), { seed: 11, numRuns: 500 })
    for (const pet of pets) {
      const text = renderValidNewPet(pet)
      for (const spelling of JSON_RESPELLINGS) expect(JSON.parse(spelling.spell(text)), spelling.label).toEqual(JSON.parse(text))
    }
    const pastAscii = JSON_RESPELLINGS.find((spelling) => spelling.label.startsWith('each character past ASCII'))
    expect(pastAscii?.spell('{"name":"é🐾"}')).toBe('{"name":"\\u00e9\\ud83d\\udc3e"}')
    expect(pets.some((pet) => /[\u0080-\uffff]/.test(pastAscii?.spell(renderValidNewPet(pet)) ?? ''))).toBe(false)
  })
})
