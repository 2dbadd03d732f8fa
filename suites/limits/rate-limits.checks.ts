import { describe, test } from '../../lib/checks/registry.js'
import { surveyLists } from '../../lib/data/store-survey.js'

describe('limits: rate limits', () => {
  test('[limits/rate-limits] rate-limited answers to the store survey are recorded', async ({ check }) => {
    const survey = await check.survey()
    const exchanges = surveyLists(survey)
    const retried = exchanges.filter((exchange) => exchange.retries.some((attempt) => attempt.status !== undefined))
    check.observe(
      retried.length === 0
        ? 'no 429 or 503 with Retry-After during the store survey'
        : `${retried.length} survey requests were rate limited and retried: ${retried.map((exchange) => `${exchange.request.url} (${exchange.retries.map((attempt) => attempt.status).join(', ')})`).join('; ')}`,
    )
  })
})
