import { mediaType } from '../../lib/checks/assertions.js'
import { describe, test } from '../../lib/checks/registry.js'

describe('responses: JSON answers', () => {
  test('[responses/json-content-type] the answers of the store survey are labelled application/json', async ({ check }) => {
    const survey = await check.survey()
    for (const exchange of [survey.defaultPage, survey.limit100, ...Object.values(survey.byStatus)]) {
      const response = check.expect.status(exchange, 200, exchange.request.url)
      check.expect.that(mediaType(response) === 'application/json', `Content-Type ${response.headers['content-type'] ?? '(absent)'}`, {
        exchange,
        expected: 'application/json',
        actual: response.headers['content-type'] ?? '(absent)',
      })
    }
  })

  test('[responses/no-server-error] the store survey is answered without a 5xx', async ({ check }) => {
    const survey = await check.survey()
    for (const exchange of [survey.defaultPage, survey.limit100, ...Object.values(survey.byStatus)]) {
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
