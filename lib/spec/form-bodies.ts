/**
 * Bodies written as HTML forms write them (RFC 7578 multipart/form-data, and application/x-www-form-urlencoded), with
 * the Content-Type that labels each: what a check or an edit sends where a framework may read a form.
 */

/** The boundary of every multipart body the suite writes. */
const MULTIPART_BOUNDARY = 'petstore-conformance-boundary'

/** The Content-Type of every multipart body the suite writes. */
export const MULTIPART_CONTENT_TYPE = `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`

export interface FormBody {
  contentType: string
  text: string
}

/** The fields as multipart/form-data, one part each, in order. */
export function multipartForm(fields: ReadonlyArray<readonly [string, string]>): FormBody {
  const parts = fields.map(([name, value]) => `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
  return { contentType: MULTIPART_CONTENT_TYPE, text: `${parts.join('')}--${MULTIPART_BOUNDARY}--\r\n` }
}

/** The fields as application/x-www-form-urlencoded (URLSearchParams: `+` for a space). */
export function urlencodedForm(fields: ReadonlyArray<readonly [string, string]>): FormBody {
  return { contentType: 'application/x-www-form-urlencoded', text: new URLSearchParams(fields.map(([name, value]): [string, string] => [name, value])).toString() }
}
