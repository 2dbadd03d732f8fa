import fc from 'fast-check'
import { describe, test } from '../../lib/checks/registry.js'
import { inputClass } from '../../lib/spec/input-catalogue.js'
import { CLIENT_ERROR_OR_OK, replayCommand, requireServesValid } from '../fixtures.js'

/**
 * Out of range, not a number, and 101 in every notation that is no decimal integer (the input catalogue's other
 * notations): a lenient parser that reads one as 101 and lists 101 pets shows. And the infinities, past a double
 * and past a decimal reader, on the whole store: a validator that reads the limit as a double and checks the maximum
 * only of a finite one (ajv's coerced `maximum` in Fastify) lists every pet, which a filtered list too short to pass
 * 100 cannot show.
 */
const OUT_OF_RANGE_LIMITS = [
  '0',
  '-1',
  '101',
  'abc',
  '1.5',
  'Infinity',
  '1e999',
  '1e99999999999999999999',
  'NaN',
  ...inputClass('query limit', 'not the value').spellings.map((spelling) => spelling.spell('101')),
]

/**
 * The limit given without a value (`limit=`), as dropping its value leaves it, on the whole store: a service whose cap
 * is guarded by the value's truth (`if (limit)`, or an empty text read as "no limit") lists every pet, which only a
 * list without a filter, on a store of more than 100, shows. The out-of-range row's MUST holds it (at most 100 pets,
 * or a 4xx Error); its SHOULD of 400 is left to the values the row names, since reading an empty value as no value at
 * all (the default page) is how most query parsers read it (docs/decisions.md).
 */
const EMPTY_LIMIT = ''

/**
 * Limits drawn by the seed, one from each of `count` equal slices of 1..100 (at least 20, at most 100): every
 * stretch of the range as wide as a slice (5 or less) is tried whatever the seed, which uniform draws do not
 * promise (30 of them miss 11..19 at one seed in seventeen).
 */
function limitsAcrossTheRange(seed: number, count: number): number[] {
  const slices = Math.min(100, Math.max(20, count))
  const slice = (index: number) => fc.integer({ min: 1 + Math.floor((index * 100) / slices), max: Math.floor(((index + 1) * 100) / slices) })
  const [limits = []] = fc.sample(fc.tuple(...Array.from({ length: slices }, (_, index) => slice(index))), { seed, numRuns: 1 })
  return [...new Set(limits)]
}

describe('listPets: the limit parameter', () => {
  test('[listPets/limit-default-20] without limit, at most 20 pets are returned', async ({ check }) => {
    const survey = await check.survey()
    check.expect.answeredWith(survey.defaultPage, 200, 'GET /pets', 'listPets/returns-pets')
    const pets = check.expect.petArray(survey.defaultPage)
    check.expect.that(pets.length <= 20, `GET /pets returned ${pets.length} pets, more than the default 20`, {
      exchange: survey.defaultPage,
      expected: 'at most 20 pets',
      actual: `${pets.length} pets`,
    })
    check.require(survey.lowerBound >= 21, `the store is known to hold ${survey.lowerBound} pets; 21 are needed for the default page to be evidence`)
  })

  /** Fixed rows, and the largest limit the known store size still makes evidence (what a read-only run can reach). */
  test.for(['1', '2', '50', 'N just below the store size'])('[listPets/limit-caps-size] limit=%s is answered 200 with at most that many pets', async (row, { check }) => {
    const survey = await check.survey()
    const limit = Number.isNaN(Number(row)) ? Math.min(99, survey.lowerBound - 1) : Number(row)
    check.require(limit >= 1, `the store is known to hold ${survey.lowerBound} pets; no limit below it is left to try`)
    const exchange = await check.shared(`limit=${limit}`, (api) => api.listPets({ limit }))
    check.expect.status(exchange, 200, `GET /pets?limit=${limit}`)
    const pets = check.expect.petArray(exchange)
    check.expect.that(pets.length <= limit, `limit=${limit} returned ${pets.length} pets`, { exchange, expected: `at most ${limit} pets`, actual: `${pets.length} pets` })
    check.require(survey.lowerBound > limit, `the store is known to hold ${survey.lowerBound} pets; more than ${limit} are needed for limit=${limit} to be evidence`)
  })

  /** Beside the landmarks, limits drawn across the whole range (fast-check, by --seed): a fault may sit anywhere in 1..100. */
  test('[listPets/limit-caps-size] generated limits from 1 to 100 are each answered 200 with at most that many pets', async ({ check }) => {
    const survey = await check.survey()
    const { seed, numRuns } = check.context
    const limits = limitsAcrossTheRange(seed, numRuns)
    const exchanges = await Promise.all(limits.map((limit) => check.shared(`limit=${limit}`, (api) => api.listPets({ limit }))))
    limits.forEach((limit, index) => {
      const exchange = exchanges[index] as (typeof exchanges)[number]
      check.expect.status(exchange, 200, `GET /pets?limit=${limit}`)
      const pets = check.expect.petArray(exchange)
      check.expect.that(pets.length <= limit, `limit=${limit}, a generated limit, returned ${pets.length} pets (replay: ${replayCommand(check, 'listPets/limit-caps-size')})`, {
        exchange,
        expected: `at most ${limit} pets`,
        actual: `${pets.length} pets`,
      })
    })
    const evidence = limits.filter((limit) => survey.lowerBound > limit)
    check.observe(
      `${limits.length} distinct generated limits (seed ${seed}): ${limits.join(', ')}; ${evidence.length} below the ${survey.lowerBound} pets the store is known to hold`,
    )
    check.require(evidence.length > 0, `the store is known to hold ${survey.lowerBound} pets; no generated limit was below it`)
  })

  test('[listPets/limit-max-100] limit=100 is answered 200 with at most 100 pets', async ({ check }) => {
    const survey = await check.survey()
    check.expect.status(survey.limit100, 200, 'GET /pets?limit=100')
    const pets = check.expect.petArray(survey.limit100)
    check.expect.that(pets.length <= 100, `limit=100 returned ${pets.length} pets`, { exchange: survey.limit100, expected: 'at most 100 pets', actual: `${pets.length} pets` })
    check.require(survey.lowerBound > 100, `the store is known to hold ${survey.lowerBound} pets; 101 are needed for limit=100 to be evidence`)
  })

  /**
   * A limit given twice, a valid one and one past 100, in either order: a validator that reads one end and a query
   * layer that reads the other list every pet. A refusal, or a list of at most 100, passes (policy §2b: no list answer
   * is longer than 100, whatever the request).
   */
  test.for([
    ['7', '500'],
    ['500', '7'],
  ])('[listPets/limit-max-100] limit=%s&limit=%s: a 4xx Error, or a list of at most 100 pets', async (limits, { check }) => {
    const survey = await check.survey()
    const request = `GET /pets?limit=${limits.join('&limit=')}`
    const exchange = await check.api.listPets({ limit: limits })
    const response = check.expect.status(exchange, CLIENT_ERROR_OR_OK, request)
    if (response.status >= 400) check.expect.errorAnswer(exchange, response.status, request)
    else {
      const pets = check.expect.petArray(exchange)
      check.expect.that(pets.length <= 100, `${request} returned ${pets.length} pets, more than 100`, { exchange, expected: 'at most 100 pets', actual: `${pets.length} pets` })
    }
    check.require(survey.lowerBound > 100, `the store is known to hold ${survey.lowerBound} pets; 101 are needed for a list past 100 to show`)
  })

  test.for([1, 20, 100])('[listPets/limit-fills-page] a page of %i is full when the store holds that many pets', async (size, { check }) => {
    const survey = await check.survey()
    const exchange = size === 20 ? survey.defaultPage : size === 100 ? survey.limit100 : await check.shared(`limit=${size}`, (api) => api.listPets({ limit: size }))
    const request = size === 20 ? 'GET /pets' : `GET /pets?limit=${size}`
    // The status of these lists is the rule's that names it: limit-max-100's for limit=100, returns-pets' for the default page.
    const judgedBy = size === 20 ? 'listPets/returns-pets' : size === 100 ? 'listPets/limit-max-100' : 'listPets/limit-caps-size'
    check.expect.answeredWith(exchange, 200, request, judgedBy)
    const pets = check.expect.petArray(exchange)
    check.require(survey.lowerBound >= size, `the store is known to hold ${survey.lowerBound} pets, fewer than ${size}`)
    // The survey's lists went out together, on a store the checks may be creating pets in (when nothing was seeded):
    // a short page is read again, now that the store is known to hold enough, before it is judged.
    const judged = pets.length === size ? exchange : await check.api.listPets(size === 20 ? {} : { limit: size })
    if (judged !== exchange) check.expect.answeredWith(judged, 200, request, judgedBy)
    const shown = judged === exchange ? pets : check.expect.petArray(judged)
    check.expect.that(shown.length === size, `${request} returned ${shown.length} pets while the store holds at least ${survey.lowerBound}`, {
      exchange: judged,
      expected: `${size} pets`,
      actual: `${shown.length} pets`,
    })
  })

  test.for([EMPTY_LIMIT, ...OUT_OF_RANGE_LIMITS])('[listPets/limit-out-of-range] limit=%s gets a 4xx Error or a 200 list of at most 100, never a 5xx', async (limit, { check }) => {
    const exchange = await check.shared(`limit=${limit}`, (api) => api.listPets({ limit }))
    const response = check.expect.status(exchange, CLIENT_ERROR_OR_OK, `GET /pets?limit=${limit}`)
    if (response.status >= 400) {
      check.expect.errorAnswer(exchange, response.status, `GET /pets?limit=${limit}`)
      await requireServesValid(check, 'listPets')
      return
    }
    const pets = check.expect.petArray(exchange)
    check.expect.that(pets.length <= 100, `limit=${limit} returned ${pets.length} pets, more than the maximum 100`, {
      exchange,
      expected: 'at most 100 pets',
      actual: `${pets.length} pets`,
    })
    const survey = await check.survey()
    check.require(survey.lowerBound >= 101, `limit=${limit} was answered 200; the store is known to hold ${survey.lowerBound} pets, 101 are needed to show the maximum holds`)
  })

  test.for(OUT_OF_RANGE_LIMITS)('[listPets/limit-out-of-range-400] limit=%s is answered 400 with an Error body', async (limit, { check }) => {
    const exchange = await check.shared(`limit=${limit}`, (api) => api.listPets({ limit }))
    check.expect.errorAnswer(exchange, 400, `GET /pets?limit=${limit}`)
    await requireServesValid(check, 'listPets')
  })
})
