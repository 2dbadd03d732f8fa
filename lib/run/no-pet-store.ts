/**
 * A base URL that holds no Pet Store is a set-up mistake, not a verdict (exit 2). A wrong version segment, a
 * missing or doubled prefix, or an unrelated web server would otherwise read as a broken service with a score
 * of failures, and a release gate would block a release for a typo in its own configuration.
 *
 * Nothing the preflight got looks like the interface when the list is not there (a 404, a 405, a 410, or a web
 * page where a list was asked for) and the list without a key is not answered 401 either. A target that answers
 * like the API in either way, or in any other way (a 5xx, a redirect, broken JSON: a broken service is judged,
 * exit 1), keeps its verdict.
 */
import { mediaType, petDataIn } from '../checks/assertions.js'
import { excerpt } from '../http/excerpt.js'
import { responseJson } from '../http/response-json.js'
import { escapeControlCharacters } from '../reports/control-characters.js'
import type { OperationExchange } from '../spec/petstore-api.js'

/** Statuses a URL that holds no list answers: not found, no such method, gone. (A redirect is an answer the checks judge: policy §5.) */
function notHere(status: number): boolean {
  return status === 404 || status === 405 || status === 410
}

/** A web page where a list was asked for: a 2xx labelled HTML (a JSON answer that is no list, however broken, is the checks' to judge). */
function page(exchange: OperationExchange): boolean {
  const response = exchange.response
  const type = response ? mediaType(response) : undefined
  return response !== undefined && response.status >= 200 && response.status < 300 && (type === 'text/html' || type === 'application/xhtml+xml')
}

/** The list was served: a 2xx whose body is a JSON array or holds pets. */
function listServed(exchange: OperationExchange): boolean {
  const response = exchange.response
  if (!response || response.status < 200 || response.status >= 300) return false
  const parsed = responseJson(exchange)
  return (parsed.ok && Array.isArray(parsed.value)) || petDataIn(exchange) > 0
}

/** An answer in a few words: status, media type, the start of the body. */
function answerWords(exchange: OperationExchange): string {
  const response = exchange.response
  if (!response) return `no answer (${exchange.failure?.message})`
  const type = mediaType(response) ?? 'no Content-Type'
  return `${response.status} ${type}${response.body ? ` ${escapeControlCharacters(excerpt(response.body.replace(/\s+/g, ' '), 60))}` : ''}`
}

/** The list is not at this URL: answered 404, 405 or 410, or with a web page. Only then is the list without a key read. */
export function listNotThere(list: OperationExchange): boolean {
  return list.response !== undefined && (notHere(list.response.status) || page(list))
}

/**
 * Why the run stops, when nothing the target answered looks like the Pet Store: what it saw, and what to check;
 * undefined when it looks like the API (or is broken in a way the checks judge).
 */
export function noPetStoreReason(baseUrl: string, list: OperationExchange, listWithoutKey: OperationExchange): string | undefined {
  if (!listNotThere(list) || !listWithoutKey.response) return undefined
  if (listServed(listWithoutKey) || listWithoutKey.response.status === 401) return undefined
  const same = answerWords(list) === answerWords(listWithoutKey)
  const saw = same
    ? `every request under ${baseUrl} was answered ${answerWords(list)}`
    : `GET ${list.request.url} was answered ${answerWords(list)}, and without a key ${answerWords(listWithoutKey)}`
  const path = new URL(baseUrl).pathname.replace(/\/+$/, '')
  const hint = path.endsWith('/v1')
    ? `is the base URL right? It is where the interface's paths begin (GET <base URL>/pets lists the pets)`
    : `is the base URL right? It should end with /v1, the interface's version segment (GET <base URL>/pets lists the pets)`
  return `no Pet Store answers at ${baseUrl}: ${saw}, where the interface answers 200 with a list, or 401 without a key; ${hint}`
}
