/**
 * Whether a create the target never answered was processed. A POST lost on a kept-alive connection the target
 * closed or reset under it may have been processed (RFC 9112 §9.3.1): it is sent again only when the suite has
 * made sure it was not. Every create the checks send carries a name no other request uses, so the lists of the
 * status it would have are read for that name: a pet with it means the create was processed; no pet with it in
 * lists that hold every pet of their status (fewer than 100) means it was not. Anything else (a body with no name,
 * a list that is full or not answered 200) leaves it unknown, and the create is not sent again.
 *
 * A store that lags may list a processed create only later; the lists are read once, so such a create may be made
 * twice. No check finds its pets by name but the lists of refused creates, whose bodies create nothing.
 */
import type { Exchange } from '../http/exchange.js'
import { isJsonObject, parseJson } from '../http/json.js'
import { responseJson } from '../http/response-json.js'

export type CreateLookup = { sure: true; why: string } | { sure: false; why: string }

/**
 * Reads the lists the lost create's pet would be in (`statuses`: the one its body names, when it names one of them;
 * else all); sure only when none holds a pet of its name and each holds every pet of its status.
 */
export async function createNotProcessed(listOfStatus: (status: string) => Promise<Exchange>, bodyText: string | undefined, statuses: readonly string[]): Promise<CreateLookup> {
  const parsed = bodyText === undefined ? undefined : parseJson(bodyText)
  const body = parsed?.ok && isJsonObject(parsed.value) ? parsed.value : undefined
  const name = body?.name
  if (typeof name !== 'string' || name === '') return { sure: false, why: 'its body holds no name to look it up by in the lists' }
  const own = statuses.find((status) => status === body?.status)
  const read = own === undefined ? statuses : [own]
  const lists = await Promise.all(read.map((status) => listOfStatus(status)))
  for (const [index, list] of lists.entries()) {
    const status = read[index]
    const parsedList = list.response?.status === 200 ? responseJson(list) : undefined
    if (!parsedList?.ok || !Array.isArray(parsedList.value)) return { sure: false, why: `GET /pets?status=${status}&limit=100 was not answered 200 with a list` }
    if (parsedList.value.some((pet) => isJsonObject(pet) && pet.name === name))
      return { sure: false, why: `GET /pets?status=${status}&limit=100 shows a pet of its name: it was processed` }
    if (parsedList.value.length >= 100) return { sure: false, why: `GET /pets?status=${status}&limit=100 is full, so it cannot show that no pet has its name` }
  }
  return {
    sure: true,
    why: `no pet of its name is in GET /pets?status=${read.join('|')}&limit=100, which ${read.length === 1 ? 'holds every pet of that status' : 'hold every pet of those statuses'}`,
  }
}
