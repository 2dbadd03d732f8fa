/**
 * Lists asked for in every spelling the input catalogue names (lib/spec/input-catalogue.ts) that means the same
 * request: percent-encoded query values, an Accept that admits JSON in other words, the fixed path segment
 * percent-encoded (SHOULD). Each is compared with the plain request. Other checks create pets meanwhile, so the
 * comparison is on what stays put: the status of the answer, a full page of PAGE pets on both sides, and the
 * filter holding on every pet the spelled request lists.
 */
import type { Check } from '../../lib/checks/check.js'
import { describe, test } from '../../lib/checks/registry.js'
import { listedPets } from '../../lib/data/store-survey.js'
import { inputClass } from '../../lib/spec/input-catalogue.js'
import { withHeader, withPathBelowBase, withQuery } from '../../lib/spec/operation-requests.js'
import { type OperationExchange, PET_STATUSES, type PetStatus } from '../../lib/spec/petstore-api.js'
import { type Field, queryText, type RequestModel } from '../../lib/spec/request-model.js'
import type { Spelling } from '../../lib/spec/spellings.js'

/** The page both spellings ask for: small, so a store that is seeded fills it for the status it has most of. */
const PAGE = 5

/** The status the survey saw most pets of, and its plain request `status=S&limit=PAGE` (sent once per run). */
async function fullFilteredPage(check: Check): Promise<{ status: PetStatus; plain: OperationExchange }> {
  const survey = await check.survey()
  const counts = PET_STATUSES.map((status) => [status, listedPets(survey.byStatus[status]).length] as const)
  const [status, count] = counts.reduce((best, next) => (next[1] > best[1] ? next : best))
  check.require(count >= PAGE, `no status has ${PAGE} pets in the store's lists: a full page is needed to compare two spellings`)
  return { status, plain: await check.shared(`status=${status}&limit=${PAGE}`, (api) => api.listPets({ status, limit: PAGE })) }
}

/** GET /pets?limit=PAGE, plain, sent once per run. */
async function fullPage(check: Check): Promise<OperationExchange> {
  const survey = await check.survey()
  check.require(survey.lowerBound >= PAGE, `the store is known to hold ${survey.lowerBound} pets: a full page of ${PAGE} is needed to compare two spellings`)
  return check.shared(`limit=${PAGE}`, (api) => api.listPets({ limit: PAGE }))
}

/** GET /pets with the key, these query parameters (written as given) and, edited, the path or the Accept. */
function listSpelled(check: Check, query: readonly Field[], edit: (request: RequestModel) => RequestModel = (request) => request): Promise<OperationExchange> {
  return check.api.send(edit(withQuery(check.api.request({ operation: 'listPets' }), query)))
}

/** The query parameter `limit=PAGE`. */
const PAGE_LIMIT: Field = { name: 'limit', value: String(PAGE) }

/** The spelled answer agrees with the plain one: the same status and, for a full plain page, a full page that keeps the filter. */
function expectSameList(check: Check, plain: OperationExchange, spelled: OperationExchange, what: string, filter?: PetStatus): void {
  check.requireAnswer(plain, 'the plain request')
  check.requireAnswer(spelled, what)
  const [plainStatus, spelledStatus] = [plain.response?.status, spelled.response?.status]
  check.expect.that(spelledStatus === plainStatus, `${what} was answered ${spelledStatus}, where the plain request got ${plainStatus}`, {
    exchange: spelled,
    expected: `status ${plainStatus}, as the plain spelling`,
    actual: `status ${spelledStatus}`,
  })
  if (plainStatus !== 200) return
  const plainPets = check.expect.petArray(plain)
  check.require(plainPets.length === PAGE, `the plain request listed fewer than ${PAGE} pets, so the pages cannot be compared`)
  const pets = check.expect.petArray(spelled)
  // The filter is held to what the plain spelling got: a filter the target ignores either way is its own rule's failure.
  const keepsFilter = filter !== undefined && plainPets.every((pet) => pet.status === filter)
  const off = keepsFilter ? pets.filter((pet) => pet.status !== filter).length : 0
  check.expect.that(
    pets.length === PAGE && off === 0,
    `${what} listed ${pets.length} pets${filter ? `, ${off} not of status ${filter}` : ''}, where the plain request listed ${PAGE}${filter ? ` of status ${filter}` : ''}`,
    {
      exchange: spelled,
      expected: `${PAGE} pets${filter ? ` of status ${filter}` : ''}, as the plain spelling`,
      actual: `${pets.length} pets${filter ? `, ${off} not of status ${filter}` : ''}`,
    },
  )
}

const statusSpellings = inputClass('query status', 'same meaning').spellings
const limitSpellings = inputClass('query limit', 'same meaning').spellings
const acceptSpellings = inputClass('Accept', 'same meaning').spellings
const pathSpellings = inputClass('path fixed segment', 'same meaning').spellings

/** The Accept a spelling sends: its text, or none for an empty one. */
const acceptOf = (spelling: Spelling) => spelling.spell('application/json') || null

describe('listPets: the same request spelled every way', () => {
  test.for(statusSpellings)('[listPets/equivalent-spellings] status=S with $label gets the answer of the plain filter', async (spelling, { check }) => {
    const { status, plain } = await fullFilteredPage(check)
    const query = [{ name: 'status', value: spelling.spell(status) }, PAGE_LIMIT]
    expectSameList(check, plain, await listSpelled(check, query), `GET /pets?${queryText(query)} (${spelling.label})`, status)
  })

  test.for(limitSpellings)('[listPets/equivalent-spellings] limit=5 with $label gets the answer of the plain limit', async (spelling, { check }) => {
    const plain = await fullPage(check)
    const query = [{ name: 'limit', value: spelling.spell(String(PAGE)) }]
    expectSameList(check, plain, await listSpelled(check, query), `GET /pets?${queryText(query)} (${spelling.label})`)
  })

  test.for(acceptSpellings)('[listPets/equivalent-spellings] GET /pets with Accept $label gets the answer of Accept: application/json', async (spelling, { check }) => {
    const plain = await fullPage(check)
    const spelled = await listSpelled(check, [PAGE_LIMIT], (request) => withHeader(request, 'Accept', acceptOf(spelling)))
    expectSameList(check, plain, spelled, `GET /pets?limit=${PAGE} with Accept ${spelling.label}`)
  })

  test.for(pathSpellings)('[listPets/path-spelling-equivalent] GET $label gets the answer of GET /v1/pets', async (spelling, { check }) => {
    const plain = await fullPage(check)
    const spelled = await listSpelled(check, [PAGE_LIMIT], (request) => withPathBelowBase(request, [spelling.spell('pets')]))
    expectSameList(check, plain, spelled, `GET /v1/${spelling.spell('pets')}?limit=${PAGE}`)
  })
})
