/**
 * The rules of a list on an edited request of the neighbourhood: its length against the limit it asked for (the
 * default page where none is read) and its pets against the filter; and the lengths that show a limit in another
 * notation read as a number.
 */
import type { Exchange } from '../http/exchange.js'
import { isJsonObject } from '../http/json.js'
import { responseJson } from '../http/response-json.js'
import type { Judgement } from '../neighbourhood/operation-judgements.js'
import type { RequirementId } from '../spec/catalogue.js'
import { decimalDigitValue } from '../spec/spellings.js'

export interface EditFinding {
  requirementId: RequirementId
  ok: boolean
  message?: string
}

/** What the list answers of the store show, for judging a limit in another notation. */
export interface ListContext {
  /** How many pets the list of the plain request's status holds (its limit=100 page), and its default page. */
  fullPage: number
  defaultPage: number
}

/** The lengths lenient parsers read a limit that is no decimal integer as (parseInt, Number, radix prefixes, separators dropped, other scripts' digits). */
export function lenientLengths(text: string): Set<number> {
  const readings = new Set<number>()
  const add = (value: number) => {
    if (Number.isInteger(value) && value >= 1 && value <= 100) readings.add(value)
  }
  add(Number.parseInt(text, 10))
  add(Number(text))
  add(Math.trunc(Number.parseFloat(text)))
  add(Number(text.replace(/[_,'\s\u2009]/g, '')))
  add(Number(text.replace(/\p{Nd}/gu, (digit) => String(decimalDigitValue(digit.codePointAt(0) as number)))))
  const radix = /^[+-]?0([xob])(.+)$/i.exec(text.trim())
  if (radix?.[1] && radix[2]) add(Number.parseInt(radix[2], { x: 16, o: 8, b: 2 }[radix[1].toLowerCase() as 'x' | 'o' | 'b']))
  add(Number.parseInt(text.replace(/^[+-]?0[a-z]/i, ''), 10))
  // Decoded once more (`%37`, what `limit=%2537` decodes to): a layer that decodes the query twice reads 7.
  if (/%[0-9A-Fa-f]{2}/.test(text)) {
    try {
      for (const reading of lenientLengths(decodeURIComponent(text))) readings.add(reading)
    } catch {
      // An escape that is no UTF-8 decodes to nothing a reader takes for a number.
    }
  }
  return readings
}

/**
 * A list's rules on an edited request. Only a list that breaks one is a finding for the limit and the filter (a short
 * list shows nothing of them; their own checks say when one does); a limit in another notation is evidence where a
 * reading of it is shorter than what the store holds.
 */
export function judgeList(exchange: Exchange, judgement: Extract<Judgement, { kind: 'list' }>, lists: ListContext | undefined): EditFinding[] {
  const status = exchange.response?.status ?? 0
  // A refusal of a limit in another notation shows it was not read as the number it spells.
  if (judgement.invalidLimit !== undefined && status >= 400 && status < 500) return [{ requirementId: 'listPets/limit-other-notations', ok: true }]
  if (status !== 200) return []
  const parsed = responseJson(exchange)
  if (!parsed.ok || !Array.isArray(parsed.value)) return []
  const pets = parsed.value
  const findings: EditFinding[] = []
  const [limit] = judgement.limits
  if (limit !== undefined && BigInt(pets.length) > limit)
    findings.push({ requirementId: 'listPets/limit-caps-size', ok: false, message: `${judgement.why} listed ${pets.length} pets, more than ${limit}` })
  const other = judgement.status ? pets.find((pet) => isJsonObject(pet) && pet.status !== judgement.status) : undefined
  if (other !== undefined)
    findings.push({
      requirementId: 'listPets/status-filter-matches',
      ok: false,
      message: `${judgement.why} listed a pet of another status: ${JSON.stringify(isJsonObject(other) ? other.status : other)}`,
    })
  if (judgement.invalidLimit !== undefined && lists) {
    const telling = [...lenientLengths(judgement.invalidLimit)].filter((length) => length !== lists.defaultPage && length < lists.fullPage)
    const read = telling.find((length) => length === pets.length)
    if (read !== undefined) {
      findings.push({
        requirementId: 'listPets/limit-other-notations',
        ok: false,
        message: `limit=${JSON.stringify(judgement.invalidLimit)} listed exactly ${pets.length} pets, where the list holds ${lists.fullPage} and its default page ${lists.defaultPage}: the limit was read as ${read}`,
      })
    } else if (telling.length > 0) findings.push({ requirementId: 'listPets/limit-other-notations', ok: true })
  }
  return findings
}
