/**
 * List pets with one of the policy's combinations of status and limit, out-of-range limits included.
 * Postcondition: 200 with a Pets body (out of range: a 4xx Error, or a list), at most as many pets as the
 * model's rule for the query allows (judged only once the store is known to hold more), only pets of the
 * status asked for (judged only once a pet of another status is known), every pet the same as every other view
 * of it, and a complete list of a status showing every pet whose view shows it. An answer that shows what a
 * target ignoring the rule would show too decides nothing: a list for limit=101 from a store of one pet.
 */
import type fc from 'fast-check'
import { describeAnswer, failureOf, isServerError } from '../../../lib/checks/assertions.js'
import { integerField, stringifyJson } from '../../../lib/http/json.js'
import { CLIENT_ERROR_OR_OK } from '../../fixtures.js'
import { animalText, listItems } from '../answers.js'
import type { PlannedCommand } from '../sequence-budget.js'
import { type ListRequest, listWords } from '../sequence-outcome.js'
import type { SequenceTarget } from '../sequence-target.js'
import { StoreModel } from '../store-model.js'

export class ListPets implements fc.AsyncCommand<StoreModel, SequenceTarget>, PlannedCommand {
  /** @param patient In the sweep: a created pet not listed yet is waited for within the window, not left for later. */
  constructor(
    private readonly query: ListRequest,
    private readonly patient = false,
  ) {}

  readonly creates = 0

  plannedRequests(): number {
    return 1
  }

  check(): boolean {
    return true
  }

  async run(model: StoreModel, target: SequenceTarget): Promise<void> {
    if (!this.patient) {
      if (!target.affords(model, 1)) return target.skip(this.toString())
      target.outcome.steps.push(this.toString())
    }
    const { query } = this
    const exchange = await target.api.listPets(query)
    const words = `${listWords(query)} (${target.at(exchange)})`
    const items = listItems(exchange)
    const rule = StoreModel.listRule(query)
    if (!items) {
      // A 5xx is responses/no-server-error's, judged on every answer; an in-range list says nothing else then (the filtered lists of the fixed checks alike).
      if (rule.inRange && isServerError(exchange)) return
      if (rule.inRange) {
        target.decide('listPets/returns-pets')
        target.fail('listPets/returns-pets', {
          message: `${words} was not answered 200 with a JSON array of pets`,
          expected: '200 with a Pets body',
          actual: describeAnswer(exchange),
          exchange,
        })
        return
      }
      // Out of range and no list: a 4xx Error decides it where valid lists are served, anything else fails it. A list decides it below, by its size.
      if (target.validListsServed) target.decide('listPets/limit-out-of-range')
      const refused = failureOf(exchange, (expect) => expect.errorAnswer(exchange, CLIENT_ERROR_OR_OK.slice(1), words))
      if (refused) target.fail('listPets/limit-out-of-range', refused)
      return
    }
    if (rule.inRange) target.decide('listPets/returns-pets')
    if (items.length > rule.bound) {
      target.fail(rule.sizeRequirement, {
        message: `${words} returned ${items.length} pets, more than ${rule.bound}`,
        expected: `at most ${rule.bound} pets`,
        actual: `${items.length} pets`,
        exchange,
      })
    } else if (model.knownCount(query.status) > rule.bound) {
      target.decide(rule.sizeRequirement)
    }
    if (query.status !== undefined) {
      const stray = items.find((item) => item.status !== query.status)
      if (stray) {
        target.fail('listPets/status-filter-matches', {
          message: `${words} lists pet ${stringifyJson(stray.id)} of status ${stringifyJson(stray.status)}`,
          expected: `only pets of status ${query.status}`,
          actual: animalText(stray),
          exchange,
        })
      } else if (items.length > 0 && model.knowsPetNotOfStatus(query.status)) {
        // Only pets of the status asked for shows the filter at work only where the store holds others.
        target.decide('listPets/status-filter-matches')
      }
    }
    for (const item of items) {
      const id = integerField(item.id)
      if (id !== undefined) await target.observe(model, item, target.listSource(query, id, words))
    }
    if (query.status !== undefined && query.limit === 100 && items.length < 100) await target.judgeMembership(model, query.status, exchange, this.patient)
  }

  toString(): string {
    return `list ${listWords(this.query).slice('GET '.length)}`
  }
}
