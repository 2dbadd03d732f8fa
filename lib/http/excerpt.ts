/**
 * Text the target sent, cut to a size a report can carry: a name of three million characters, or a
 * number of as many digits, is quoted by its start and its length, so no message or report swells with it.
 */
export function excerpt(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}… [${text.length - limit} more characters]` : text
}

/** The longest target text a failure message, an expectation or a schema error quotes. */
export const MESSAGE_LIMIT = 2048
