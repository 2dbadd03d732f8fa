import { mediaType } from '../../lib/checks/assertions.js'
import { describe, test } from '../../lib/checks/registry.js'
import { surveyLists } from '../../lib/data/store-survey.js'
import type { RecordedResponse } from '../../lib/http/traffic.js'

describe('responses: JSON answers', () => {
  test('[responses/json-content-type] the answers of the store survey are labelled application/json, whatever their status', async ({ check }) => {
    const survey = await check.survey()
    // The label of every answer whose body the spec defines (2xx and 4xx), whatever the status: the status is other rules' to judge.
    const labelled = surveyLists(survey).flatMap((exchange) => {
      const status = exchange.response?.status ?? 0
      return status >= 200 && status < 500 && status !== 429 && !(status >= 300 && status < 400) ? [{ exchange, response: exchange.response as RecordedResponse }] : []
    })
    check.require(
      labelled.length > 0,
      'no answer of the store survey was a 2xx or a 4xx, the answers whose bodies the spec defines (the statuses are judged by listPets/returns-pets and responses/no-server-error)',
    )
    for (const { exchange, response } of labelled) {
      check.expect.that(mediaType(response) === 'application/json', `Content-Type ${response.headers['content-type'] ?? '(absent)'}`, {
        exchange,
        expected: 'application/json',
        actual: response.headers['content-type'] ?? '(absent)',
      })
    }
  })

  test('[responses/no-server-error] the store survey is answered without a 5xx', async ({ check }) => {
    const survey = await check.survey()
    for (const exchange of surveyLists(survey)) {
      check.expect.that(
        exchange.response !== undefined && exchange.response.status < 500,
        `${exchange.request.url} answered ${exchange.response?.status ?? exchange.failure?.message}`,
        {
          exchange,
          expected: 'no 5xx',
        },
      )
    }
  })
})
