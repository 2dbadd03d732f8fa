/**
 * Header fields an edit adds to a request (policy §2b): the request fields of the IANA HTTP Field Name Registry
 * and the ones proxies and browsers add. One row each: the field, a value, and what it may do to the answer.
 * `no meaning`: the field carries no meaning for this API, so the answer is the plain request's (SHOULD; a
 * refusal passes only as a 4xx with an Error body). `may change`: RFC 9110 lets it change the answer (a range,
 * a condition, a preference, a coding), so only the invariants judge it. Fields that frame the message
 * (Content-Length, Transfer-Encoding, Connection, Upgrade, Expect, Host) are edited as parts, never added.
 */

export type FieldMeaning = 'no meaning' | 'may change'

export interface DictionaryField {
  name: string
  value: string
  /** The family it comes from: the run sends every row, each on a request the seed chooses. */
  family: 'proxy' | 'browser' | 'IANA request field' | 'override' | 'content coding'
  meaning: FieldMeaning
  /** Only on a request with a body. */
  withBody?: true
  /** The body goes out in this coding (gzip), so the field is true of it. */
  codesBody?: true
}

const HTTP_DATE_PAST = 'Sun, 06 Nov 1994 08:49:37 GMT'
const HTTP_DATE_FUTURE = 'Fri, 31 Dec 2049 23:59:59 GMT'

export const FIELD_DICTIONARY: readonly DictionaryField[] = [
  // RFC 7239 and its forebears, and Via (RFC 9110 §7.6.3): what a proxy in front of the service adds.
  { name: 'Forwarded', value: 'for=192.0.2.60;proto=http;by=203.0.113.43', family: 'proxy', meaning: 'no meaning' },
  { name: 'X-Forwarded-For', value: '127.0.0.1', family: 'proxy', meaning: 'no meaning' },
  { name: 'X-Forwarded-Host', value: 'localhost', family: 'proxy', meaning: 'no meaning' },
  { name: 'X-Forwarded-Proto', value: 'https', family: 'proxy', meaning: 'no meaning' },
  { name: 'X-Forwarded-Port', value: '443', family: 'proxy', meaning: 'no meaning' },
  // What gunicorn also reads as the scheme (secure_scheme_headers) and refuses, beside the X-Forwarded-Proto a proxy sets, with a 400 page of its own.
  { name: 'X-Forwarded-Ssl', value: 'on', family: 'proxy', meaning: 'no meaning' },
  { name: 'X-Forwarded-Prefix', value: '/internal', family: 'proxy', meaning: 'no meaning' },
  { name: 'X-Real-IP', value: '127.0.0.1', family: 'proxy', meaning: 'no meaning' },
  { name: 'Via', value: '1.1 proxy.example', family: 'proxy', meaning: 'no meaning' },
  // What a browser adds.
  { name: 'Referer', value: 'https://example.com/admin', family: 'browser', meaning: 'no meaning' },
  { name: 'Origin', value: 'https://example.com', family: 'browser', meaning: 'no meaning' },
  { name: 'Cookie', value: 'session=admin; role=admin', family: 'browser', meaning: 'no meaning' },
  // A cookie RFC 6265 §4.1.1 would not write (a space in a value, an open quote), as browsers and proxies still send: a
  // framework that parses cookies before auth (hapi) refuses it there.
  { name: 'Cookie', value: 'theme=dark mode; pref="a', family: 'browser', meaning: 'no meaning' },
  { name: 'User-Agent', value: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36', family: 'browser', meaning: 'no meaning' },
  { name: 'Accept-Language', value: 'de-CH, fr;q=0.9, en;q=0.8', family: 'browser', meaning: 'no meaning' },
  { name: 'Sec-Fetch-Site', value: 'same-origin', family: 'browser', meaning: 'no meaning' },
  { name: 'Sec-Fetch-Mode', value: 'cors', family: 'browser', meaning: 'no meaning' },
  { name: 'Sec-Fetch-Dest', value: 'empty', family: 'browser', meaning: 'no meaning' },
  { name: 'Upgrade-Insecure-Requests', value: '1', family: 'browser', meaning: 'no meaning' },
  { name: 'DNT', value: '1', family: 'browser', meaning: 'no meaning' },
  { name: 'X-Requested-With', value: 'XMLHttpRequest', family: 'browser', meaning: 'no meaning' },
  // Request fields of the IANA registry (RFC 9110, 9111, 7240, 9218, 8470, 9530).
  { name: 'Accept-Charset', value: 'iso-8859-1, utf-8;q=0.5', family: 'IANA request field', meaning: 'no meaning' },
  { name: 'Accept-Encoding', value: 'gzip, deflate, br', family: 'IANA request field', meaning: 'no meaning' },
  { name: 'Cache-Control', value: 'no-cache', family: 'IANA request field', meaning: 'no meaning' },
  { name: 'Pragma', value: 'no-cache', family: 'IANA request field', meaning: 'no meaning' },
  { name: 'Date', value: HTTP_DATE_PAST, family: 'IANA request field', meaning: 'no meaning' },
  { name: 'From', value: 'webmaster@example.org', family: 'IANA request field', meaning: 'no meaning' },
  { name: 'Max-Forwards', value: '0', family: 'IANA request field', meaning: 'no meaning' },
  { name: 'Priority', value: 'u=1, i', family: 'IANA request field', meaning: 'no meaning' },
  { name: 'Early-Data', value: '1', family: 'IANA request field', meaning: 'may change' },
  { name: 'TE', value: 'trailers', family: 'IANA request field', meaning: 'no meaning' },
  { name: 'Want-Content-Digest', value: 'sha-256=10', family: 'IANA request field', meaning: 'no meaning' },
  { name: 'Prefer', value: 'return=minimal', family: 'IANA request field', meaning: 'may change' },
  { name: 'Range', value: 'bytes=0-9', family: 'IANA request field', meaning: 'may change' },
  { name: 'If-None-Match', value: '*', family: 'IANA request field', meaning: 'may change' },
  { name: 'If-Match', value: '"no-such-etag"', family: 'IANA request field', meaning: 'may change' },
  { name: 'If-Modified-Since', value: HTTP_DATE_FUTURE, family: 'IANA request field', meaning: 'may change' },
  { name: 'If-Unmodified-Since', value: HTTP_DATE_PAST, family: 'IANA request field', meaning: 'may change' },
  { name: 'If-Range', value: '"no-such-etag"', family: 'IANA request field', meaning: 'may change' },
  // Fields some frameworks read as another method or another path: never a way past the key.
  { name: 'X-HTTP-Method-Override', value: 'DELETE', family: 'override', meaning: 'may change' },
  { name: 'X-Method-Override', value: 'PUT', family: 'override', meaning: 'may change' },
  { name: 'X-Original-URL', value: '/v1/pets', family: 'override', meaning: 'may change' },
  { name: 'X-Rewrite-URL', value: '/v1/pets', family: 'override', meaning: 'may change' },
  // A content coding the body does not have, and one nobody knows (the policy's Content-Encoding row).
  { name: 'Content-Encoding', value: 'gzip', family: 'content coding', meaning: 'may change', withBody: true },
  { name: 'Content-Encoding', value: 'gzip', family: 'content coding', meaning: 'may change', withBody: true, codesBody: true },
  { name: 'Content-Encoding', value: 'x-unknown-coding', family: 'content coding', meaning: 'may change', withBody: true },
  { name: 'Content-Encoding', value: 'identity', family: 'content coding', meaning: 'may change', withBody: true },
]
