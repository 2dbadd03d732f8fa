/**
 * Creates spelled every way the input catalogue names (lib/spec/input-catalogue.ts): a Content-Type of
 * application/json with parameters (a charset among them, for a name outside ASCII) or in another case, the same JSON document spelled otherwise, an integer
 * categoryId spelled with a fraction or an exponent. Each means what the plain create means, so each must be
 * answered as the plain one is (201, and the pet as sent, its id aside). And a valid NewPet labelled with another
 * media type, or none: 415 or 400 with an Error body, or 201 (which one is recorded); never a 5xx. A NewPet written in
 * another media type's own encoding (a form, a multipart body, XML) is no JSON NewPet: 415 or 400, nothing created.
 */

import type { Check } from '../../lib/checks/check.js'
import { petDifferences } from '../../lib/checks/differences.js'
import { describe, test } from '../../lib/checks/registry.js'
import { integerField, stringifyJson } from '../../lib/http/json.js'
import { responseObject } from '../../lib/http/response-json.js'
import { MULTIPART_CONTENT_TYPE, multipartForm } from '../../lib/spec/form-bodies.js'
import { inputClass } from '../../lib/spec/input-catalogue.js'
import { withHeader } from '../../lib/spec/operation-requests.js'
import type { OperationExchange } from '../../lib/spec/petstore-api.js'
import { categoryId, requireServesValid } from '../fixtures.js'
import { refusedPetSearches } from './refused-pet-search.js'

/** A NewPet of this run as plain JSON text, and the fields it means; its name ends with `suffix`. */
function plainNewPet(check: Check, label: string, suffix = ''): { text: string; fields: { name: string; categoryId: bigint; status: string } } {
  const fields = { name: `${check.petName(label)}${suffix}`, categoryId: categoryId(check), status: 'sold' }
  return { text: stringifyJson(fields), fields }
}

/** The plain create every spelling is compared with: sent once per run. */
function plainCreate(check: Check): Promise<OperationExchange> {
  return check.shared('create:plain-spelling', (api) => api.createPet({ raw: plainNewPet(check, 'spelling-plain').text }))
}

/** The spelled create is answered as the plain one (its status), and shows the fields it was sent (its id aside). */
function expectSameCreate(check: Check, plain: OperationExchange, spelled: OperationExchange, sent: { name: string; categoryId: bigint; status: string }, what: string): void {
  check.requireAnswer(plain, 'the plain create')
  check.expect.status(plain, 201, 'the plain create (see createPet/returns-201-pet)')
  check.expect.status(spelled, 201, `${what}, which means what the plain create (answered 201) means,`)
  const pet = responseObject(spelled)
  const differences = pet ? petDifferences(sent, pet) : ['the answer holds no pet']
  check.expect.that(differences.length === 0, `${what} was answered 201 with a pet other than it meant: ${differences.join('; ')}`, {
    exchange: spelled,
    expected: stringifyJson(sent),
    actual: pet ? stringifyJson(pet) : '(no pet)',
  })
}

const contentTypes = inputClass('Content-Type', 'same meaning').spellings
const jsonRespellings = inputClass('body text', 'same meaning').spellings
const integerSpellings = inputClass('NewPet categoryId', 'same meaning').spellings
const otherMediaTypes = inputClass('Content-Type', 'not the value').spellings
const otherCharsets = inputClass('Content-Type', 'refusable').spellings

/** A NewPet in UTF-8, its name outside ASCII, labelled with a charset that names another encoding: sent once, judged by two rules. */
function charsetLabelled(check: Check, spelling: { label: string; spell: (value: string) => string }) {
  const { text, fields } = plainNewPet(check, 'spelling-charset', ' café € 🐾')
  const sent = check.shared(`create:charset:${spelling.label}`, (api) => api.createPet({ raw: text }, undefined, spelling.spell('application/json')))
  return { sent, fields, what: `POST /pets with Content-Type: ${spelling.label}` }
}

/** A refusal of a label that names an encoding the octets are not in: 415 or 400 (its Error body is the error rules'). */
const refusedLabel = (exchange: OperationExchange) => exchange.response?.status === 415 || exchange.response?.status === 400

describe('createPet: the same create spelled every way', () => {
  test.for(contentTypes)('[createPet/equivalent-spellings] a NewPet labelled $label is answered as one labelled application/json', async (spelling, { check }) => {
    check.requireWrites()
    // Characters a charset of the label would read otherwise, in UTF-8 (two, three and four octets): JSON's own encoding.
    const { text, fields } = plainNewPet(check, 'spelling-content-type', ' café € 🐾')
    const spelled = await check.api.createPet({ raw: text }, undefined, spelling.spell('application/json'))
    expectSameCreate(check, await plainCreate(check), spelled, fields, `POST /pets with Content-Type: ${spelling.label}`)
  })

  test.for(jsonRespellings)('[createPet/equivalent-spellings] a NewPet with $label is answered as the plain JSON', async (spelling, { check }) => {
    check.requireWrites()
    // Characters of two, three and four octets in UTF-8, so that a spelling of the characters past ASCII spells some.
    const { text, fields } = plainNewPet(check, 'spelling-json', ' café € 🐾')
    const spelled = await check.api.createPet({ raw: spelling.spell(text) })
    expectSameCreate(check, await plainCreate(check), spelled, fields, `POST /pets with ${spelling.label}`)
  })

  test.for(integerSpellings)('[createPet/equivalent-spellings] categoryId spelled $label is the integer: 201, echoed as the integer', async (spelling, { check }) => {
    check.requireWrites()
    const { fields } = plainNewPet(check, 'spelling-number')
    const number = spelling.spell(String(fields.categoryId))
    const text = `{"name":${JSON.stringify(fields.name)},"categoryId":${number},"status":"sold"}`
    const spelled = await check.api.createPet({ raw: text })
    expectSameCreate(check, await plainCreate(check), spelled, fields, `POST /pets with "categoryId": ${number}`)
  })
})

/**
 * The fields a proxy in front adds to say where its client reached it (RFC 7239's host and proto, their X-Forwarded-*
 * forebears): sent by a client, they carry no meaning for this API. A framework that trusts them from anyone writes
 * them into the URLs it answers with (Plack's ReverseProxy among Catalyst's default middlewares).
 */
const PROXY_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ['Forwarded', 'for=192.0.2.60;host=forwarded.example;proto=https'],
  ['X-Forwarded-Host', 'forwarded.example'],
  ['X-Forwarded-Proto', 'https'],
  ['X-Forwarded-Port', '8443'],
  ['X-Forwarded-Prefix', '/forwarded'],
]

/** A 201's Location with the created pet's id written `{id}`, its scheme and host in lower case (RFC 3986 §6.2.2.1); undefined without one. */
function locationOf(exchange: OperationExchange): string | undefined {
  const location = exchange.response?.headers.location
  if (location === undefined) return undefined
  const id = integerField(responseObject(exchange)?.id)
  const withoutId = id === undefined ? location : location.replace(new RegExp(`/${id}(?=$|[?#])`), '/{id}')
  return withoutId.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, (origin) => origin.toLowerCase())
}

describe('createPet: a create carrying the fields a proxy adds', () => {
  test("[responses/meaningless-fields-ignored] a create with Forwarded and X-Forwarded-Host, -Proto, -Port and -Prefix gets the plain create's answer, its Location the same but for the id", async ({
    check,
  }) => {
    check.requireWrites()
    const plain = await plainCreate(check)
    check.require(plain.response?.status === 201, 'the plain create was not answered 201, which createPet/returns-201-pet judges')
    const { text, fields } = plainNewPet(check, 'proxy-fields')
    const proxied = await check.api.send(
      PROXY_FIELDS.reduce((model, [name, value]) => withHeader(model, name, value), check.api.request({ operation: 'createPet', body: { raw: text } })),
    )
    const what = 'POST /pets with the fields a proxy adds'
    expectSameCreate(check, plain, proxied, fields, what)
    const [written, proxiedWritten] = [locationOf(plain), locationOf(proxied)]
    check.expect.that(
      written === proxiedWritten,
      `${what} was answered with Location ${proxiedWritten ?? '(none)'}, where the plain create's is ${written ?? '(none)'}: a client's proxy fields were written into the URL the service answers with`,
      { exchange: proxied, expected: written ?? '(no Location)', actual: proxiedWritten ?? '(no Location)' },
    )
  })
})

describe('createPet: a body labelled with a charset that names another encoding', () => {
  test.for(otherCharsets)(
    '[createPet/equivalent-spellings] a NewPet in UTF-8 labelled $label and created shows the pet as sent, never its name read in that encoding',
    async (spelling, { check }) => {
      check.requireWrites()
      const { sent, fields, what } = charsetLabelled(check, spelling)
      const spelled = await sent
      check.requireAnswer(spelled, what)
      // A refusal is createPet/charset-label-ignored's to judge (a warning): only a create is compared with the plain one.
      check.require(!refusedLabel(spelled), `${what} was refused with ${spelled.response?.status}, which createPet/charset-label-ignored judges`)
      expectSameCreate(check, await plainCreate(check), spelled, fields, what)
    },
  )

  test.for(otherCharsets)('[createPet/charset-label-ignored] a NewPet in UTF-8 labelled $label is read as the JSON it is, not refused', async (spelling, { check }) => {
    check.requireWrites()
    const { sent, what } = charsetLabelled(check, spelling)
    const spelled = await sent
    check.requireAnswer(spelled, what)
    check.expect.that(!refusedLabel(spelled), `${what} was refused with ${spelled.response?.status}, where RFC 8259 §11 gives a charset no effect on JSON`, {
      exchange: spelled,
      expected: 'the answer the plain label gets (201)',
      actual: `${spelled.response?.status}`,
    })
  })
})

describe('createPet: a body labelled with another media type', () => {
  test.for(otherMediaTypes)('[createPet/request-media-types] a valid NewPet labelled $label is answered 415 or 400 with an Error body, or 201', async (spelling, { check }) => {
    check.requireWrites()
    const { text } = plainNewPet(check, 'media-type')
    const label = spelling.spell('application/json')
    const exchange = await check.api.createPet({ raw: text }, undefined, label || null)
    const what = `POST /pets with ${spelling.label}`
    const response = check.expect.status(exchange, [201, 400, 415], what)
    if (response.status !== 201) check.expect.errorAnswer(exchange, response.status, what)
    else check.expect.that(integerField(responseObject(exchange)?.id) !== undefined, `${what} was answered 201 without a pet id`, { exchange, expected: 'a Pet with an id' })
    check.observe(`${spelling.label}: answered ${response.status}`)
    if (response.status !== 201) await requireServesValid(check, 'createPet')
  })

  // A framework that picks the reader by Content-Type may answer 406 when there is none and nothing to read (go-restful).
  test('[createPet/request-media-types] an empty body with no Content-Type is answered 400 or 415 with an Error body', async ({ check }) => {
    check.requireWrites()
    const exchange = await check.api.createPet({ raw: '' }, undefined, null)
    const what = 'POST /pets with an empty body (Content-Length: 0) and no Content-Type'
    check.expect.errorAnswer(exchange, [400, 415], what)
    await requireServesValid(check, 'createPet')
  })
})

/** The fields a NewPet written in another encoding carries: a name of this run's to find it by, should it be stored. */
interface EncodedPet {
  name: string
  categoryId: bigint
}

/**
 * A NewPet written in another media type's own encoding (policy §2, request media types: a form, a multipart body,
 * XML), each with the label it comes with; and a form that asks for another method besides (`_method=GET`, which
 * Rack's MethodOverride and Laravel read in a POST form), a way a framework turns it into something else.
 */
const OWN_ENCODINGS: ReadonlyArray<{ label: string; contentType: string; write: (pet: EncodedPet) => string }> = [
  {
    label: 'a form',
    contentType: 'application/x-www-form-urlencoded',
    write: (pet) => `name=${encodeURIComponent(pet.name)}&categoryId=${pet.categoryId}&status=pending`,
  },
  {
    label: 'a form that also asks for GET (_method=GET)',
    contentType: 'application/x-www-form-urlencoded',
    write: (pet) => `_method=GET&name=${encodeURIComponent(pet.name)}&categoryId=${pet.categoryId}&status=pending`,
  },
  {
    label: 'a multipart form',
    contentType: MULTIPART_CONTENT_TYPE,
    write: (pet) =>
      multipartForm([
        ['name', pet.name],
        ['categoryId', String(pet.categoryId)],
        ['status', 'pending'],
      ]).text,
  },
  {
    label: 'XML',
    contentType: 'application/xml',
    write: (pet) => `<?xml version="1.0" encoding="UTF-8"?><NewPet><name>${pet.name}</name><categoryId>${pet.categoryId}</categoryId><status>pending</status></NewPet>`,
  },
  {
    // A binder that reads XML by its own field names (echo's DefaultBinder with Go's encoding/xml, .NET's XmlSerializer) takes these.
    label: 'XML named as a binder names fields (<Name>, <CategoryID>)',
    contentType: 'text/xml',
    write: (pet) =>
      `<?xml version="1.0" encoding="UTF-8"?><NewPet><Name>${pet.name}</Name><CategoryId>${pet.categoryId}</CategoryId><CategoryID>${pet.categoryId}</CategoryID><Status>pending</Status></NewPet>`,
  },
]

describe('createPet: a NewPet written in another media type’s own encoding', () => {
  test.for(OWN_ENCODINGS)(
    '[createPet/request-media-types] a NewPet written as $label is no JSON NewPet: 415 or 400 with an Error body, and nothing created',
    async (encoding, { check }) => {
      check.requireWrites()
      const index = OWN_ENCODINGS.indexOf(encoding)
      const pet = { name: check.petName(`own-encoding-${index}`), categoryId: 7_780_000_000_000n + BigInt(check.context.seed) * 10n + BigInt(index) }
      const exchange = await check.api.createPet({ raw: encoding.write(pet) }, undefined, encoding.contentType)
      const what = `POST /pets with a NewPet written as ${encoding.label} (${encoding.contentType})`
      const response = check.expect.status(exchange, [400, 415], what)
      check.expect.errorAnswer(exchange, response.status, what)
      const search = await (await refusedPetSearches(check)).search(pet, 'name', 'pending')
      check.adopt(search.exchanges)
      check.expect.that(search.found === undefined, `${what} was refused but pet ${search.found?.pet.id} was stored from it`, {
        ...(search.found ? { exchange: search.found.exchange } : {}),
        expected: 'no pet with the refused body’s name',
        actual: `pet ${search.found?.pet.id}`,
      })
      check.require(search.decided, 'the list that would show the pet holds 100 pets or more, so it may be incomplete')
      await requireServesValid(check, 'createPet')
    },
  )
})
