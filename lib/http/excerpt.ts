/**
 * Text the target sent, cut to a size a report can carry: a name of three million characters, or a
 * number of as many digits, is quoted by its start and its length, so no message or report swells with it.
 */
export function excerpt(text: string, limit: number): string {
  return text.length > limit ? excerptOfHead(text.slice(0, limit), text.length) : text
}

/** The excerpt of a text of `length` characters whose first characters are `head` (as many as the excerpt quotes). */
export function excerptOfHead(head: string, length: number): string {
  return length > head.length ? detached(`${head}… [${length - head.length} more characters]`) : head
}

/**
 * A copy of `text` that shares no memory with the string it was cut from. V8 keeps a slice of a long string as a
 * view of it, so a 4 KiB excerpt held by a report would keep the whole megabyte it was cut from alive. Every
 * UTF-16 code unit, a lone surrogate included, goes through UTF-16LE and back unchanged.
 */
export function detached(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le')
}

/** The longest target text a failure message, an expectation or a schema error quotes. */
export const MESSAGE_LIMIT = 2048
